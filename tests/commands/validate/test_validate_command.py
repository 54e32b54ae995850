"""`evaltools validate`: every bad case at its line, column and JSON Pointer; formats; exits."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path
from typing import Any

import pytest

from evaltools.__main__ import main
from evaltools.jsonlocate import locate as real_locate
from evaltools.retrieval.records.validation import validate as validate_module

GOOD = {
    "qid": "q001",
    "query": "what gets deleted when a user logs out",
    "type": "intent",
    "gold": {"demo_repo/auth/session.py:3-8:kill_session": 3},
}


def record(**fields: Any) -> str:
    return json.dumps({**GOOD, **fields})


def good_set(count: int) -> str:
    kinds = ["identifier"] * 3 + ["intent"] * 5 + ["mixed"] * 2
    lines = []
    for n in range(count):
        gold = {f"demo_repo/m{n % 7}.py:{n + 1}-{n + 3}:Cls.fn{n}": 1 + n % 3}
        if n % 4 == 0:
            gold["demo_repo/shared.py:1-40"] = 2
        fields: dict[str, Any] = {
            "qid": f"q{n:03}",
            "query": f"query number {n}",
            "type": kinds[n % 10],
            "gold": gold,
            "split": "holdout" if n % 5 == 0 else "tune",
            "source": ["agent_log", "interview", "git_weak"][n % 3],
        }
        if n % 2:
            fields["annotators"] = ["ann", "bob"]
            fields["revision"] = f"{n:040x}"
            fields["team_field"] = {"kept": [n]}
        lines.append(json.dumps(fields))
    return "\n".join(lines) + "\n"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["validate", *argv])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def findings(capsys: pytest.CaptureFixture[str], *argv: str) -> list[dict[str, Any]]:
    code, out, _ = run(capsys, *argv, "--format", "json")
    result: list[dict[str, Any]] = json.loads(out)
    assert code == (1 if any(f["severity"] == "error" for f in result) else 0)
    return result


def where(found: list[dict[str, Any]]) -> list[tuple[int, int, str, str | None]]:
    return [(f["line"], f["column"], f["code"], f.get("pointer")) for f in found]


def test_a_valid_set_of_100_records_passes(
    in_tmp: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (in_tmp / "set.jsonl").write_text(good_set(100))
    code, out, err = run(capsys, "set.jsonl")
    assert (code, out, err) == (0, "All checks passed: 1 file.\n", "")


GOLD_ID = "demo_repo/a.py:3-8:f"
POINTER = "/gold/demo_repo~1a.py:3-8:f"


BAD_CASES: list[tuple[str, str | int, str, str | None, str]] = [
    # (line, where the column points: a marker that starts there, or the column; code,
    #  pointer, words of the message)
    # Grades: the column is the value's.
    (record(gold={GOLD_ID: 4}), "4}", "RV007", POINTER, "grade 4 is out of range: use 1, 2 or 3"),
    (
        record(gold={GOLD_ID: 3.0}),
        "3.0}",
        "RV007",
        POINTER,
        "grade 3.0 is not an integer: write 3",
    ),
    (
        record(gold={GOLD_ID: True}),
        "true}",
        "RV007",
        POINTER,
        "grade true is a boolean: use 1, 2 or 3",
    ),
    (
        record(gold={GOLD_ID: "3"}),
        '"3"}',
        "RV007",
        POINTER,
        'grade "3" is a string: write 3 without quotes',
    ),
    (
        record(gold={GOLD_ID: 2.5}),
        "2.5}",
        "RV007",
        POINTER,
        "grade 2.5 is not an integer: use 1, 2 or 3",
    ),
    (record(gold={GOLD_ID: 0}), "0}", "RV007", POINTER, "grade 0 is out of range: use 1, 2 or 3"),
    (
        record(gold={GOLD_ID: None}),
        "null}",
        "RV007",
        POINTER,
        "grade null is null, not a number: use 1, 2 or 3",
    ),
    # Chunk IDs: the column is the key's.
    (
        record(gold={"demo_repo/a.py:8-3:f": 2}),
        '"demo_repo/a.py:8-3:f"',
        "RV009",
        "/gold/demo_repo~1a.py:8-3:f",
        'chunk ID "demo_repo/a.py:8-3:f" has start 8 after end 3',
    ),
    (
        record(gold={"demo_repo/a.py": 2}),
        '"demo_repo/a.py"',
        "RV008",
        "/gold/demo_repo~1a.py",
        'chunk ID "demo_repo/a.py" has no `:start-end` span',
    ),
    (record(gold={"a.py:0-3:f": 2}), '"a.py', "RV008", "/gold/a.py:0-3:f", "lines are 1-based"),
    (record(gold={"a.py:1-3:": 2}), '"a.py', "RV008", "/gold/a.py:1-3:", "names no symbol"),
    # Fields.
    (
        json.dumps({k: v for k, v in GOOD.items() if k != "gold"}),
        1,
        "RV005",
        "/gold",
        "record has no `gold` field: add it (required: qid, query, type, gold)",
    ),
    (record(qid=7), "7,", "RV006", "/qid", "`qid` is an integer, not a string"),
    (record(qid=""), '"",', "RV010", "/qid", "`qid` is empty"),
    (record(query="  "), '"  "', "RV010", "/query", "`query` is blank"),
    (
        record(type="Intent"),
        '"Intent"',
        "RV010",
        "/type",
        '`type` "Intent" is not one of identifier, intent, mixed: use one of them',
    ),
    (record(gold={}), "{}", "RV010", "/gold", "`gold` is empty"),
    (record(gold=[GOLD_ID]), "[", "RV006", "/gold", "`gold` is an array, not an object"),
    (record(split="test"), '"test"', "RV010", "/split", "not one of tune, holdout"),
    (record(revision="abc"), '"abc"', "RV010", "/revision", "not a full commit hash"),
    (
        record(annotators=["ann", "ann"]),
        '["ann"',
        "RV010",
        "/annotators",
        "lists the same entry twice",
    ),
    ("[1, 2]", 1, "RV006", None, "the line holds an array, not a record"),
    # Lines that are not a record.
    (
        '{"qid": "q001", "query": "x", "type": "intent", "gold": {',
        58,  # just past the end of the line
        "IO008",
        None,
        "the JSON value ends before it is closed",
    ),
    ('{"qid": "q001",, "query": "x"}', ', "query"', "IO008", None, "not valid JSON"),
]


@pytest.mark.parametrize("case", BAD_CASES)
def test_each_bad_case_at_its_line_column_and_pointer(
    in_tmp: Path,
    capsys: pytest.CaptureFixture[str],
    case: tuple[str, str | int, str, str | None, str],
) -> None:
    line, at, code, pointer, message = case
    good = good_set(3).splitlines()
    (in_tmp / "set.jsonl").write_text("\n".join([good[0], line, good[2]]) + "\n")
    found = findings(capsys, "set.jsonl")
    column = at if isinstance(at, int) else line.index(at) + 1
    assert where(found) == [(2, column, code, pointer)]
    assert message in found[0]["message"]
    assert found[0]["path"] == "set.jsonl"


def test_duplicate_qids_name_the_first_line(
    in_tmp: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    lines = good_set(4).splitlines()
    lines[3] = lines[3].replace('"q003"', '"q001"')
    (in_tmp / "set.jsonl").write_text("\n".join(lines) + "\n")
    found = findings(capsys, "set.jsonl")
    assert where(found) == [(4, 9, "RV004", "/qid")]
    assert found[0]["message"] == (
        'qid "q001" is used again (first at line 2): give each query its own qid'
    )


def test_duplicate_keys_point_at_the_repeated_key(
    in_tmp: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    line = (
        '{"qid": "q1", "query": "x", "type": "intent", "type": "mixed", '
        '"gold": {"demo_repo/a.py:3-8:f": 3, "demo_repo/a.py:3-8:f": 1}}'
    )
    (in_tmp / "set.jsonl").write_text(line + "\n")
    found = findings(capsys, "set.jsonl")
    second_type = line.index('"type": "mixed"') + 1
    second_id = line.index('"demo_repo/a.py:3-8:f": 1') + 1
    assert where(found) == [(1, second_type, "RV003", "/type"), (1, second_id, "RV003", POINTER)]
    assert "listed twice in `gold`" in found[1]["message"]
    assert 'key "type" occurs twice' in found[0]["message"]


def test_a_bad_record_with_duplicate_keys_reports_both(
    in_tmp: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    line = '{"qid": "q1", "query": "x", "type": "intent", "gold": {"a.py:1-2": 3, "a.py:1-2": 4}}'
    (in_tmp / "set.jsonl").write_text(line + "\n")
    assert where(findings(capsys, "set.jsonl")) == [
        (1, line.index('"a.py:1-2": 4') + 1, "RV003", "/gold/a.py:1-2"),
        (1, line.index("4}") + 1, "RV007", "/gold/a.py:1-2"),  # json keeps the last value
    ]


def test_blank_lines_unparsable_lines_and_bytes(
    in_tmp: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    good = good_set(4).splitlines()
    data = (
        b"\xef\xbb\xbf"
        + good[0].encode()
        + b"\n\n"
        + good[1].encode()
        + b"\n   \n"
        + b'{"qid": "\xff"}\n'
        + good[2].encode()
        + b"\n\n"
    )
    (in_tmp / "set.jsonl").write_bytes(data)
    assert where(findings(capsys, "set.jsonl")) == [
        (1, 1, "IO002", None),
        (2, 1, "RV002", None),
        (4, 1, "RV002", None),
        (5, 10, "IO001", None),
        (7, 1, "RV002", None),
    ]


def test_a_bom_shifts_the_columns_of_line_1(
    in_tmp: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    line = record(qid=7)
    (in_tmp / "set.jsonl").write_bytes(b"\xef\xbb\xbf" + line.encode() + b"\n")
    column = line.index("7,") + 2  # the BOM is the line's first character
    assert where(findings(capsys, "set.jsonl")) == [
        (1, 1, "IO002", None),
        (1, column, "RV006", "/qid"),
    ]


def test_text_output_is_one_line_per_finding_then_a_summary(
    in_tmp: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    line = record(gold={GOLD_ID: 4})
    (in_tmp / "set.jsonl").write_text(line + "\n")
    assert line.index("4}") == 118
    code, out, err = run(capsys, "set.jsonl")
    assert code == 1 and err == ""
    assert out == (
        f"set.jsonl:1:119: RV007 [error] grade 4 is out of range: use 1, 2 or 3 (at {POINTER})\n"
        "Found 1 error in 1 file.\n"
    )


def test_github_and_sarif_formats(in_tmp: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (in_tmp / "set.jsonl").write_text(record(gold={GOLD_ID: 4}) + "\n")
    code, out, _ = run(capsys, "set.jsonl", "--format", "github")
    assert code == 1
    assert out.startswith(
        "::error file=set.jsonl,line=1,col=119,title=RV007 invalid-grade::grade 4"
    )
    code, out, _ = run(capsys, "set.jsonl", "--format", "sarif")
    assert code == 1
    sarif = json.loads(out)
    (result,) = sarif["runs"][0]["results"]
    assert result["ruleId"] == "RV007"
    assert result["locations"][0]["physicalLocation"]["region"] == {
        "startLine": 1,
        "startColumn": 119,
    }


def test_directories_are_searched_for_jsonl(
    in_tmp: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (in_tmp / "evals" / "sub").mkdir(parents=True)
    (in_tmp / "evals" / "a.jsonl").write_text(good_set(2))
    (in_tmp / "evals" / "sub" / "b.jsonl").write_text(record(qid="") + "\n")
    (in_tmp / "evals" / "notes.txt").write_text("not a record\n")
    code, out, _ = run(capsys, "evals", "evals/a.jsonl")  # a file named twice is checked once
    assert code == 1
    assert out.splitlines() == [
        "evals/sub/b.jsonl:1:9: RV010 [error] `qid` is empty: fill it in (at /qid)",
        "Found 1 error in 1 of 2 files.",
    ]


def test_a_missing_path_is_a_usage_error(in_tmp: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "nope.jsonl")
    assert (code, out) == (2, "")
    assert err == "evaltools validate: error: no such file or directory: nope.jsonl\n"


@pytest.mark.parametrize("flag", [("--jobs", "-1"), ("--max-errors", "-1")])
def test_bad_numbers_are_usage_errors(
    in_tmp: Path, capsys: pytest.CaptureFixture[str], flag: tuple[str, str]
) -> None:
    (in_tmp / "set.jsonl").write_text(good_set(1))
    code, _, err = run(capsys, "set.jsonl", *flag)
    assert code == 2
    assert flag[0] in err


def test_empty_files_and_directories_named_like_files(
    in_tmp: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (in_tmp / "empty.jsonl").write_bytes(b"")
    (in_tmp / "dir.jsonl").mkdir()
    found = findings(capsys, "empty.jsonl", "dir.jsonl")
    assert [(f["path"], f["code"]) for f in found] == [
        ("dir.jsonl", "IO007"),
        ("empty.jsonl", "IO004"),
    ]


def test_stdin(
    in_tmp: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    data = (good_set(2) + record(qid="q000") + "\n").encode()
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data)))
    found = findings(capsys, "-")
    assert [(f["path"], f["line"], f["code"]) for f in found] == [("<stdin>", 3, "RV004")]


# --- many errors ----------------------------------------------------------------------------


def many_bad_records(count: int) -> str:
    return "".join(record(qid=f"q{n}", gold={GOLD_ID: 4}) + "\n" for n in range(count))


def test_ten_thousand_errors_are_all_printed_each_record_explained_once(
    in_tmp: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    (in_tmp / "set.jsonl").write_text(many_bad_records(10_000))
    calls = {"locate": 0, "explain": 0}
    real_explain = validate_module.Checker.explain

    def counting_locate(text: str, wanted: Any = None) -> Any:
        calls["locate"] += 1
        return real_locate(text, wanted)

    def counting_explain(self: validate_module.Checker, value: Any) -> Any:
        calls["explain"] += 1
        return real_explain(self, value)

    monkeypatch.setattr("evaltools.retrieval.records.record.locate", counting_locate)
    monkeypatch.setattr(validate_module.Checker, "explain", counting_explain)
    code, out, _ = run(capsys, "set.jsonl", "--jobs", "1")
    lines = out.splitlines()
    assert code == 1
    assert len(lines) == 10_001
    assert lines[-1] == "Found 10000 errors in 1 file."
    assert lines[9_999].startswith("set.jsonl:10000:120: RV007")  # qid "q9999" is longer
    # Work per error is constant: one parse for positions and one explanation per record.
    assert calls == {"locate": 10_000, "explain": 10_000}


def test_max_errors_caps_the_output_and_says_how_many_were_left_out(
    in_tmp: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (in_tmp / "set.jsonl").write_text(many_bad_records(50))
    code, out, err = run(capsys, "set.jsonl", "--max-errors", "3")
    assert code == 1 and err == ""
    lines = out.splitlines()
    assert [line.split(":")[1] for line in lines[:3]] == ["1", "2", "3"]
    assert lines[3:] == [
        "... 47 more findings not shown (--max-errors 3).",
        "Found 50 errors in 1 file.",
    ]
    code, out, err = run(capsys, "set.jsonl", "--max-errors", "2", "--format", "json")
    assert code == 1
    assert len(json.loads(out)) == 2
    assert err == "evaltools validate: 48 more findings not shown (--max-errors 2)\n"
    code, out, _ = run(capsys, "set.jsonl", "--max-errors", "50")
    assert out.splitlines()[-1] == "Found 50 errors in 1 file."


def test_a_repeated_qid_on_a_bad_record_is_reported_too(
    in_tmp: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = record(gold={GOLD_ID: 4})
    (in_tmp / "set.jsonl").write_text(record() + "\n" + bad + "\n")
    assert where(findings(capsys, "set.jsonl")) == [
        (2, 9, "RV004", "/qid"),
        (2, bad.index("4}") + 1, "RV007", POINTER),
    ]


def test_the_rules_are_documented(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rule", "RV003"]) == 0
    out = capsys.readouterr().out
    assert out.startswith(
        "RV003 (duplicate-key) [error, on by default]\n\nA key occurs twice in one JSON object."
    )
    assert main(["rule", "--format", "json"]) == 0
    codes = {r["code"] for r in json.loads(capsys.readouterr().out)}
    assert {f"RV{n:03}" for n in range(2, 13)} <= codes
    assert "IO008" in codes  # invalid JSON: one rule for every command
    assert {f"RG{n}" for n in range(101, 106)} <= codes


def test_the_summary_says_how_many_of_the_files_checked_have_findings(
    in_tmp: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Three files checked, findings in one: `in 3 files` read as if each had some.
    (in_tmp / "set.jsonl").write_text(many_bad_records(5))
    for name in ("a.jsonl", "b.jsonl"):
        (in_tmp / name).write_text(record(qid=name) + "\n")
    files = ("a.jsonl", "b.jsonl", "set.jsonl")
    _, out, _ = run(capsys, *files)
    assert out.splitlines()[-1] == "Found 5 errors in 1 of 3 files."
    _, out, _ = run(capsys, *files, "--max-errors", "2")
    assert out.splitlines()[-1] == "Found 5 errors in 1 of 3 files."
