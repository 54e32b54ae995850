"""Seeded bootstrap intervals and paired randomization tests over per-query scores.

numpy does the resampling: 1,000 resamples of 1,000 queries is a million draws a group,
seconds in Python and milliseconds in numpy. Imported only by `gold eval`.
"""

from __future__ import annotations

from collections.abc import Sequence

BOOTSTRAP_RESAMPLES = 1000
PERMUTATIONS = 10000
CONFIDENCE = 0.95


def bootstrap_ci(
    rows: Sequence[Sequence[float]], seed: int, resamples: int = BOOTSTRAP_RESAMPLES
) -> list[tuple[float, float]]:
    """Per column of `rows` (one row per query), the 95% percentile bootstrap interval of
    the mean; the same resampled queries serve every column."""
    import numpy as np

    values = np.asarray(rows, dtype=float)
    if values.shape[0] == 0:
        return []
    rng = np.random.Generator(np.random.PCG64(seed))
    picks = rng.integers(0, values.shape[0], size=(resamples, values.shape[0]))
    means = values[picks].mean(axis=1)  # resamples x columns
    tail = (1 - CONFIDENCE) / 2 * 100
    low = np.percentile(means, tail, axis=0)
    high = np.percentile(means, 100 - tail, axis=0)
    return [(float(a), float(b)) for a, b in zip(low, high, strict=True)]


def paired_randomization(
    differences: Sequence[Sequence[float]], seed: int, permutations: int = PERMUTATIONS
) -> list[float]:
    """Per column, the two-sided p-value of a paired randomization test (Fisher's, as in
    ranx): each query's difference keeps or flips its sign at random, and p is the share of
    sign patterns whose mean is at least as far from 0 as the observed one, counting the
    observed pattern itself."""
    import numpy as np

    diffs = np.asarray(differences, dtype=float)
    if diffs.shape[0] == 0:
        return []
    rng = np.random.Generator(np.random.PCG64(seed))
    observed = np.abs(diffs.mean(axis=0))
    at_least = np.zeros(diffs.shape[1])
    # In blocks, so memory stays small for large sets.
    block = max(1, 2_000_000 // max(1, diffs.shape[0]))
    done = 0
    while done < permutations:
        count = min(block, permutations - done)
        signs = rng.choice(np.array([-1.0, 1.0]), size=(count, diffs.shape[0]))
        means = np.abs(signs @ diffs) / diffs.shape[0]  # count x columns
        # A tolerance, so identical runs (all differences 0) give p = 1, not float noise.
        at_least += (means >= observed - 1e-12).sum(axis=0)
        done += count
    return [float(p) for p in (at_least + 1) / (permutations + 1)]
