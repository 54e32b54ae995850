"""Per-query retrieval metrics at a cut-off k, by trec_eval's definitions.

- ndcg: trec_eval's `ndcg_cut.k`: gain = grade (linear), discount log2(rank + 1), the ideal
  ranking being the query's gold grades sorted descending, both cut at k.
- recall: relevant chunks in the top k over all relevant chunks (grade > 0).
- mrr: 1 / rank of the first relevant chunk within the top k, else 0.
- hit: 1 when a relevant chunk is in the top k, else 0.

Grades are used as given: a float grade is not truncated, as trec_eval and ranx do.
Written out here, not taken from pytrec_eval: its qrels take integers only, and the four
sums are faster in Python than building its C structures (tests cross-check against
ir_measures on integer grades).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

METRICS = ("ndcg", "recall", "mrr", "hit")

# 1 / log2(rank + 1) for ranks 1..; grown on demand.
_DISCOUNTS: list[float] = [1.0 / math.log2(r + 2) for r in range(100)]


def _discount(count: int) -> list[float]:
    while len(_DISCOUNTS) < count:
        _DISCOUNTS.append(1.0 / math.log2(len(_DISCOUNTS) + 2))
    return _DISCOUNTS


def score_query(ranked: Sequence[str], gold: Mapping[str, float], k: int) -> tuple[float, ...]:
    """(ndcg, recall, mrr, hit) of one query's ranked chunk IDs against its gold grades."""
    relevant = [g for g in gold.values() if g > 0]
    if not relevant:
        return (0.0, 0.0, 0.0, 0.0)
    discounts = _discount(k)
    dcg = 0.0
    found = 0
    first = 0
    for rank, docid in enumerate(ranked[:k]):
        grade = gold.get(docid)
        if grade is None or grade <= 0:
            continue
        dcg += grade * discounts[rank]
        found += 1
        if not first:
            first = rank + 1
    ideal = sorted(relevant, reverse=True)[:k]
    idcg = sum(g * discounts[r] for r, g in enumerate(ideal))
    return (
        dcg / idcg,
        found / len(relevant),
        1.0 / first if first else 0.0,
        1.0 if first else 0.0,
    )
