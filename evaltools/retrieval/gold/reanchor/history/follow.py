"""Following gold IDs across refactors by their bodies, after the by-name pass of `resolve`.

The old body is the ID's lines in the file at the record's `revision` (read from git); the
new places are the definitions of the tree checked. With an old body:

- a name found where it was is kept only if its body still resembles the old one; when
  the body went elsewhere, the ID is `hollowed` (both places are reported, nothing fixed);
- ties (a property's getter and setter, `@overload` stubs, two nested functions of one
  name) are broken by the body, decorators included (`ties`);
- a missing symbol is searched in the files git says the file was renamed or copied to,
  then across the whole tree: the exact body, then a near body (`bodies.NEAR_BODY`, by a
  margin), and one body in several places is `copied`, with every place as a candidate;
- a name found in a renamed file is doubted when a better partner of the old file holds
  it too (`partners`).

Without one (a plain tree, metas, no `revision`), only names count: a qualified name
defined once in the whole tree, with a span of a similar length, is where the ID went,
if it is a method (`Class.name`) or in a file of the same name, and nothing says it may
have stood there all along (`standing`); and the set's own IDs say
what they can of the old tree (`no_history`: folders moved, namesakes shifted together,
definitions that were there).
When the evidence is not one clear place, candidates are reported and nothing resolves.
"""

from __future__ import annotations

from evaltools.retrieval.code.chunk_id import ChunkId, parse_chunk_id
from evaltools.retrieval.gold.reanchor.history.bodies import (
    HOLLOW_BELOW,
    Body,
)
from evaltools.retrieval.gold.reanchor.history.by_body import Fresh, by_body, renamed_in_place
from evaltools.retrieval.gold.reanchor.history.hollow import (
    hollowed_or,
    members_went_or,
    outweighed_or,
)
from evaltools.retrieval.gold.reanchor.history.old_defs import (
    OldDefinitions,
    kept,
    old_body,
)
from evaltools.retrieval.gold.reanchor.history.owners import Owners
from evaltools.retrieval.gold.reanchor.history.partners import Partners
from evaltools.retrieval.gold.reanchor.history.retyped import renamed_type
from evaltools.retrieval.gold.reanchor.history.successors import Successors
from evaltools.retrieval.gold.reanchor.history.ties import recheck_twins, told_apart, twinned
from evaltools.retrieval.gold.reanchor.lookup import Lookup
from evaltools.retrieval.gold.reanchor.names import ByName, place_by_name
from evaltools.retrieval.gold.reanchor.plain.no_history import SetEvidence
from evaltools.retrieval.gold.reanchor.plain.twins import plain_namesakes
from evaltools.retrieval.gold.reanchor.plain.wrapper import wrapped
from evaltools.retrieval.gold.reanchor.rename import Scopes, by_scope
from evaltools.retrieval.gold.reanchor.resolve import GoldRef, Resolution, Status, leaf_of, resolved

_GATED = (Status.MOVED, Status.RENAMED_FILE)
_SEARCHED = (Status.MISSING_SYMBOL, Status.MISSING_FILE, Status.AMBIGUOUS)


def follow_all(
    ids: dict[GoldRef, ChunkId], results: dict[GoldRef, Resolution], lookup: Lookup
) -> None:
    """Revise, in place, the verdicts a body (or a unique name) can improve or must doubt."""
    twins = twinned(ids, results, lookup)
    _read_ahead(ids, results, lookup, twins)
    olds, scopes = OldDefinitions(lookup), Scopes(lookup)
    the_set = SetEvidence(ids, lookup)  # read only when an ID has no old body to go by
    partners = Partners(lookup, olds)
    owners = Owners(lookup, (olds, scopes), partners)
    plain_twins = recheck_twins(twins, ids, results, lookup, olds)
    # Searched in one pass over the tree; with the old body, a name must keep half of it.
    by_name: list[ByName] = []
    # Without old bodies, namesakes are told apart by where the IDs placed around them went.
    plain_ambiguous: list[tuple[GoldRef, ChunkId]] = []
    for ref, result in list(results.items()):
        cid = ids[ref]
        if cid.symbol is None or ref in twins or result.status not in (*_GATED, *_SEARCHED):
            continue
        old = old_body(cid, ref, lookup)
        if result.status in _GATED:
            results[ref] = _gated(cid, ref, old, result, lookup=lookup, owners=owners, ids=ids)
            continue
        if result.status is Status.AMBIGUOUS:
            if old is None:
                plain_ambiguous.append((ref, cid))
            else:
                results[ref] = told_apart(cid, ref, old, result, lookup=lookup, olds=olds) or result
            continue
        found = _search(cid, ref, old, lookup, partners)
        if old is not None and ref.revision is not None:
            found = _in_scope(cid, ref, old, found, lookup=lookup, history=(olds, scopes))
        if found is not None:
            results[ref] = found
        else:
            by_name.append((ref, cid, cid.symbol, old))
    plain_namesakes(
        plain_ambiguous,
        plain_twins,
        ids=ids,
        results=results,
        lookup=lookup,
        the_set=the_set,
        twinned=twins,
    )
    by_name = _in_successors(by_name, results, lookup, olds)
    if by_name:
        place_by_name(
            by_name,
            results,
            lookup,
            history=(olds, scopes),
            the_set=the_set,
            partners=partners,
        )


def _in_scope(
    cid: ChunkId,
    ref: GoldRef,
    old: Body,
    found: Resolution | None,
    *,
    lookup: Lookup,
    history: tuple[OldDefinitions, Scopes],
) -> Resolution | None:
    """What the ID's own scope says when the search found nothing, or only a body alike
    under another last name elsewhere (not whole, not in its own file): its name in the
    scope (its type renamed, its spelling changed) says more (jackson-core 2.13: two tests
    of a class renamed with its file, each 0.89 alike to another test elsewhere) if it kept
    half of the body; then a short body renamed where it stood."""
    if found is not None:
        if found.new_chunk_id is None or cid.symbol is None:
            return found
        new = parse_chunk_id(found.new_chunk_id)
        if leaf_of(new.symbol or "") == leaf_of(cid.symbol):
            return found
        # A body renamed in its own file (or the one git moved it to), or found whole, is
        # the strongest evidence there is: no namesake outweighs it.
        if new.path in {cid.path, *lookup.moved_to(cid.path, ref.revision)}:
            return found
        if kept(old, found.new_chunk_id, lookup) == 1.0:
            return found
    scoped = by_scope(cid, ref, old, lookup, history)
    # A name that kept little of the body does not outweigh a body found whole elsewhere
    # (commander 8: `parse` became a wrapper, its body went to `_prepareUserArgs`).
    if scoped is not None and (
        found is None
        or (
            scoped.new_chunk_id is not None
            and kept(old, scoped.new_chunk_id, lookup) >= HOLLOW_BELOW
        )
    ):
        found = scoped
    if found is None:
        found = renamed_in_place(cid, old, lookup, history[0].newcomers_for(cid, ref.revision, old))
    return found


def _gated(
    cid: ChunkId,
    ref: GoldRef,
    old: Body | None,
    result: Resolution,
    *,
    lookup: Lookup,
    owners: Owners,
    ids: dict[GoldRef, ChunkId],
) -> Resolution:
    """A name found (moved in its file, or in its renamed file) as its body, its partner
    files and, for a type, its members let it stand."""
    partners, olds = owners.partners, owners.olds
    if old is None and result.status is Status.MOVED and result.new_chunk_id is not None:
        result = wrapped(cid, result, lookup) or result
    if old is not None and result.new_chunk_id is not None:
        gated = hollowed_or(old, result, lookup, olds.arrived_for(cid, ref.revision, old))
        if gated.new_chunk_id is not None:
            gated = outweighed_or(old, cid, ref.revision, gated, olds)
        result = partners.doubt(cid, ref, old, gated)
    if result.status not in _GATED:
        return result
    history = olds if old is not None else None
    result = renamed_type(cid, ref, result, lookup, olds=history, the_set=ids) or result
    if old is not None:
        result = members_went_or(old, cid, ref.revision, result, owners)
        if result.status not in _GATED:
            return result
    if result.status is Status.RENAMED_FILE and result.new_chunk_id is not None:
        new = parse_chunk_id(result.new_chunk_id)
        if new.symbol != cid.symbol:  # its type renamed with the file: not the symbol itself
            return resolved(cid, result.new_chunk_id, result.detail, result.evidence or "")
    return result


def _in_successors(
    by_name: list[ByName], results: dict[GoldRef, Resolution], lookup: Lookup, olds: OldDefinitions
) -> list[ByName]:
    """Places in the files that took the old files' other definitions (one pass over the
    tree for all), unless the name kept little of the body and another place kept much (as
    a name in a renamed file); the IDs still unplaced."""
    asked = [item for item in by_name if item[3] is not None and item[0].revision is not None]
    if not asked:
        return by_name
    heirs = Successors(lookup, olds)
    heirs.prepare((cid.path, ref.revision) for ref, cid, _, _ in asked if ref.revision)
    placed: set[GoldRef] = set()
    for ref, cid, _, old in asked:
        assert old is not None
        found = heirs.place(cid, ref, old)
        if found is not None:
            results[ref] = hollowed_or(old, found, lookup, olds.arrived_for(cid, ref.revision, old))
            placed.add(ref)
    return [item for item in by_name if item[0] not in placed]


def _read_ahead(
    ids: dict[GoldRef, ChunkId],
    results: dict[GoldRef, Resolution],
    lookup: Lookup,
    twinned: set[GoldRef],
) -> None:
    """The old files that the IDs revised below compare with, and the new files of the
    matches they doubt, read in one batch each."""
    old: set[tuple[str, str]] = set()
    new: set[str] = set()
    for ref, result in results.items():
        if ref.revision is None:
            continue
        cid = ids[ref]
        if ref in twinned:
            old.add((cid.path, ref.revision))
            new.add(cid.path)
        elif result.status in (*_GATED, *_SEARCHED) and cid.symbol is not None:
            old.add((cid.path, ref.revision))
            places = (
                (result.new_chunk_id, *result.candidates)
                if result.new_chunk_id
                else result.candidates
            )
            new.update(place.rsplit(":", 2)[0] for place in places)
    if old:
        lookup.read_ahead(new, old)


def _search(
    cid: ChunkId, ref: GoldRef, old: Body | None, lookup: Lookup, partners: Partners
) -> Resolution | None:
    """Where a missing symbol went: the files it was moved or copied to, then the tree."""
    assert cid.symbol is not None
    olds = partners.olds
    symbol = cid.symbol
    moved = [p for p in lookup.moved_to(cid.path, ref.revision) if p != cid.path]
    paired = lookup.paired(cid.path, ref.revision)  # by its path, where git saw no rename
    lookup.load(moved)
    named = [
        e.chunk_id
        for path in moved
        if (found := lookup.get(path)) is not None
        for e in found.entries
        if e.name == symbol
    ]
    named = olds.newcomers(named, cid, ref.revision, old)
    if len(named) == 1 and (old is None or kept(old, named[0], lookup) >= HOLLOW_BELOW):
        path = named[0].split(":")[0]
        by_path = path in paired
        renamed = Resolution(
            Status.RENAMED_FILE,
            named[0],
            detail=(
                f"{cid.path} became {path} (git saw no rename: its path under another extension)"
                if by_path
                else f"git says {cid.path} was moved or copied to {path}"
            ),
            evidence=f"same name in the file {'its path' if by_path else 'git'} moved it to",
        )
        if old is None:
            return renamed
        return partners.doubt(cid, ref, old, renamed, by_git=not by_path)
    if old is None:
        return None
    fresh = olds.newcomers_for(cid, ref.revision, old)
    return _enclosed(cid, old, lookup, moved, fresh, paired=paired) or by_body(
        cid, old, lookup, fresh, [cid.path, *moved]
    )


def _enclosed(
    cid: ChunkId, old: Body, lookup: Lookup, moved: list[str], fresh: Fresh, *, paired: list[str]
) -> Resolution | None:
    """In the file git (or, `paired`, its path) moved it to, the one definition (new since
    the revision) named as it was inside a scope that gained a name (an anonymous default
    export now a named function, a function moved into a class), keeping half of its
    body."""
    assert cid.symbol is not None
    suffix = f".{cid.symbol}"
    inside = [
        e.chunk_id
        for path in moved
        if (found := lookup.get(path)) is not None
        for e in found.entries
        if e.name is not None and e.name.endswith(suffix)
    ]
    inside = fresh(inside)
    alike = kept(old, inside[0], lookup) if len(inside) == 1 else 0.0
    if alike < HOLLOW_BELOW:
        return None
    who = "its path" if inside[0].split(":")[0] in paired else "git"
    evidence = f"its name in a named scope in the file {who} moved it to, body {alike:.2f} alike"
    return resolved(cid, inside[0], f"{who} says its file was moved", evidence)
