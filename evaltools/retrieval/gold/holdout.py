"""The holdout split: which queries are never used for tuning, per type, to a target share.

Each type's holdout is the floor or the ceiling of its exact share, and the whole set's is
the rounded share (`strata.quotas`), so `gold stats` never finds the split that `gold split`
made off target. Who fills a type's quota, in this order: the queries already in holdout,
then those without a split, then those in tune; within each group by
``unit_hash(seed, qid)``. So a query stays where it is unless its type's quota changes:
adding queries to a split set moves no old query unless the quota of its type grows by more
than the new queries of that type can fill, or shrinks.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from evaltools.diagnostics import Diagnostic, make
from evaltools.retrieval.gold.annotate import INVALID_SPLIT, SPLITS
from evaltools.retrieval.gold.strata import quotas, type_key, unit_hash
from evaltools.retrieval.records._gold_jsonl import JsonlFile, Line
from evaltools.retrieval.records.gold_keys import replace_member_value

TUNE, HOLDOUT = SPLITS
# Fill order of a type's holdout quota: by the split a query has now.
_PRIORITY = {HOLDOUT: 0, None: 1, TUNE: 2}


@dataclass(frozen=True)
class Change:
    line: Line
    before: str | None  # None: the record had no split
    after: str


@dataclass
class FileSplit:
    """One input file: the bytes it was read as, and the bytes to write (equal: unchanged)."""

    source: JsonlFile
    data: bytes

    @property
    def changed(self) -> bool:
        return self.data != self.source.data


@dataclass
class SplitResult:
    files: list[FileSplit] = field(default_factory=list)
    changes: list[Change] = field(default_factory=list)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    # type -> (records, holdout records after the run), in type order
    per_type: dict[str, tuple[int, int]] = field(default_factory=dict)

    @property
    def assigned(self) -> int:
        return sum(change.before is None for change in self.changes)

    @property
    def moved(self) -> int:
        return sum(change.before is not None for change in self.changes)


def split_set(files: Sequence[JsonlFile], holdout: float, seed: int) -> SplitResult:
    """Give every record of the set a split that meets the per-type holdout quotas.

    The set is all the files together. Nothing is planned when a record has a `split` other
    than tune or holdout (RG404): that value's meaning is unknown, so is the quota's state.
    """
    result = SplitResult()
    lines = [line for jsonl in files for line in jsonl.lines]
    for line in lines:
        if "split" in line.record and line.record["split"] not in SPLITS:
            result.diagnostics.append(_invalid(line))
    if result.diagnostics:
        return result
    target = _holdout_members(lines, holdout, seed)
    position = 0
    for jsonl in files:
        raws = list(jsonl.raws)
        for line in jsonl.lines:
            before = line.record.get("split")
            after = HOLDOUT if position in target else TUNE
            position += 1
            if before != after:
                raws[line.number - 1] = _with_split(line, after)
                result.changes.append(Change(line, before, after))
        result.files.append(FileSplit(jsonl, b"".join(raws)))
    sizes = Counter(line.type_name for line in lines)
    held = Counter(lines[position].type_name for position in target)
    for name in sorted(sizes, key=type_key):
        result.per_type[name] = (sizes[name], held[name])
    return result


def _holdout_members(lines: Sequence[Line], holdout: float, seed: int) -> set[int]:
    """The positions in `lines` of the records to hold out."""
    by_type: dict[str, list[tuple[int, float, int]]] = {}
    for position, line in enumerate(lines):
        rank = (_PRIORITY[line.record.get("split")], unit_hash(str(seed), line.qid), position)
        by_type.setdefault(line.type_name, []).append(rank)
    wanted = quotas({name: len(ranks) for name, ranks in by_type.items()}, holdout)
    chosen: set[int] = set()
    for name, ranks in by_type.items():
        chosen.update(position for _, _, position in sorted(ranks)[: wanted[name]])
    return chosen


def _with_split(line: Line, value: str) -> bytes:
    if "split" not in line.record:
        return insert_key(line.raw, "split", value)
    text = line.raw.decode("utf-8")
    return replace_member_value(text, "split", value).encode("utf-8")


def _invalid(line: Line) -> Diagnostic:
    return make(
        INVALID_SPLIT,
        line.path,
        line.number,
        line.column("/split"),
        f"split of {line.qid!r} is {line.record['split']!r}, not 'tune' or 'holdout': "
        "fix it, or delete the key to let `gold split` assign one",
        pointer="/split",
    )


_COMPACT = re.compile(rb'":[^\s]')


def insert_key(raw: bytes, key: str, value: str) -> bytes:
    """Insert ``"key": "value"`` textually before the object's closing brace.

    Everything else stays: key order, spacing (a space before the brace stays before it),
    the line end. The separators follow the line: compact (``,"k":"v"``) when no key's
    colon is followed by a space, else the ``json.dumps`` default (``, "k": "v"``).
    """
    body = raw.rstrip()
    trailing = raw[len(body) :]
    before = body[:-1].rstrip()
    pad = body[len(before) : -1]
    compact = _COMPACT.search(body) is not None and b'": ' not in body
    item_sep, key_sep = (b",", b":") if compact else (b", ", b": ")
    lead = b"" if before.endswith(b"{") else item_sep
    pair = json.dumps(key).encode() + key_sep + json.dumps(value).encode()
    return before + lead + pair + pad + b"}" + trailing
