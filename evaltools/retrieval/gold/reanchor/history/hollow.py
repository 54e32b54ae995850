"""A name found again, gated by its body: it stands unless its body kept little of the old
one and another definition, one whose code was not already there, kept much; then the
ID is `hollowed` (both places reported, nothing fixed)."""

from __future__ import annotations

from evaltools.retrieval.code.chunk_id import parse_chunk_id
from evaltools.retrieval.gold.reanchor.history.bodies import (
    HOLLOW_BELOW,
    HOLLOW_GAIN,
    HOLLOW_OTHER,
    MIN_BODY_CHARS,
    Body,
    similarity,
)
from evaltools.retrieval.gold.reanchor.history.by_body import Fresh
from evaltools.retrieval.gold.reanchor.history.old_defs import body_of
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
