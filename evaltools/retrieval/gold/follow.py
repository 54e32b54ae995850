"""Following gold IDs across refactors by their bodies, after the by-name pass of `resolve`.

The old body is the ID's lines in the file at the record's `revision` (read from git); the
new places are the definitions of the tree checked. With an old body:

- a name found where it was is kept only if its body still resembles the old one; when
  the body went elsewhere, the ID is `hollowed` (both places are reported, nothing fixed);
- ties (a property's getter and setter, `@overload` stubs, two nested functions of one
  name) are broken by the body, decorators included;
- a missing symbol is searched in the files git says the file was renamed or copied to,
  then across the whole tree: the exact body, then a near body (`bodies.NEAR_BODY`, by a
  margin), and one body in several places is `copied`, with every place as a candidate.

Without one (a plain tree, metas, no `revision`), only names count: a qualified name
defined once in the whole tree, with a span of a similar length, is where the ID went,
if it is a method (`Class.name`) or in a file of the same name.
When the evidence is not one clear place, candidates are reported and nothing resolves.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from evaltools.retrieval.code.chunk_id import ChunkId, parse_chunk_id
from evaltools.retrieval.gold.bodies import (
    BODY_MARGIN,
    HOLLOW_BELOW,
    HOLLOW_GAIN,
    HOLLOW_OTHER,
    MIN_BODY_CHARS,
    NEAR_BODY,
    Body,
    make_body,
    similarity,
    source_lines,
)
from evaltools.retrieval.gold.resolve import GoldRef, Resolution, Status
from evaltools.retrieval.sources.lookup import Entry, Lookup

# Name-only evidence (no old body): the new span's length within this factor of the old.
NAME_LENGTH_FACTOR = 2.0

_GATED = (Status.MOVED, Status.RENAMED_FILE)
_SEARCHED = (Status.MISSING_SYMBOL, Status.MISSING_FILE, Status.AMBIGUOUS)


def follow_all(
    ids: dict[GoldRef, ChunkId], results: dict[GoldRef, Resolution], lookup: Lookup
) -> None:
    """Revise, in place, the verdicts a body (or a unique name) can improve or must doubt."""
    _read_ahead(ids, results, lookup)
    by_name: list[tuple[GoldRef, ChunkId, str]] = []  # searched in one pass over the tree
    for ref, result in list(results.items()):
        cid = ids[ref]
        if cid.symbol is None:
            continue
        if result.status is Status.OK:
            if ref.revision is not None and _has_twins(cid, lookup):
                results[ref] = _recheck_twin(cid, ref, lookup) or result
            continue
        if result.status not in (*_GATED, *_SEARCHED):
            continue
        old = old_body(cid, ref, lookup)
        if result.status in _GATED:
            if old is not None and result.new_chunk_id is not None:
                results[ref] = _gate(old, result, lookup)
            continue
        if result.status is Status.AMBIGUOUS:
            pick = _tie_break(old, result.candidates, lookup) if old is not None else None
            if pick is not None:
                results[ref] = _resolved(cid, pick, "its body tells the definitions apart")
            continue
        found = _search(cid, ref, old, lookup)
        if found is not None:
            results[ref] = found
        elif old is None:
            by_name.append((ref, cid, cid.symbol))
    if by_name:
        leaves = {symbol.rpartition(".")[2] for _, _, symbol in by_name}
        holding: dict[str, list[Entry]] = {}
        for _, entry in lookup.holding(leaves):
            if entry.name is not None:
                holding.setdefault(entry.name, []).append(entry)
        for ref, cid, symbol in by_name:
            found = _by_unique_name(cid, symbol, holding.get(symbol, []))
            if found is not None:
                results[ref] = found


def _read_ahead(
    ids: dict[GoldRef, ChunkId], results: dict[GoldRef, Resolution], lookup: Lookup
) -> None:
    """The old files that the IDs revised below compare with, and the new files of the
    matches they doubt, read in one batch each."""
    old: set[tuple[str, str]] = set()
    new: set[str] = set()
    for ref, result in results.items():
        if ref.revision is None or result.status not in (*_GATED, *_SEARCHED):
            continue
        cid = ids[ref]
        if cid.symbol is not None:
            old.add((cid.path, ref.revision))
            places = (
                (result.new_chunk_id, *result.candidates)
                if result.new_chunk_id
                else result.candidates
            )
            new.update(place.rsplit(":", 2)[0] for place in places)
    if old:
        lookup.read_ahead(new, old)


def _has_twins(cid: ChunkId, lookup: Lookup) -> bool:
    found = lookup.get(cid.path)
    return found is not None and sum(e.name == cid.symbol for e in found.entries) > 1


def _recheck_twin(cid: ChunkId, ref: GoldRef, lookup: Lookup) -> Resolution | None:
    """An exact span among same-named definitions (an `@overload` stub now where the
    implementation was) is right only if the body agrees."""
    old = old_body(cid, ref, lookup)
    found = lookup.get(cid.path)
    if old is None or found is None:
        return None
    twins = [e.chunk_id for e in found.entries if e.name == cid.symbol]
    pick = _tie_break(old, twins, lookup)
    if pick is None or pick == ref.chunk_id:
        return None
    return _resolved(cid, pick, "its body tells the same-named definitions apart")


def old_body(cid: ChunkId, ref: GoldRef, lookup: Lookup) -> Body | None:
    """The ID's lines at its record's revision, if git has them and they define its name."""
    assert cid.symbol is not None
    data = lookup.old_text(cid.path, ref.revision)
    if data is None:
        return None
    lines = source_lines(data)[cid.start - 1 : cid.end]
    leaf = re.compile(rf"\b{re.escape(cid.symbol.rpartition('.')[2])}\b")
    if len(lines) != cid.end - cid.start + 1 or not any(leaf.search(line) for line in lines):
        return None  # the ID was already stale at that revision: its lines say nothing
    return make_body(cid.path, str(cid), cid.symbol, lines)


def body_of(chunk_id: str, lookup: Lookup) -> Body | None:
    cid = parse_chunk_id(chunk_id)
    data = lookup.text(cid.path)
    if data is None or cid.symbol is None:
        return None
    lines = source_lines(data)[cid.start - 1 : cid.end]
    return make_body(cid.path, chunk_id, cid.symbol, lines)


def _gate(old: Body, result: Resolution, lookup: Lookup) -> Resolution:
    """A name match stands unless its body kept little of the old one and another kept much."""
    assert result.new_chunk_id is not None
    new = body_of(result.new_chunk_id, lookup)
    kept = similarity(old, new) if new is not None else 0.0
    if kept >= HOLLOW_BELOW or old.size < MIN_BODY_CHARS:
        return result
    index = lookup.bodies()
    if index is None:
        return result
    elsewhere = [
        (score, body)
        for score, body in index.near(old, HOLLOW_OTHER)[0]
        if score >= max(HOLLOW_OTHER, kept + HOLLOW_GAIN) and body.chunk_id != result.new_chunk_id
    ]
    if not elsewhere:
        return result
    score, body = elsewhere[0]
    return Resolution(
        Status.HOLLOWED,
        candidates=(result.new_chunk_id, *(b.chunk_id for _, b in elsewhere[:3])),
        detail=f"`{old.name}` is still at {result.new_chunk_id} but kept {kept:.0%} of its "
        f"body, while {body.chunk_id} has {score:.0%} of it",
        caveat=result.caveat,
    )


def _tie_break(old: Body, candidates: Sequence[str], lookup: Lookup) -> str | None:
    scored = sorted(
        ((similarity(old, b), c) for c in candidates if (b := body_of(c, lookup))),
        reverse=True,
    )
    # The name already fits each of them: the body need only prefer one clearly.
    if not scored or scored[0][0] < HOLLOW_BELOW:
        return None
    if len(scored) > 1 and scored[0][0] - scored[1][0] < BODY_MARGIN:
        return None
    return scored[0][1]


def _resolved(cid: ChunkId, chunk_id: str, why: str) -> Resolution:
    """The repair to `chunk_id`, with the status that says how far it went."""
    new = parse_chunk_id(chunk_id)
    if new.path == cid.path and new.symbol == cid.symbol:
        return Resolution(Status.MOVED, chunk_id, detail=f"{why}: it is now {chunk_id}")
    return Resolution(Status.RELOCATED, chunk_id, detail=f"{why}: it is now {chunk_id}")


def _search(cid: ChunkId, ref: GoldRef, old: Body | None, lookup: Lookup) -> Resolution | None:
    """Where a missing symbol went: the files it was moved or copied to, then the tree."""
    assert cid.symbol is not None
    symbol = cid.symbol
    moved = [p for p in lookup.moved_to(cid.path, ref.revision) if p != cid.path]
    lookup.load(moved)
    named = [
        e.chunk_id
        for path in moved
        if (found := lookup.get(path)) is not None
        for e in found.entries
        if e.name == symbol
    ]
    if len(named) == 1 and (old is None or _kept(old, named[0], lookup) >= HOLLOW_BELOW):
        return Resolution(
            Status.RENAMED_FILE,
            named[0],
            detail=f"git says {cid.path} was moved or copied to {named[0].split(':')[0]}",
        )
    return _by_body(cid, old, lookup) if old is not None else None


def _kept(old: Body, chunk_id: str, lookup: Lookup) -> float:
    new = body_of(chunk_id, lookup)
    return 0.0 if new is None else similarity(old, new)


def _by_body(cid: ChunkId, old: Body, lookup: Lookup) -> Resolution | None:
    index = lookup.bodies()
    if index is None:
        return None
    # A short body (`return self._x`, `self.__wrapped = wrapped`) is not evidence of
    # anything but its own qualified name.
    substantial = old.size >= MIN_BODY_CHARS
    exact = [b for b in index.exact(old) if substantial or b.name == old.name]
    same_name = [b for b in exact if b.name == old.name]
    if len(exact) == 1 or len(same_name) == 1:
        pick = same_name[0] if len(same_name) == 1 else exact[0]
        return _resolved(cid, pick.chunk_id, "its body is unchanged")
    if exact:
        return _copied(cid, [b.chunk_id for b in exact])
    # A near body resolves only if it is NEAR_BODY similar and BODY_MARGIN clear of the
    # rest: nothing below their difference can change the answer.
    found, complete = index.near(old, NEAR_BODY - BODY_MARGIN, complete=True)
    near = [
        (score, body)
        for score, body in found
        if score >= NEAR_BODY and (substantial or body.name == old.name)
    ]
    if not near or not complete:
        return None  # too many alike to be sure: the candidates say which
    best = near[0][0]
    close = [body for score, body in near if best - score < BODY_MARGIN]
    if len(close) == 1:
        return _resolved(cid, close[0].chunk_id, f"{best:.0%} of its body is")
    return _copied(cid, [b.chunk_id for b in close])


def _copied(cid: ChunkId, places: list[str]) -> Resolution:
    return Resolution(
        Status.COPIED,
        candidates=tuple(places),
        detail=f"its body is now in {len(places)} places",
    )


def _by_unique_name(cid: ChunkId, symbol: str, same: list[Entry]) -> Resolution | None:
    """Name-only evidence: the qualified name defined once in the tree, about as long."""
    if len(same) != 1:
        return None
    entry = same[0]
    basename = cid.path.rpartition("/")[2]
    if "." not in symbol and entry.chunk_id.rsplit(":", 2)[0].rpartition("/")[2] != basename:
        return None  # a function's name alone is common: a method's `Class.` is not
    old_length, new_length = cid.end - cid.start + 1, entry.end - entry.start + 1
    if max(old_length, new_length) > NAME_LENGTH_FACTOR * min(old_length, new_length):
        return None
    return _resolved(cid, entry.chunk_id, f"`{symbol}` is defined once in the tree")


def body_candidates(cid: ChunkId, ref: GoldRef, lookup: Lookup) -> tuple[Iterable[str], bool]:
    """Definitions whose bodies resemble the ID's old one, most similar first, and whether
    the search is complete. An incomplete one (a sample of many alike: weaker than names)
    is searched only when read: its tier comes last, often past the candidates kept."""
    if cid.symbol is None:
        return [], True
    old = old_body(cid, ref, lookup)
    index = lookup.bodies() if old is not None else None
    if old is None or index is None:
        return [], True
    # What `_by_body` asked (cached): cut short at its floor, it is cut short at a lower one.
    if not index.near(old, NEAR_BODY - BODY_MARGIN, complete=True)[1]:
        return (b.chunk_id for _, b in index.near(old)[0]), False
    found, complete = index.near(old)
    return [b.chunk_id for _, b in found], complete
