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
project's inputs it was about five times slower per example.

The work is done in bulk with numpy, for many items at once (`shingle`, `signatures`,
`candidates`): per token and per bin in Python it cost four times the reading and parsing
of the examples (benchmarks/README.md). Only tokenising stays per text.

Signatures only propose candidates: the callers verify them by exact Jaccard similarity
of the shingle sets, so the LSH bands are chosen for recall (a false candidate costs time,
a missed pair is a wrong answer).

Every hash is deterministic across runs, processes and platforms: tokens become integers by
CRC-32, and a shingle's hash is the xxHash-style mix CPython gives a tuple of those
integers (so the values are those of `hash(tuple(ids))`, the hash used before the bulk
code), computed here on 64-bit words.
"""

from __future__ import annotations

import hashlib
import zlib
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import chain

import numpy as np
import numpy.typing as npt

NUM_PERM = 128
SHINGLE_TOKENS = 5

# 128 signed 64-bit values, in native byte order (one row of `signatures`' table): small
# to keep and to send between processes.
Signature = bytes
Words = npt.NDArray[np.uint64]
Positions = npt.NDArray[np.intp]

_BIN_SHIFT = np.uint64(57)  # the top 7 bits of a hash pick its bin
_EMPTY = np.uint64(2**64 - 1)  # no hash takes this value (see `_mix`)
# A bin's column in a signature: signed bins -64..63 in order, as the hashes compare.
_SIGN_BIN = np.uint64(64)


def _probe_orders() -> npt.NDArray[np.intp]:
    """Where each empty bin (a column) looks for a value: every bin, in an order of its
    own, so densification always ends, and two sets agree on a bin empty in both only
    through the one filled bin both reach first."""
    # Sorted by fixed pseudo-random keys (SHAKE-128: the same on every platform and run).
    count = NUM_PERM * NUM_PERM
    keys = np.frombuffer(hashlib.shake_128(b"evaltools dupes").digest(4 * count), dtype="<u4")
    orders = np.argsort(keys.reshape(NUM_PERM, NUM_PERM).T, axis=1, kind="stable")
    return np.ascontiguousarray(orders.T)  # a row per step: the bin each bin probes then


_PROBES = _probe_orders()


def token_ids(text: str) -> list[int]:
    """Whitespace-separated tokens, as integers (the CRC-32 of each in UTF-8).

    A regular expression that splits out punctuation was measured ten to twenty times
    slower than `str.split` here, more than reading and parsing the example costs. Most
    texts are ASCII: split as bytes, they make no string per token. (`str.split` also
    splits at the ASCII separators \\x1c to \\x1f, `bytes.split` does not.)"""
    # Four `in` tests: a third of the time of `any` over them, a thirtieth of a regex.
    if text.isascii() and not (
        "\x1c" in text or "\x1d" in text or "\x1e" in text or "\x1f" in text
    ):
        return list(map(zlib.crc32, text.encode().split()))
    return [zlib.crc32(token.encode("utf-8", "surrogatepass")) for token in text.split()]


def char_ids(text: str) -> list[int]:
    """Each character as an integer: runs of 3 of them shingle short texts such as queries."""
    return list(map(ord, text))


# CPython's tuple hash (Objects/tupleobject.c, 64-bit): xxHash's round per item.
_PRIME_1 = np.uint64(11400714785074694791)
_PRIME_2 = np.uint64(14029467366897019727)
_PRIME_5 = 2870177450012600261


def _mix(lanes: Sequence[Words]) -> Words:
    """The hash of each tuple (lanes[0][i], lanes[1][i], ...), on 64-bit words."""
    acc = np.full(lanes[0].shape, _PRIME_5, dtype=np.uint64)
    spare = np.empty_like(acc)
    for lane in lanes:  # in place: temporaries of this size cost more than the arithmetic
        np.multiply(lane, _PRIME_2, out=spare)
        acc += spare
        np.left_shift(acc, np.uint64(31), out=spare)
        acc >>= np.uint64(33)
        acc |= spare
        acc *= _PRIME_1
    acc += np.uint64(len(lanes) ^ (_PRIME_5 ^ 3527539))
    acc[acc == _EMPTY] = 1546275796  # -1 is kept for errors in CPython: never a hash
    return acc


@dataclass(frozen=True)
class Shingled:
    """The shingle hashes of `count` items: `hashes[k]` is one of item `owners[k]`'s."""

    hashes: Words
    owners: Positions
    count: int

    def packed(self) -> list[bytes]:
        """Each item's shingles as 64-bit words, in one bytes object (see `unpack`)."""
        order = np.argsort(self.owners, kind="stable")
        ends = np.searchsorted(self.owners[order], np.arange(1, self.count + 1)).tolist()
        data = self.hashes[order].tobytes()
        return [data[8 * start : 8 * end] for start, end in zip([0, *ends], ends, strict=False)]

    def sets(self) -> list[set[int]]:
        """Each item's shingles, as a set (for exact Jaccard similarity)."""
        return list(map(unpack, self.packed()))


def unpack(packed: bytes) -> set[int]:
    """A set of shingle hashes from `Shingled.packed` (as signed integers: `hash` values)."""
    return set(np.frombuffer(packed, dtype=np.int64).tolist())


def shingle(
    runs: Sequence[Sequence[int]], owners: Sequence[int], count: int, size: int
) -> Shingled:
    """Hashes of every `size` consecutive ids in each run (of the whole run when shorter),
    run `r` belonging to item `owners[r]` of `count`. Runs never share a shingle."""
    lengths = np.fromiter(map(len, runs), dtype=np.intp, count=len(runs))
    ids = np.fromiter(chain.from_iterable(runs), dtype=np.uint64, count=int(lengths.sum()))
    run_owners = np.asarray(owners, dtype=np.intp)
    starts = np.cumsum(lengths) - lengths
    run_of = np.repeat(np.arange(len(runs)), lengths)
    # A window starts at i when its last id, at i + size - 1, is in the same run. Every
    # window is hashed (slices, no copies), then those across two runs are dropped.
    windows = max(len(ids) - size + 1, 0)
    first = np.flatnonzero(run_of[size - 1 :] == run_of[:windows])
    hashes = [_mix([ids[k : k + windows] for k in range(size)])[first]]
    found = [run_owners[run_of[first]]]
    for length in range(1, size):
        short = np.flatnonzero(lengths == length)
        if short.size:
            hashes.append(_mix([ids[starts[short] + k] for k in range(length)]))
            found.append(run_owners[short])
    return Shingled(np.concatenate(hashes), np.concatenate(found), count)


def signatures(shingled: Shingled) -> list[Signature | None]:
    """The 128-value signature of each item's shingles; None for an item without any."""
    table = np.full((shingled.count, NUM_PERM), _EMPTY, dtype=np.uint64)
    columns = ((shingled.hashes >> _BIN_SHIFT) ^ _SIGN_BIN).astype(np.intp)
    np.minimum.at(table.reshape(-1), shingled.owners * NUM_PERM + columns, shingled.hashes)
    filled = table != _EMPTY
    some = filled.any(axis=1)
    _densify(table, filled, some)
    rows = table.view(np.int64)
    return [row.tobytes() if has else None for row, has in zip(rows, some.tolist(), strict=True)]


def _densify(table: Words, filled: npt.NDArray[np.bool_], some: npt.NDArray[np.bool_]) -> None:
    """Every bin of the rows with `some` filled: an empty one takes the value of the first
    filled bin along its probe order. All empty bins probe at once, `_PROBE_BLOCK` steps
    along their orders at a time, until each has found one."""
    # Flat cells (row * NUM_PERM + bin) and `take`: fancy indexing of 2-D arrays, and
    # reductions along a short last axis, measured at twice the time.
    cells, values = filled.reshape(-1), table.reshape(-1)
    empty = np.flatnonzero(~filled & some[:, None])
    rows, columns = empty & -NUM_PERM, empty & (NUM_PERM - 1)
    source = np.empty_like(empty)
    pending = np.arange(len(empty))
    for step in range(0, NUM_PERM, _PROBE_BLOCK):
        probes = _PROBES[step : step + _PROBE_BLOCK].take(columns, axis=1)
        probes += rows
        hits = cells.take(probes)  # a row per step, a column per pending bin
        first = hits.argmax(axis=0)
        at = first * len(first) + np.arange(len(first))
        found = hits.reshape(-1).take(at)
        source[pending[found]] = probes.reshape(-1).take(at)[found]
        pending, rows, columns = pending[~found], rows[~found], columns[~found]
        if not pending.size:
            break
    values[empty] = values.take(source)


# Probes per round: with a third of the bins filled (the usual example), 8 find one for
# all but about 2% of the empty bins.
_PROBE_BLOCK = 8


def matrix(sigs: Sequence[Signature | None]) -> Words:
    """The signatures as rows of one table (zeros for None)."""
    blank = bytes(8 * NUM_PERM)
    data = b"".join(blank if sig is None else sig for sig in sigs)
    return np.frombuffer(data, dtype=np.uint64).reshape(len(sigs), NUM_PERM)


def similarities(table: Words, pairs: Sequence[tuple[int, int]]) -> list[float]:
    """The estimated Jaccard similarity of rows i and j of `table` for each pair (i, j):
    the share of bins that agree."""
    if not pairs:
        return []
    at = np.asarray(pairs, dtype=np.intp)
    agree = np.count_nonzero(table[at[:, 0]] == table[at[:, 1]], axis=1)
    return (agree / NUM_PERM).tolist()  # type: ignore[no-any-return]


def jaccard(a: set[int], b: set[int]) -> float:
    """The exact Jaccard similarity of two shingle sets (1 for two empty ones)."""
    if not (a or b):
        return 1.0
    shared = len(a & b) if len(a) <= len(b) else len(b & a)
    return shared / (len(a) + len(b) - shared)  # no union built: half the time


# A pair this far above the threshold is missed by the LSH bands with at most this
# probability (stated in `dupes --help` and the README).
RECALL_MARGIN = 0.01
MISS_AT_MARGIN = 0.01


def found_probability(similarity: float, count: int, rows: int) -> float:
    """The probability that a pair of this Jaccard similarity shares at least one of
    `count` bands of `rows` bins (each bin agreeing with probability `similarity`, as for
    optimal densification, taken as independent)."""
    return 1.0 - (1.0 - similarity**rows) ** count


@lru_cache(maxsize=16)
def bands(threshold: float, num_perm: int = NUM_PERM) -> tuple[int, int]:
    """(bands, rows): the most rows per band (the fewest false candidates) with which a
    pair of similarity `threshold + 0.01` is missed with probability below 1% (0.5: 42
    bands of 3 rows, missing a pair at 0.51 with probability 0.25%)."""
    near = min(threshold + RECALL_MARGIN, 1.0)
    best = (num_perm, 1)
    for rows in range(1, num_perm + 1):
        count = num_perm // rows
        if 1.0 - found_probability(near, count, rows) < MISS_AT_MARGIN:
            best = (count, rows)
    return best


def band_keys(table: Words, positions: Sequence[int], threshold: float) -> Words:
    """A row per position of `table`, a column per LSH band: the hash of the band's values
    (two rows agreeing in a whole band have the same key; a collision is one more
    candidate, verified as any other)."""
    count, rows = bands(round(threshold, 3))
    at = np.asarray(positions, dtype=np.intp)
    banded = table[at, : count * rows].reshape(len(at), count, rows)
    return _mix([np.ascontiguousarray(banded[:, :, row]) for row in range(rows)])
