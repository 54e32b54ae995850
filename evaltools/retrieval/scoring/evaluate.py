"""Scoring a run against an eval set: every query of the set counts, by type and split.

A query the run has no results for scores 0 (and is listed): averaging only over the queries
a run answered, as trec_eval, pytrec_eval and BEIR do, lets a retriever that fails on the
hard queries score higher. Results for qids the set does not have are listed and ignored.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from evaltools.retrieval.records.record import RecordLine
from evaltools.retrieval.scoring.metrics import METRICS, score_query
from evaltools.retrieval.scoring.resampling import bootstrap_ci, paired_randomization
from evaltools.retrieval.scoring.runs import Run

ALL = "all"
UNSPLIT = "unsplit"
# Below this many queries a 95% interval is too wide to tell a 2-point change.
SMALL_GROUP = 30
SIGNIFICANCE = 0.05


@dataclass
class Group:
    type: str
    split: str
    members: list[int]  # indexes into the set's queries
    means: dict[str, float] = field(default_factory=dict)
    ci: dict[str, tuple[float, float]] = field(default_factory=dict)

    @property
    def small(self) -> bool:
        return len(self.members) < SMALL_GROUP


@dataclass(frozen=True)
class Difference:
    type: str
    split: str
    n: int
    diff: dict[str, float]
    p: dict[str, float]


@dataclass
class Evaluation:
    run: str
    k: int
    seed: int
    groups: list[Group]
    missing: list[str]
    unknown: list[str]
    scores: list[tuple[float, ...]]  # per query of `queries`, a value per metric
    queries: Sequence[RecordLine] = ()
    baseline: str | None = None
    comparison: list[Difference] = field(default_factory=list)
    baseline_missing: list[str] = field(default_factory=list)

    @property
    def overfitting(self) -> bool:
        """nDCG improves significantly on tune and not on holdout."""
        by_split = {d.split: d for d in self.comparison if d.type == ALL}
        tune, holdout = by_split.get("tune"), by_split.get("holdout")
        if tune is None or holdout is None:
            return False
        better = tune.diff["ndcg"] > 0 and tune.p["ndcg"] < SIGNIFICANCE
        held = holdout.diff["ndcg"] > 0 and holdout.p["ndcg"] < SIGNIFICANCE
        return better and not held


def queries_of(lines: Iterable[RecordLine]) -> list[RecordLine]:
    """The set's queries: the records with a string qid and a `gold` object, the first
    record of a qid winning (`validate` reports repeats). What scoring reads of each is a
    function of the record: `query_type`, `query_split`, `grades`."""
    found: dict[str, RecordLine] = {}
    for line in lines:
        record = line.record
        if record is None:
            continue
        qid, gold = record.get("qid"), record.get("gold")
        if isinstance(qid, str) and isinstance(gold, dict) and qid not in found:
            found[qid] = line
    return list(found.values())


def query_type(query: RecordLine) -> str:
    kind = query.value.get("type")
    return kind if isinstance(kind, str) else "untyped"


def query_split(query: RecordLine) -> str:
    split = query.value.get("split")
    return split if isinstance(split, str) else UNSPLIT


def grades(query: RecordLine) -> dict[str, float]:
    """The numeric grades of the gold (what else is there, `validate` reports)."""
    gold = query.value["gold"]
    return {
        cid: float(g)
        for cid, g in gold.items()
        if isinstance(g, (int, float)) and not isinstance(g, bool)
    }


def _scores(queries: Sequence[RecordLine], run: Run, k: int) -> list[tuple[float, ...]]:
    return [score_query(run.ranked.get(q.qid, ()), grades(q), k) for q in queries]


def _groups(queries: Sequence[RecordLine]) -> list[Group]:
    keyed: dict[tuple[str, str], list[int]] = {}
    for index, q in enumerate(queries):
        kind, split = query_type(q), query_split(q)
        for key in ((ALL, ALL), (kind, ALL), (ALL, split), (kind, split)):
            keyed.setdefault(key, []).append(index)
    order = sorted(keyed, key=lambda t: (t[0] != ALL, t[1] != ALL, t[0], t[1]))
    if not queries:
        order = [(ALL, ALL)]
    return [Group(t, s, keyed.get((t, s), [])) for t, s in order]


def evaluate(
    queries: Sequence[RecordLine],
    run: Run,
    *,
    k: int,
    seed: int,
    baseline: Run | None = None,
) -> Evaluation:
    scores = _scores(queries, run, k)
    known = {q.qid for q in queries}
    groups = _groups(queries)
    for group in groups:
        rows = [scores[i] for i in group.members]
        for column, metric in enumerate(METRICS):
            total = sum(r[column] for r in rows)
            group.means[metric] = total / len(rows) if rows else 0.0
        group.ci = dict(zip(METRICS, bootstrap_ci(rows, seed), strict=False))
    result = Evaluation(
        run.name,
        k,
        seed,
        groups,
        missing=[q.qid for q in queries if q.qid not in run.ranked],
        unknown=sorted(qid for qid in run.ranked if qid not in known),
        scores=scores,
        queries=queries,
    )
    if baseline is not None:
        result.baseline = baseline.name
        result.baseline_missing = [q.qid for q in queries if q.qid not in baseline.ranked]
        result.comparison = _compare(groups, scores, _scores(queries, baseline, k), seed)
    return result


def _compare(
    groups: Sequence[Group],
    scores: Sequence[tuple[float, ...]],
    base: Sequence[tuple[float, ...]],
    seed: int,
) -> list[Difference]:
    found: list[Difference] = []
    for group in groups:
        diffs = [
            tuple(a - b for a, b in zip(scores[i], base[i], strict=True)) for i in group.members
        ]
        n = len(diffs)
        means = [sum(d[c] for d in diffs) / n if n else 0.0 for c in range(len(METRICS))]
        pvalues = paired_randomization(diffs, seed) if diffs else [1.0] * len(METRICS)
        found.append(
            Difference(
                group.type,
                group.split,
                n,
                dict(zip(METRICS, means, strict=True)),
                dict(zip(METRICS, pvalues, strict=True)),
            )
        )
    return found
