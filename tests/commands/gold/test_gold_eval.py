from __future__ import annotations

import json
import math
import random
from pathlib import Path
from typing import Any

import ir_measures
import pytest
from ir_measures import RR, R, Success, nDCG

from evaltools.__main__ import main
from evaltools.retrieval.scoring.metrics import score_query
from tests.retrieval.gitrepo import SESSION_PY, GitRepo


def cid(n: int) -> str:
    return f"repo/m{n}.py:1-2:f{n}"


def record(
    qid: str, gold: dict[str, Any], kind: str = "intent", split: str = "tune"
) -> dict[str, Any]:
    return {"qid": qid, "query": f"query {qid}", "type": kind, "split": split, "gold": gold}


def write_set(tmp: Path, records: list[dict[str, Any]]) -> Path:
    """The set, and a metas.jsonl holding every gold ID (so the gold check passes)."""
    path = tmp / "set.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    ids = {c for r in records for c in r["gold"]}
    (tmp / "metas.jsonl").write_text(
        "".join(json.dumps({"chunk_id": c}) + "\n" for c in sorted(ids)), encoding="utf-8"
    )
    return path


def write_trec(tmp: Path, name: str, lines: list[tuple[str, str, float]]) -> Path:
    path = tmp / name
    path.write_text(
        "".join(f"{q} Q0 {d} {i + 1} {s} tag\n" for i, (q, d, s) in enumerate(lines)),
        encoding="utf-8",
    )
    return path


def evaluate(
    capsys: pytest.CaptureFixture[str], tmp: Path, *runs: Path, extra: tuple[str, ...] = ()
) -> tuple[int, Any]:
    args = ["gold", "eval", *map(str, runs), "--set", str(tmp / "set.jsonl")]
    args += ["--metas", str(tmp / "metas.jsonl"), "--format", "json", *extra]
    code = main(args)
    out = capsys.readouterr().out
    return code, json.loads(out) if code == 0 else out


def overall(result: Any) -> dict[str, float]:
    group = next(g for g in result["groups"] if g["type"] == "all" and g["split"] == "all")
    metrics: dict[str, float] = group["metrics"]
    return metrics


def test_graded_gains_ties_and_k_by_hand(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Gold: m1 grade 3, m2 grade 1, m3 grade 2. The run ties m2 and m9 on score: trec_eval
    # breaks ties by docid descending, so m9 ("...m9...") ranks before m2.
    write_set(tmp_path, [record("q1", {cid(1): 3, cid(2): 1, cid(3): 2})])
    run = write_trec(
        tmp_path, "run.txt", [("q1", cid(2), 5.0), ("q1", cid(9), 5.0), ("q1", cid(1), 1.0)]
    )
    code, result = evaluate(capsys, tmp_path, run, extra=("--k", "2"))
    assert code == 0
    # Ranked: m9 (0), m2 (1); cut at 2. DCG = 1/log2(3); IDCG = 3 + 2/log2(3).
    dcg = 1 / math.log2(3)
    idcg = 3 + 2 / math.log2(3)
    assert overall(result) == pytest.approx(
        {"ndcg": dcg / idcg, "recall": 1 / 3, "mrr": 1 / 2, "hit": 1.0}, abs=1e-6
    )
    # k larger than the run: every result counts, the ideal keeps all three gold grades.
    code, result = evaluate(capsys, tmp_path, run, extra=("--k", "100"))
    dcg = 1 / math.log2(3) + 3 / math.log2(4)
    idcg = 3 + 2 / math.log2(3) + 1 / math.log2(4)
    assert overall(result)["ndcg"] == pytest.approx(dcg / idcg, abs=1e-6)
    assert overall(result)["recall"] == pytest.approx(2 / 3, abs=1e-6)


def test_float_grades_are_not_truncated() -> None:
    # trec_eval and ranx read grade 1.5 as 1; here it keeps its weight against grade 1.
    truncated = score_query(["b", "a"], {"a": 1, "b": 1}, 10)[0]
    graded = score_query(["b", "a"], {"a": 1.5, "b": 1}, 10)[0]
    assert truncated == pytest.approx(1.0)
    assert graded < 1.0
    ideal = 1.5 + 1 / math.log2(3)
    assert graded == pytest.approx((1 + 1.5 / math.log2(3)) / ideal)


def test_agrees_with_ir_measures_on_integer_grades() -> None:
    rng = random.Random(7)
    qrels: dict[str, dict[str, int]] = {}
    run: dict[str, dict[str, float]] = {}
    for q in range(200):
        docs = [f"d{i}" for i in rng.sample(range(40), 25)]
        qrels[f"q{q}"] = {d: rng.randint(1, 3) for d in rng.sample(docs, 4)}
        # Scores from a small range, so ties are common.
        run[f"q{q}"] = {d: float(rng.randint(0, 6)) for d in docs[: rng.randint(1, 25)]}
    # RR without a cut-off: pytrec_eval's (trec_eval's tie order); ir_measures takes RR@k
    # from its msmarco provider, which breaks ties by docid ascending. Cut below.
    measures = [nDCG @ 5, R @ 5, RR, Success @ 5]
    expected = {
        (m.query_id, str(m.measure)): m.value for m in ir_measures.iter_calc(measures, qrels, run)
    }
    for qid, results in run.items():
        ranked = [d for d, _ in sorted(results.items(), key=lambda r: (r[1], r[0]), reverse=True)]
        mine = score_query(ranked, {d: float(g) for d, g in qrels[qid].items()}, 5)
        theirs = [expected[(qid, str(m))] for m in measures]
        theirs[2] = theirs[2] if theirs[2] >= 1 / 5 else 0.0
        assert mine == pytest.approx(theirs, abs=1e-9), qid


def test_missing_queries_score_zero_and_are_listed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    records = [record(f"q{i}", {cid(i): 3}) for i in range(10)]
    write_set(tmp_path, records)
    # The run answers 8 of 10 queries, each perfectly, and one qid the set does not have.
    lines = [(f"q{i}", cid(i), 1.0) for i in range(8)] + [("zz", cid(1), 1.0)]
    run = write_trec(tmp_path, "run.txt", lines)
    code, result = evaluate(capsys, tmp_path, run)
    assert code == 0
    assert result["missing"] == ["q8", "q9"]
    assert result["unknown"] == ["zz"]
    assert overall(result)["ndcg"] == pytest.approx(0.8)
    # The same run scored on the queries it has (what trec_eval averages over) scores 1.
    write_set(tmp_path, records[:8])
    code, restricted = evaluate(capsys, tmp_path, run)
    assert overall(restricted)["ndcg"] == pytest.approx(1.0)
    assert overall(result)["ndcg"] < overall(restricted)["ndcg"]


def test_empty_run_scores_zero(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    write_set(tmp_path, [record("q1", {cid(1): 2}), record("q2", {cid(2): 1})])
    run = tmp_path / "run.txt"
    run.write_text("", encoding="utf-8")
    code, result = evaluate(capsys, tmp_path, run)
    assert code == 0
    assert overall(result) == {"ndcg": 0.0, "recall": 0.0, "mrr": 0.0, "hit": 0.0}
    assert result["missing"] == ["q1", "q2"]


def test_jsonl_runs_results_and_ids(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    write_set(tmp_path, [record("q1", {cid(1): 3}), record("q2", {cid(2): 3})])
    run = tmp_path / "run.jsonl"
    run.write_text(
        json.dumps(
            {"qid": "q1", "results": [{"id": cid(5), "score": 1}, {"id": cid(1), "score": 2}]}
        )
        + "\n"
        + json.dumps({"qid": "q2", "ids": [cid(5), cid(2)]})
        + "\n",
        encoding="utf-8",
    )
    code, result = evaluate(capsys, tmp_path, run)
    assert code == 0
    # q1: scored, so cid(1) ranks first (rr 1); q2: ranked list as given (rr 1/2).
    assert overall(result)["mrr"] == pytest.approx(0.75)


def test_groups_by_type_and_split_with_small_flag(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    records = [record(f"a{i}", {cid(i): 3}, "intent", "tune") for i in range(30)]
    records += [record(f"b{i}", {cid(100 + i): 3}, "identifier", "holdout") for i in range(5)]
    write_set(tmp_path, records)
    run = write_trec(tmp_path, "run.txt", [(f"a{i}", cid(i), 1.0) for i in range(30)])
    code, result = evaluate(capsys, tmp_path, run)
    assert code == 0
    groups = {(g["type"], g["split"]): g for g in result["groups"]}
    assert set(groups) == {
        ("all", "all"),
        ("intent", "all"),
        ("identifier", "all"),
        ("all", "tune"),
        ("all", "holdout"),
        ("intent", "tune"),
        ("identifier", "holdout"),
    }
    assert groups[("intent", "tune")]["metrics"]["hit"] == 1.0
    assert groups[("intent", "tune")]["too_small"] is False
    assert groups[("identifier", "all")]["metrics"]["hit"] == 0.0
    assert groups[("identifier", "all")]["too_small"] is True
    assert groups[("all", "all")]["n"] == 35
    lo, hi = groups[("all", "all")]["ci"]["hit"]
    assert lo < 30 / 35 < hi
    # Constant scores: the interval is the value itself.
    assert groups[("intent", "tune")]["ci"]["ndcg"] == [1.0, 1.0]


def test_bootstrap_and_test_are_seeded(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rng = random.Random(3)
    records = [record(f"q{i}", {cid(i): 3}) for i in range(40)]
    write_set(tmp_path, records)
    lines = [(f"q{i}", cid(i if rng.random() < 0.6 else 999), 1.0) for i in range(40)]
    run = write_trec(tmp_path, "run.txt", lines)
    base = write_trec(tmp_path, "base.txt", [(f"q{i}", cid(i), 1.0) for i in range(0, 40, 2)])
    first = evaluate(capsys, tmp_path, run, extra=("--baseline", str(base), "--seed", "5"))
    second = evaluate(capsys, tmp_path, run, extra=("--baseline", str(base), "--seed", "5"))
    other = evaluate(capsys, tmp_path, run, extra=("--baseline", str(base), "--seed", "6"))
    assert first == second
    assert first[1]["groups"][0]["ci"] != other[1]["groups"][0]["ci"]


def test_identical_runs_differ_by_zero_with_p_one(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write_set(tmp_path, [record(f"q{i}", {cid(i): 2}) for i in range(12)])
    run = write_trec(tmp_path, "run.txt", [(f"q{i}", cid(i * (i % 3)), 1.0) for i in range(12)])
    code, result = evaluate(capsys, tmp_path, run, extra=("--baseline", str(run)))
    assert code == 0
    for group in result["comparison"]["groups"]:
        assert group["diff"] == {"ndcg": 0.0, "recall": 0.0, "mrr": 0.0, "hit": 0.0}
        assert group["p"] == {"ndcg": 1.0, "recall": 1.0, "mrr": 1.0, "hit": 1.0}
    assert result["comparison"]["overfitting"] is False


def test_tune_gain_without_holdout_gain_warns(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    records = [record(f"t{i}", {cid(i): 3}, split="tune") for i in range(40)]
    records += [record(f"h{i}", {cid(100 + i): 3}, split="holdout") for i in range(10)]
    write_set(tmp_path, records)
    # The new run finds every tune query and the same holdout ones as the baseline.
    holdout = [(f"h{i}", cid(100 + i), 1.0) for i in range(0, 10, 2)]
    run = write_trec(tmp_path, "run.txt", [(f"t{i}", cid(i), 1.0) for i in range(40)] + holdout)
    base = write_trec(tmp_path, "base.txt", [(f"t{i}", cid(i), 1.0) for i in range(10)] + holdout)
    code, result = evaluate(capsys, tmp_path, run, extra=("--baseline", str(base)))
    assert code == 0
    tune = next(
        g for g in result["comparison"]["groups"] if g["type"] == "all" and g["split"] == "tune"
    )
    assert tune["diff"]["ndcg"] == pytest.approx(0.75)
    assert tune["p"]["ndcg"] < 0.001
    assert result["comparison"]["overfitting"] is True
    args = ["gold", "eval", str(run), "--set", str(tmp_path / "set.jsonl")]
    assert main([*args, "--metas", str(tmp_path / "metas.jsonl"), "--baseline", str(base)]) == 0
    assert (
        "warning: nDCG improves significantly on tune but not on holdout" in capsys.readouterr().out
    )


def test_unreadable_run_line_exits_1(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    write_set(tmp_path, [record("q1", {cid(1): 3})])
    run = tmp_path / "run.txt"
    run.write_text(f"q1 Q0 {cid(1)} 1 high tag\nq1 Q0 {cid(2)} 2\n", encoding="utf-8")
    code = main(
        [
            "gold",
            "eval",
            str(run),
            "--set",
            str(tmp_path / "set.jsonl"),
            "--metas",
            str(tmp_path / "metas.jsonl"),
        ]
    )
    err = capsys.readouterr().err
    assert code == 1
    assert "run.txt:1:27: RG501" in err  # at the score
    assert "run.txt:2:1: RG501" in err


def test_history_appends_one_line_per_run(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write_set(tmp_path, [record("q1", {cid(1): 3})])
    run = write_trec(tmp_path, "run.txt", [("q1", cid(1), 1.0)])
    history = tmp_path / "history.jsonl"
    for _ in range(2):
        assert evaluate(capsys, tmp_path, run, extra=("--history", str(history)))[0] == 0
    lines = [json.loads(line) for line in history.read_text(encoding="utf-8").splitlines()]
    assert len(lines) == 2
    assert lines[0]["run"] == "run.txt"
    assert len(lines[0]["set_digest"]) == 64
    assert lines[0]["groups"][0]["metrics"]["ndcg"] == 1.0


def test_stale_gold_after_a_refactor_refuses(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    repo = GitRepo(tmp_path / "demo_repo")
    repo.write("auth/session.py", SESSION_PY)
    repo.commit("initial")
    kill = "demo_repo/auth/session.py:4-6:kill_session"
    revoke = "demo_repo/auth/session.py:18-19:revoke_token"
    (tmp_path / "set.jsonl").write_text(
        json.dumps(record("q1", {kill: 3})) + "\n" + json.dumps(record("q2", {revoke: 3})) + "\n",
        encoding="utf-8",
    )
    run = write_trec(tmp_path, "run.txt", [("q1", kill, 1.0), ("q2", revoke, 1.0)])
    args = ["gold", "eval", "run.txt", "--set", "set.jsonl", "--root", "."]
    assert main(args) == 0
    capsys.readouterr()
    # The refactor: kill_session renamed.
    repo.write("auth/session.py", SESSION_PY.replace("kill_session", "end_session"))
    repo.commit("rename")
    assert main(args) == 1
    err = capsys.readouterr().err
    assert "RG003" in err and kill in err
    assert "(q1)" in err and "--allow-stale" in err
    assert main([*args, "--allow-stale", "--format", "json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["stale"] == ["q1"]
    assert run.exists()
