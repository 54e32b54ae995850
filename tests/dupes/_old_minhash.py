"""Oracle for the differential tests: MinHash and LSH before the bulk rework, a verbatim
copy of `evaltools/dupes/minhash.py`. Not used by evaltools."""

# mypy: ignore-errors
# ruff: noqa

from __future__ import annotations

import struct
import zlib
from collections.abc import Iterable, Iterator, Sequence
from functools import lru_cache
from itertools import repeat
from operator import eq, rshift

NUM_PERM = 128
SHINGLE_TOKENS = 5
DEFAULT_THRESHOLD = 0.5

_BIN_SHIFT = 57  # signed 64-bit hashes: the top 7 bits (-64..63) pick one of 128 bins
_BINS = range(-(NUM_PERM // 2), NUM_PERM // 2)

# 128 signed 64-bit values, packed: a tuple of Python ints would cost ~5 KB per signature.
# (Masking them to 32 bits halves the memory but was measured to double the packing time.)
Signature = bytes
_PACKED = struct.Struct(f"{NUM_PERM}q")
EMPTY = -(1 << 63)  # an empty bin of a sparse signature (hash() gives 64-bit values)
# XORed into a borrowed value, by distance: signed 64-bit values stay signed 64-bit.
_TAGS = tuple((d * 0x9E3779B97F4A7C15) % (1 << 64) - (1 << 63) for d in range(NUM_PERM))
# The tags of a run of n empty bins, left to right: distances n, n - 1, ..., 1.
_RUNS = tuple(_TAGS[n:0:-1] for n in range(NUM_PERM))
_MAX_CACHED_TOKENS = 1 << 20

Bins = dict[int, int]  # bin -> the smallest hash that fell into it


class _TokenIds(dict[str, int]):
    """Token -> CRC-32, computed once per distinct token (tokens repeat a lot)."""

    def __missing__(self, token: str) -> int:
        if len(self) >= _MAX_CACHED_TOKENS:
            self.clear()  # values are a pure function of the token: forgetting is safe
        value = self[token] = zlib.crc32(token.encode("utf-8", "surrogatepass"))
        return value


_IDS = _TokenIds()


def token_ids(text: str) -> list[int]:
    """Whitespace-separated tokens, as integers.

    A regular expression that splits out punctuation was measured ten to twenty times
    slower than `str.split` here, more than reading and parsing the example costs."""
    return list(map(_IDS.__getitem__, text.split()))


def shingles(ids: Sequence[int], size: int = SHINGLE_TOKENS) -> set[int]:
    """Hashes of every run of `size` consecutive ids (the whole run when shorter)."""
    if not ids:
        return set()
    if len(ids) <= size:
        return {hash(tuple(ids))}
    return set(map(hash, zip(*(ids[i:] for i in range(size)), strict=False)))


def char_shingles(text: str, size: int = 3) -> set[int]:
    """Hashes of every run of `size` characters: for short texts such as queries."""
    return shingles([ord(c) for c in text], size)


def bins(hashes: Iterable[int]) -> Bins:
    ordered = sorted(hashes, reverse=True)
    # Descending order: the last write to a bin is its smallest hash. All in C.
    return dict(zip(map(rshift, ordered, repeat(_BIN_SHIFT)), ordered, strict=True))


def union(a: Bins, b: Bins) -> Bins:
    """The bins of the union of two sets, from the bins of each."""
    out = dict(a)
    for key, value in b.items():
        if value < out.get(key, value + 1):
            out[key] = value
    return out


def _pack(values: Iterable[int]) -> Signature:
    return _PACKED.pack(*values)


def signature(hashes: Iterable[int] | Bins, *, dense: bool = True) -> Signature | None:
    """The 128-value signature of a set of shingle hashes (or of its bins); None for the
    empty set. A sparse signature marks empty bins EMPTY; a dense one (for LSH) fills each
    from the next filled bin to its right, tagged with the distance, so that two sets agree
    on it exactly when they agree on the donor."""
    first = hashes if isinstance(hashes, dict) else bins(hashes)
    if not first:
        return None
    if len(first) == NUM_PERM or not dense:
        return _pack(map(first.get, _BINS, repeat(EMPTY)))
    values: list[int | None] = list(map(first.get, _BINS))
    filled = sorted(b + NUM_PERM // 2 for b in first)
    previous = filled[-1] - NUM_PERM  # the last filled bin, one turn to the left
    for position in filled:
        donor = values[position]
        assert donor is not None
        # Negative positions wrap round: the run left of the first filled bin is the end.
        run = range(previous + 1, position)
        for empty, tag in zip(run, _RUNS[len(run)], strict=True):
            values[empty] = donor ^ tag
        previous = position
    return _PACKED.pack(*values)


def similarity(a: Signature | None, b: Signature | None) -> float:
    """Estimated Jaccard similarity of the two sets (0 when either is empty): the share
    of bins that agree, among those not empty in both."""
    if a is None or b is None:
        return 0.0
    words_a, words_b = memoryview(a).cast("q"), memoryview(b).cast("q")
    matches: int = sum(map(eq, words_a, words_b))
    if EMPTY in words_a and EMPTY in words_b:
        empty = sum(x == EMPTY and y == EMPTY for x, y in zip(words_a, words_b, strict=True))
        return (matches - empty) / (NUM_PERM - empty)
    return matches / NUM_PERM


@lru_cache(maxsize=16)
def bands(threshold: float, num_perm: int = NUM_PERM) -> tuple[int, int]:
    """(bands, rows) that minimise false positives plus false negatives around `threshold`,
    as datasketch's MinHashLSH chooses them (equal weights), by the midpoint rule."""
    steps = 200
    points = [(i + 0.5) / steps for i in range(steps)]
    best = (float("inf"), 1, num_perm)
    for b in range(1, num_perm + 1):
        for r in range(1, num_perm // b + 1):
            error = 0.0
            for s in points:
                p = 1.0 - (1.0 - s**r) ** b  # probability of becoming a candidate
                error += p if s < threshold else 1.0 - p
            best = min(best, (error / steps, b, r))
    return best[1], best[2]


class LshIndex:
    """Items by position; `candidates` gives each pair that shares a band, once, sorted."""

    def __init__(self, threshold: float) -> None:
        self.bands, self.rows = bands(round(threshold, 3))
        width = self.rows * _PACKED.size // NUM_PERM
        self._slices = [slice(b * width, (b + 1) * width) for b in range(self.bands)]
        self._buckets: list[dict[bytes, list[int]]] = [{} for _ in range(self.bands)]

    def add(self, position: int, sig: Signature) -> None:
        for buckets, key in zip(self._buckets, map(sig.__getitem__, self._slices), strict=True):
            buckets.setdefault(key, []).append(position)

    def candidates(self, across: int | None = None) -> Iterator[tuple[int, int]]:
        """Pairs (i, j), i < j; with `across`, only pairs with i < across <= j."""
        seen: set[tuple[int, int]] = set()
        for members in (m for buckets in self._buckets for m in buckets.values()):
            if len(members) < 2:
                continue
            for x, i in enumerate(members):
                for j in members[x + 1 :]:
                    if i == j or (across is not None and not (i < across <= j)):
                        continue
                    seen.add((i, j) if i < j else (j, i))
        yield from sorted(seen)
