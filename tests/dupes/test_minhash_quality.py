"""What MinHash/LSH finds, against exact Jaccard similarity computed for every pair: every
pair well above the threshold is found, nothing below it is reported, the estimate is
unbiased, and unrelated short texts do not flood the candidates."""

from __future__ import annotations

import dataclasses
import random
import re
import statistics
from itertools import combinations

import numpy as np
import pytest

from evaltools.dupes import minhash, near
from evaltools.dupes.pairs import Item
from evaltools.example import dupes as example_dupes
from evaltools.example.markdown.reader import from_markdown
from evaltools.example.spec import ExampleSpec
from tests.conftest import corpus_files

_IDENTIFIER = re.compile(r"[A-Za-z_]\w*")


def _random_sets(seed: int) -> list[set[int]]:
    """Sets of every size (mostly fewer shingles than bins, as examples have), in families
    that share part of a pool: pairs of every similarity."""
    rnd = random.Random(seed)
    sets = []
    for _ in range(60):
        size = rnd.choice([8, 20, 40, 67, 100, 200])
        core = [rnd.getrandbits(64) - (1 << 63) for _ in range(size)]
        for _ in range(6):
            keep = rnd.choice([0.3, 0.6, 0.8, 0.9, 0.95, 1.0])
            mine = {h for h in core if rnd.random() < keep}
            mine |= {rnd.getrandbits(64) - (1 << 63) for _ in range(size - len(mine))}
            sets.append(mine)
    return sets


def _table(sets: list[set[int]]) -> minhash.Words:
    """The signatures of sets of (signed 64-bit) shingle hashes, as rows."""
    hashes = np.array([h for s in sets for h in s], dtype=np.int64).view(np.uint64)
    owners = np.repeat(np.arange(len(sets)), [len(s) for s in sets])
    return minhash.matrix(minhash.signatures(minhash.Shingled(hashes, owners, len(sets))))


def test_shingles_hash_as_python_tuples() -> None:
    # The values before the bulk code: the same signatures, the same pairs.
    runs = [[3, 1, 4, 1, 5, 9, 2, 6], [2**32 - 1, 0], [7], [], [1, 2, 3, 4, 5]]
    sets = minhash.shingle(runs, [0, 1, 1, 2, 2], 3, 5).sets()
    expected = [
        {hash(t) for t in zip(*(runs[0][i:] for i in range(5)), strict=False)},
        {hash((2**32 - 1, 0)), hash((7,))},
        {hash((1, 2, 3, 4, 5))},
    ]
    assert sets == expected
    assert minhash.signatures(minhash.shingle([[], [1]], [0, 1], 3, 5))[::2] == [None, None]


def test_estimates_are_unbiased_and_close() -> None:
    sets = _random_sets(1)
    table = _table(sets)
    pairs = list(combinations(range(0, len(sets), 3), 2))
    errors = [
        estimate - minhash.jaccard(sets[i], sets[j])
        for (i, j), estimate in zip(pairs, minhash.similarities(table, pairs), strict=True)
    ]
    assert abs(statistics.mean(errors)) < 0.01
    assert statistics.pstdev(errors) < 0.05


def _near(sets: list[set[int]], threshold: float) -> dict[tuple[int, int], float]:
    """Every pair `near.near_pairs` reports (all listed), with its similarity."""
    found = near.near_pairs(
        _table(sets),
        range(len(sets)),
        threshold,
        lambda i, j: minhash.jaccard(sets[i], sets[j]),
        listed=len(sets),
    )
    return {(i, j): value for j, partners in found.items() for i, value in partners.listed}


@pytest.mark.parametrize("threshold", [0.5, 0.7])
def test_lsh_finds_every_pair_above_the_threshold(threshold: float) -> None:
    sets = _random_sets(2)
    assert len(sets) > near.EXACT_LIMIT  # the LSH path
    found = _near(sets, threshold)
    pairs = list(combinations(range(len(sets)), 2))
    exact = {(i, j): minhash.jaccard(sets[i], sets[j]) for i, j in pairs}
    similar = {pair: value for pair, value in exact.items() if value >= threshold}
    assert len(similar) > 200
    # Nothing below the threshold, every value exact ...
    assert found == pytest.approx({pair: similar[pair] for pair in found})
    # ... and a pair 0.01 above it or more missed with probability below 1%.
    clear = [pair for pair, value in similar.items() if value >= threshold + 0.01]
    assert len([pair for pair in clear if pair not in found]) <= 0.01 * len(clear)


def test_bands_miss_a_pair_just_above_the_threshold_below_one_percent() -> None:
    assert minhash.bands(0.5) == (42, 3)
    assert 1 - minhash.found_probability(0.51, 42, 3) == pytest.approx(0.00254, abs=1e-5)
    for threshold in (0.1, 0.3, 0.5, 0.8, 0.95, 0.99):
        count, rows = minhash.bands(threshold)
        assert count * rows <= minhash.NUM_PERM
        assert 1 - minhash.found_probability(threshold + 0.01, count, rows) < 0.01
        # One more row per band would miss more: the fewest candidates that keep recall.
        more = minhash.NUM_PERM // (rows + 1)
        assert 1 - minhash.found_probability(threshold + 0.01, more, rows + 1) >= 0.01


def _variant(spec: ExampleSpec, rnd: random.Random, rate: float, suffix: str) -> ExampleSpec:
    """`spec` with a share `rate` of its identifiers renamed."""

    def rename(text: str) -> str:
        return _IDENTIFIER.sub(lambda m: m.group(0) + (suffix if rnd.random() < rate else ""), text)

    return dataclasses.replace(
        spec,
        cursor_position=rename(spec.cursor_position),
        expected_patches=[rename(p) for p in spec.expected_patches],
    )


def _generated() -> list[ExampleSpec]:
    """Each corpus example in copies renamed at every rate: pairs of every similarity."""
    rnd = random.Random(5)
    bases = [from_markdown(p.read_text(encoding="utf-8"), p.stem) for p in corpus_files()]
    specs = []
    for n, rate in enumerate([0.0, 0.01, 0.03, 0.05, 0.08, 0.12, 0.2, 0.3, 0.5, 0.8] * 2):
        specs += [_variant(base, rnd, rate, f"_v{n}") for base in bases]
    return specs


@pytest.mark.parametrize("across", [None, 150])
def test_example_pairs_against_exact_jaccard(across: int | None) -> None:
    specs = _generated()
    items = [Item("set.jsonl", n + 1, f"ex{n}") for n in range(len(specs))]
    prints = example_dupes.fingerprints(specs, items)
    pairs = example_dupes.find_pairs(prints, 0.5, across=across, listed=len(specs))
    # The default listing holds the same pairs: the first few of each item, the rest counted.
    capped = example_dupes.find_pairs(prints, 0.5, across=across)
    assert len(capped) < len(pairs)
    assert sum(1 + p.more for p in capped) == len(pairs)
    assert {(p.a.id, p.b.id) for p in capped} <= {(p.a.id, p.b.id) for p in pairs}
    keys = [p.key for p in prints]
    wholes = [excerpt | patches for excerpt, patches in example_dupes.part_shingles(specs)]
    reported = {(int(p.a.id[2:]), int(p.b.id[2:])): p for p in pairs}
    similar = 0
    for i, j in combinations(range(len(specs)), 2):
        if across is not None and not i < across <= j:
            continue
        true = minhash.jaccard(wholes[i], wholes[j])
        pair = reported.get((i, j))
        if pair is not None:
            assert true >= 0.5 and pair.similarity == pytest.approx(true)
        elif true >= 0.6 and keys[i] != keys[j]:
            # Not reported: only as a copy of an example it is paired with already.
            assert any(keys[k] in (keys[i], keys[j]) for k in range(j) if k != i), (i, j, true)
        similar += true >= 0.6
    assert similar > 100
    assert len([p for p in pairs if p.kind == "near"]) > 50
    assert all(p.similarity >= 0.5 for p in pairs)
