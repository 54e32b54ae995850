"""`evaltools gold stats`: figures for people and machines, warnings against the targets."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path
from typing import Any

import pytest

from evaltools.__main__ import main
from evaltools.retrieval.records.stats import SetStats, spread


def records(
    mix: tuple[int, int, int] = (3, 5, 2), per_type: int = 10, holdout_every: int = 5
) -> list[dict[str, Any]]:
    kinds = [
        t for t, n in zip(("identifier", "intent", "mixed"), mix, strict=True) for _ in range(n)
    ]
    out = []
    for n in range(per_type * len(kinds)):
        gold = {f"demo_repo/m.py:{n + 1}-{n + 2}:f{n}": 1 + n % 3}
        if n % 2:
            gold["demo_repo/shared.py:1-9:Shared"] = 3
        rec: dict[str, Any] = {
            "qid": f"q{n}",
            "query": "q",
            "type": kinds[n % len(kinds)],
            "gold": gold,
            "source": "agent_log" if n % 4 else "interview",
        }
        if holdout_every:
            rec["split"] = "holdout" if n % holdout_every == 0 else "tune"
        out.append(rec)
    return out


def write(path: Path, recs: list[dict[str, Any]], extra: str = "") -> None:
    path.write_text("".join(json.dumps(r) + "\n" for r in recs) + extra)


def stats(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, dict[str, Any]]:
    code = main(["gold", "stats", *argv, "--format", "json"])
    return code, json.loads(capsys.readouterr().out)


def codes(data: dict[str, Any]) -> list[str]:
    return [w["code"] for w in data["warnings"]]


def test_a_set_on_target_has_no_warnings(in_tmp: Path, capsys: pytest.CaptureFixture[str]) -> None:
    write(in_tmp / "set.jsonl", records())
    code, data = stats(capsys, "set.jsonl")
    assert code == 0
    assert data["queries"] == 100
    assert data["warnings"] == []
    assert data["types"] == {
        "identifier": {"count": 30, "share": 0.3, "target": 0.3},
        "intent": {"count": 50, "share": 0.5, "target": 0.5},
        "mixed": {"count": 20, "share": 0.2, "target": 0.2},
    }
    assert data["split"] == {
        "tune": {"count": 80, "share": 0.8},
        "holdout": {"count": 20, "share": 0.2, "target": 0.2},
    }
    assert data["sources"] == {"agent_log": 75, "interview": 25}
    assert data["grades"] == {"3": 83, "2": 33, "1": 34}
    assert data["gold_per_query"] == {"min": 1, "median": 1.5, "mean": 1.5, "max": 2}
    assert data["queries_per_gold"] == {
        "min": 1,
        "median": 1.0,
        "mean": 1.49,
        "max": 50,
        "chunk_ids": 101,
        "busiest": "demo_repo/shared.py:1-9:Shared",
    }


def test_the_text_table(in_tmp: Path, capsys: pytest.CaptureFixture[str]) -> None:
    write(in_tmp / "set.jsonl", records())
    assert main(["gold", "stats", "set.jsonl"]) == 0
    out = capsys.readouterr().out
    assert out == (
        "100 queries in 1 file\n"
        "\n"
        "type         queries   share  target\n"
        "identifier        30   30.0%   30.0%\n"
        "intent            50   50.0%   50.0%\n"
        "mixed             20   20.0%   20.0%\n"
        "\n"
        "split        queries   share  target\n"
        "tune              80   80.0%        \n"
        "holdout           20   20.0%   20.0%\n"
        "\n"
        "source       queries   share\n"
        "agent_log         75   75.0%\n"
        "interview         25   25.0%\n"
        "\n"
        "grade          pairs   share\n"
        "3                 83   55.3%\n"
        "2                 33   22.0%\n"
        "1                 34   22.7%\n"
        "\n"
        "gold per query:   min 1, median 1.5, mean 1.5, max 2\n"
        "queries per gold: 101 chunk IDs, median 1, mean 1.49, max 50 "
        "(demo_repo/shared.py:1-9:Shared)\n"
        "\n"
        "All checks passed: 1 file.\n"
    )


def test_a_small_set_without_holdout_that_drifts(
    in_tmp: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write(in_tmp / "set.jsonl", records(mix=(1, 1, 0), per_type=5, holdout_every=0))
    code, data = stats(capsys, "set.jsonl")
    assert code == 0  # warnings only
    assert codes(data) == ["RG101", "RG102", "RG103"]
    small, holdout, drift = (w["message"] for w in data["warnings"])
    assert small.startswith("the set has 10 queries, under 30")
    assert holdout.startswith("no query is in the holdout split: mark about 20%")
    assert drift == (
        "type mix identifier:intent:mixed is 50:50:0 (%), the target is 30:50:20: identifier "
        "is 20 points over, mixed is 20 points under; add queries of the missing types, or set "
        "target-mix under [tool.evaltools.retrieval]"
    )
    assert {(w["path"], w["line"], w["column"]) for w in data["warnings"]} == {("set.jsonl", 1, 1)}


def test_a_drift_of_exactly_ten_points_is_tolerated(
    in_tmp: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write(in_tmp / "set.jsonl", records(mix=(4, 4, 2)))  # 40:40:20 against 30:50:20
    assert codes(stats(capsys, "set.jsonl")[1]) == []
    write(in_tmp / "set.jsonl", records(mix=(4, 4, 2), holdout_every=2))  # 50% holdout
    assert codes(stats(capsys, "set.jsonl")[1]) == ["RG104"]


def test_targets_from_the_configuration(in_tmp: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (in_tmp / "pyproject.toml").write_text(
        "[tool.evaltools.retrieval]\n"
        "target-mix = {identifier = 1, intent = 1}\n"
        "holdout-share = 0.5\n"
    )
    write(in_tmp / "set.jsonl", records(mix=(1, 1, 0), per_type=20, holdout_every=2))
    code, data = stats(capsys, "set.jsonl")
    assert (code, codes(data)) == (0, [])
    assert data["types"]["mixed"] == {"count": 0, "share": 0.0, "target": 0.0}
    assert data["split"]["holdout"]["target"] == 0.5


@pytest.mark.parametrize(
    ("table", "words"),
    [
        (
            "target-mix = {identifier = 3, intent = 5, other = 2}",
            ":2:43: unknown key 'other' in [tool.evaltools.retrieval.target-mix] (valid: ",
        ),
        (
            "target-mix = {identifier = -1}",
            ":2:28: [tool.evaltools.retrieval] target-mix.identifier",
        ),
        ("target-mix = {identifier = 0}", "must not be all zeros"),
        ("target-mix = 3", "target-mix must be a table"),
        ("holdout-share = 1.5", "holdout-share must be a number between 0 and 1"),
        ('holdout-share = "20%"', "holdout-share must be a number"),
    ],
)
def test_bad_targets_are_usage_errors(
    in_tmp: Path, capsys: pytest.CaptureFixture[str], table: str, words: str
) -> None:
    (in_tmp / "pyproject.toml").write_text(f"[tool.evaltools.retrieval]\n{table}\n")
    write(in_tmp / "set.jsonl", records())
    assert main(["gold", "stats", "set.jsonl"]) == 2
    assert words in capsys.readouterr().err


def test_lines_that_are_not_records_are_counted_out_and_said(
    in_tmp: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = {"qid": "x", "type": "other", "split": "test", "source": 3, "gold": {"a:1-2": 3.0}}
    write(in_tmp / "set.jsonl", [*records(), bad], extra="\n[1]\n{broken\n")
    code, data = stats(capsys, "set.jsonl")
    assert code == 0
    assert data["queries"] == 101
    assert data["uncounted_lines"] == 3
    assert data["types"]["(other)"] == {"count": 1, "share": 0.0099}
    assert data["split"]["(other)"]["count"] == 1
    assert data["sources"]["(other)"] == 1
    assert data["grades"]["(other)"] == 1
    assert codes(data) == ["RG105"]
    assert data["warnings"][0]["message"].startswith("3 lines are not a record and not counted")


def test_several_files_make_one_set(in_tmp: Path, capsys: pytest.CaptureFixture[str]) -> None:
    recs = records()
    (in_tmp / "evals").mkdir()
    write(in_tmp / "evals" / "tune.jsonl", recs[:60])
    write(in_tmp / "evals" / "holdout.jsonl", recs[60:])
    code, data = stats(capsys, "evals")
    assert code == 0
    assert data["files"] == ["evals/holdout.jsonl", "evals/tune.jsonl"]
    assert data["queries"] == 100


def test_github_and_sarif_carry_the_warnings(
    in_tmp: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write(in_tmp / "set.jsonl", records(per_type=1))
    assert main(["gold", "stats", "set.jsonl", "--format", "github"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("::warning file=set.jsonl,line=1,col=1,title=RG101 small-set::")
    assert main(["gold", "stats", "set.jsonl", "--format", "sarif"]) == 0
    sarif = json.loads(capsys.readouterr().out)
    assert [r["ruleId"] for r in sarif["runs"][0]["results"]] == ["RG101"]


def test_empty_files_missing_paths_and_stdin(
    in_tmp: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    (in_tmp / "empty.jsonl").write_text("")
    code, data = stats(capsys, "empty.jsonl")
    assert code == 1
    assert codes(data) == ["IO004", "RG101"]
    assert data["queries"] == 0 and data["gold_per_query"]["max"] == 0
    assert main(["gold", "stats", "nope.jsonl"]) == 2
    assert "no such file or directory: nope.jsonl" in capsys.readouterr().err
    data_in = "".join(json.dumps(r) + "\n" for r in records())
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data_in.encode())))
    code, data = stats(capsys, "-")
    assert (code, data["queries"], data["files"]) == (0, 100, ["<stdin>"])


def test_a_folder_without_sets(in_tmp: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # Nothing to count is an error, not a small set (issue 11): say what was searched.
    (in_tmp / "evals").mkdir()
    assert main(["gold", "stats", "evals"]) == 2
    err = capsys.readouterr().err
    assert err == "evaltools gold stats: error: no eval sets (*.jsonl) under evals/\n"


def test_the_text_table_of_an_empty_set(in_tmp: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (in_tmp / "set.jsonl").write_text("\n")
    assert main(["gold", "stats", "set.jsonl"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("0 queries in 1 file\n")
    assert "queries per gold: 0 chunk IDs, median 0, mean 0, max 0\n" in out


def test_spread_of_a_distribution() -> None:
    assert spread({}) == {"min": 0, "median": 0, "mean": 0, "max": 0}
    assert spread({1: 3}) == {"min": 1, "median": 1.0, "mean": 1.0, "max": 1}
    assert spread({1: 1, 2: 1, 10: 1}) == {"min": 1, "median": 2.0, "mean": 4.33, "max": 10}
    assert spread({1: 2, 3: 2}) == {"min": 1, "median": 2.0, "mean": 2.0, "max": 3}


def test_set_stats_take_records_one_by_one() -> None:
    collected = SetStats()
    collected.add({"type": "intent", "split": "holdout", "gold": "not an object"})
    assert collected.queries == 1
    assert collected.holdout_share == 1.0
    assert collected.gold_per_query == {0: 1}
    assert SetStats().type_shares() == {"identifier": 0.0, "intent": 0.0, "mixed": 0.0}


def test_an_unreadable_file_is_a_finding(
    in_tmp: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    write(in_tmp / "set.jsonl", records())

    def refuse(source: object) -> Any:
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr("evaltools.retrieval.records.record.iter_record_lines", refuse)
    code, data = stats(capsys, "set.jsonl")
    assert code == 1
    assert codes(data) == ["RG101", "RV012"]  # nothing could be counted
    assert data["warnings"][1]["message"] == "cannot read the file (Permission denied): fix access"


def test_splits_are_listed_tune_holdout_then_the_rest(
    in_tmp: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    recs = records(holdout_every=0)
    recs[0]["split"] = "test"
    recs[1]["split"] = "tune"
    write(in_tmp / "set.jsonl", recs)
    _, data = stats(capsys, "set.jsonl")
    assert list(data["split"]) == ["tune", "holdout", "(none)", "(other)"]
    assert data["split"]["holdout"] == {"count": 0, "share": 0.0, "target": 0.2}
