"""A wrapper dissolved in place: `X.rest` missing from its file, which defines nothing of
`X` any more, and defines `rest` once (execa 6: `declare namespace execa { ... }` of
`index.d.ts` became top-level declarations). The definition of `rest` there is where the
ID went if it is new there (not in the file at the revision, by git or by the set's own
IDs) and about as long as the ID's span, and:

- with history, `X` was defined in that file at the revision (a Go method's receiver or a
  Rust `impl` in another file is no wrapper there); the old body, if long enough to tell
  (`MIN_BODY_CHARS`: short ones share their shape), kept half of itself, which is enough,
  or it was rewritten (code, not a stub) while most of the wrapper's members landed the
  same way (`MIN_MOVED_TOGETHER`); a span grown past the bound (a test become a table of
  cases) lands as well, by its body or with its members, and a short body's only with its
  members; else siblings corroborate (below);
- without it, siblings corroborate: at least two of the set's IDs of that file and of `X`
  (this one included) each land so, where one name alone may be a replacement (a class
  deleted, a function of its method's name written).
"""

from __future__ import annotations

from evaltools.retrieval.code.chunk_id import ChunkId
from evaltools.retrieval.gold.reanchor.history.bodies import HOLLOW_BELOW, MIN_BODY_CHARS, Body
from evaltools.retrieval.gold.reanchor.history.old_defs import OldDefinitions, is_code, kept
from evaltools.retrieval.gold.reanchor.history.owner_places import MIN_MOVED_TOGETHER
from evaltools.retrieval.gold.reanchor.lookup import NAME_LENGTH_FACTOR, Lookup
from evaltools.retrieval.gold.reanchor.plain.no_history import SetEvidence
from evaltools.retrieval.gold.reanchor.resolve import GoldRef, Resolution, resolved

# Without history, this many of the set's IDs of one wrapper in one file land together.
MIN_SIBLINGS = 2


def unwrapped(
    cid: ChunkId,
    ref: GoldRef,
    old: Body | None,
    *,
    lookup: Lookup,
    olds: OldDefinitions,
    the_set: SetEvidence,
) -> Resolution | None:
    landed = _landing(cid, ref, lookup, the_set)
    # A span grown past the bound (a test become a table of cases) lands by its body, or
    # with most of its wrapper's members.
    grown = landed is None and old is not None
    if grown:
        landed = _landing(cid, ref, lookup, the_set, grown=True)
    if landed is None:
        return None
    wrapper, _, rest = (cid.symbol or "").partition(".")
    then = olds.names(cid.path, ref.revision) if ref.revision is not None else set()
    if then and (wrapper not in then or rest in then):
        return None
    evidence = f"its wrapper {wrapper} dissolved in {cid.path}"
    if old is not None and (grown or old.size >= MIN_BODY_CHARS):
        # A body too short to tell says nothing of a span grown: its members must.
        telling = old.size >= MIN_BODY_CHARS
        if not telling or kept(old, landed, lookup) < HOLLOW_BELOW:
            # A body long enough to tell says it is another, unless most of the wrapper's
            # members landed with it and it is code rewritten, not a stub.
            landed_too = _members_landing(cid, ref, lookup, olds, the_set)
            if landed_too is None or not is_code(landed, lookup):
                return None
            evidence += f" with {landed_too} of its members, rewritten"
        if then:
            return resolved(cid, landed, "", evidence)
    if _siblings_landing(cid, ref, lookup, the_set) < MIN_SIBLINGS:
        return None
    return resolved(cid, landed, "", evidence)


def _landing(
    cid: ChunkId, ref: GoldRef, lookup: Lookup, the_set: SetEvidence, *, grown: bool = False
) -> str | None:
    """The one definition of `rest` in the ID's file, about as long (or, if `grown`,
    longer), new there as far as the set shows, when the file defines nothing of `X`."""
    if cid.symbol is None or "." not in cid.symbol:
        return None
    wrapper, _, rest = cid.symbol.partition(".")
    found = lookup.get(cid.path)
    if found is None:
        return None
    names = [e.name for e in found.entries if e.name is not None]
    if any(n == wrapper or n.startswith(f"{wrapper}.") for n in names):
        return None  # the wrapper (or a part of it) is still there: not dissolved
    same = [e for e in found.entries if e.name == rest]
    if len(same) != 1:
        return None
    longer = grown and same[0].end - same[0].start > cid.end - cid.start
    if not longer and not same[0].about_as_long(cid.start, cid.end, NAME_LENGTH_FACTOR):
        return None
    return (
        same[0].chunk_id
        if the_set.newcomers([same[0].chunk_id], (ref.revision, cid.path))
        else None
    )


def _siblings_landing(cid: ChunkId, ref: GoldRef, lookup: Lookup, the_set: SetEvidence) -> int:
    """How many of the set's IDs of the same revision, file and wrapper (this one included)
    land in the file as `_landing` says, whatever placed them."""
    wrapper = (cid.symbol or "").partition(".")[0]
    siblings = {
        c
        for r, c in the_set.ids.items()
        if r.revision == ref.revision
        and c.path == cid.path
        and (c.symbol or "").startswith(f"{wrapper}.")
    }
    return sum(1 for c in siblings if _landing(c, ref, lookup, the_set) is not None)


def _members_landing(
    cid: ChunkId, ref: GoldRef, lookup: Lookup, olds: OldDefinitions, the_set: SetEvidence
) -> int | None:
    """How many of the wrapper's members at the revision (the ID included) land in the
    file as `_landing` says, or grown longer, when that is most of them and
    `MIN_MOVED_TOGETHER` (humanize 3 turned `NumberTestCase`'s tests into pytest functions,
    each rewritten as a table of cases); else None."""
    if ref.revision is None:
        return None
    wrapper = (cid.symbol or "").partition(".")[0]
    then = olds.at(cid.path, ref.revision)
    names = {d.name for d in then}
    # Direct members only (a test's nested helper is none), whose name is new there.
    members = [d for d in then if d.name.rpartition(".")[0] == wrapper]
    landing = sum(
        1
        for d in members
        if d.name.partition(".")[2] not in names
        and _landing(ChunkId(cid.path, d.start, d.end, d.name), ref, lookup, the_set, grown=True)
        is not None
    )
    return landing if landing >= max(MIN_MOVED_TOGETHER, (len(members) + 1) // 2) else None
