"""`gold eval` scores only what it can read whole: an invalid set refuses as stale gold does
(with `validate`'s findings), and a run's unreadable line is reported at its column."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from evaltools.__main__ import main
from tests.commands.gold.test_gold_eval import cid, record, write_set, write_trec

GOOD = [record("q1", {cid(1): 3}), record("q2", {cid(2): 3}, kind="identifier")]


def evaluate(*extra: str) -> int:
    args = ["gold", "eval", "run.trec", "--set", "set.jsonl", "--metas", "metas.jsonl"]
    return main([*args, *extra])


def refusal(count: int) -> str:
    return (
        f"gold eval: {count} problem(s) in the eval set set.jsonl: every query must count, so "
        "nothing was scored; fix them (`evaltools validate` reports the same)\n"
    )


@pytest.mark.parametrize(
    ("extra", "at", "finding"),
    [
        (
            {"qid": "q3", "query": "q", "type": "intent", "gold": {cid(3): "3"}},
            '"3"',
            'RV007 [error] grade "3" is a string: write 3 without quotes '
            "(at /gold/repo~1m3.py:1-2:f3)",
        ),
        (
            {"query": "q", "type": "intent", "gold": {cid(3): 3}},
            "{",
            "RV005 [error] record has no `qid` field: add it (required: qid, query, type, gold) "
            "(at /qid)",
        ),
        (
            {"qid": "q1", "query": "again", "type": "intent", "gold": {cid(3): 3}},
            '"q1"',
            'RV004 [error] qid "q1" is used again (first at line 1): give each query its own '
            "qid (at /qid)",
        ),
        (
            {"qid": "q3", "query": "q", "type": "weird", "gold": {cid(3): 3}},
            '"weird"',
            'RV010 [error] `type` "weird" is not one of identifier, intent, mixed: use one of '
            "them (at /type)",
        ),
        (
            {"qid": "q3", "query": "q", "type": "intent", "gold": {cid(3): 99}},
            "99",
            "RV007 [error] grade 99 is out of range: use 1, 2 or 3 (at /gold/repo~1m3.py:1-2:f3)",
        ),
    ],
)
def test_an_invalid_record_refuses_with_validates_finding(
    in_tmp: Path, capsys: pytest.CaptureFixture[str], extra: dict[str, Any], at: str, finding: str
) -> None:
    write_set(in_tmp, [*GOOD, {"qid": "q3", "gold": {cid(3): 3}}])  # metas with every ID
    line = json.dumps(extra)
    (in_tmp / "set.jsonl").write_text(
        "".join(json.dumps(r) + "\n" for r in GOOD) + line + "\n", encoding="utf-8"
    )
    write_trec(in_tmp, "run.trec", [("q1", cid(1), 1.0)])
    before = (in_tmp / "set.jsonl").read_bytes()
    where = f"set.jsonl:3:{line.index(at) + 1}: {finding}\n"
    # --allow-stale lets stale gold IDs through, never a record that is not a query.
    for allow_stale in [(), ("--allow-stale",)]:
        assert evaluate(*allow_stale, "--history", "h.jsonl") == 1
        assert capsys.readouterr() == ("", where + refusal(1))
    assert not (in_tmp / "h.jsonl").exists()
    assert (in_tmp / "set.jsonl").read_bytes() == before
    # The same finding, word for word, as `validate` gives.
    assert main(["validate", "set.jsonl"]) == 1
    assert where in capsys.readouterr().out


def test_an_empty_set_refuses(in_tmp: Path, capsys: pytest.CaptureFixture[str]) -> None:
    write_set(in_tmp, [])
    write_trec(in_tmp, "run.trec", [("q1", cid(1), 1.0)])
    assert evaluate() == 1
    assert capsys.readouterr() == (
        "",
        f"set.jsonl:1:1: IO004 [error] file is empty: delete it or add records\n{refusal(1)}",
    )


def test_a_refusal_under_format_json_is_json_on_stdout(
    in_tmp: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write_set(in_tmp, [])
    write_trec(in_tmp, "run.trec", [("q1", cid(1), 1.0)])
    assert evaluate("--format", "json") == 1
    out, err = capsys.readouterr()
    assert [(d["path"], d["line"], d["code"]) for d in json.loads(out)] == [
        ("set.jsonl", 1, "IO004")
    ]
    assert err == refusal(1)


def test_set_from_stdin_is_a_usage_error(in_tmp: Path, capsys: pytest.CaptureFixture[str]) -> None:
    write_trec(in_tmp, "run.trec", [("q1", cid(1), 1.0)])
    assert main(["gold", "eval", "run.trec", "--set", "-", "--metas", "metas.jsonl"]) == 2
    assert capsys.readouterr().err == (
        "evaltools gold eval: error: --set -: gold eval reads the set more than once; "
        "name the file\n"
    )


NOT_FINITE = (
    "is not a finite number, so the ranking would depend on the order of the lines: "
    "write a finite score"
)


@pytest.mark.parametrize(
    ("score", "message"),
    [
        ("nan", f"score 'nan' (5th field) {NOT_FINITE}"),
        ("-inf", f"score '-inf' (5th field) {NOT_FINITE}"),
        ("Infinity", f"score 'Infinity' (5th field) {NOT_FINITE}"),
        ("high", "score 'high' (5th field) is not a number: write the retriever's score there"),
    ],
)
def test_a_score_that_is_not_a_finite_number_is_reported_at_its_column(
    in_tmp: Path, capsys: pytest.CaptureFixture[str], score: str, message: str
) -> None:
    write_set(in_tmp, GOOD)
    line = f"q1 Q0 {cid(1)} 1 {score} bm25\n"
    (in_tmp / "run.trec").write_text(f"q1 Q0 {cid(2)} 2 5.0 bm25\n{line}", encoding="utf-8")
    assert evaluate() == 1
    column = line.index(score) + 1
    assert capsys.readouterr() == ("", f"run.trec:2:{column}: RG501 [error] {message}\n")


def test_a_line_that_is_not_utf8_is_reported_at_its_byte(
    in_tmp: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write_set(in_tmp, GOOD)
    (in_tmp / "run.trec").write_bytes(b"q1 Q0 r\xc3\xa9po/\xff.py 1 1.0 bm25\n")
    assert evaluate() == 1
    assert capsys.readouterr() == (
        "",
        "run.trec:1:12: IO001 [error] byte 0xff is not valid UTF-8: re-encode the file as UTF-8\n",
    )


SHAPE = (
    'a JSONL run line is {"qid": ..., "results": [{"id": ..., "score": ...}, ...]} or '
    '{"qid": ..., "ids": [...]}'
)


@pytest.mark.parametrize(
    ("line", "at", "why"),
    [
        (
            '{"qid": "q1", "ids": "a"}',
            '"a"',
            "`ids` is a string, not a list: write [...] around it (at /ids)",
        ),
        (
            '{"qid": "q1", "results": {"a": 1}}',
            '{"a"',
            "`results` is an object, not a list: make it a list of results (at /results)",
        ),
        ('{"qid": "q1"}', "{", "this line has neither `results` nor `ids`"),
    ],
)
def test_a_jsonl_line_names_its_real_problem(
    in_tmp: Path, capsys: pytest.CaptureFixture[str], line: str, at: str, why: str
) -> None:
    write_set(in_tmp, GOOD)
    (in_tmp / "run.trec").write_text(line + "\n", encoding="utf-8")
    assert evaluate() == 1
    column = line.index(at) + 1
    assert capsys.readouterr() == ("", f"run.trec:1:{column}: RG501 [error] {SHAPE}: {why}\n")


def test_a_lone_carriage_return_inside_a_jsonl_run_line_is_whitespace(
    in_tmp: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # JSON reads "\r" as whitespace and a JSONL line ends at "\n" only, as in every other
    # reader: the run is read, and the next line's finding is on line 2.
    write_set(in_tmp, GOOD)
    line = '{"qid": "q2", "ids": 5}'
    (in_tmp / "run.trec").write_bytes(f'{{"qid": "q1",\r"ids": ["{cid(1)}"]}}\n{line}\n'.encode())
    assert evaluate() == 1
    why = "`ids` is an integer, not a list: write [...] around it (at /ids)"
    assert capsys.readouterr() == (
        "",
        f"run.trec:2:{line.index('5') + 1}: RG501 [error] {SHAPE}: {why}\n",
    )
