"""Without history, a module's content taken out into a file named for it (indicatif 0.17:
`mod rayon_support` of `iter.rs` became `rayon.rs`, `rayon_support.ProgressConsumer.new` is
`ProgressConsumer.new` there): `X.T.rest` missing from its file, which defines nothing of
`X` any more, and `T.rest` defined once in the rest of the tree (same language, tests
apart), about as long, in a file whose name shares a word with `X`, new there as far as the
set shows (`Standing`: not in a file, package or type the set shows standing then). A
class's method become a function (`X.rest` to `rest`) is no such move: `T.rest` keeps a
scope. One name alone may be a replacement, so at least `MIN_SIBLINGS` of the set's IDs of
that file and module (this one included, none nested in another) must land so in that same
file. With history, `history/owners.py` follows such a type.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from evaltools.retrieval.code.chunk_id import ChunkId
from evaltools.retrieval.gold.reanchor.lookup import NAME_LENGTH_FACTOR, Entry, Lookup
from evaltools.retrieval.gold.reanchor.plain.no_history import SetEvidence
from evaltools.retrieval.gold.reanchor.plain.standing import Standing
from evaltools.retrieval.gold.reanchor.resolve import GoldRef, Resolution, resolved
from evaltools.retrieval.gold.reanchor.scope import file_stem, is_test_path, scope_of
from evaltools.retrieval.gold.reanchor.similarity import name_words

# This many of the set's IDs of one module in one file land together in another.
MIN_SIBLINGS = 2


def taken_out(
    cid: ChunkId,
    ref: GoldRef,
    *,
    lookup: Lookup,
    the_set: SetEvidence,
    standing: Standing,
    holding: Mapping[str, Sequence[Entry]],
) -> Resolution | None:
    """Where the ID went, its module taken out into a file of its own; None when not so."""
    landed = _landing(cid, ref, lookup, the_set, holding)
    symbol = cid.symbol or ""
    wrapper = symbol.partition(".")[0]
    if landed is None or standing.may_have_been_there(cid, ref, landed.chunk_id, False):
        return None
    # Other definitions: one nested in the ID (a test's helper), or around it, is its own.
    siblings = {
        c
        for r, c in the_set.ids.items()
        if r.revision == ref.revision
        and c.path == cid.path
        and (c.symbol or "").startswith(f"{wrapper}.")
        and not _nested(c.symbol or "", symbol)
    }
    along = sum(
        (other := _landing(c, ref, lookup, the_set, holding)) is not None
        and other.path == landed.path
        for c in siblings
    )
    if along + 1 < MIN_SIBLINGS:
        return None
    evidence = f"taken out of {wrapper} into {landed.path} with {along} of its siblings"
    return resolved(cid, landed.chunk_id, "", evidence)


def _landing(
    cid: ChunkId,
    ref: GoldRef,
    lookup: Lookup,
    the_set: SetEvidence,
    holding: Mapping[str, Sequence[Entry]],
) -> Entry | None:
    """The one definition of `T.rest` outside the ID's file, in a file named for `X`, when
    the ID's file defines nothing of `X`: same language, tests apart, about as long, not
    named there by the set."""
    wrapper, _, rest = (cid.symbol or "").partition(".")
    if "." not in rest:
        return None
    found = lookup.get(cid.path)
    if found is None:
        return None  # the file is gone: a move of the file, not of the module
    names = [e.name for e in found.entries if e.name is not None]
    if any(n == wrapper or n.startswith(f"{wrapper}.") for n in names):
        return None  # the module (or a part of it) is still there
    language, test = scope_of(cid.path)[0], is_test_path(cid.path)
    words = name_words(wrapper)
    same = [
        e
        for e in holding.get(rest, ())
        if e.path != cid.path and scope_of(e.path)[0] == language and is_test_path(e.path) == test
    ]
    if len(same) != 1 or not same[0].about_as_long(cid.start, cid.end, NAME_LENGTH_FACTOR):
        return None
    if not words & name_words(file_stem(same[0].path)):
        return None  # a file of another name: another module's, not this one taken out
    return same[0] if the_set.newcomers([same[0].chunk_id], (ref.revision, cid.path)) else None


def _nested(one: str, other: str) -> bool:
    """The two names are one, or one holds the other."""
    return one == other or one.startswith(f"{other}.") or other.startswith(f"{one}.")
