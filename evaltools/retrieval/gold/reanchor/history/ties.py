"""Namesakes told apart: the IDs found as they are among same-named definitions of their
file (`twinned`: an `@overload` stub now where the implementation was), and ties among
several definitions of a name, broken by the old body, else by their order in the file."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from evaltools.retrieval.code.chunk_id import ChunkId
from evaltools.retrieval.gold.reanchor.history.bodies import (
    BODY_MARGIN,
    HOLLOW_BELOW,
    Body,
    similarity,
)
from evaltools.retrieval.gold.reanchor.history.old_defs import OldDefinitions, body_of, old_body
from evaltools.retrieval.gold.reanchor.history.order import in_order
from evaltools.retrieval.gold.reanchor.lookup import Lookup
from evaltools.retrieval.gold.reanchor.resolve import GoldRef, Resolution, Status, resolved

# A tie broken: the chunk ID, why (for the detail) and the evidence in a few words.
Pick = tuple[str, str, str]


def recheck_twins(
    twinned: set[GoldRef],
    ids: dict[GoldRef, ChunkId],
    results: dict[GoldRef, Resolution],
    lookup: Lookup,
    olds: OldDefinitions,
) -> list[tuple[GoldRef, ChunkId]]:
    """Revise, in place, the IDs found as they are among namesakes, by their old bodies;
    those without one, left to the set's own IDs."""
    plain: list[tuple[GoldRef, ChunkId]] = []
    for ref in [r for r in results if r in twinned]:  # the set's order: `twinned` has none
        cid = ids[ref]
        old = old_body(cid, ref, lookup)
        if old is None:
            plain.append((ref, cid))
        else:
            results[ref] = _recheck_twin(cid, ref, old, lookup, olds) or results[ref]
    return plain


def told_apart(
    cid: ChunkId,
    ref: GoldRef,
    old: Body,
    result: Resolution,
    *,
    lookup: Lookup,
    olds: OldDefinitions,
) -> Resolution | None:
    """Namesakes told apart by the old body, else by their order in the file."""
    pick = tie_break(old, result.candidates, lookup)
    if pick is None and ref.revision is not None:
        pick = in_order(cid, ref.revision, result.candidates, lookup, olds)
    return resolved(cid, *pick) if pick is not None else None


def twinned(
    ids: dict[GoldRef, ChunkId], results: dict[GoldRef, Resolution], lookup: Lookup
) -> set[GoldRef]:
    """The IDs found as they are (with a `revision`) whose name their file defines more than
    once; each file's names are counted once, not once an ID."""
    repeated: dict[str, set[str | None]] = {}
    found: set[GoldRef] = set()
    for ref, result in results.items():
        cid = ids[ref]
        if result.status is not Status.OK or ref.revision is None or cid.symbol is None:
            continue
        if cid.path not in repeated:
            entries = lookup.get(cid.path)
            names = [entry[0] for entry in entries.entries] if entries is not None else []
            unique = len(set(names)) == len(names)
            counts: Counter[str | None] = Counter() if unique else Counter(names)
            repeated[cid.path] = {name for name, count in counts.items() if count > 1}
        if cid.symbol in repeated[cid.path]:
            found.add(ref)
    return found


def _recheck_twin(
    cid: ChunkId, ref: GoldRef, old: Body, lookup: Lookup, olds: OldDefinitions
) -> Resolution | None:
    """An exact span among same-named definitions (an `@overload` stub now where the
    implementation was, a twin of the same body slid onto it) is right only if the body,
    or else their order, agrees."""
    found = lookup.get(cid.path)
    if found is None or ref.revision is None:
        return None
    twins = [e.chunk_id for e in found.entries if e.name == cid.symbol]
    pick = tie_break(old, twins, lookup) or in_order(cid, ref.revision, twins, lookup, olds)
    if pick is None or pick[0] == ref.chunk_id:
        return None
    return resolved(cid, *pick)


def tie_break(old: Body, candidates: Sequence[str], lookup: Lookup) -> Pick | None:
    """The one of same-named definitions whose body is the old one's: clearly the most
    alike, or the only one identical to it (two `#[cfg]` variants of one function)."""
    scored = sorted(
        ((similarity(old, b), c) for c in candidates if (b := body_of(c, lookup))),
        reverse=True,
    )
    # The name already fits each of them: the body need only prefer one clearly.
    if not scored or scored[0][0] < HOLLOW_BELOW:
        return None
    best, pick = scored[0]
    if len(scored) > 1 and best - scored[1][0] < BODY_MARGIN:
        if best == 1.0 and scored[1][0] < 1.0:
            return pick, "its body is the old one", "the only body identical among namesakes"
        return None
    second = f", the next {scored[1][0]:.2f}" if len(scored) > 1 else ""
    evidence = f"body {best:.2f} alike{second}"
    return pick, "its body tells the same-named definitions apart", evidence
