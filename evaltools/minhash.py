"""MinHash signatures and LSH banding: near-duplicate candidates without comparing all pairs.

Shared by the example and the retrieval halves of `evaltools dupes`. Defaults are those of
Zed's `ep --max-duplicates`: Jaccard 0.5, 128 hashes, 5-token shingles.

Signatures are one-permutation MinHash (Li, Owen and Zhang 2012) with rotation
densification (Shrivastava and Li 2014): each shingle is hashed once, its top 7 bits pick
one of 128 bins, and a bin keeps its smallest hash. The usual k-permutation MinHash
(`datasketch`) hashes every shingle 128 times; measured on this project's inputs it was
about five times slower per example, and its import (numpy, scipy) costs most of a second.

Every hash is deterministic across runs and processes: tokens become integers by CRC-32,
shingles are tuples of integers, and Python's hash of an integer tuple is not salted.
"""

from __future__ import annotations

import re
import zlib
from array import array
from collections.abc import Iterable, Iterator, Sequence
from functools import lru_cache
from operator import eq

NUM_PERM = 128
SHINGLE_TOKENS = 5
DEFAULT_THRESHOLD = 0.5

_BIN_SHIFT = 57  # 64-bit hashes: the top 7 bits pick one of 128 bins
_VALUE_MASK = (1 << _BIN_SHIFT) - 1
_BIN_MASK = NUM_PERM - 1
_TOKEN = re.compile(r"\w+|[^\w\s]")

# 128 unsigned 32-bit values, packed: a tuple of Python ints would cost ~5 KB per signature.
Signature = bytes
_WORD = "I"  # 4 bytes on every platform CPython supports
_GOLDEN = 0x9E3779B1
_MAX_CACHED_TOKENS = 1 << 20


class _TokenIds(dict[str, int]):
    """Token -> CRC-32, computed once per distinct token (tokens repeat a lot)."""

    def __missing__(self, token: str) -> int:
        if len(self) >= _MAX_CACHED_TOKENS:
            self.clear()  # values are a pure function of the token: forgetting is safe
        value = self[token] = zlib.crc32(token.encode("utf-8", "surrogatepass"))
        return value


_IDS = _TokenIds()


def token_ids(text: str) -> list[int]:
    """Words and single punctuation characters, as integers."""
    return list(map(_IDS.__getitem__, _TOKEN.findall(text)))


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


def signature(hashes: Iterable[int]) -> Signature | None:
    """The 128-value signature of a set of shingle hashes; None for the empty set."""
    ordered = sorted(hashes, reverse=True)
    if not ordered:
        return None
    # Descending order: the last write to a bin is its smallest hash.
    first = {(h >> _BIN_SHIFT) & _BIN_MASK: h & _VALUE_MASK for h in ordered}
    if len(first) == NUM_PERM:
        return array(_WORD, [first[b] & 0xFFFFFFFF for b in range(NUM_PERM)]).tobytes()
    # An empty bin borrows from the next filled one to its right, tagged with the distance,
    # so that two sets agree on it exactly when they agree on the donor.
    out = [0] * NUM_PERM
    for b in range(NUM_PERM):
        distance = 0
        while (b + distance) % NUM_PERM not in first:
            distance += 1
        out[b] = (first[(b + distance) % NUM_PERM] + distance * _GOLDEN) & 0xFFFFFFFF
    return array(_WORD, out).tobytes()


def similarity(a: Signature | None, b: Signature | None) -> float:
    """Estimated Jaccard similarity of the two sets (0 when either is empty)."""
    if a is None or b is None:
        return 0.0
    matches: int = sum(map(eq, memoryview(a).cast("I"), memoryview(b).cast("I")))
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
        self._buckets: dict[tuple[int, Signature], list[int]] = {}

    def add(self, position: int, sig: Signature) -> None:
        width = self.rows * array(_WORD).itemsize
        for band in range(self.bands):
            key = (band, sig[band * width : (band + 1) * width])
            self._buckets.setdefault(key, []).append(position)

    def candidates(self, across: int | None = None) -> Iterator[tuple[int, int]]:
        """Pairs (i, j), i < j; with `across`, only pairs with i < across <= j."""
        seen: set[tuple[int, int]] = set()
        for members in self._buckets.values():
            if len(members) < 2:
                continue
            for x, i in enumerate(members):
                for j in members[x + 1 :]:
                    if i == j or (across is not None and not (i < across <= j)):
                        continue
                    seen.add((i, j) if i < j else (j, i))
        yield from sorted(seen)
