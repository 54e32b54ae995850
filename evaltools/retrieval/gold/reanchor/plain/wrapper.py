"""Without the old body: a name found again in its file, now a short wrapper, while a
respelling of it there is as long as the ID was (zap 1.26 kept `ServeHTTP` as six lines
calling the new `serveHTTP`, which took the 29 lines): the body may have gone to either,
so the ID is `hollowed` (both places reported, nothing fixed). With the old body, the
bodies say which (`history.hollow`)."""

from __future__ import annotations

from evaltools.retrieval.code.chunk_id import ChunkId
from evaltools.retrieval.gold.reanchor.lookup import NAME_LENGTH_FACTOR, Lookup
from evaltools.retrieval.gold.reanchor.plain.no_history import respelled
from evaltools.retrieval.gold.reanchor.resolve import Resolution, Status
from evaltools.retrieval.gold.reanchor.scope import is_test_path


def wrapped(cid: ChunkId, result: Resolution, lookup: Lookup) -> Resolution | None:
    """`result` (the ID's name in its file) doubted when it is far shorter than the ID and
    one respelling of the name beside it is about as long as the ID."""
    found = lookup.get(cid.path)  # moved in its own file
    if found is None:
        return None
    entry = next((e for e in found.entries if e.chunk_id == result.new_chunk_id), None)
    if entry is None or entry.about_as_long(cid.start, cid.end, NAME_LENGTH_FACTOR):
        return None
    alike = [
        e
        for e in respelled(cid.symbol, found.entries, is_test_path(cid.path))
        if e.about_as_long(cid.start, cid.end, NAME_LENGTH_FACTOR)
    ]
    if len(alike) != 1 or result.new_chunk_id is None:
        return None
    lines = entry.end - entry.start + 1
    return Resolution(
        Status.HOLLOWED,
        candidates=(result.new_chunk_id, alike[0].chunk_id),
        detail=f"`{cid.symbol}` is still there but {lines} lines long, not "
        f"{cid.end - cid.start + 1}, and `{alike[0].name}` beside it is about as long as it was",
        caveat=result.caveat,
    )
