"""Where a gold ID went by its name alone, after its body (if any) placed it nowhere: the
qualified name defined once where the language allows one, about as long as it was, and,
with the old body, keeping half of it."""

from __future__ import annotations

from evaltools.retrieval.code.chunk_id import ChunkId, parse_chunk_id
from evaltools.retrieval.gold.reanchor.history.bodies import HOLLOW_BELOW, MIN_BODY_CHARS, Body
from evaltools.retrieval.gold.reanchor.history.hollow import hollowed_or
from evaltools.retrieval.gold.reanchor.history.old_defs import OldDefinitions, kept
from evaltools.retrieval.gold.reanchor.history.owners import Owners
from evaltools.retrieval.gold.reanchor.history.partners import Partners
from evaltools.retrieval.gold.reanchor.history.with_type import moved_with_its_type
from evaltools.retrieval.gold.reanchor.lookup import NAME_LENGTH_FACTOR, Entry, Lookup
from evaltools.retrieval.gold.reanchor.plain.moved import RenamedFiles
from evaltools.retrieval.gold.reanchor.plain.no_history import SetEvidence
from evaltools.retrieval.gold.reanchor.plain.split import Successors
from evaltools.retrieval.gold.reanchor.plain.standing import Standing
from evaltools.retrieval.gold.reanchor.plain.taken_out import taken_out
from evaltools.retrieval.gold.reanchor.rename import Scopes
from evaltools.retrieval.gold.reanchor.resolve import GoldRef, Resolution, Status, resolved
from evaltools.retrieval.gold.reanchor.scope import (
    is_declaration_file,
    is_java_constructor,
    is_test_path,
    scope_of,
    scope_word,
    unique_by_language,
)
from evaltools.retrieval.gold.reanchor.similarity import name_words
from evaltools.retrieval.gold.reanchor.unwrapped import unwrapped

# An ID left to its name: the ID, its chunk ID, its symbol and its old body (if any).
ByName = tuple[GoldRef, ChunkId, str, Body | None]


def by_names(
    by_name: list[ByName],
    results: dict[GoldRef, Resolution],
    lookup: Lookup,
    olds: OldDefinitions,
    the_set: SetEvidence,
) -> dict[str, list[Entry]]:
    """The IDs no body placed, by their names, in one pass over the tree; the definitions
    of the tree with their last names, by qualified name."""
    holding = _holding(by_name, lookup)
    standing, renamed = Standing(the_set), RenamedFiles(the_set)
    at_home = RenamedAtHome(holding)
    plain: list[tuple[GoldRef, ChunkId, Body | None]] = []  # no name nor body placed them
    # Without old bodies, the IDs of one revision each name alone sends to one definition.
    claims: dict[tuple[str, str], list[tuple[GoldRef, ChunkId, Resolution]]] = {}
    for ref, cid, symbol, old in by_name:
        if old is None and results[ref].status is Status.MISSING_FILE:
            moved = the_set.moved_folder(cid, ref) or renamed.place(cid, ref)
            if moved is not None:
                if not at_home.doubts(cid, moved) and not _another_constructor(cid, moved):
                    results[ref] = moved
                continue
        item = (ref, cid, symbol, old)
        found, twins = _by_namesakes(item, holding, lookup=lookup, olds=olds, the_set=the_set)
        if found is None or found.new_chunk_id is None:
            plain.append((ref, cid, old))
            continue
        if old is None and (at_home.doubts(cid, found) or _another_constructor(cid, found)):
            continue
        # Without the old body, a namesake that may have stood there all along is no move.
        if old is None and standing.may_have_been_there(cid, ref, found.new_chunk_id, twins):
            plain.append((ref, cid, old))  # a split may still show where it went
            continue
        if old is None and ref.revision is not None:
            claims.setdefault((ref.revision, found.new_chunk_id), []).append((ref, cid, found))
        else:
            results[ref] = found
    for claim in claims.values():
        for ref, _, found in _heirs(claim):
            results[ref] = found
    if plain:
        _by_successors(
            plain,
            results,
            lookup=lookup,
            the_set=the_set,
            holding=holding,
            standing=standing,
            at_home=at_home,
            olds=olds,
        )
    return holding


def _holding(by_name: list[ByName], lookup: Lookup) -> dict[str, list[Entry]]:
    """The definitions of the tree with the IDs' last names, by qualified name."""
    leaves = {symbol.rpartition(".")[2] for _, _, symbol, _ in by_name}
    holding: dict[str, list[Entry]] = {}
    for _, entry in lookup.holding(leaves):
        if entry.name is not None:
            holding.setdefault(entry.name, []).append(entry)
    return holding


def _by_namesakes(
    item: ByName,
    holding: dict[str, list[Entry]],
    *,
    lookup: Lookup,
    olds: OldDefinitions,
    the_set: SetEvidence,
) -> tuple[Resolution | None, bool]:
    """What the ID's namesakes new since its revision say of where it went, and whether
    some may have stood there all along (`_namesakes_new`'s twins)."""
    ref, cid, symbol, old = item
    declared = is_declaration_file(cid.path)
    same = [e for e in holding.get(symbol, []) if is_declaration_file(e.path) == declared]
    entries, twins = _namesakes_new(same, ref, cid, old, olds=olds, the_set=the_set)
    unique = _unique_namesake(cid, symbol, entries, old)
    found = _by_unique_name(cid, symbol, unique, old, lookup)
    if found is None and old is not None:
        found = _with_its_type(cid, ref, unique, old=old, olds=olds)
    if found is None and old is None:
        found = _shifted_to_one_file(cid, ref, entries, the_set)
    return found, twins


def place_by_name(
    by_name: list[ByName],
    results: dict[GoldRef, Resolution],
    lookup: Lookup,
    *,
    history: tuple[OldDefinitions, Scopes],
    the_set: SetEvidence,
    partners: Partners,
) -> None:
    """The IDs no body placed: by their names, then a new owner of their bodies, then a
    wrapper dissolved around them."""
    olds = history[0]
    holding = by_names(by_name, results, lookup, olds, the_set)
    owners = Owners(lookup, history, partners)
    for ref, cid, symbol, old in by_name:
        # A name still defined somewhere did not go to another owner.
        if old is None or ref.revision is None or holding.get(symbol):
            continue
        if results[ref].status.missing and (went := owners.place(cid, ref, old)) is not None:
            results[ref] = _unless_body_elsewhere(cid, ref, old, went, olds)
    standing = Standing(the_set)
    for ref, cid, _, old in by_name:
        if results[ref].status is Status.MISSING_SYMBOL:
            dissolved = unwrapped(cid, ref, old, lookup=lookup, olds=olds, the_set=the_set)
            if dissolved is not None and old is not None:
                dissolved = _unless_body_elsewhere(cid, ref, old, dissolved, olds)
            if dissolved is None and old is None:
                dissolved = taken_out(
                    cid, ref, lookup=lookup, the_set=the_set, standing=standing, holding=holding
                )
            results[ref] = dissolved or results[ref]


def _unless_body_elsewhere(
    cid: ChunkId, ref: GoldRef, old: Body, found: Resolution, olds: OldDefinitions
) -> Resolution:
    """`found`, a place its name and siblings gave whatever its body became, unless the
    body went elsewhere: then `hollowed` (`hollow.hollowed_or`)."""
    if found.new_chunk_id is None:
        return found
    return hollowed_or(old, found, olds.lookup, olds.arrived_for(cid, ref.revision, old))


def _namesakes_new(
    same: list[Entry],
    ref: GoldRef,
    cid: ChunkId,
    old: Body | None,
    *,
    olds: OldDefinitions,
    the_set: SetEvidence,
) -> tuple[list[Entry], bool]:
    """Of the definitions of the ID's name, those new since its revision (by the history,
    else by what the set shows), and whether some of the others stood apart where they were:
    the name is then a common one. Those the set shows moved along with their files are
    only no home."""
    fresh = olds.newcomers([e.chunk_id for e in same], cid, ref.revision, old)
    standing_apart = len(fresh)
    if old is None:
        place = (ref.revision, cid.path)
        standing_apart = len(the_set.newcomers(fresh, place, through_renames=False))
        fresh = the_set.newcomers(fresh, place)
    return [e for e in same if e.chunk_id in fresh], standing_apart < len(same)


class RenamedAtHome:
    """Without the old body, a method sent by its name alone to another scope, while its
    own scope holds its last name under a type whose name keeps every word of its old
    type's (jackson-core 2.13: `failing/ParserErrorHandlingTest` became
    `ParserErrorHandling105Test` there, and `read/ParserErrorHandlingTest`, there all
    along, holds the same test names): two places, a person chooses."""

    def __init__(self, holding: dict[str, list[Entry]]) -> None:
        self.holding = holding
        self._by_leaf: dict[str, list[Entry]] | None = None

    def doubts(self, cid: ChunkId, found: Resolution) -> bool:
        owner, dot, leaf = (cid.symbol or "").rpartition(".")
        scope = scope_of(cid.path)
        if not dot or found.new_chunk_id is None:
            return False
        if scope_of(parse_chunk_id(found.new_chunk_id).path) == scope:
            return False
        if self._by_leaf is None:
            self._by_leaf = {}
            for entries in self.holding.values():
                for entry in entries:
                    if entry.leaf is not None:
                        self._by_leaf.setdefault(entry.leaf, []).append(entry)
        words = name_words(owner.rpartition(".")[2])
        return any(
            other not in ("", owner)
            and scope_of(entry.path) == scope
            and words <= name_words(other.rpartition(".")[2])
            for entry in self._by_leaf.get(leaf, [])
            for other in [(entry.name or "").rpartition(".")[0]]
        )


def _another_constructor(cid: ChunkId, found: Resolution) -> bool:
    """Whether `found`, a Java constructor's place by its name alone, may be another of its
    class's constructors: the name is the class's, so a place of another length is not
    it (commons-beanutils 2.0 dropped deprecated constructors as its package moved to
    `beanutils2`). One as long still may be: a plain tree cannot tell."""
    if found.new_chunk_id is None or not is_java_constructor(cid.path, cid.symbol):
        return False
    new = parse_chunk_id(found.new_chunk_id)
    return new.end - new.start != cid.end - cid.start


def _heirs(
    claim: list[tuple[GoldRef, ChunkId, Resolution]],
) -> list[tuple[GoldRef, ChunkId, Resolution]]:
    """Of several IDs of one revision that their names alone send to one definition, those
    exactly as long as it, if some are: the others are other definitions of one name in
    other modules (env_logger 0.11: `filter/mod.rs`'s `Filter.fmt` went to the new crate's
    `filter.rs`; `filter/regex.rs`' and `filter/string.rs`', as long as each other, became
    `FilterOp.fmt`). Cfg alternatives merged into one file are all as long, and all kept."""
    if len(claim) < 2:
        return claim
    target = parse_chunk_id(claim[0][2].new_chunk_id or "")
    size = target.end - target.start
    exact = [c for c in claim if c[1].end - c[1].start == size]
    return exact or claim


def _by_successors(
    plain: list[tuple[GoldRef, ChunkId, Body | None]],
    results: dict[GoldRef, Resolution],
    *,
    lookup: Lookup,
    the_set: SetEvidence,
    holding: dict[str, list[Entry]],
    standing: Standing,
    at_home: RenamedAtHome,
    olds: OldDefinitions,
) -> None:
    """The IDs no name nor body placed, where the split of their file put them (`split`).
    Without the old body, unless the namesake there may have stood there all along
    (`standing`) or its type was renamed at home (`at_home`); with it (a body too short or
    too rewritten to tell namesakes apart: node-semver 7's one-line `major`, `minor`,
    `patch`), only in its module of its own, if git shows that definition new since the
    revision and keeping half of the body."""
    successors = Successors(the_set, results, holding, lookup)
    for ref, cid, old in plain:
        if old is not None:
            found = successors.own_module(ref, cid)
            if (
                found is not None
                and (new := found.new_chunk_id) is not None
                and olds.newcomers([new], cid, ref.revision, old)
                and kept(old, new, lookup) >= HOLLOW_BELOW
            ):
                results[ref] = found
            continue
        found = successors.place(ref, cid)
        if found is None or found.new_chunk_id is None:
            continue
        same = holding.get(cid.symbol or "", [])
        place = (ref.revision, cid.path)
        fresh = the_set.newcomers([e.chunk_id for e in same], place, through_renames=False)
        twins = len(fresh) < len(same)
        along = successors.tests_along(ref, cid, found.new_chunk_id)
        stood = standing.may_have_been_there(cid, ref, found.new_chunk_id, twins, along)
        if not stood and not at_home.doubts(cid, found) and not _another_constructor(cid, found):
            results[ref] = found


def _shifted_to_one_file(
    cid: ChunkId, ref: GoldRef, entries: list[Entry], the_set: SetEvidence
) -> Resolution | None:
    """Without old bodies, namesakes that left their file together for the one file now
    holding their name (never across test and other code) follow the one shift that
    places all of the set's namesakes of that file there (`SetEvidence.shifted`):
    arrayvec 0.7 moved `ArrayVec`'s three `IntoIterator` impls (for `T`, `&T`, `&mut T`)
    from `lib.rs` to `arrayvec.rs`."""
    test = is_test_path(cid.path)
    homes = {entry.path for entry in entries if is_test_path(entry.path) == test}
    if len(homes) != 1:
        return None
    home = homes.pop()
    found = the_set.shifted(cid, ref, home)
    if found is None or found.new_chunk_id is None:
        return found
    return resolved(cid, found.new_chunk_id, "", f"{found.evidence} into {home}, their one file")


def _by_unique_name(
    cid: ChunkId, symbol: str, unique: tuple[Entry, str] | None, old: Body | None, lookup: Lookup
) -> Resolution | None:
    """Name-only evidence, about as long: the qualified name defined once in its scope
    where the language allows no second one (a Go or Java package), else once in the tree
    (a method, or in a file of the same name). Never across test and other code. With the
    old body (rewritten past a body match), the one place must also keep half of it: then
    a function's name needs no same-named file if that body is not a short one."""
    if unique is None:
        return None
    entry, evidence = unique
    if not entry.about_as_long(cid.start, cid.end, NAME_LENGTH_FACTOR):
        return None
    if old is not None:
        alike = kept(old, entry.chunk_id, lookup)
        if alike < HOLLOW_BELOW:
            return None
        evidence += f", body {alike:.2f} alike"
    return resolved(cid, entry.chunk_id, f"`{symbol}` is defined once", evidence)


def _unique_namesake(
    cid: ChunkId, symbol: str, same: list[Entry], old: Body | None
) -> tuple[Entry, str] | None:
    """The one place of the name (`_by_unique_name`'s), and why it is the one."""
    test = is_test_path(cid.path)
    scope = scope_of(cid.path)
    local = [e for e in same if scope_of(e.path) == scope]
    if unique_by_language(cid.path) and len(local) == 1 and is_test_path(local[0].path) == test:
        return local[0], f"name defined once in its {scope_word(cid.path)}"
    if len(same) != 1 or is_test_path(same[0].path) != test:
        return None
    basename = cid.path.rpartition("/")[2]
    # A function's name alone is common (a method's `Class.` is not), unless a body
    # long enough to tell says so: a short one is mostly its signature.
    told = old is not None and old.size >= MIN_BODY_CHARS
    if "." not in symbol and same[0].path.rpartition("/")[2] != basename and not told:
        return None
    return same[0], "name defined once in the tree"


def _with_its_type(
    cid: ChunkId,
    ref: GoldRef,
    unique: tuple[Entry, str] | None,
    *,
    old: Body,
    olds: OldDefinitions,
) -> Resolution | None:
    """The name's one place (`_unique_namesake`'s) whatever the body became, its type
    moved there with most of its members (`with_type`)."""
    if unique is None or ref.revision is None:
        return None
    entry, evidence = unique
    why = moved_with_its_type(cid, ref.revision, entry, olds)
    if why is None:
        return None
    found = resolved(cid, entry.chunk_id, "its type moved with its members", f"{evidence}, {why}")
    return _unless_body_elsewhere(cid, ref, old, found, olds)
