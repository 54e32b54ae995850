"""A name found at its own lines among namesakes as long, in a plain tree: no old body says
whether it is the definition the ID named or a namesake that slid onto its lines (impl
blocks alike, overloads). The set's other IDs of the file say whether its lines moved: the
nearest one above it in the file that was placed (by its name, its span's length among
overloads or a shift of its namesakes; or its class, by where it starts) moved too, so the
match at its own lines is chance, not evidence. The one shift that places its gold
namesakes then places it (`SetEvidence.shifted`); else a person chooses.

`plain_namesakes` runs the passes without old bodies over namesakes: those ambiguous told
apart by their length where the IDs placed around them agree (`no_history.same_length`),
then those found at their lines doubted as above.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import NamedTuple

from evaltools.retrieval.code.chunk_id import ChunkId, is_valid_chunk_id, parse_chunk_id
from evaltools.retrieval.gold.reanchor.lookup import Lookup
from evaltools.retrieval.gold.reanchor.plain.no_history import (
    MIN_TIE_LINES,
    SetEvidence,
    same_length,
)
from evaltools.retrieval.gold.reanchor.resolve import GoldRef, Place, Resolution, Status, resolved


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
        """How far the nearest ID above `cid` in its file moved, else the one enclosing it
        (`shift_enclosing`); None when neither was placed."""
        shift = self._nearest_above(cid, ref)
        return shift if shift is not None else self.shift_enclosing(cid, ref)

    def shift_near(self, cid: ChunkId, ref: GoldRef) -> tuple[int, bool] | None:
        """The shift above `cid` (False), else how far the nearest ID below it moved (True):
        an ID first in its class (a constructor) has only the lines after it to say where
        it went. The one below places its end, not its start, which its own growth moved.
        The class around it says least (lines added inside it move its members, not its
        start), so it speaks only when neither does."""
        if (shift := self._nearest_above(cid, ref)) is not None:
            return shift, False
        below = [(p.start, p.shift) for p in self._in_file(cid, ref) if p.start > cid.end]
        if below:
            return min(below)[1], True
        shift = self.shift_enclosing(cid, ref)
        return (shift, False) if shift is not None else None

    def shift_enclosing(self, cid: ChunkId, ref: GoldRef) -> int | None:
        """How far the start of the innermost ID enclosing `cid` moved (its class, whose
        lines above moved its members' too: commons-net 3.9 joined an exception's header
        lines, and its second constructor slid onto the first one's lines)."""
        around = [
            (p.start, p.shift)
            for p in self._in_file(cid, ref)
            if p.start < cid.start and cid.end <= p.end
        ]
        return max(around)[1] if around else None

    def _nearest_above(self, cid: ChunkId, ref: GoldRef) -> int | None:
        """How far the ID placed nearest above `cid` (its end above `cid`'s start) moved."""
        above = [(p.end, p.shift) for p in self._in_file(cid, ref) if p.end < cid.start]
        return max(above)[1] if above else None

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


def where_shifted(
    cid: ChunkId, candidates: Sequence[str], shift: int, *, below: bool = False
) -> tuple[str, str, str] | None:
    """Of several namesakes as long as the ID's span (a class's overloads of one shape), the
    one exactly where the shift of the ID placed above it puts it (`below`: the one placed
    below, which places its end): the chunk ID, why, and the evidence in a few words.
    commons-codec 1.16 added two lines above `Hex`'s nine `encodeHex` overloads, two of
    them six lines long. One-liners are all alike, so a few lines at least."""
    length = cid.end - cid.start
    if length < MIN_TIE_LINES - 1:
        return None
    hits = [
        c
        for c in candidates
        if (new := parse_chunk_id(c)).path == cid.path
        and new.end - new.start == length
        and (new.end - cid.end if below else new.start - cid.start) == shift
    ]
    if len(hits) != 1:
        return None
    return (
        hits[0],
        "the shift of the ID placed beside it puts it on a namesake as long",
        f"as long, {shift:+d} lines like the ID {'below' if below else 'above'} it",
    )


def doubted_twin(
    cid: ChunkId, ref: GoldRef, lookup: Lookup, the_set: SetEvidence, placed: PlacedAbove
) -> Resolution | None:
    """The verdict on `cid`, found at its own lines among namesakes, when the lines above it
    moved: among namesakes as long, chance; the only one as long, chance too if another is
    at least as near where that shift puts it (commons-net 3.9 joined an exception's header
    lines and its first constructor's braces: the second one now has the first's old
    lines). None when nothing doubts the match."""
    found = lookup.get(cid.path)
    if found is None or ref.revision is None:
        return None
    length = cid.end - cid.start
    same = [e for e in found.entries if e.name == cid.symbol]
    alike = [e for e in same if e.end - e.start == length]
    shift = placed.shift_above(cid, ref) if len(same) > 1 else None
    if not shift:
        return None
    kind = "as long"
    if len(alike) == 1:
        if all(abs(e.start - cid.start - shift) > abs(shift) for e in same if e is not alike[0]):
            return None
        alike, kind = same, "as near"
    shifted = the_set.shifted(cid, ref)
    if shifted is not None:
        return None if shifted.new_chunk_id == str(cid) else shifted
    if (hit := where_shifted(cid, [e.chunk_id for e in alike], shift)) is not None:
        return resolved(cid, *hit)
    return Resolution(
        Status.AMBIGUOUS,
        candidates=tuple(e.chunk_id for e in alike),
        detail=f"`{cid.symbol}` is at its lines, but the ID above it in {cid.path} moved "
        f"{shift:+d} lines and {len(alike)} definitions of the name are {kind} "
        f"(lines {', '.join(f'{e.start}-{e.end}' for e in alike)})",
    )


def plain_namesakes(
    ambiguous: list[tuple[GoldRef, ChunkId]],
    twins: list[tuple[GoldRef, ChunkId]],
    *,
    ids: dict[GoldRef, ChunkId],
    results: dict[GoldRef, Resolution],
    lookup: Lookup,
    the_set: SetEvidence,
    twinned: set[GoldRef],
) -> None:
    """Namesakes without old bodies: those ambiguous by their span's length, unless the
    shift of the ID placed above them (by its name) puts another nearer, else by where that
    shift puts them among several as long; then those found at their lines, unless the ID
    above them (by name or length) moved."""
    left = ambiguous
    while left:
        # The IDs one round places are IDs placed beside the rest in the next (commons-codec
        # 1.16: `decodeHex` placed by its length, then `encodeHex` below it by its shift).
        _by_length(left, results, PlacedAbove(ids, results, twinned), the_set)
        still = [(ref, cid) for ref, cid in left if results[ref].status is Status.AMBIGUOUS]
        left = still if len(still) < len(left) else []
    placed = PlacedAbove(ids, results, twinned)
    for ref, cid in twins:
        results[ref] = doubted_twin(cid, ref, lookup, the_set, placed) or results[ref]


def _by_length(
    ambiguous: list[tuple[GoldRef, ChunkId]],
    results: dict[GoldRef, Resolution],
    named: PlacedAbove,
    the_set: SetEvidence,
) -> None:
    """One round over the namesakes left ambiguous: by their span's length and where the ID
    placed beside them puts them, else by the one shift of their gold namesakes."""
    for ref, cid in ambiguous:
        result = results[ref]
        near = named.shift_near(cid, ref)
        if near is None:
            pick = same_length(cid, result.candidates, own_lines=True)
        else:
            pick = same_length(cid, result.candidates, near[0], below=near[1])
        if pick is None and (shifted := the_set.shifted(cid, ref)) is not None:
            results[ref] = shifted
            continue
        if pick is None and near is not None:
            pick = where_shifted(cid, result.candidates, near[0], below=near[1])
        results[ref] = resolved(cid, *pick) if pick else result
