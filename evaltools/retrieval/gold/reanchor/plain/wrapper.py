"""Without the old body: a name found again in its file, now a short wrapper calling a
respelling of it beside it that is as long as the ID was (zap 1.26 kept `ServeHTTP` as six
lines calling the new `serveHTTP`, which took the 29 lines): the body may have gone to
either, so the ID is `hollowed` (both places reported, nothing fixed). With the old body,
the bodies say which (`history.hollow`)."""

from __future__ import annotations

import re

from evaltools.retrieval.code.chunk_id import ChunkId
from evaltools.retrieval.gold.reanchor.lookup import NAME_LENGTH_FACTOR, Entry, Lookup
from evaltools.retrieval.gold.reanchor.plain.no_history import RESPELLED_LENGTH_FACTOR, respelled
from evaltools.retrieval.gold.reanchor.resolve import Resolution, Status
from evaltools.retrieval.gold.reanchor.scope import is_test_path


def wrapped(cid: ChunkId, result: Resolution, lookup: Lookup) -> Resolution | None:
    """`result` (the ID's name in its file) doubted when it is far shorter than the ID and
    calls the one respelling of the name in its own scope about as long as the ID was."""
    found = lookup.get(cid.path)  # moved in its own file
    if found is None or cid.symbol is None or result.new_chunk_id is None:
        return None
    entry = next((e for e in found.entries if e.chunk_id == result.new_chunk_id), None)
    was = cid.end - cid.start + 1
    if entry is None or (entry.end - entry.start + 1) * NAME_LENGTH_FACTOR >= was:
        return None  # a name that kept its length, or grew, kept its body
    owner = cid.symbol.rpartition(".")[0]
    alike = [
        e
        for e in respelled(cid.symbol, found.entries, is_test_path(cid.path))
        if e.name is not None
        and e.name.rpartition(".")[0] == owner
        and e.about_as_long(cid.start, cid.end, RESPELLED_LENGTH_FACTOR)
        and not entry.start <= e.start <= e.end <= entry.end
    ]
    if len(alike) != 1 or not _calls(entry, alike[0], lookup.text(cid.path)):
        return None
    return Resolution(
        Status.HOLLOWED,
        candidates=(result.new_chunk_id, alike[0].chunk_id),
        detail=f"`{cid.symbol}` is still there but {entry.end - entry.start + 1} lines long, "
        f"not {was}, calling `{alike[0].name}` beside it, which is about as long as it was",
        caveat=result.caveat,
    )


def _calls(wrapper: Entry, callee: Entry, text: bytes | None) -> bool:
    """The wrapper's lines name the callee's last name (no text, as from an index: yes)."""
    if text is None or callee.name is None:
        return text is None
    lines = text.decode("utf-8", "replace").split("\n")[wrapper.start - 1 : wrapper.end]
    leaf = re.escape(callee.name.rpartition(".")[2])
    return re.search(rf"(?<![\w$]){leaf}(?![\w$])", "\n".join(lines)) is not None
