"""`gold check --fix`: an eval set's bytes with its stale gold keys rewritten, written once.

Only the keys change (and, for a record whose keys all were, its `revision`): every other
byte of the file (other records, the order and spelling of the rest of the line, a BOM, CRLF
line ends) is kept. The file is written only if it still
holds the bytes that were checked, so an edit made meanwhile is never lost.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import NamedTuple

from evaltools.atomic import WriteError, atomic_write
from evaltools.retrieval.records.gold_keys import replace_member_value, rewrite_gold_keys
from evaltools.retrieval.records.record import RecordLine

BOM = b"\xef\xbb\xbf"


class KeyRepair(NamedTuple):
    """Rewrite the gold key `old` of the record on line `line` to `new`."""

    line: int
    old: str
    new: str


@dataclass
class RepairOutcome:
    """Per repair: None when it was safe to write, else why not (a key collision); the
    lines whose `revision` was written; and why the file was not written, if it was not
    (then no repair was: the reason is the file's, told once, not each key's)."""

    keys: dict[KeyRepair, str | None] = field(default_factory=dict)
    revised: set[int] = field(default_factory=set)
    write_error: WriteError | None = None

    def written(self, repair: KeyRepair) -> bool:
        return self.write_error is None and self.keys.get(repair, "") is None


def repair_file(
    path: Path,
    checked: bytes,
    lines: Sequence[RecordLine],
    repairs: Iterable[KeyRepair],
    revisions: Mapping[int, str] | None = None,
) -> RepairOutcome:
    """Apply `repairs` to the file at `path` (whose bytes were `checked`, read as `lines`).

    `revisions`: line -> the `revision` its record gets, written only when every repair of
    that line is (a record half fixed is verified at no single commit); a line without
    repairs gets its `revision` alone.
    """
    by_line: dict[int, list[KeyRepair]] = {}
    for repair in repairs:
        by_line.setdefault(repair.line, []).append(repair)
    out = RepairOutcome()
    new_raw: dict[int, bytes] = {}
    for line in lines:
        wanted = by_line.get(line.line)
        if not wanted:
            moved = (revisions or {}).get(line.line)
            if moved is not None:
                new_raw[line.line] = _rewrite_line(line, {}, moved)
                out.revised.add(line.line)
            continue
        safe = _safe_repairs(line, wanted, out.keys)
        if safe:
            revision = (revisions or {}).get(line.line) if len(safe) == len(wanted) else None
            new_raw[line.line] = _rewrite_line(line, {r.old: r.new for r in safe}, revision)
            out.keys.update(dict.fromkeys(safe))
            if revision is not None:
                out.revised.add(line.line)
    if not new_raw:
        return out
    data = b"".join(new_raw.get(line.line, line.raw) for line in lines)
    try:
        # The writer re-checks that the file still holds `checked` right before the rename.
        atomic_write(path, data, expect=checked)
    except WriteError as error:
        out.write_error = error
        out.revised.clear()
    return out


def _safe_repairs(
    line: RecordLine, wanted: list[KeyRepair], outcome: dict[KeyRepair, str | None]
) -> list[KeyRepair]:
    """The repairs after which no key of the record is there twice; the others get their
    reason in `outcome`.

    The test is on the record's keys as they will be once its repairs are applied
    together: two IDs that swap spans (twins in an if/else, lines inserted above both)
    collide with nothing, while two old IDs rewritten to one new one do. A refused repair
    leaves its old key in place, which may then collide with another's new key: refused
    too, until nothing changes.
    """
    gold = (line.record or {}).get("gold")
    keys = list(gold) if isinstance(gold, dict) else []
    safe = {r.old: r for r in wanted}
    for repair in wanted:
        if repair.old not in keys:  # pragma: no cover - the check read the keys from it
            keys.append(repair.old)
    while True:
        final = Counter(safe[k].new if k in safe else k for k in keys)
        clashing = [r for r in safe.values() if final[r.new] > 1]
        if not clashing:
            break
        for repair in clashing:
            del safe[repair.old]
            outcome[repair] = (
                f"not rewritten: `{repair.new}` would then be a gold key twice in this record; "
                "merge the two grades by hand"
            )
    return list(safe.values())


def _rewrite_line(line: RecordLine, replacements: dict[str, str], revision: str | None) -> bytes:
    body = line.raw[:-1] if line.raw.endswith(b"\n") else line.raw
    prefix = BOM if line.bom else b""
    text = rewrite_gold_keys(line.text, replacements)
    if revision is not None:
        text = replace_member_value(text, "revision", revision)
    return prefix + text.encode("utf-8") + line.raw[len(body) :]
