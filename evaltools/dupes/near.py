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
1 - threshold of each other: a pair for certain, counted without comparing. An item is
compared with the leader of each group it shares a bucket with, earliest leader first; the
triangle inequality then decides the whole group (certain, or impossible) or most of its
members, and only the rest are compared.

Each item lists its first `listed` partners found (earlier items) with their exact
similarity and counts the others. Where most pairs are alike but not alike enough for the
triangle inequality to decide them (a template with several slots: most pairs 0.5-0.8),
counting every one would compare every pair: an item's count stops once `BUDGET`
comparisons are spent and its `listed` partners are found, and is then a lower bound
(`Partners.exact` false). An item with fewer partners than `listed` is always searched to
the end of its candidates: every item with a partner is reported. That search is what can
still grow with the pairs: a set where most items share a band with most others yet have
fewer than `listed` partners each (short queries around made-up names, most pairs 0.35-0.45
alike: benchmarks/bench_dupes.py --alike).
"""

from __future__ import annotations

from bisect import bisect_right, insort
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from itertools import chain

import numpy as np

from evaltools.dupes.minhash import Words, band_keys

# At most this many items are compared pair by pair (19,900 pairs): exact, no LSH.
EXACT_LIMIT = 200
# Partners listed per item; the rest are counted ("+N more").
LISTED = 5
# Exact comparisons an item may spend counting its partners once `LISTED` are found; past
# it, the count is a lower bound ("+N or more").
BUDGET = 64
# Distances are exact set ratios; this keeps a rounding error from deciding a pair.
_EPSILON = 1e-9


@dataclass
class Partners:
    """The earlier items one item is alike: the first few listed, the rest counted."""

    listed: list[tuple[int, float]] = field(default_factory=list)  # (position, similarity)
    more: int = 0
    exact: bool = True  # False: counting stopped at `BUDGET`, `more` is a lower bound


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


@dataclass
class _Groups:
    """The items registered so far: their groups, and the buckets each group is in."""

    leaders: dict[int, list[int]] = field(default_factory=dict)  # bucket -> leaders, sorted
    # bucket -> leader -> its members there (nested: a tuple key per entry cost a third more)
    held: dict[int, dict[int, list[int]]] = field(default_factory=dict)
    members: dict[int, list[int]] = field(default_factory=dict)  # leader -> its group
    distance: dict[int, float] = field(default_factory=dict)  # item -> to its leader
    spread: dict[int, float] = field(default_factory=dict)  # leader -> its largest distance

    def register(self, x: int, head: int, distance: float, ids: list[int]) -> None:
        self.distance[x] = distance
        self.members.setdefault(head, []).append(x)
        self.spread[head] = max(self.spread.get(head, 0.0), distance)
        for bucket in ids:
            groups = self.held.setdefault(bucket, {})
            held = groups.get(head)
            if held is None:
                groups[head] = [x]
                insort(self.leaders.setdefault(bucket, []), head)
            else:
                held.append(x)

    def in_order(self, ids: list[int]) -> Iterator[int]:
        """The leaders of the groups with a member in one of the buckets `ids`, earliest
        first."""
        return _merged([self.leaders[bucket] for bucket in ids if bucket in self.leaders])

    def held_by(self, leader: int, ids: list[int]) -> Iterator[int]:
        """The members of `leader`'s group in one of the buckets `ids`, in order."""
        empty: dict[int, list[int]] = {}
        return _merged([self.held.get(bucket, empty).get(leader, []) for bucket in ids])


def _merged(lists: list[list[int]]) -> Iterator[int]:
    """The distinct values of sorted `lists`, in order, taken a slice of each at a time
    (the first k after the last value yielded hold the next k of all): a caller that stops
    early never pays for whole lists, which may hold most of the set."""
    last, size = -1, 2 * LISTED
    while True:
        pending = [(values, bisect_right(values, last)) for values in lists]
        pending = [(values, at) for values, at in pending if at < len(values)]
        if not pending:
            return
        lists = [values for values, _ in pending]
        batch = sorted(set(chain.from_iterable(v[at : at + size] for v, at in pending)))[:size]
        yield from batch
        last, size = batch[-1], 2 * size


@dataclass
class _Search:
    """One item's search: partners decided one by one, groups decided whole."""

    x: int
    ids: list[int]
    groups: _Groups
    threshold: float
    similarity: Callable[[int, int], float]
    listed: int
    found: list[tuple[int, float | None]] = field(default_factory=list)  # None: certain
    whole: list[int] = field(default_factory=list)  # leaders of groups alike in full
    to_leader: dict[int, float] = field(default_factory=dict)
    own: int | None = None  # the group it joins
    spent: int = 0  # exact comparisons
    exact: bool = True

    def run(self) -> None:
        """The groups `x` shares a bucket with, earliest leader first: each decided whole
        by the triangle inequality through its leader where it can be, else member by
        member."""
        slack, radius = 1.0 - self.threshold, (1.0 - self.threshold) / 2
        for leader in self.groups.in_order(self.ids):
            if self.enough():
                return
            value = self.to_leader[leader] = self.compare(leader)
            apart, spread = 1.0 - value, self.groups.spread[leader]
            if self.own is None and apart <= radius - _EPSILON:
                self.own = leader  # two members of a group are a pair for certain
            if apart + spread <= slack - _EPSILON:
                self.whole.append(leader)
            elif apart - spread <= slack + _EPSILON and not self.decide(leader):
                return

    def decide(self, leader: int) -> bool:
        """The members of a group (those in a bucket with `x`) alike `x`: decided by the
        triangle inequality through their leader where it can, else compared. False
        when counting stopped."""
        slack = 1.0 - self.threshold
        value = self.to_leader[leader]
        apart = 1.0 - value
        if value >= self.threshold:
            self.found.append((leader, value))
        for y in self.groups.held_by(leader, self.ids):
            spread = self.groups.distance[y]
            if y == leader or apart - spread > slack + _EPSILON:
                continue
            if apart + spread <= slack - _EPSILON:
                self.found.append((y, None))
                continue
            if self.enough():
                return False
            found = self.compare(y)
            if found >= self.threshold:
                self.found.append((y, found))
        return True

    def compare(self, y: int) -> float:
        self.spent += 1
        return self.similarity(y, self.x)

    def count(self) -> int:
        members = self.groups.members
        return len(self.found) + sum(len(members[leader]) for leader in self.whole)

    def enough(self) -> bool:
        """Whether to stop counting: the budget spent and the listed partners found."""
        if self.spent >= BUDGET and self.count() >= self.listed:
            self.exact = False
        return not self.exact

    def partners(self) -> Partners:
        """The first `listed` partners found, measured; the rest counted. A group decided
        whole is never copied: it may hold most of the set."""
        members = self.groups.members
        certain = chain.from_iterable(members[leader][: self.listed] for leader in self.whole)
        first = sorted(self.found + [(y, None) for y in certain])[: self.listed]
        shown = [
            (y, known if known is not None else self.to_leader.get(y) or self.compare(y))
            for y, known in first
        ]
        return Partners(shown, self.count() - len(shown), self.exact)


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
    groups = _Groups()
    out: dict[int, Partners] = {}
    for x, ids in zip(positions, _shared_buckets(table, positions, threshold), strict=True):
        search = _Search(x, ids, groups, threshold, similarity, listed)
        search.run()
        reference = across is not None and x < across  # searched only to find its group
        if (search.found or search.whole) and not reference:
            out[x] = search.partners()
        if across is None or reference:
            own = search.own
            if own is None:
                groups.register(x, x, 0.0, ids)
            else:
                groups.register(x, own, 1.0 - search.to_leader[own], ids)
    return out
