"""A missing definition gone, with its siblings, to another owner: bstr's inherent
`BStr.trim` to the extension trait's `ByteSlice.trim`, a test method to another test class
(`FramingTests.test_x` -> `PrepareDataTests.test_x`), a file's functions nested under a new
wrapper function (`__extends` -> `enableMapSet.__extends`).

With the record's revision and the ID's old body, searched where the old file's code can
have gone: the files git moved or copied it to, and the files new since the revision (of
its language, tests or not as it is). A place is a definition new there with the ID's last
name under another owner (or under a wrapper around its whole name), whose owner took at
least `MIN_SIBLINGS` other definitions that left the old file the same way (`BStr.x` ->
`ByteSlice.x`, `x` -> `enableMapSet.x`), and whose body kept at least `HOLLOW_BELOW` of
the ID's: the name, the siblings and the body agree. A type is renamed (with its file:
`IsEqualIgnoringWhiteSpaceTest` -> `IsEqualCompressingWhiteSpaceTest`) when a new type
took at least half of its members (and `MIN_SIBLINGS`), its body as alike. One place is
where it went; of
several, one whose body is `BODY_MARGIN` ahead, else a person chooses (`ambiguous`).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from evaltools.retrieval.code.chunk_id import ChunkId
from evaltools.retrieval.gold.reanchor.history.bodies import BODY_MARGIN, HOLLOW_BELOW, Body
from evaltools.retrieval.gold.reanchor.history.old_defs import OldDefinitions, kept
from evaltools.retrieval.gold.reanchor.history.partners import Partners
from evaltools.retrieval.gold.reanchor.lookup import Entry, Lookup
from evaltools.retrieval.gold.reanchor.resolve import (
    MAX_CANDIDATES,
    GoldRef,
    Resolution,
    Status,
    resolved,
)

# The owner (or wrapper) took at least this many other definitions of the old file.
MIN_SIBLINGS = 2


@dataclass(frozen=True)
class _Place:
    chunk_id: str
    path: str
    owner: str  # the new owner, or the wrapper around the whole old name
    wrapped: bool
    siblings: int
    alike: float
    members: int = 0  # the old type's members, when the place is the type's rename


class Owners:
    """The places of missing IDs under another owner, for one run."""

    def __init__(self, lookup: Lookup, olds: OldDefinitions, partners: Partners) -> None:
        self.lookup, self.olds, self.partners = lookup, olds, partners

    def place(self, cid: ChunkId, ref: GoldRef, old: Body) -> Resolution | None:
        assert cid.symbol is not None and ref.revision is not None
        places = self._places(cid, ref.revision, old)
        if not places:
            return None
        places.sort(key=lambda p: -p.alike)
        best = places[0]
        if len(places) > 1 and best.alike - places[1].alike < BODY_MARGIN:
            return Resolution(
                Status.AMBIGUOUS,
                candidates=tuple(p.chunk_id for p in places[:MAX_CANDIDATES]),
                detail=f"`{cid.symbol}` may have gone to {len(places)} owners, with siblings "
                f"and bodies alike each: {', '.join(f'`{p.owner}`' for p in places[:3])}",
            )
        why = "its type was renamed" if best.members else "it went to another owner"
        return resolved(cid, best.chunk_id, why, _evidence(cid, best))

    def _places(self, cid: ChunkId, revision: str, old: Body) -> list[_Place]:
        assert cid.symbol is not None
        symbol = cid.symbol
        owner, _, leaf = symbol.rpartition(".")
        now = self.lookup.get(cid.path)
        still = {e.name for e in now.entries} if now is not None else set()
        left = [
            d.name
            for d in self.olds.at(cid.path, revision)
            if d.name not in still and d.name != symbol
        ]
        members = [n for n in left if n.startswith(symbol + ".")]
        moved = [p for p in self.lookup.moved_to(cid.path, revision) if p != cid.path]
        files = list(dict.fromkeys([*moved, *self.partners.new_files(cid.path, revision)]))
        # A renamed type's file names its members, not it.
        needles = [n.rpartition(".")[2].encode("utf-8") for n in [symbol, *members[:3]]]
        files = [
            p for p in files if any(needle in (self.lookup.text(p) or b"") for needle in needles)
        ]
        if not files:
            return []
        self.lookup.load(files)
        found: list[_Place] = []
        for path in files:
            entries = self.lookup.get(path)
            if entries is None:
                continue
            names = {e.name for e in entries.entries if e.name is not None}
            if len(members) >= MIN_SIBLINGS:
                found.extend(_renamed_type(symbol, members, path, entries.entries, names))
            for entry in entries.entries:
                name = entry.name
                if name is None or entry.leaf != leaf or name == symbol:
                    continue
                wrapped = name.endswith("." + symbol)
                if wrapped:
                    new_owner = name[: -len(symbol) - 1]
                    took = [n for n in left if f"{new_owner}.{n}" in names]
                elif owner:
                    new_owner = name.rpartition(".")[0]
                    prefix = owner + "."
                    took = [
                        n
                        for n in left
                        if n.startswith(prefix) and new_owner + n[len(owner) :] in names
                    ]
                else:
                    continue
                if len(took) >= MIN_SIBLINGS:
                    found.append(_Place(entry.chunk_id, path, new_owner, wrapped, len(took), 0.0))
        fresh = set(self.olds.newcomers([p.chunk_id for p in found], cid, revision, old))
        return [
            dataclasses.replace(p, alike=alike)
            for p in found
            if p.chunk_id in fresh and (alike := kept(old, p.chunk_id, self.lookup)) >= HOLLOW_BELOW
        ]


def _renamed_type(
    symbol: str, members: list[str], path: str, entries: tuple[Entry, ...], names: set[str]
) -> list[_Place]:
    """The types of a file that took at least half of the old type's members (and
    MIN_SIBLINGS), under their own name: its rename."""
    needed = max(MIN_SIBLINGS, (len(members) + 1) // 2)
    found = []
    for entry in entries:
        if entry.name is None or entry.name == symbol:
            continue
        took = sum(entry.name + n[len(symbol) :] in names for n in members)
        if took >= needed:
            found.append(_Place(entry.chunk_id, path, entry.name, False, took, 0.0, len(members)))
    return found


def _evidence(cid: ChunkId, place: _Place) -> str:
    if place.members:
        how = f"renamed `{place.owner}` in {place.path}, which took {place.siblings} of its"
        return f"{how} {place.members} members, body {place.alike:.2f} alike"
    if place.wrapped:
        how = f"nested in `{place.owner}` in {place.path} with {place.siblings} other"
        how += f" definitions of {cid.path}"
    else:
        owner = (cid.symbol or "").rpartition(".")[0]
        how = f"moved from `{owner}` to `{place.owner}` in {place.path} with"
        how += f" {place.siblings} of its siblings"
    return f"{how}, body {place.alike:.2f} alike"
