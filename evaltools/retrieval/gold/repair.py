"""`gold check --fix`: an eval set's bytes with its stale gold keys rewritten, written once.

Only the keys change: every other byte of the file (other records, the order and spelling of
the rest of the line, a BOM, CRLF line ends) is kept. The file is written only if it still
holds the bytes that were checked, so an edit made meanwhile is never lost.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import NamedTuple

from evaltools.atomic import WriteError, atomic_write
from evaltools.retrieval.records.gold_keys import rewrite_gold_keys
from evaltools.retrieval.records.record import RecordLine

BOM = b"\xef\xbb\xbf"


class KeyRepair(NamedTuple):
    """Rewrite the gold key `old` of the record on line `line` to `new`."""

    line: int
    old: str
    new: str


def repair_file(
    path: Path, checked: bytes, lines: Sequence[RecordLine], repairs: Iterable[KeyRepair]
) -> dict[KeyRepair, str | None]:
    """Apply `repairs` to the file at `path` (whose bytes were `checked`, read as `lines`).

    Per repair: None when it was written, else why not (a key collision, or the write).
    """
    by_line: dict[int, list[KeyRepair]] = {}
    for repair in repairs:
        by_line.setdefault(repair.line, []).append(repair)
    outcome: dict[KeyRepair, str | None] = {}
    new_raw: dict[int, bytes] = {}
    for line in lines:
        wanted = by_line.get(line.line)
        if not wanted:
            continue
        safe = _safe_repairs(line, wanted, outcome)
        if safe:
            new_raw[line.line] = _rewrite_line(line, {r.old: r.new for r in safe})
            outcome.update(dict.fromkeys(safe))
    if not new_raw:
        return outcome
    data = b"".join(new_raw.get(line.line, line.raw) for line in lines)
    try:
        # The writer re-checks that the file still holds `checked` right before the rename.
        atomic_write(path, data, expect=checked)
    except WriteError as error:
        why = f"not rewritten: {error.reason}"
        outcome.update({r: why for r, done in outcome.items() if done is None})
    return outcome


def _safe_repairs(
    line: RecordLine, wanted: list[KeyRepair], outcome: dict[KeyRepair, str | None]
) -> list[KeyRepair]:
    """The repairs whose new key collides with no other key of the record; the others get
    their reason in `outcome`."""
    gold = (line.record or {}).get("gold")
    keys = set(gold) if isinstance(gold, dict) else set()
    targets = Counter(r.new for r in wanted)
    safe: list[KeyRepair] = []
    for repair in wanted:
        if repair.new in keys or targets[repair.new] > 1:
            outcome[repair] = (
                f"not rewritten: `{repair.new}` would then be a gold key twice in this record; "
                "merge the two grades by hand"
            )
        else:
            safe.append(repair)
    return safe


def _rewrite_line(line: RecordLine, replacements: dict[str, str]) -> bytes:
    body = line.raw[:-1] if line.raw.endswith(b"\n") else line.raw
    prefix = BOM if line.bom else b""
    new_body = prefix + rewrite_gold_keys(line.text, replacements).encode("utf-8")
    return new_body + line.raw[len(body) :]
