"""A name found again, gated by its body: it stands unless its body kept little of the old
one and another definition, one whose code was not already there, kept much, or another
definition of the name then, gone since, is what it kept; then the ID is `hollowed` (the
places reported, nothing fixed)."""

from __future__ import annotations

from evaltools.retrieval.code.chunk_id import ChunkId, parse_chunk_id
from evaltools.retrieval.gold.reanchor.history.bodies import (
    HOLLOW_BELOW,
    HOLLOW_GAIN,
    HOLLOW_OTHER,
    MIN_BODY_CHARS,
    Body,
    similarity,
)
from evaltools.retrieval.gold.reanchor.history.by_body import Fresh
from evaltools.retrieval.gold.reanchor.history.old_defs import OldDefinitions, body_of
from evaltools.retrieval.gold.reanchor.lookup import Entry, Lookup
from evaltools.retrieval.gold.reanchor.resolve import Resolution, Status

# The other places a hollowed name's definitions are listed with, at most.
MAX_ELSEWHERE = 3


def hollowed_or(old: Body, result: Resolution, lookup: Lookup, arrived: Fresh) -> Resolution:
    """A name match stands unless its body kept little of the old one and another kept
    much (one whose code was not already there: a newcomer, or a name that took it)."""
    assert result.new_chunk_id is not None
    new = body_of(result.new_chunk_id, lookup)
    kept = similarity(old, new) if new is not None else 0.0
    if kept >= HOLLOW_BELOW or old.size < MIN_BODY_CHARS:
        return result
    index = lookup.bodies()
    if index is None:
        return result
    # A body now inside the name's own definition did not leave it (socket.io 3: the
    # constructor function `Client` became `class Client`, its body the `constructor`).
    here = parse_chunk_id(result.new_chunk_id)
    elsewhere = [
        (score, body)
        for score, body in index.near(old, HOLLOW_OTHER)[0]
        if score >= max(HOLLOW_OTHER, kept + HOLLOW_GAIN)
        and not parse_chunk_id(body.chunk_id).within(here)
    ]
    took = set(arrived([body.chunk_id for _, body in elsewhere]))
    went = [(score, body) for score, body in elsewhere if body.chunk_id in took]
    if not went:
        return result
    score, body = went[0]
    # A person chooses among every place the body is, copies that stood there too (the
    # source of a bundle's copy): those it went to first.
    places = [b.chunk_id for _, b in went] + [
        b.chunk_id for _, b in elsewhere if b.chunk_id not in took
    ]
    return Resolution(
        Status.HOLLOWED,
        candidates=(result.new_chunk_id, *places[:MAX_ELSEWHERE]),
        detail=f"`{old.name}` is still at {result.new_chunk_id} but kept {kept:.0%} of its "
        f"body, while {body.chunk_id} has {score:.0%} of it",
        caveat=result.caveat,
    )


def outweighed_or(
    old: Body, cid: ChunkId, revision: str | None, result: Resolution, olds: OldDefinitions
) -> Resolution:
    """A name defined several times in its file at `revision` (two `#[cfg]` variants of a
    function, Java overloads) and fewer times in the file found: its definition there is
    the variant's it kept clearly more of (`_outweighs`). The ID's was dropped (nom 7
    dropped the `lexical` `double`, click 8 its Python 2 branch) or went elsewhere:
    `hollowed`, nothing fixed, the name's definitions in the files git says the ID's became
    listed. Copies of the ID's body tell nothing apart; nor does anything when the ID's
    own definition, drawn as the parser draws it (decorators, doc comments), is there
    unchanged."""
    assert result.new_chunk_id is not None and cid.symbol is not None
    if revision is None:
        return result
    then = [d for d in olds.at(cid.path, revision) if d.name == cid.symbol]
    here = parse_chunk_id(result.new_chunk_id)
    now = _named(here.path, here.symbol, olds.lookup)
    if len(then) < 2 or len(now) >= len(then):
        return result
    new = body_of(result.new_chunk_id, olds.lookup)
    if new is None:
        return result
    variants = olds.bodies(cid.path, cid.symbol, revision)
    # The ID's own definition (its span as another chunker drew it, or as the parser does).
    drawn = [b for d, b in variants if d.start <= cid.end and cid.start <= d.end]
    kept = similarity(old, new)
    if kept == 1.0 or any(similarity(body, new) == 1.0 for body in drawn):
        return result
    mine = [*drawn, old]
    prints = {body.fingerprint for body in mine}
    for d, variant in variants:
        if variant in mine or variant.fingerprint in prints:
            continue
        other = similarity(variant, new)
        if _outweighs(kept, other, variant.size):
            elsewhere = [
                e.chunk_id
                for path in olds.lookup.moved_to(cid.path, revision)
                if path != here.path
                for e in _named(path, here.symbol, olds.lookup)
            ]
            return Resolution(
                Status.HOLLOWED,
                candidates=(result.new_chunk_id, *elsewhere[:MAX_ELSEWHERE]),
                detail=f"`{cid.symbol}` was defined {len(then)} times in {cid.path} at the "
                f"revision and is once in {here.path}, at lines {here.start}-{here.end}, which "
                f"kept {kept:.0%} of this body and {other:.0%} of the one then at lines "
                f"{d.start}-{d.end}",
                caveat=result.caveat,
            )
    return result


# A short variant's body is evidence of whose the definition left is only when that
# keeps nearly all of it (overloads that delegate in one line look alike).
SHORT_VARIANT_KEPT = 0.9


def _outweighs(kept: float, other: float, size: int) -> bool:
    """Whether another variant, `other` alike the definition found and `size` characters
    long, is clearly more its own than the ID's (`kept` alike): found unchanged; or, long,
    more of it kept while under half of the ID's was (commons-dbcp 2.0 replaced fifteen
    constructors with one written anew: the name says none of them is it); or, short,
    nearly all of it kept and a quarter more than of the ID's (commons-beanutils 2.0 kept
    one of a converter's constructors, edited)."""
    if other == 1.0:
        return True
    if size < MIN_BODY_CHARS:
        return other >= max(SHORT_VARIANT_KEPT, kept + HOLLOW_GAIN)
    return kept < HOLLOW_BELOW and other > kept


def _named(path: str, name: str | None, lookup: Lookup) -> list[Entry]:
    found = lookup.get(path)
    return [] if found is None else [e for e in found.entries if e.name == name]
