"""A name found at its own lines among namesakes as long, in a plain tree: no old body says
whether it is the definition the ID named or a namesake that slid onto its lines (impl
blocks alike, overloads). The set's other IDs of the file say whether its lines moved: the
nearest one above it in the file that was placed (by its name, its span's length among
overloads or a shift of its namesakes; not one enclosing it) moved too, so the match at
its own lines is chance, not evidence. The one shift that places its gold namesakes then
places it (`SetEvidence.shifted`); else a person chooses.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import NamedTuple

from evaltools.retrieval.code.chunk_id import ChunkId, is_valid_chunk_id, parse_chunk_id
from evaltools.retrieval.gold.reanchor.lookup import Lookup
from evaltools.retrieval.gold.reanchor.plain.no_history import SetEvidence
from evaltools.retrieval.gold.reanchor.resolve import GoldRef, Place, Resolution, Status


class _Placed(NamedTuple):
    """An ID of the set placed: its old span, and how far it moved."""

    start: int
    end: int
    shift: int


class PlacedAbove:
    """The shifts of the set's IDs placed, by file, read when an ID first asks."""

    def __init__(
        self,
        ids: Mapping[GoldRef, ChunkId],
        results: Mapping[GoldRef, Resolution],
        twinned: set[GoldRef],
    ) -> None:
        self.ids, self.results, self.twinned = ids, results, twinned
        self._shifts: dict[Place, list[_Placed]] | None = None

    def shift_above(self, cid: ChunkId, ref: GoldRef) -> int | None:
        """How far the nearest ID above `cid` in its file moved (None when none was
        placed); one that encloses `cid` (its class) says nothing of the lines inside."""
        above = [(p.end, p.shift) for p in self._in_file(cid, ref) if p.end < cid.start]
        return max(above)[1] if above else None

    def shift_near(self, cid: ChunkId, ref: GoldRef) -> tuple[int, bool] | None:
        """The shift above `cid` (False), else how far the nearest ID below it moved (True):
        an ID first in its class (a constructor) has only the lines after it to say where
        it went. The one below places its end, not its start, which its own growth moved."""
        if (shift := self.shift_above(cid, ref)) is not None:
            return shift, False
        below = [(p.start, p.shift) for p in self._in_file(cid, ref) if p.start > cid.end]
        return (min(below)[1], True) if below else None

    def _in_file(self, cid: ChunkId, ref: GoldRef) -> list[_Placed]:
        if self._shifts is None:
            self._shifts = self._read()
        return self._shifts.get((ref.revision, cid.path), [])

    def _read(self) -> dict[Place, list[_Placed]]:
        """Each ID placed, by file."""
        shifts: dict[Place, list[_Placed]] = {}
        for ref, cid in self.ids.items():
            result = self.results[ref]
            if ref in self.twinned or cid.symbol is None:
                continue
            if result.status is Status.OK:
                shift = 0
            elif result.status is Status.MOVED and is_valid_chunk_id(
                new := result.new_chunk_id or ""
            ):
                shift = parse_chunk_id(new).start - cid.start
            else:
                continue  # an index's own chunk names (metas) say nothing of lines
            shifts.setdefault((ref.revision, cid.path), []).append(
                _Placed(cid.start, cid.end, shift)
            )
        return shifts


def doubted_twin(
    cid: ChunkId, ref: GoldRef, lookup: Lookup, the_set: SetEvidence, placed: PlacedAbove
) -> Resolution | None:
    """The verdict on `cid`, found at its own lines among namesakes as long, when the lines
    above it moved; None when nothing doubts the match."""
    found = lookup.get(cid.path)
    if found is None or ref.revision is None:
        return None
    length = cid.end - cid.start
    alike = [e for e in found.entries if e.name == cid.symbol and e.end - e.start == length]
    shift = placed.shift_above(cid, ref) if len(alike) > 1 else None
    if not shift:
        return None
    shifted = the_set.shifted(cid, ref)
    if shifted is not None:
        return None if shifted.new_chunk_id == str(cid) else shifted
    return Resolution(
        Status.AMBIGUOUS,
        candidates=tuple(e.chunk_id for e in alike),
        detail=f"`{cid.symbol}` is at its lines, but the ID above it in {cid.path} moved "
        f"{shift:+d} lines and {len(alike)} definitions of the name are as long "
        f"(lines {', '.join(f'{e.start}-{e.end}' for e in alike)})",
    )
