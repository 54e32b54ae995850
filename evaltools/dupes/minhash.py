"""MinHash signatures and LSH banding: near-duplicate candidates without comparing all pairs.

Shared by the example and the retrieval halves of `evaltools dupes`. Defaults are those of
Zed's `ep --max-duplicates`: Jaccard 0.5, 128 hashes, 5-token shingles.

Signatures are one-permutation MinHash (Li, Owen and Zhang 2012) with optimal
densification (Shrivastava 2017): each shingle is hashed once, its top 7 bits pick one of
128 bins, and a bin keeps its smallest hash; an empty bin takes the value of the first
filled bin along its own fixed pseudo-random probe order. (Rotation densification, which
filled a run of empty bins from the same neighbour, made unrelated short texts share whole
LSH bands through one common shingle: most examples have fewer shingles than bins.) The
usual k-permutation MinHash (`datasketch`) hashes every shingle 128 times; measured on this
project's inputs it was about five times slower per example, and its import (numpy, scipy)
costs most of a second.

Signatures only propose candidates: the callers verify them by exact Jaccard similarity
of the shingle sets, so the LSH bands are chosen for recall (a false candidate costs time,
a missed pair is a wrong answer).

Every hash is deterministic across runs and processes: tokens become integers by CRC-32,
shingles are tuples of integers, and Python's hash of an integer tuple is not salted.
"""

from __future__ import annotations

import hashlib
import struct
import zlib
from bisect import bisect_left
from collections.abc import Iterable, Iterator, Sequence
from functools import lru_cache
from itertools import filterfalse, repeat
from operator import itemgetter, rshift

NUM_PERM = 128
SHINGLE_TOKENS = 5
DEFAULT_THRESHOLD = 0.5

_BIN_SHIFT = 57  # signed 64-bit hashes: the top 7 bits (-64..63) pick one of 128 bins
_BINS = range(-(NUM_PERM // 2), NUM_PERM // 2)

# 128 signed 64-bit values, packed: a tuple of Python ints would cost ~5 KB per signature.
Signature = bytes
_PACKED = struct.Struct(f"{NUM_PERM}q")


def _probe_orders() -> dict[int, tuple[int, ...]]:
    """Where each empty bin looks for a value: every bin, in an order of its own, so
    densification always ends, and two sets agree on a bin empty in both only through
    the one filled bin both reach first."""
    # Sorted by fixed pseudo-random keys (SHAKE-128: the same on every platform and run).
    count = NUM_PERM * NUM_PERM
    keys = struct.unpack(f"<{count}I", hashlib.shake_128(b"evaltools dupes").digest(4 * count))
    return {
        b: tuple(map(itemgetter(1), sorted(zip(keys[i::NUM_PERM], _BINS, strict=True))))
        for i, b in enumerate(_BINS)
    }


_PROBES = _probe_orders()
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


def jaccard(a: set[int], b: set[int]) -> float:
    """The exact Jaccard similarity of two shingle sets (1 for two empty ones)."""
    return len(a & b) / len(a | b) if a or b else 1.0


def bins(hashes: Iterable[int]) -> Bins:
    ordered = sorted(hashes, reverse=True)
    # Descending order: the last write to a bin is its smallest hash. All in C.
    return dict(zip(map(rshift, ordered, repeat(_BIN_SHIFT)), ordered, strict=True))


def signature(hashes: Iterable[int]) -> Signature | None:
    """The 128-value signature of a set of shingle hashes; None for the empty set."""
    first = bins(hashes)
    if not first:
        return None
    if len(first) < NUM_PERM:
        first = _densified(first)
    return _PACKED.pack(*map(first.__getitem__, _BINS))


def _densified(first: Bins) -> Bins:
    """Every bin filled: an empty one takes the value of the first filled bin along its
    probe order (about 128 / filled bins probes each, made in C by `filter`)."""
    filled = dict(first)
    has = first.__contains__
    for b in filterfalse(has, _BINS):
        filled[b] = first[next(filter(has, _PROBES[b]))]
    return filled


_LOW_BITS = int.from_bytes(struct.pack(f"{NUM_PERM}Q", *repeat((1 << 63) - 1, NUM_PERM)), "little")
_TOP_BITS = int.from_bytes(struct.pack(f"{NUM_PERM}Q", *repeat(1 << 63, NUM_PERM)), "little")


def similarity(a: Signature | None, b: Signature | None) -> float:
    """Estimated Jaccard similarity of the two sets (0 when either is empty): the share
    of bins that agree."""
    if a is None or b is None:
        return 0.0
    return _agreeing(int.from_bytes(a, "little") ^ int.from_bytes(b, "little"))


def _agreeing(d: int) -> float:
    # A bin agrees where the XOR's word is zero. Adding 2**63 - 1 to a word's low 63 bits
    # carries into its top bit, and never past it, exactly when they are not all zero: a
    # handful of operations on 1 KB integers instead of 128 comparisons of Python ints.
    differ = (((d & _LOW_BITS) + _LOW_BITS) | d) & _TOP_BITS
    return (NUM_PERM - differ.bit_count()) / NUM_PERM


def similarities(
    sigs: Sequence[Signature | None], pairs: Iterable[tuple[int, int]]
) -> Iterator[tuple[int, int, float]]:
    """(i, j, similarity of sigs[i] and sigs[j]) for each pair, each signature read as an
    integer once however many pairs it is in."""
    numbers: dict[int, int] = {}
    for i, j in pairs:
        x = numbers.get(i)
        if x is None:
            x = numbers[i] = _number(sigs[i])
        y = numbers.get(j)
        if y is None:
            y = numbers[j] = _number(sigs[j])
        yield i, j, 0.0 if x < 0 or y < 0 else _agreeing(x ^ y)


def _number(sig: Signature | None) -> int:
    return -1 if sig is None else int.from_bytes(sig, "little")


# A pair this far from the threshold towards 1 becomes a candidate with this probability.
_RECALL_AT = 0.2
_RECALL = 0.98


@lru_cache(maxsize=16)
def bands(threshold: float, num_perm: int = NUM_PERM) -> tuple[int, int]:
    """(bands, rows): the most rows per band (the fewest false candidates) with which a
    pair of similarity `threshold + (1 - threshold) / 5` still shares a band with
    probability at least 0.98 (0.5: 32 bands of 4 rows; 0.87 of the pairs at 0.5 itself)."""
    near = threshold + (1.0 - threshold) * _RECALL_AT
    best = (num_perm, 1)
    for rows in range(1, num_perm + 1):
        count = num_perm // rows
        if 1.0 - (1.0 - near**rows) ** count >= _RECALL:
            best = (count, rows)
    return best


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
