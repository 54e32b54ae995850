"""Same-named definitions told apart by their order, when their bodies cannot: two
`#[cfg]` variants of one function, a method of several `impl Index<..>` blocks, Java
overloads. With the old file at the record's revision: if it defined the name as many
times as the file does now, the ID's rank among them then is its rank now, provided each
body then is at least `HOLLOW_BELOW` alike to the one of its rank now and no other is more
alike (the bodies do not contradict the order: they cannot tell, or they agree). An
overload whose body now resembles its neighbour's more than its own (junit4's
`AssumptionViolatedException(String, Throwable)`, rewritten) stays for a person.
"""

from __future__ import annotations

from collections.abc import Sequence

from evaltools.retrieval.code.chunk_id import ChunkId, parse_chunk_id
from evaltools.retrieval.gold.reanchor.history.bodies import (
    HOLLOW_BELOW,
    make_body,
    similarity,
    source_lines,
)
from evaltools.retrieval.gold.reanchor.history.old_defs import OldDefinitions, body_of
from evaltools.retrieval.gold.reanchor.lookup import Lookup

# Namesakes weighed at most: each body then is compared with each now.
MAX_NAMESAKES = 12


def in_order(
    cid: ChunkId,
    revision: str,
    candidates: Sequence[str],
    lookup: Lookup,
    olds: OldDefinitions,
) -> tuple[str, str, str] | None:
    """The namesake of the ID's rank, why, and the evidence; None if the order does not
    say (another count, bodies that prefer another rank)."""
    paths = {parse_chunk_id(c).path for c in candidates}
    found = lookup.get(paths.pop()) if len(paths) == 1 else None
    if found is None:
        return None
    now = sorted((e for e in found.entries if e.name == cid.symbol), key=lambda e: e.start)
    then = sorted((d for d in olds.at(cid.path, revision) if d.name == cid.symbol),
                  key=lambda d: d.start)  # fmt: skip
    spans = [(d.start, d.end) for d in then]
    if len(now) != len(then) or not 2 <= len(now) <= MAX_NAMESAKES:
        return None
    if (cid.start, cid.end) not in spans:
        return None
    lines = source_lines(lookup.old_text(cid.path, revision) or b"")
    bodies = [body_of(e.chunk_id, lookup) for e in now]
    for rank, d in enumerate(then):
        body = make_body(cid.path, "", d.name, lines[d.start - 1 : d.end])
        scores = [similarity(body, b) if b is not None else 0.0 for b in bodies]
        if scores[rank] < HOLLOW_BELOW or scores[rank] < max(scores):
            return None
    rank = spans.index((cid.start, cid.end))
    leaf = (cid.symbol or "").rpartition(".")[2]
    evidence = f"the {_ordinal(rank + 1)} of {len(now)} `{leaf}` then and now, bodies in order"
    return now[rank].chunk_id, "its rank among its namesakes", evidence


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"
