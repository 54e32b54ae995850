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

The per-item and per-pair work is done in bulk, in C: a dense signature is built by joining
bytes and one XOR of two integers (not a loop over the bins), two signatures are compared
as two 1 KB integers, and a bucket's candidate pairs are integers made by `map`. Measured
by `benchmarks/bench_dupes.py`; `tests/dupes/test_minhash_differential.py` holds them to the
per-bin code they replaced.
"""

from __future__ import annotations

import struct
import zlib
from bisect import bisect_left
from collections.abc import Iterable, Iterator, Sequence
from functools import lru_cache
from itertools import repeat
from operator import eq, mul, rshift, sub

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
_WORD = struct.Struct("q")
# The tags of a span of n bins, as bytes: n - 1 empty bins, then the donor (left as it is).
_SPAN_TAGS = (b"", *(struct.pack(f"{n - 1}q", *_RUNS[n - 1]) + bytes(8) for n in range(1, 129)))
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
    found: set[int] = set()
    add_shingles(found, ids, size)
    return found


def add_shingles(found: set[int], ids: Sequence[int], size: int = SHINGLE_TOKENS) -> None:
    """`shingles` of `ids` added to `found` (no set made per text)."""
    if len(ids) > size:
        found.update(map(hash, zip(*(ids[i:] for i in range(size)), strict=False)))
    elif ids:
        found.add(hash(tuple(ids)))


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


def signature(hashes: Iterable[int] | Bins, *, dense: bool = True) -> Signature | None:
    """The 128-value signature of a set of shingle hashes (or of its bins); None for the
    empty set. A sparse signature marks empty bins EMPTY; a dense one (for LSH) fills each
    from the next filled bin to its right, tagged with the distance, so that two sets agree
    on it exactly when they agree on the donor."""
    if isinstance(hashes, dict):
        first = hashes
        filled = sorted(first)
        donors: Iterable[int] = map(first.__getitem__, filled)
    else:
        first = bins(hashes)
        # `bins` fills the dict from the highest bin down: reversed, it is in bin order.
        filled = list(reversed(first))
        donors = reversed(first.values())
    if not first:
        return None
    if len(first) == NUM_PERM or not dense:
        return _PACKED.pack(*map(first.get, _BINS, repeat(EMPTY)))
    # Each filled bin with the run of empty bins left of it: `spans[i]` bins, the first
    # wrapping round from the last filled bin. Built as bytes in bulk (a Python loop over
    # the bins cost more than the rest of the fingerprint): the donors repeated over their
    # spans, XORed with the tags of the distances.
    spans = list(map(sub, filled, [filled[-1] - NUM_PERM, *filled[:-1]]))
    repeated = b"".join(map(mul, map(_WORD.pack, donors), spans))
    tags = b"".join(map(_SPAN_TAGS.__getitem__, spans))
    mixed = int.from_bytes(repeated, "little") ^ int.from_bytes(tags, "little")
    turned = mixed.to_bytes(_PACKED.size, "little")
    # `turned` starts right after the last filled bin: turn it so bin -64 comes first.
    start = 8 * ((NUM_PERM // 2 - 1 - filled[-1]) % NUM_PERM)
    return turned[start:] + turned[:start]


_LOW_BITS = int.from_bytes(struct.pack(f"{NUM_PERM}Q", *repeat((1 << 63) - 1, NUM_PERM)), "little")
_TOP_BITS = int.from_bytes(struct.pack(f"{NUM_PERM}Q", *repeat(1 << 63, NUM_PERM)), "little")
_EMPTY_WORD = _WORD.pack(EMPTY)


def similarity(a: Signature | None, b: Signature | None) -> float:
    """Estimated Jaccard similarity of the two sets (0 when either is empty): the share
    of bins that agree, among those not empty in both."""
    if a is None or b is None:
        return 0.0
    if _EMPTY_WORD in a and _EMPTY_WORD in b:
        return _sparse_similarity(a, b)
    return _dense_similarity(int.from_bytes(a, "little"), int.from_bytes(b, "little"))


def _dense_similarity(a: int, b: int) -> float:
    """`similarity` of two signatures without empty bins, each read as one integer."""
    # A bin agrees where the XOR's word is zero. Adding 2**63 - 1 to a word's low 63 bits
    # carries into its top bit, and never past it, exactly when they are not all zero: a
    # handful of operations on 1 KB integers instead of 128 comparisons of Python ints.
    d = a ^ b
    differ = (((d & _LOW_BITS) + _LOW_BITS) | d) & _TOP_BITS
    return (NUM_PERM - differ.bit_count()) / NUM_PERM


def similarities(
    sigs: Sequence[Signature | None], pairs: Iterable[tuple[int, int]]
) -> Iterator[tuple[int, int, float]]:
    """(i, j, similarity of sigs[i] and sigs[j]) for each pair, each signature read as an
    integer once however many pairs it is in (there can be millions of pairs)."""
    # A signature's integer, -1 when it is None or may have empty bins, -2 until read.
    numbers = [-2] * len(sigs)
    for i, j in pairs:
        x = numbers[i]
        if x == -2:
            x = numbers[i] = _number(sigs[i])
        y = numbers[j]
        if y == -2:
            y = numbers[j] = _number(sigs[j])
        if x < 0 or y < 0:
            yield i, j, similarity(sigs[i], sigs[j])
            continue
        d = x ^ y  # as in _dense_similarity, inline: this loop is hot
        differ = (((d & _LOW_BITS) + _LOW_BITS) | d) & _TOP_BITS
        yield i, j, (NUM_PERM - differ.bit_count()) / NUM_PERM


def _number(sig: Signature | None) -> int:
    return -1 if sig is None or _EMPTY_WORD in sig else int.from_bytes(sig, "little")


def _sparse_similarity(a: Signature, b: Signature) -> float:
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
    """Items by position (added in increasing order); `candidates` gives each pair that
    shares a band, once, sorted."""

    def __init__(self, threshold: float) -> None:
        self.bands, self.rows = bands(round(threshold, 3))
        width = self.rows * _PACKED.size // NUM_PERM
        self._slices = [slice(b * width, (b + 1) * width) for b in range(self.bands)]
        # Per band, each key's first position; most keys have only one, so a list is made
        # only for a key shared (`_shared`, by band and key: every position, in order).
        self._first: list[dict[bytes, int]] = [{} for _ in range(self.bands)]
        self._shared: dict[tuple[int, bytes], list[int]] = {}
        self._end = 0  # one past the last position added

    def add(self, position: int, sig: Signature) -> None:
        if position < self._end:
            raise ValueError(f"position {position} added after {self._end - 1}")
        self._end = position + 1
        keys = list(map(sig.__getitem__, self._slices))
        # In C for the usual item, whose keys are all new.
        firsts = list(map(dict.setdefault, self._first, keys, repeat(position)))
        if firsts.count(position) == self.bands:
            return
        for band, (key, first) in enumerate(zip(keys, firsts, strict=True)):
            if first != position:
                self._shared.setdefault((band, key), [first]).append(position)

    def candidates(self, across: int | None = None) -> Iterator[tuple[int, int]]:
        """Pairs (i, j), i < j; with `across`, only pairs with i < across <= j."""
        # A pair is one integer i * end + j: sets and sorting of ints cost far less than of
        # tuples, and a bucket's pairs are made in C (its members are in increasing order).
        end = self._end
        seen: set[int] = set()
        for members in self._shared.values():
            if across is None:
                for x in range(len(members) - 1):
                    seen.update(map((members[x] * end).__add__, members[x + 1 :]))
            else:
                split = bisect_left(members, across)
                later = members[split:]
                for i in members[:split] if later else ():
                    seen.update(map((i * end).__add__, later))
        return map(divmod, sorted(seen), repeat(end))
