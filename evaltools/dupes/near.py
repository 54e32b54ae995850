"""Every near pair at or above a threshold, in time near-linear in the items when many are
alike, and in memory bounded by the items, not by the pairs.

Candidates: every earlier item when the set is small (`EXACT_LIMIT`), else the items that
share an LSH band (`minhash.bands`: chosen so that a pair 0.01 above the threshold is
missed with probability below 1%). Every candidate is verified by exact Jaccard
similarity.

Many alike items would make every pair a candidate and a finding (a templated set of N
makes N²/2). They are gathered instead into tight groups: an item joins the first group
whose first item (its leader) is within distance (1 - threshold) / 2 of it. Jaccard
distance (1 - similarity) is a metric, so two members of one group are within
1 - threshold of each other: a pair for certain, counted without comparing. An item in
another group is compared with that group's leader once; the triangle inequality then
decides most of its members (certain, or impossible) and only the rest are compared.

Each item lists its first `listed` partners (earlier items) with their exact similarity
and counts the others: no pair is dropped, and none is built only to be counted.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from itertools import chain

import numpy as np

from evaltools.dupes.minhash import Words, band_keys

# At most this many items are compared pair by pair (19,900 pairs): exact, no LSH.
EXACT_LIMIT = 200
# Partners listed per item; the rest are counted ("+N more").
LISTED = 5
# Distances are exact set ratios; this keeps a rounding error from deciding a pair.
_EPSILON = 1e-9


@dataclass
class Partners:
    """The earlier items one item is alike: the first few listed, the rest counted."""

    listed: list[tuple[int, float]] = field(default_factory=list)  # (position, similarity)
    more: int = 0


def _shared_buckets(table: Words, positions: Sequence[int], threshold: float) -> list[list[int]]:
    """For each of `positions`, the LSH buckets (numbered across bands) it shares with
    another of them; all share one bucket when the set is small enough to compare whole."""
    if len(positions) <= EXACT_LIMIT:
        return [[0] for _ in positions]
    keys = band_keys(table, positions, threshold)  # a row per position, a column per band
    ids = np.empty(keys.shape, dtype=np.intp)
    shared = np.empty(keys.shape, dtype=bool)
    offset = 0
    for band in range(keys.shape[1]):
        _, inverse, counts = np.unique(keys[:, band], return_inverse=True, return_counts=True)
        ids[:, band] = inverse + offset
        shared[:, band] = counts[inverse] > 1
        offset += len(counts)
    rows, columns = np.nonzero(shared)  # by row, then band
    ends = np.searchsorted(rows, np.arange(1, len(positions) + 1)).tolist()
    flat = ids[rows, columns].tolist()
    return [flat[start:end] for start, end in zip([0, *ends], ends, strict=False)]


def near_pairs(
    table: Words,
    positions: Sequence[int],
    threshold: float,
    similarity: Callable[[int, int], float],
    *,
    across: int | None = None,
    listed: int = LISTED,
) -> dict[int, Partners]:
    """For each of `positions` (increasing) alike an earlier one (exact Jaccard
    `similarity` at least `threshold`), its partners; with `across`, only partners
    before `across` for items from it on."""
    radius = (1.0 - threshold) / 2  # two members of a group are a pair for certain
    buckets: dict[int, dict[int, list[int]]] = {}  # bucket -> leader -> members in it
    distance: dict[int, float] = {}  # a registered item's distance to its leader
    members: dict[int, list[int]] = {}  # leader -> its group, in order
    out: dict[int, Partners] = {}
    for x, ids in zip(positions, _shared_buckets(table, positions, threshold), strict=True):
        near: dict[int, list[list[int]]] = {}
        for bucket in ids:
            for leader, held in buckets.get(bucket, {}).items():
                near.setdefault(leader, []).append(held)
        to_leader = {leader: similarity(leader, x) for leader in sorted(near)}
        own = next((c for c, v in to_leader.items() if 1.0 - v <= radius - _EPSILON), None)
        found: list[tuple[int, float | None]] = []  # None: certain, not yet measured
        for leader, lists in near.items():
            if leader != own:
                found += _decide(
                    x,
                    leader,
                    lists,
                    to_leader=to_leader,
                    distance=distance,
                    threshold=threshold,
                    similarity=similarity,
                )
        group = members.get(own, []) if own is not None else []
        if found or group:
            out[x] = _partners(
                x, found, group, to_leader=to_leader, similarity=similarity, listed=listed
            )
        if across is None or x < across:
            head = x if own is None else own
            distance[x] = 0.0 if own is None else 1.0 - to_leader[own]
            members.setdefault(head, []).append(x)
            for bucket in ids:
                buckets.setdefault(bucket, {}).setdefault(head, []).append(x)
    return out


def _decide(
    x: int,
    leader: int,
    held: list[list[int]],
    *,
    to_leader: dict[int, float],
    distance: dict[int, float],
    threshold: float,
    similarity: Callable[[int, int], float],
) -> list[tuple[int, float | None]]:
    """The members of another group (those in a bucket with `x`) alike `x`: decided by
    the triangle inequality through their leader where it can, else compared."""
    slack = 1.0 - threshold
    apart = 1.0 - to_leader[leader]
    out: list[tuple[int, float | None]] = []
    for y in sorted(set(chain.from_iterable(held))):
        if y == leader:
            if to_leader[leader] >= threshold:
                out.append((y, to_leader[leader]))
            continue
        spread = distance[y]
        if apart - spread > slack + _EPSILON:
            continue
        if apart + spread <= slack - _EPSILON:
            out.append((y, None))
            continue
        value = similarity(y, x)
        if value >= threshold:
            out.append((y, value))
    return out


def _partners(
    x: int,
    found: list[tuple[int, float | None]],
    group: list[int],
    *,
    to_leader: dict[int, float],
    similarity: Callable[[int, int], float],
    listed: int,
) -> Partners:
    """The first `listed` of `found` and of `group` (all certain), measured; the rest
    counted. `group` is never copied: it may hold most of the set."""
    first = sorted(found + [(y, None) for y in group[:listed]])[:listed]
    shown = [
        (y, known if known is not None else to_leader.get(y) or similarity(y, x))
        for y, known in first
    ]
    return Partners(shown, len(found) + len(group) - len(shown))
