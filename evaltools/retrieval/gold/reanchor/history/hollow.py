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
    make_body,
    similarity,
    source_lines,
)
from evaltools.retrieval.gold.reanchor.history.by_body import Fresh
from evaltools.retrieval.gold.reanchor.history.old_defs import OldDefinitions, body_of
from evaltools.retrieval.gold.reanchor.lookup import Lookup
from evaltools.retrieval.gold.reanchor.resolve import Resolution, Status


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
    elsewhere = [(score, body) for score, body in elsewhere if body.chunk_id in took]
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


def outweighed_or(
    old: Body, cid: ChunkId, revision: str | None, result: Resolution, olds: OldDefinitions
) -> Resolution:
    """A name defined several times in its file at `revision` (two `#[cfg]` variants of a
    function) and fewer times now: its definition is the variant's it kept most of. The ID's,
    which kept under half while another kept more, is gone (nom 7 dropped the `lexical`
    `double`): `hollowed`, nothing fixed."""
    assert result.new_chunk_id is not None and cid.symbol is not None
    if revision is None or old.size < MIN_BODY_CHARS:
        return result
    then = [d for d in olds.at(cid.path, revision) if d.name == cid.symbol]
    new = body_of(result.new_chunk_id, olds.lookup)
    here = parse_chunk_id(result.new_chunk_id)
    found = olds.lookup.get(here.path)
    now = [] if found is None else [e for e in found.entries if e.name == here.symbol]
    if len(then) < 2 or new is None or len(now) >= len(then):
        return result
    kept = similarity(old, new)
    if kept >= HOLLOW_BELOW:
        return result
    lines = source_lines(olds.lookup.old_text(cid.path, revision) or b"")
    for d in then:
        if (d.start, d.end) == (cid.start, cid.end):
            continue
        other = similarity(make_body(cid.path, "", d.name, lines[d.start - 1 : d.end]), new)
        if other >= HOLLOW_BELOW and other > kept:
            return Resolution(
                Status.HOLLOWED,
                candidates=(result.new_chunk_id,),
                detail=f"`{cid.symbol}` was defined {len(then)} times in {cid.path} and is "
                f"now once, at {result.new_chunk_id}, which kept {kept:.0%} of this body and "
                f"{other:.0%} of the one at lines {d.start}-{d.end}",
                caveat=result.caveat,
            )
    return result
