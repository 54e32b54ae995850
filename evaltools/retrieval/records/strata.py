"""Stratified shares of a set: how many of each type, and which ones, for a seed.

Used by `gold sample` (audit pairs), `gold split` (holdout queries) and `gold stats` (how
near a holdout is to its share). A share of a type is met to within one item at any size:
each type gets the floor or the ceiling of its exact share, and the total is the rounded
share of everything (largest remainder). Which items fill a quota follows a ranking by a
hash of the seed and the item's identity, so an item's rank never depends on the other
items: adding items changes the choice only where a new item ranks ahead of an old one, or
the quota itself changes.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Mapping
from fractions import Fraction

from evaltools.retrieval.records.record import RECORD_TYPES


def unit_hash(*parts: str) -> float:
    """A deterministic, uniform number in [0, 1) from the parts (seed, qid, ...)."""
    digest = hashlib.sha256("\x1f".join(parts).encode("utf-8")).digest()
    return int.from_bytes(digest[:8], "big") / 2**64


def type_key(type_name: str) -> tuple[int, str]:
    """Strata in a fixed order: the three spec types first, then any others by name."""
    if type_name in RECORD_TYPES:
        return (RECORD_TYPES.index(type_name), "")
    return (len(RECORD_TYPES), type_name)


def exact_share(fraction: float) -> Fraction:
    """The share as the decimal the user wrote: 0.1 is 1/10, not the binary float near it,
    so that 0.1 of 5 items is exactly one half (and rounds up)."""
    return Fraction(repr(fraction))


def round_half_up(value: Fraction) -> int:
    # Not round(): banker's rounding would hold out 0 of 5 queries at 10% but 1 of 15.
    return math.floor(value + Fraction(1, 2))


def target_count(fraction: float, size: int) -> int:
    """The number of `size` items that is nearest to `fraction` of them (halves round up)."""
    return round_half_up(exact_share(fraction) * size)


def quotas(sizes: Mapping[str, int], fraction: float) -> dict[str, int]:
    """Per stratum, floor or ceiling of ``fraction * size``, summing to `target_count` of all.

    Largest remainder: every stratum gets the floor of its exact share, and the units left
    go to the strata with the largest fractional parts (ties in `type_key` order).
    """
    share = exact_share(fraction)
    exact = {name: share * size for name, size in sizes.items()}
    counts = {name: math.floor(value) for name, value in exact.items()}
    left = target_count(fraction, sum(sizes.values())) - sum(counts.values())
    by_remainder = sorted(
        (name for name in exact if exact[name] != counts[name]),
        key=lambda name: (-(exact[name] - counts[name]), type_key(name)),
    )
    for name in by_remainder[:left]:
        counts[name] += 1
    return counts
