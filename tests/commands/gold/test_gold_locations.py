"""Findings of `gold merge` and `gold split` that name a field point at the field's value on
the record's line, as `evaltools validate` does, not at column 1."""

from __future__ import annotations

from pathlib import Path

import pytest

from evaltools.__main__ import main

GOOD = '{"qid": "q1", "query": "foo", "type": "intent", "gold": {"a.py:1-2:f": 3}}\n'


def _run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> list[str]:
    assert main(argv) == 1
    return capsys.readouterr().out.splitlines()


def test_a_grade_out_of_range_is_reported_at_the_grade(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    Path("a.jsonl").write_text(GOOD.replace(": 3}", ": 7}"))
    Path("b.jsonl").write_text(GOOD)
    out = _run(["gold", "merge", "a.jsonl", "b.jsonl", "-o", "m.jsonl"], capsys)
    assert out[0] == (
        "a.jsonl:1:72: RG401 [error] record 'q1': grade 7 of 'a.py:1-2:f' is not an integer "
        "1-3: use 3 (exact), 2 (relevant) or 1 (marginal) (at /gold/a.py:1-2:f)"
    )
    # the column validate gives the same value
    assert main(["validate", "a.jsonl"]) == 1
    assert capsys.readouterr().out.startswith("a.jsonl:1:72: RV007 [error]")
    assert not Path("m.jsonl").exists()


def test_a_missing_or_empty_field_is_reported_at_it_or_at_the_record(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    Path("a.jsonl").write_text('{"query": "foo", "gold": {}}\n{"qid": "q2", "gold": {}}\n')
    Path("b.jsonl").write_text(GOOD)
    out = _run(["gold", "merge", "a.jsonl", "b.jsonl", "-o", "m.jsonl"], capsys)
    assert [line.split(" [")[0] for line in out[:-1]] == [
        "a.jsonl:1:1: RG401",  # no qid: the record itself
        "a.jsonl:2:23: RG401",  # the empty gold object
    ]


def test_a_repeated_qid_and_a_different_query_point_at_the_value(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    Path("a.jsonl").write_text(GOOD + "  " + GOOD)
    Path("b.jsonl").write_text(GOOD)
    out = _run(["gold", "merge", "a.jsonl", "b.jsonl", "-o", "m.jsonl"], capsys)
    assert out[0] == (
        "a.jsonl:2:11: RG402 [error] qid 'q1' already occurs on line 1: each query must occur "
        "once per annotator's file (at /qid)"
    )
    Path("a.jsonl").write_text(GOOD)
    Path("b.jsonl").write_text(GOOD.replace('"foo"', '"bar"'))
    out = _run(["gold", "merge", "a.jsonl", "b.jsonl", "-o", "m.jsonl"], capsys)
    assert out[0] == (
        "b.jsonl:1:24: RG403 [error] query of 'q1' differs from a.jsonl:1: both annotators "
        "must grade the same query text (at /query)"
    )


def test_a_split_that_is_no_string_is_shown_as_json_writes_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    Path("s.jsonl").write_text(GOOD.replace("}}", '}, "split": null}'))
    out = _run(["gold", "split", "s.jsonl", "--seed", "1"], capsys)
    assert "RG404 [error] split of 'q1' is null, not 'tune' or 'holdout'" in out[0]


def test_an_unknown_split_is_reported_at_the_split(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    evals = Path("s.jsonl")
    evals.write_text(GOOD.replace("}}", '}, "split": "test"}'))
    before = evals.read_bytes()
    out = _run(["gold", "split", "s.jsonl", "--seed", "1"], capsys)
    assert out[0] == (
        "s.jsonl:1:85: RG404 [error] split of 'q1' is 'test', not 'tune' or 'holdout': fix it, "
        "or delete the key to let `gold split` assign one (at /split)"
    )
    assert main(["validate", "s.jsonl"]) == 1
    assert capsys.readouterr().out.startswith("s.jsonl:1:85: RV010 [error]")
    assert evals.read_bytes() == before
