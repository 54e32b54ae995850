"""`gold merge` when the annotators' records differ outside the grades: a different `type`
or `split` keeps the query out of the merge (RG405, at the field's value) and puts it in the
conflicts file; other differing fields are listed there while A's value is merged."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from evaltools.__main__ import main

A: dict[str, object] = {
    "qid": "q1",
    "query": "logout",
    "type": "intent",
    "split": "tune",
    "notes": "A: means session",
    "extra": {"a": 1},
    "gold": {"a.py:1-3:f": 3},
}
ARGV = ["gold", "merge", "a.jsonl", "b.jsonl", "-o", "m.jsonl", "--conflicts", "c.jsonl"]
AGREED = (
    "Agreement on 1 chunk IDs graded by both: exact 100.0%, within one level 100.0%, "
    "linear-weighted kappa n/a; 0 IDs graded by one annotator only."
)


@pytest.fixture(autouse=True)
def _here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)


def _write(a: dict[str, object], b: dict[str, object]) -> None:
    Path("a.jsonl").write_text(json.dumps(a) + "\n")
    Path("b.jsonl").write_text(json.dumps(b) + "\n")


def test_a_different_type_or_split_is_an_error_and_a_conflict_not_a_merge(
    capsys: pytest.CaptureFixture[str],
) -> None:
    _write(A, {**A, "type": "mixed", "split": "holdout", "notes": "B", "extra": {"b": 2}})
    assert main(ARGV) == 1
    assert capsys.readouterr().out.splitlines() == [
        'b.jsonl:1:42: RG405 [error] type of \'q1\' is "mixed" here but "intent" in '
        "a.jsonl:1, so the query was not merged: agree on one type, then merge again (at /type)",
        'b.jsonl:1:60: RG405 [error] split of \'q1\' is "holdout" here but "tune" in '
        "a.jsonl:1, so the query was not merged: agree on one split, then merge again "
        "(at /split)",
        "Found 2 errors in 1 of 2 files.",
        AGREED,
        "q1: TYPE OR SPLIT DIFFERS (not merged: agree on one)",
        '  type: a.jsonl="intent" b.jsonl="mixed"',
        '  split: a.jsonl="tune" b.jsonl="holdout"',
        '  notes: a.jsonl="A: means session" b.jsonl="B"',
        '  extra: a.jsonl={"a": 1} b.jsonl={"b": 2}',
        "  a.py:1-3:f: a.jsonl=3 b.jsonl=3",
        "Merged 0 queries into m.jsonl, left out 1 for a person to decide (0 arbitrate, "
        "0 ambiguous, 0 unpaired, 1 classification); conflicts written to c.jsonl.",
    ]
    assert Path("m.jsonl").read_bytes() == b""
    assert Path("c.jsonl").read_bytes() == (
        b'{"qid": "q1", "query": "logout", "status": "classification", "grades": '
        b'{"a.py:1-3:f": [3, 3]}, "fields": {"type": ["intent", "mixed"], "split": ["tune", '
        b'"holdout"], "notes": ["A: means session", "B"], "extra": [{"a": 1}, {"b": 2}]}}\n'
    )


def test_other_differing_fields_are_merged_as_a_has_them_and_listed_as_conflicts(
    capsys: pytest.CaptureFixture[str],
) -> None:
    _write(A, {**A, "notes": "B: means token", "extra": {"b": 2}, "source": "interview"})
    assert main(ARGV) == 0
    assert capsys.readouterr().out.splitlines() == [
        AGREED,
        "q1: fields differ (the merged record keeps a.jsonl's)",
        '  notes: a.jsonl="A: means session" b.jsonl="B: means token"',
        '  extra: a.jsonl={"a": 1} b.jsonl={"b": 2}',
        "Merged 1 queries into m.jsonl, left out 0 for a person to decide (0 arbitrate, "
        "0 ambiguous, 0 unpaired); 1 merged with differing fields (a.jsonl's kept); "
        "conflicts written to c.jsonl.",
    ]
    # B's field that A lacks joins the record, as before
    assert (
        Path("m.jsonl").read_bytes() == (json.dumps({**A, "source": "interview"}) + "\n").encode()
    )
    assert Path("c.jsonl").read_bytes() == (
        b'{"qid": "q1", "query": "logout", "status": "fields", "grades": {}, "fields": '
        b'{"notes": ["A: means session", "B: means token"], "extra": [{"a": 1}, {"b": 2}]}}\n'
    )


def test_equal_values_written_alike_are_no_conflict(capsys: pytest.CaptureFixture[str]) -> None:
    """Identical records merge as they always did; an object's key order is no difference,
    while 1 and 1.0 are (JSON tells them apart)."""
    _write({**A, "extra": {"a": 1, "b": [1]}}, {**A, "extra": {"b": [1], "a": 1}})
    assert main(ARGV) == 0
    assert capsys.readouterr().out.splitlines()[1:] == [
        "Merged 1 queries into m.jsonl, left out 0 for a person to decide (0 arbitrate, "
        "0 ambiguous, 0 unpaired); conflicts written to c.jsonl."
    ]
    assert Path("m.jsonl").read_bytes() == Path("a.jsonl").read_bytes()
    assert Path("c.jsonl").read_bytes() == b""
    _write({**A, "extra": 1}, {**A, "extra": 1.0})
    assert main([*ARGV, "--force"]) == 0
    assert json.loads(Path("c.jsonl").read_text())["fields"] == {"extra": [1, 1.0]}


def test_the_json_summary_holds_the_findings(capsys: pytest.CaptureFixture[str]) -> None:
    _write(A, {**A, "type": "mixed"})
    assert main([*ARGV, "--format", "json"]) == 1
    summary = json.loads(capsys.readouterr().out)
    assert summary["counts"] == {"classification": 1, "merged": 0}
    [finding] = summary["findings"]
    assert (finding["code"], finding["line"], finding["column"], finding["path"]) == (
        "RG405",
        1,
        42,
        "b.jsonl",
    )
    assert summary["conflicts"][0]["fields"] == {"type": ["intent", "mixed"]}


def test_a_file_merged_with_itself_is_read_twice(capsys: pytest.CaptureFixture[str]) -> None:
    # Two positions, two annotators: discovery's one-file-once does not apply.
    _write(A, A)
    assert main(["gold", "merge", "a.jsonl", "./a.jsonl", "-o", "m.jsonl"]) == 0
    assert capsys.readouterr().out.splitlines()[0] == AGREED
    assert json.loads(Path("m.jsonl").read_text())["gold"] == A["gold"]


def test_the_summary_adds_up_when_a_fields_only_query_is_merged(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Left out: one to arbitrate, one unpaired, one classification; merged apart from them:
    q4, whose notes differ. The breakdown of those left out adds up to their number."""
    first = [
        {**A, "qid": "q1", "gold": {"a.py:1-3:f": 3}},
        {**A, "qid": "q2"},
        {**A, "qid": "q3"},
        {**A, "qid": "q4"},
    ]
    second = [
        {**A, "qid": "q1", "gold": {"a.py:1-3:f": 2}},
        {**A, "qid": "q3", "type": "mixed"},
        {**A, "qid": "q4", "notes": "B"},
    ]
    Path("a.jsonl").write_text("".join(json.dumps(r) + "\n" for r in first))
    Path("b.jsonl").write_text("".join(json.dumps(r) + "\n" for r in second))
    main(ARGV)
    summary = capsys.readouterr().out.splitlines()[-1]
    assert summary == (
        "Merged 1 queries into m.jsonl, left out 3 for a person to decide (1 arbitrate, "
        "0 ambiguous, 1 unpaired, 1 classification); 1 merged with differing fields "
        "(a.jsonl's kept); conflicts written to c.jsonl."
    )
    assert [json.loads(line)["qid"] for line in Path("m.jsonl").read_text().splitlines()] == ["q4"]
