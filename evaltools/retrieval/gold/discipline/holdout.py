"""The holdout split: which queries are never used for tuning, per type, to a target share.

A query that was in tune may have been tuned on, so it never moves into the holdout: a gain
measured on it would not be a held-out gain. Records that have a split keep it; only the
records without one are drawn, per type, toward the target (within each type by
``unit_hash(seed, qid)``), and the total toward the rounded share of the set when the types'
ranges allow it (`strata.quotas` breaks ties). A type whose holdout is already within one
query of its exact share is on target and is left alone. Two cases move or miss:

- a type holds out more than the ceiling of its share (the target was lowered): its
  worst-ranked holdout queries move to tune, which leaks nothing;
- a type holds out less than the floor of its share and has too few new queries to fill it:
  those holdout queries are reported missing, and only new queries can fill them.
"""

from __future__ import annotations

import json
import math
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from evaltools.diagnostics import Diagnostic, make
from evaltools.retrieval.gold.discipline.rules import SPLIT_INVALID
from evaltools.retrieval.records.gold_keys import replace_member_value
from evaltools.retrieval.records.record import SPLITS, RecordLine
from evaltools.retrieval.records.set_file import JsonlFile, index_by_qid
from evaltools.retrieval.records.strata import exact_share, quotas, type_key, unit_hash
from evaltools.retrieval.records.validation.validate import duplicate_qid

TUNE, HOLDOUT = SPLITS


@dataclass(frozen=True)
class Change:
    line: RecordLine
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
    # type -> holdout queries short of the floor of its share that no new query could fill
    missing: dict[str, int] = field(default_factory=dict)

    @property
    def assigned(self) -> int:
        return sum(change.before is None for change in self.changes)

    @property
    def moved(self) -> int:
        """Holdout queries moved to tune (the only move there is)."""
        return sum(change.before is not None for change in self.changes)

    def moved_per_type(self) -> dict[str, int]:
        found = Counter(c.line.type_name for c in self.changes if c.before is not None)
        return {name: found[name] for name in sorted(found, key=type_key)}


def split_set(files: Sequence[JsonlFile], holdout: float, seed: int) -> SplitResult:
    """Give every record of the set without a split one, toward the per-type holdout share.

    The set is all the files together. Nothing is planned when a record has a `split` other
    than tune or holdout (RG404): that value's meaning is unknown, so is the quota's state.
    Nor when a qid occurs twice, in one file or in two (RV004): the copies are drawn apart,
    so one could enter the holdout while the other is tuned on.
    """
    result = SplitResult()
    lines = [line for jsonl in files for line in jsonl.lines]
    for line in lines:
        if "split" in line.value and line.value["split"] not in SPLITS:
            result.diagnostics.append(_invalid(line))
    result.diagnostics.extend(_repeated(line, first) for line, first in index_by_qid(lines)[1])
    if result.diagnostics:
        result.diagnostics.sort(key=Diagnostic.sort_key)
        return result
    target, result.missing = _holdout_members(lines, holdout, seed)
    position = 0
    for jsonl in files:
        raws = list(jsonl.raws)
        for line in jsonl.lines:
            before = line.value.get("split")
            after = HOLDOUT if position in target else TUNE
            position += 1
            if before != after:
                raws[line.line - 1] = _with_split(line, after)
                result.changes.append(Change(line, before, after))
        result.files.append(FileSplit(jsonl, b"".join(raws)))
    sizes = Counter(line.type_name for line in lines)
    held = Counter(lines[position].type_name for position in target)
    for name in sorted(sizes, key=type_key):
        result.per_type[name] = (sizes[name], held[name])
    return result


@dataclass
class _Stratum:
    """One type's records by the split they have now, each list best-ranked first."""

    holdout: list[int] = field(default_factory=list)
    new: list[int] = field(default_factory=list)
    tune: int = 0

    @property
    def size(self) -> int:
        return len(self.holdout) + len(self.new) + self.tune


def _holdout_members(
    lines: Sequence[RecordLine], holdout: float, seed: int
) -> tuple[set[int], dict[str, int]]:
    """The positions in `lines` of the records to hold out, and the holdout queries missing
    per type (those only new queries can fill)."""
    ranked = sorted(range(len(lines)), key=lambda p: (unit_hash(str(seed), lines[p].qid), p))
    strata: dict[str, _Stratum] = {}
    for position in ranked:
        line = lines[position]
        stratum = strata.setdefault(line.type_name, _Stratum())
        split = line.value.get("split")
        if split == HOLDOUT:
            stratum.holdout.append(position)
        elif split == TUNE:
            stratum.tune += 1
        else:
            stratum.new.append(position)
    counts, missing = _holdout_counts(strata, holdout)
    chosen: set[int] = set()
    for name, stratum in strata.items():
        # Kept first, then drawn: a holdout query leaves only when the count is below them.
        chosen.update([*stratum.holdout, *stratum.new][: counts[name]])
    return chosen, missing


def _holdout_counts(
    strata: dict[str, _Stratum], holdout: float
) -> tuple[dict[str, int], dict[str, int]]:
    """How many of each type to hold out, and how many holdout queries each type misses.

    A type's count lies in the range it can reach without a tune query entering the holdout,
    narrowed to the floor..ceiling of its exact share where the two overlap; inside that,
    `quotas` gives the start and the total is then brought toward the set's rounded share.
    """
    share = exact_share(holdout)
    wanted = quotas({name: s.size for name, s in strata.items()}, holdout)
    ranges: dict[str, tuple[int, int]] = {}
    missing: dict[str, int] = {}
    for name, stratum in strata.items():
        low, high = math.floor(share * stratum.size), math.ceil(share * stratum.size)
        held, reachable = len(stratum.holdout), len(stratum.holdout) + len(stratum.new)
        if held > high:  # the share asks for fewer: holdout queries may go to tune
            ranges[name] = (low, high)
        elif reachable < low:  # only new queries could fill the rest
            ranges[name] = (reachable, reachable)
            missing[name] = low - reachable
        else:
            ranges[name] = (max(held, low), min(reachable, high))
    counts = {name: min(max(wanted[name], lo), hi) for name, (lo, hi) in ranges.items()}
    exact = {name: share * stratum.size for name, stratum in strata.items()}
    # The quotas sum to the rounded share of the whole set.
    _toward_total(counts, ranges, exact, sum(wanted.values()))
    return counts, {name: missing[name] for name in sorted(missing, key=type_key)}


def _toward_total(
    counts: dict[str, int],
    ranges: dict[str, tuple[int, int]],
    exact: dict[str, Fraction],
    total: int,
) -> None:
    """Move counts inside their ranges until they sum to `total`, or as near as the ranges
    allow: up where the count is furthest below the exact share, down where furthest above
    (ties in type order). A range is at most one wide, so one step per type is enough."""
    gap = total - sum(counts.values())
    if gap > 0:
        up = [name for name in counts if counts[name] < ranges[name][1]]
        up.sort(key=lambda name: (counts[name] - exact[name], type_key(name)))
        for name in up[:gap]:
            counts[name] += 1
    elif gap < 0:
        down = [name for name in counts if counts[name] > ranges[name][0]]
        down.sort(key=lambda name: (exact[name] - counts[name], type_key(name)))
        for name in down[:-gap]:
            counts[name] -= 1


def _with_split(line: RecordLine, value: str) -> bytes:
    if "split" not in line.value:
        return insert_key(line.raw, "split", value)
    text = line.raw.decode("utf-8")
    return replace_member_value(text, "split", value).encode("utf-8")


def _invalid(line: RecordLine) -> Diagnostic:
    value = line.value["split"]
    # As the file writes it: `null`, `true`, `1` (a string keeps its quotes as written).
    shown = repr(value) if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
    return make(
        SPLIT_INVALID,
        line.path,
        line.line,
        line.column_of("/split"),
        f"split of {line.qid!r} is {shown}, not 'tune' or 'holdout': "
        "fix it, or delete the key to let `gold split` assign one",
        pointer="/split",
    )


def _repeated(line: RecordLine, first: RecordLine) -> Diagnostic:
    return duplicate_qid(
        line.path,
        line.line,
        line.column_of("/qid"),
        line.qid,
        first.line,
        first_path=first.path,
        advice="give each query its own qid, or drop the copy; `gold split` assigns no "
        "split until then, as copies drawn apart could put a tuned query in the holdout",
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
