"""`gold eval --format json` carries each query's values, and they are trec_eval's (through
ir_measures) under the conventions the README states: ties by score then docid descending,
MRR cut at k, a query missing from the run scoring 0."""

from __future__ import annotations

import random
from pathlib import Path

import ir_measures
import pytest
from ir_measures import RR, R, Success, nDCG

from tests.commands.gold.test_gold_eval import cid, evaluate, record, write_set, write_trec

K = 5


def test_per_query_values_agree_with_ir_measures_with_ties_and_missing_queries(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rng = random.Random(11)
    records = []
    qrels: dict[str, dict[str, int]] = {}
    lines: list[tuple[str, str, float]] = []
    run: dict[str, dict[str, float]] = {}
    for q in range(120):
        qid = f"q{q}"
        docs = [cid(n) for n in rng.sample(range(60), 20)]
        qrels[qid] = {d: rng.randint(1, 3) for d in rng.sample(docs, 3)}
        records.append(
            record(
                qid,
                qrels[qid],
                rng.choice(["intent", "identifier"]),
                rng.choice(["tune", "holdout"]),
            )
        )
        if q % 7 == 3:
            continue  # missing from the run
        # Scores from a small range: ties are common, and the file order is shuffled.
        run[qid] = {d: float(rng.randint(0, 4)) for d in docs[: rng.randint(1, 20)]}
        lines += [(qid, d, s) for d, s in run[qid].items()]
    rng.shuffle(lines)
    write_set(tmp_path, records)
    code, result = evaluate(
        capsys, tmp_path, write_trec(tmp_path, "run.txt", lines), extra=("--k", str(K))
    )
    assert code == 0, (result, capsys.readouterr().err)
    # RR without a cut-off is trec_eval's (its tie order); cut at k below.
    measures = [nDCG @ K, R @ K, RR, Success @ K]
    theirs = {
        (m.query_id, str(m.measure)): m.value for m in ir_measures.iter_calc(measures, qrels, run)
    }
    mine = result["queries"]
    assert [q["qid"] for q in mine] == [r["qid"] for r in records]
    assert [(q["type"], q["split"]) for q in mine] == [(r["type"], r["split"]) for r in records]
    missing = 0
    for query in mine:
        qid = query["qid"]
        assert query["missing"] == (qid not in run)
        if qid not in run:
            missing += 1
            assert query["metrics"] == {"ndcg": 0.0, "recall": 0.0, "mrr": 0.0, "hit": 0.0}
            continue
        expected = [theirs[(qid, str(m))] for m in measures]
        expected[2] = expected[2] if expected[2] >= 1 / K else 0.0
        values = [query["metrics"][m] for m in ("ndcg", "recall", "mrr", "hit")]
        assert values == pytest.approx(expected, abs=1e-6), qid
    assert missing == 17
    # The group means are the means of these values, the missing queries counted as 0.
    overall = next(g for g in result["groups"] if (g["type"], g["split"]) == ("all", "all"))
    mean = sum(q["metrics"]["ndcg"] for q in mine) / len(mine)
    assert overall["metrics"]["ndcg"] == pytest.approx(mean, abs=1e-6)


def test_help_states_the_conventions(capsys: pytest.CaptureFixture[str]) -> None:
    from evaltools.__main__ import main

    assert main(["gold", "eval", "--help"]) == 0
    text = " ".join(capsys.readouterr().out.replace("│", " ").split())
    for convention in (
        "MRR is cut at k",
        "nDCG has linear gains",
        "broken by score, then docid, both descending",
        "a query missing from a run scores 0 and counts in every mean",
    ):
        assert convention in text
