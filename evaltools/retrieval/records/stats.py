"""What a retrieval eval set holds, against its targets: size, type mix, split, sources, grades.

Targets (retrieval-eval-set.md, section 6): identifier:intent:mixed = 3:5:2 when there are
no query logs to follow, 20% holdout, at least 30 queries. A project sets its own under
`[tool.evaltools.retrieval]`: `target-mix = {identifier = 3, intent = 5, mixed = 2}`,
`holdout-share = 0.2`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from evaltools.diagnostics import Diagnostic, make
from evaltools.fileio import UsageError
from evaltools.retrieval.records.record import RECORD_TYPES, RecordLine
from evaltools.retrieval.records.rules import (
    HOLDOUT_SHARE_DRIFT,
    NO_HOLDOUT,
    SMALL_SET,
    TYPE_MIX_DRIFT,
    UNCOUNTED_LINES,
)
from evaltools.retrieval.records.strata import exact_share, target_count

DEFAULT_MIX = {"identifier": 3.0, "intent": 5.0, "mixed": 2.0}
DEFAULT_HOLDOUT_SHARE = 0.2
MIN_QUERIES = 30
TOLERANCE_POINTS = 10.0


def _beyond_tolerance(share: float, target: float) -> bool:
    # Rounded: 0.4 - 0.3 is 0.10000000000000003, and exactly 10 points is within tolerance.
    return round(abs(share - target) * 100, 6) > TOLERANCE_POINTS


NONE = "(none)"
OTHER = "(other)"


@dataclass(frozen=True)
class Targets:
    mix: dict[str, float] = field(default_factory=lambda: _shares(DEFAULT_MIX))
    holdout_share: float = DEFAULT_HOLDOUT_SHARE

    @classmethod
    def from_config(cls, section: Mapping[str, Any]) -> Targets:
        mix = section.get("target-mix", DEFAULT_MIX)
        if not isinstance(mix, Mapping) or not all(
            k in RECORD_TYPES and _is_number(v) and v >= 0 for k, v in mix.items()
        ):
            raise UsageError(
                "[tool.evaltools.retrieval] target-mix must be a table of identifier, intent "
                "and mixed to non-negative numbers, e.g. {identifier = 3, intent = 5, mixed = 2}"
            )
        if sum(mix.values()) <= 0:
            raise UsageError("[tool.evaltools.retrieval] target-mix must not be all zeros")
        share = section.get("holdout-share", DEFAULT_HOLDOUT_SHARE)
        if not _is_number(share) or not 0 <= share < 1:
            raise UsageError(
                "[tool.evaltools.retrieval] holdout-share must be a number from 0 to 1, e.g. 0.2"
            )
        return cls(_shares({t: float(mix.get(t, 0)) for t in RECORD_TYPES}), float(share))


def _is_number(value: object) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _shares(counts: Mapping[str, float]) -> dict[str, float]:
    total = sum(counts.values())
    return {k: (v / total if total else 0.0) for k, v in counts.items()}


@dataclass
class SetStats:
    files: list[str] = field(default_factory=list)
    queries: int = 0
    uncounted: Counter[str] = field(default_factory=Counter)  # file -> lines not counted
    types: Counter[str] = field(default_factory=Counter)
    splits: Counter[str] = field(default_factory=Counter)
    sources: Counter[str] = field(default_factory=Counter)
    grades: Counter[str] = field(default_factory=Counter)  # gold pairs per grade
    gold_per_query: Counter[int] = field(default_factory=Counter)  # gold size -> queries
    queries_per_gold: Counter[str] = field(default_factory=Counter)  # chunk ID -> queries

    def add_lines(self, display: str, lines: Iterable[RecordLine]) -> None:
        self.files.append(display)
        for line in lines:
            record = line.record
            if record is None:
                self.uncounted[display] += 1
            else:
                self.add(record)

    def add(self, record: Mapping[str, Any]) -> None:
        self.queries += 1
        kind = record.get("type")
        self.types[kind if kind in RECORD_TYPES else OTHER] += 1
        split = record.get("split", NONE)
        self.splits[split if split in ("tune", "holdout", NONE) else OTHER] += 1
        source = record.get("source", NONE)
        self.sources[source if isinstance(source, str) else OTHER] += 1
        gold = record.get("gold")
        if not isinstance(gold, dict):
            gold = {}
        self.gold_per_query[len(gold)] += 1
        for chunk_id, grade in gold.items():
            self.queries_per_gold[chunk_id] += 1
            exact = type(grade) is int and 1 <= grade <= 3
            self.grades[str(grade) if exact else OTHER] += 1

    @property
    def holdout_share(self) -> float:
        return self.splits["holdout"] / self.queries if self.queries else 0.0

    def type_shares(self) -> dict[str, float]:
        return {t: self.types[t] / self.queries if self.queries else 0.0 for t in RECORD_TYPES}


def spread(counts: Mapping[int, int]) -> dict[str, float]:
    """min, median, mean, max of a distribution given as value -> how often."""
    total = sum(counts.values())
    if not total:
        return {"min": 0, "median": 0, "mean": 0, "max": 0}
    ordered = sorted(counts.items())
    mean = sum(value * n for value, n in ordered) / total
    return {
        "min": ordered[0][0],
        "median": _median(ordered, total),
        "mean": round(mean, 2),
        "max": ordered[-1][0],
    }


def _median(ordered: list[tuple[int, int]], total: int) -> float:
    def nth(index: int) -> int:
        seen = 0
        for value, n in ordered:
            seen += n
            if index < seen:
                return value
        return ordered[-1][0]  # pragma: no cover - index < total

    middle = total // 2
    return float(nth(middle)) if total % 2 else (nth(middle - 1) + nth(middle)) / 2


def warnings(stats: SetStats, targets: Targets, *, where: str) -> list[Diagnostic]:
    """Set-level findings, placed at line 1 of `where` (the set's first file)."""
    found: list[Diagnostic] = []
    for display, count in stats.uncounted.items():
        noun = "line is" if count == 1 else "lines are"
        found.append(
            make(
                UNCOUNTED_LINES,
                display,
                1,
                1,
                f"{count} {noun} not a record and not counted: run `evaltools validate` on "
                "the file to see why",
            )
        )
    if stats.queries < MIN_QUERIES:
        found.append(
            make(
                SMALL_SET,
                where,
                1,
                1,
                f"the set has {stats.queries} queries, under {MIN_QUERIES}: too few to tell a "
                "2-point improvement from noise; grow it to 50-100",
            )
        )
    if stats.queries == 0:
        return found
    found.extend(_split_warnings(stats, targets, where))
    drift = _mix_drift(stats, targets)
    if drift:
        found.append(make(TYPE_MIX_DRIFT, where, 1, 1, drift))
    return found


def _split_warnings(stats: SetStats, targets: Targets, where: str) -> list[Diagnostic]:
    share, target = stats.holdout_share, targets.holdout_share
    held, nearest = stats.splits["holdout"], target_count(target, stats.queries)
    if held == 0 and nearest > 0:
        return [
            make(
                NO_HOLDOUT,
                where,
                1,
                1,
                f'no query is in the holdout split: mark about {target:.0%} of them "split": '
                '"holdout" and never tune on those (`evaltools gold split` assigns them)',
            )
        ]
    # Within one query of the exact share is on target at any size: 1 of 3 queries is 33%,
    # and no count is nearer to 20% of 3 (`gold split` makes exactly such splits).
    within_one = abs(exact_share(target) * stats.queries - held) < 1
    if not within_one and _beyond_tolerance(share, target):
        return [
            make(
                HOLDOUT_SHARE_DRIFT,
                where,
                1,
                1,
                f"holdout is {held} of {stats.queries} queries ({share:.0%}), the target is "
                f"{target:.0%} ({nearest}): move queries between tune and holdout "
                "(`evaltools gold split` does), or set holdout-share under "
                "[tool.evaltools.retrieval]",
            )
        ]
    return []


def _mix_drift(stats: SetStats, targets: Targets) -> str | None:
    shares = stats.type_shares()
    off = {t: (shares[t] - targets.mix[t]) * 100 for t in RECORD_TYPES}
    far = [t for t in RECORD_TYPES if _beyond_tolerance(shares[t], targets.mix[t])]
    if not far:
        return None
    actual = ":".join(f"{shares[t] * 100:.0f}" for t in RECORD_TYPES)
    target = ":".join(f"{targets.mix[t] * 100:.0f}" for t in RECORD_TYPES)
    gaps = ", ".join(
        f"{t} is {abs(off[t]):.0f} points {'over' if off[t] > 0 else 'under'}" for t in far
    )
    return (
        f"type mix identifier:intent:mixed is {actual} (%), the target is {target}: {gaps}; "
        "add queries of the missing types, or set target-mix under [tool.evaltools.retrieval]"
    )


def to_json(stats: SetStats, targets: Targets) -> dict[str, Any]:
    def share(count: int) -> float:
        return round(count / stats.queries, 4) if stats.queries else 0.0

    types = {
        t: {
            "count": stats.types[t],
            "share": share(stats.types[t]),
            "target": round(targets.mix[t], 4),
        }
        for t in RECORD_TYPES
    }
    if stats.types[OTHER]:
        types[OTHER] = {"count": stats.types[OTHER], "share": share(stats.types[OTHER])}
    names = ["tune", "holdout", *sorted(set(stats.splits) - {"tune", "holdout"})]
    splits: dict[str, dict[str, float]] = {
        name: {"count": stats.splits[name], "share": share(stats.splits[name])}
        for name in names
        if stats.splits[name] or name == "holdout"
    }
    splits["holdout"]["target"] = targets.holdout_share
    busiest = stats.queries_per_gold.most_common(1)
    per_gold: dict[str, Any] = dict(spread(Counter(stats.queries_per_gold.values())))
    per_gold["chunk_ids"] = len(stats.queries_per_gold)
    per_gold["busiest"] = busiest[0][0] if busiest else None
    return {
        "files": stats.files,
        "queries": stats.queries,
        "uncounted_lines": sum(stats.uncounted.values()),
        "types": types,
        "split": splits,
        "sources": dict(stats.sources.most_common()),
        "grades": {g: stats.grades[g] for g in sorted(stats.grades, reverse=True)},
        "gold_per_query": spread(stats.gold_per_query),
        "queries_per_gold": per_gold,
    }
