"""One strict JSON reader and writer for both halves (issue 19, issue 11 point 9), huge
integers as findings (issue 12 point 3), through the real CLI; and the one position map
(`locate`) that places a finding on a field at the field's value."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from evaltools import jsonio, jsonlocate
from evaltools.__main__ import main
from evaltools.positions import line_column
from tests.example import gen_records

RETRIEVAL = '{"qid": "q%d", "query": "find the session", "type": "intent", "gold": {"a.py:1-2": 3}}'
HUGE = "9" * 5000


def _example_lines(count: int) -> list[str]:
    return [line.rstrip("\n") for line in gen_records.jsonl_lines(count)]


def _findings(capsys: pytest.CaptureFixture[str], argv: list[str]) -> tuple[int, list[str]]:
    code = main(argv)
    captured = capsys.readouterr()
    lines = (captured.out + captured.err).splitlines()
    return code, [line for line in lines if ": IO008 " in line or "internal error" in line]


@pytest.mark.parametrize(
    "bad",
    [
        '{"qid": "q2", "query": "x",, "gold": {}}',  # a syntax error
        '{"qid": "q2", "score": 1e400}',  # a float overflowing to infinity
        '{"qid": "q2", "score": NaN}',
        '{"qid": "q2", "qid": "q3"}',  # a repeated key
    ],
)
def test_one_malformed_line_gets_one_code_and_wording_everywhere(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], bad: str
) -> None:
    monkeypatch.chdir(tmp_path)
    examples = _example_lines(2)
    Path("examples.jsonl").write_text("\n".join([examples[0], bad, examples[1]]) + "\n")
    Path("set.jsonl").write_text("\n".join([RETRIEVAL % 1, bad, RETRIEVAL % 3]) + "\n")
    Path("good.jsonl").write_text(RETRIEVAL % 1 + "\n")
    Path("a.py").write_text("x = 1\ny = 2\n")
    chunk = '{"chunk_id": "a.py:1-2"}'
    Path("metas.jsonl").write_text("\n".join([chunk, bad, chunk]) + "\n")
    ranked = '{"qid": "q1", "ids": ["a.py:1-2"]}'
    Path("run.jsonl").write_text("\n".join([ranked, bad, ranked]) + "\n")
    if "qid" in bad and bad.count('"qid"') == 2:
        # validate reports a repeated key as its own rule (RV003), keeping the record.
        assert main(["lint", "examples.jsonl"]) == 1
        assert ': IO008 [error] key "qid" occurs twice' in capsys.readouterr().out
        return
    seen = {
        "lint": _findings(capsys, ["lint", "examples.jsonl"]),
        "convert": _findings(capsys, ["convert", "examples.jsonl", "--to", "jsonl", "-o", "o"]),
        "validate": _findings(capsys, ["validate", "set.jsonl"]),
        "gold check": _findings(capsys, ["gold", "check", "set.jsonl", "--root", "."]),
        "metas": _findings(capsys, ["gold", "check", "good.jsonl", "--metas", "metas.jsonl"]),
        "gold eval": _findings(
            capsys, ["gold", "eval", "run.jsonl", "--set", "good.jsonl", "--root", "."]
        ),
    }
    assert {command: code for command, (code, _) in seen.items()} == dict.fromkeys(seen, 1)
    # The same line, the same code, column and words; only the file name differs.
    shown = {command: [f.split(":", 1)[1] for f in found] for command, (_, found) in seen.items()}
    assert len(shown["lint"]) == 1
    assert all(found == shown["lint"] for found in shown.values()), shown
    assert shown["lint"][0].startswith("2:")


def test_gold_merge_refuses_a_number_too_large_for_a_float(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    good = '{"qid": "q1", "query": "x", "type": "intent", "gold": {"a.py:1-2": 3}}\n'
    huge = '{"qid": "q2", "query": "y", "type": "intent", "gold": {"b.py:1-2": 3}, "w": 1e400}\n'
    first = tmp_path / "ann.jsonl"
    second = tmp_path / "bob.jsonl"
    first.write_text(good + huge)
    second.write_text(good + huge)
    out = tmp_path / "merged.jsonl"
    assert main(["gold", "merge", str(first), str(second), "-o", str(out)]) == 1
    text = capsys.readouterr().out
    assert f"{first.as_posix()}:2:" in text
    assert "IO008 [error] number 1e400 is too large for a 64-bit float" in text
    assert not out.exists()


def test_a_huge_integer_in_an_example_is_a_finding_at_its_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    good = _example_lines(3)
    spec = json.loads(good[1])
    huge = json.dumps(spec)[:-1] + f', "score": {HUGE}}}'
    # A later record with its own problem: the run goes on past the huge one.
    missing = json.loads(good[2])
    del missing["cursor_path"]
    Path("set.jsonl").write_text("\n".join([good[0], huge, json.dumps(missing)]) + "\n")
    column = huge.index(HUGE) + 1
    message = f"set.jsonl:2:{column}: IO008 [error] integer of 5,000 digits is longer than"

    assert main(["lint", "set.jsonl"]) == 1
    out = capsys.readouterr().out
    assert message in out
    assert "set.jsonl:3:1: EP501 [error]" in out
    assert "internal error" not in out

    assert main(["convert", "set.jsonl", "--to", "jsonl", "-o", "out.jsonl"]) == 1
    out = capsys.readouterr().out
    assert message in out
    assert "set.jsonl:3:1: CV002 [error]" in out
    assert "1 written, 2 malformed" in out
    assert Path("out.jsonl").read_text().count("\n") == 1


def test_a_huge_integer_in_a_retrieval_record_is_a_finding_at_its_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    huge = '{"qid": "q2", "query": "y", "type": "intent", "gold": {"b.py:1-2": ' + HUGE + "}}"
    later = '{"qid": "q1", "query": "z", "type": "intent", "gold": {"c.py:1-2": 3}}'
    Path("set.jsonl").write_text("\n".join([RETRIEVAL % 1, huge, later]) + "\n")
    assert main(["validate", "set.jsonl", "--format", "json"]) == 1
    found = json.loads(capsys.readouterr().out)
    assert [(f["line"], f["code"]) for f in found] == [(2, "IO008"), (3, "RV004")]
    assert found[0]["column"] == huge.index(HUGE) + 1
    assert found[0]["message"].startswith("integer of 5,000 digits is longer than readers")


def test_the_writer_never_writes_nan_or_infinity() -> None:
    with pytest.raises(ValueError, match="not JSON compliant"):
        jsonio.dumps({"score": float("inf")})
    assert jsonio.dumps({"a": "é", "b": [1, 2]}, compact=True) == '{"a":"é","b":[1,2]}'


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ('{"a": "x\ty"}', "(invalid control character: a tab or line break inside a string"),
        ('{"a": "x', "(unterminated string)"),
    ],
)
def test_a_syntax_error_names_its_reason_without_a_dangling_word(text: str, reason: str) -> None:
    with pytest.raises(jsonio.JsonError) as raised:
        jsonio.loads(text)
    message = str(raised.value)
    assert reason in message
    assert " at)" not in message and " starting)" not in message


# --- locate -------------------------------------------------------------------------------


def test_pointers_escape_slash_and_tilde() -> None:
    assert jsonlocate.pointer(["gold", "demo_repo/a.py:3-8:f"]) == "/gold/demo_repo~1a.py:3-8:f"
    assert jsonlocate.pointer(["a~b", 0]) == "/a~0b/0"
    assert jsonlocate.pointer([]) == ""


def test_locate_finds_keys_and_values() -> None:
    text = '{"qid": "q1", "gold": {"a/b.py:1-2": 3, "x~y": [true, null, -1.5e3]}}'
    found = jsonlocate.locate(text)
    assert found.complete
    assert found.values[""] == 0
    assert text[found.values["/qid"] :].startswith('"q1"')
    assert text[found.keys["/qid"] :].startswith('"qid"')
    assert text[found.values["/gold/a~1b.py:1-2"] :].startswith("3,")
    assert text[found.key_offset("/gold/a~1b.py:1-2") :].startswith('"a/b.py')
    assert text[found.values["/gold/x~0y/2"] :].startswith("-1.5e3")
    assert found.key_offset("/gold/x~0y/1") == found.values["/gold/x~0y/1"]  # array item
    assert found.value_offset("/nope") is None


def test_locate_handles_escapes_whitespace_and_empty_containers() -> None:
    text = ' { "a\\"b" : "x\\u00e9" , "c" : { } , "d" : [ ] , "e":{"f":[]} } '
    found = jsonlocate.locate(text)
    assert text[found.values['/a"b'] :].startswith('"x')
    assert text[found.values["/c"] :].startswith("{ }")
    assert text[found.values["/d"] :].startswith("[ ]")
    assert text[found.values["/e/f"] :].startswith("[]")


def test_locate_lists_repeated_keys_and_keeps_the_last() -> None:
    text = '{"g": {"k": 1, "k": 2, "k": 3}}'
    found = jsonlocate.locate(text)
    assert [text[at:].startswith('"k": 2') for _, at in found.duplicates] == [True, False]
    assert [p for p, _ in found.duplicates] == ["/g/k", "/g/k"]
    assert text[found.values["/g/k"] :].startswith("3")


def test_locate_gives_up_gracefully_on_what_it_cannot_walk() -> None:
    deep = jsonlocate.locate("[" * 5000 + "]" * 5000)
    assert not deep.complete
    assert deep.values[""] == 0
    assert not jsonlocate.locate("{").complete
    assert not jsonlocate.locate("}").complete


def test_locate_lists_every_member_with_its_key_and_value_spans() -> None:
    text = '{"g" : {"k":1, "k": [2]}, "q": "\\u00e9"}'
    found = jsonlocate.locate(text)
    spans = [
        (m.parent, m.key, text[m.key_start : m.key_end], text[m.value_start : m.value_end])
        for m in found.members
    ]
    assert spans == [
        (7, "k", '"k"', "1"),
        (7, "k", '"k"', "[2]"),
        (0, "g", '"g"', '{"k":1, "k": [2]}'),
        (0, "q", '"q"', '"\\u00e9"'),
    ]
    assert [m.key for m in found.members_of(0)] == ["g", "q"]
    assert [m.value_start for m in found.members_of(7)] == [12, 20]


@pytest.mark.parametrize("text", ['{"a" 1}', '{"a": 1 "b": 2}', "{1: 2}", '{"a": [1 2]}'])
def test_locate_walks_no_text_that_is_not_json(text: str) -> None:
    # Where the walk would guess (a missing `:` or `,`), an edit in place would go wrong.
    assert not jsonlocate.locate(text).complete


def test_a_missing_member_is_placed_at_the_object_that_lacks_it() -> None:
    text = '{\n  "a": {"b": 1},\n  "c": [10, 20]\n}'
    found = jsonlocate.locate(text)
    assert line_column(text, found.nearest("/a/b")) == (2, 14)
    assert line_column(text, found.nearest("/a/b", at_key=True)) == (2, 9)
    assert line_column(text, found.nearest("/a/missing/deeper")) == (2, 8)
    assert line_column(text, found.nearest("/c/1")) == (3, 13)
    assert found.nearest("/nope") == 0


@pytest.mark.parametrize("command", [["lint", "-"], ["convert", "-", "--to", "md", "-o", "out"]])
def test_markdown_piped_to_stdin_gets_one_finding_that_says_what_to_do(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    command: list[str],
) -> None:
    import io
    import sys

    from tests.conftest import CORPUS

    monkeypatch.chdir(tmp_path)
    markdown = (CORPUS / "zed--change-match-arm.md").read_bytes()
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(markdown)))
    assert main(command) == 1
    out = capsys.readouterr()
    found = [line for line in (out.out + out.err).splitlines() if "IO008" in line]
    assert found == [
        "<stdin>:1:1: IO008 [error] not valid JSON: standard input is read as JSONL (one "
        "example a line), and this looks like a Markdown example: pass the .md file's path "
        "instead"
    ]


def test_dumps_writes_a_lone_surrogate_as_u_fffd_and_escapes_as_json_does() -> None:
    # A file name's undecodable byte (surrogateescape): no lone-surrogate escape, no raw byte.
    value = {"path": "b/x\udcff.md", "other": "é 😀 \u2028"}
    assert jsonio.dumps(value) == '{"path": "b/x\ufffd.md", "other": "é 😀 \u2028"}'
    clean = {**value, "path": "b/x\ufffd.md"}
    assert jsonio.dumps(value, ensure_ascii=True) == json.dumps(clean, ensure_ascii=True)
    assert jsonio.loads(jsonio.dumps(value, ensure_ascii=True)) == clean
