"""Aggregation as upstream's `compute_summary` (reference section 5): which means are per score
entry (macro), which counts are pooled (micro), f32 where upstream keeps f32. Plus groups by
tag, repository or provider, and the per-group difference against a baseline run with a
seeded paired bootstrap interval."""

from __future__ import annotations

import random
import struct
from collections.abc import Iterable, Sequence
from typing import Any, NamedTuple

from evaltools.score.patch_lines import Classification
from evaltools.score.prediction import Score, f32

NO_TAG = "(no tag)"
BOOTSTRAP_RESAMPLES = 1000
BOOTSTRAP_SEED = 0


class Row(NamedTuple):
    """One score entry: a prediction (or repetition) of one example."""

    name: str
    prediction: int
    path: str
    line: int
    tags: tuple[str, ...]
    repo: str
    provider: str
    score: Score
    # Upstream counts the related context once per example, with its first score entry.
    retrieved_bytes: int | None = None


def _single(value: float) -> float:
    return float(struct.unpack("f", struct.pack("f", value))[0])


def _f32_mean(values: Iterable[float]) -> float:
    total = 0.0
    count = 0
    for value in values:
        total = _single(total + _single(value))
        count += 1
    return f32(total / count) if count else 0.0


def _reversal(scores: Sequence[Score]) -> dict[str, float]:
    """Upstream's f32 mean; left out when a ratio is unknown (score/reversal.py) rather than
    averaged over the known ones."""
    if any("reversal_ratio" not in s for s in scores):
        return {}
    return {"avg_reversal_ratio": _f32_mean(s["reversal_ratio"] for s in scores)}


def summarise(scores: Sequence[Score], retrieved: Sequence[int | None] = ()) -> dict[str, Any]:
    """`retrieved`: the related context's bytes of each example that has a list of related
    files (None: it has none), as `ep` counts them."""
    n = len(scores)
    exact = Classification(
        sum(s["exact_lines_tp"] for s in scores),
        sum(s["exact_lines_fp"] for s in scores),
        sum(s["exact_lines_fn"] for s in scores),
    )
    out: dict[str, Any] = {
        "total_examples": n,
        "avg_delta_chr_f": _f32_mean(s["delta_chr_f"] for s in scores),
        "delta_chr_f_beta": scores[-1]["delta_chr_f_beta"] if scores else 0.0,
        "delta_chr_f_true_positives": sum(s["delta_chr_f_true_positives"] for s in scores),
        "delta_chr_f_false_positives": sum(s["delta_chr_f_false_positives"] for s in scores),
        "delta_chr_f_false_negatives": sum(s["delta_chr_f_false_negatives"] for s in scores),
        "delta_chr_f_precision": sum(s["delta_chr_f_precision"] for s in scores) / n if n else 0.0,
        "delta_chr_f_recall": sum(s["delta_chr_f_recall"] for s in scores) / n if n else 0.0,
        "avg_braces_disbalance": f32(sum(s["braces_disbalance"] for s in scores) / n) if n else 0.0,
        "exact_lines_true_positives": exact.true_positives,
        "exact_lines_false_positives": exact.false_positives,
        "exact_lines_false_negatives": exact.false_negatives,
        "exact_lines_precision": exact.precision,
        "exact_lines_recall": exact.recall,
        "exact_lines_f1": exact.f1,
        **_reversal(scores),
    }
    out.update(_cursor(scores))
    wrong = [s["wrong_editable_region"] for s in scores if s["wrong_editable_region"] is not None]
    if wrong:
        out["wrong_editable_region_rate"] = f32(sum(wrong) / len(wrong))
    isolated = sum(s["has_isolated_whitespace_changes"] for s in scores)
    out["isolated_whitespace_rate"] = f32(isolated / n) if n else None
    if n:
        out["isolated_whitespace_count"] = isolated
    out.update(_kept(scores))
    out.update(_line_file(scores, "editable_context_coverage", "editable_context"))
    out.update(_line_file(scores, "jump_location", "jump_location"))
    out.update(_retrieved(retrieved))
    return out


def _cursor(scores: Sequence[Score]) -> dict[str, Any]:
    """The cursor's rates over the predictions that have one, keys in upstream's order."""
    out: dict[str, Any] = {}
    matches = [s["cursor_exact_match"] for s in scores if "cursor_exact_match" in s]
    distances = [s["cursor_distance"] for s in scores if "cursor_distance" in s]
    if matches:
        out["cursor_exact_match_rate"] = f32(sum(matches) / len(matches))
    if distances:
        out["cursor_avg_distance"] = f32(sum(distances) / len(distances))
    if matches:
        out["cursor_total_evaluated"] = len(matches)
        out["cursor_exact_matches"] = sum(matches)
    return out


def _retrieved(retrieved: Sequence[int | None]) -> dict[str, Any]:
    sizes = [size for size in retrieved if size is not None]
    if not sizes:
        return {}
    return {
        "avg_retrieved_context_bytes": sum(sizes) / len(sizes),
        "total_retrieved_context_bytes": sum(sizes),
        "retrieved_context_examples": len(sizes),
    }


def _line_file(scores: Sequence[Score], key: str, name: str) -> dict[str, Any]:
    """Macro means of precision, recall and F1 over the entries that have the metric, pooled
    counts (upstream's `PrfAggregate`), for lines then files."""
    found = [s[key] for s in scores if key in s]
    if not found:
        return {}
    out: dict[str, Any] = {f"{name}_examples": len(found)}
    for part in ("lines", "files"):
        for stat in ("precision", "recall", "f1"):
            out[f"avg_{name}_{part}_{stat}"] = sum(c[f"{part}_{stat}"] for c in found) / len(found)
        for count in ("tp", "fp", "fn"):
            out[f"{name}_{part}_{count}"] = sum(c[f"{part}_{count}"] for c in found)
    return out


def _kept(scores: Sequence[Score]) -> dict[str, Any]:
    """Means over the entries that have a kept rate (f64), sums of their character counts."""
    rated = [s for s in scores if "kept_rate" in s]
    if not rated:
        return {}
    return {
        "avg_kept_rate": sum(s["kept_rate"] for s in rated) / len(rated),
        "kept_rate_examples": len(rated),
        "avg_recall_rate": sum(s["recall_rate"] for s in rated) / len(rated),
        "recall_rate_examples": len(rated),
        "total_kept_chars": sum(s["kept_chars"] for s in rated),
        "total_correctly_deleted_chars": sum(s["correctly_deleted_chars"] for s in rated),
        "total_discarded_chars": sum(s["discarded_chars"] for s in rated),
    }


def scores_of(rows: Sequence[Row]) -> tuple[list[Score], list[int | None]]:
    """What `summarise` takes, from score rows."""
    return [r.score for r in rows], [r.retrieved_bytes for r in rows]


def group_keys(row: Row, by: str) -> tuple[str, ...]:
    if by == "tag":
        return row.tags or (NO_TAG,)
    if by == "repo":
        return (row.repo,)
    return (row.provider,)


def grouped(rows: Sequence[Row], by: str) -> dict[str, list[Row]]:
    groups: dict[str, list[Row]] = {}
    for row in rows:
        for key in group_keys(row, by):
            groups.setdefault(key, []).append(row)
    return dict(sorted(groups.items()))


Baseline = dict[tuple[str, int], float]  # (example name, prediction index): delta_chr_f


class Difference(NamedTuple):
    pairs: int  # score entries present in both runs (same example name and prediction index)
    delta: float  # mean delta_chr_f of this run minus the baseline's, over the pairs
    low: float  # 95% paired bootstrap interval of `delta`
    high: float


def paired_bootstrap(
    differences: Sequence[float],
    *,
    resamples: int = BOOTSTRAP_RESAMPLES,
    seed: int = BOOTSTRAP_SEED,
) -> tuple[float, float]:
    """The 2.5th and 97.5th percentiles of the mean of `differences` resampled with
    replacement, pairs kept together; the same seed gives the same interval."""
    n = len(differences)
    if n == 0:
        return 0.0, 0.0
    rng = random.Random(seed)
    means = sorted(sum(rng.choices(differences, k=n)) / n for _ in range(resamples))
    return means[round(0.025 * (resamples - 1))], means[round(0.975 * (resamples - 1))]


def compare(current: Sequence[Row], baseline: Baseline) -> Difference:
    diffs = [
        r.score["delta_chr_f"] - baseline[(r.name, r.prediction)]
        for r in current
        if (r.name, r.prediction) in baseline
    ]
    if not diffs:
        return Difference(0, 0.0, 0.0, 0.0)
    low, high = paired_bootstrap(diffs)
    return Difference(len(diffs), sum(diffs) / len(diffs), low, high)


def groups_json(rows: Sequence[Row], by: str | None, baseline: Baseline | None) -> dict[str, Any]:
    """`{group: {"summary": ..., "baseline_difference": ...}}`; one group "all" when no
    grouping is asked for. Baseline entries pair with this run's by example name and
    prediction index, so a group is this run's grouping."""
    mine = grouped(rows, by) if by else {"all": list(rows)}
    out: dict[str, Any] = {}
    for key, members in mine.items():
        entry: dict[str, Any] = {"summary": summarise(*scores_of(members))}
        if baseline is not None:
            diff = compare(members, baseline)
            entry["baseline_difference"] = {
                "pairs": diff.pairs,
                "avg_delta_chr_f": diff.delta,
                "ci95_low": diff.low,
                "ci95_high": diff.high,
                "resamples": BOOTSTRAP_RESAMPLES,
                "seed": BOOTSTRAP_SEED,
            }
        out[key] = entry
    return out
