from __future__ import annotations

import io
import json
import os
from pathlib import Path

import pytest

from evaltools.example import records
from evaltools.example.markdown.reader import read_markdown
from evaltools.example.records import (
    BAD_FILE,
    BAD_JSON,
    BAD_MARKDOWN,
    BAD_SPEC,
    BLANK_LINE,
    UNKNOWN_EXTENSION,
    Record,
    iter_all_units,
    iter_records,
    parse_unit,
)
from evaltools.example.spec import Example, ExampleSpec, dumps_example
from tests.conftest import CORPUS

SPEC = ExampleSpec(
    name="",
    repository_url="https://github.com/o/r",
    revision="a" * 40,
    cursor_path="src/a.py",
    cursor_position="x = 1\n#   ^[CURSOR_POSITION]\n",
    edit_history="",
    expected_patches=["--- a/src/a.py\n+++ b/src/a.py\n@@ -1 +1 @@\n-x = 1\n+x = 2\n"],
)
LINE = dumps_example(Example(SPEC))


def _all(path: Path, stdin: io.BytesIO | None = None) -> list[Record]:
    return list(iter_records(path, stdin))


def test_markdown_file_reads_with_name_from_stem_and_hints(in_tmp: Path) -> None:
    target = in_tmp / "flask--rename-accepted-prediction.md"
    target.write_bytes((CORPUS / target.name).read_bytes())
    [record] = _all(Path(target.name))
    assert record.path == "flask--rename-accepted-prediction.md"
    assert (record.line, record.index, record.form) == (1, 0, "md")
    assert record.example is not None and record.markdown is not None
    assert record.example.spec.name == "flask--rename-accepted-prediction"
    assert len(record.markdown.hints.history_blocks) == 3
    assert record.size == target.stat().st_size


def test_lossy_markdown_reads_and_keeps_what_it_drops() -> None:
    [record] = _all(CORPUS / "zed--change-match-arm.md")
    assert record.example is not None and record.markdown is not None
    assert [d.line for d in record.markdown.dropped] == [6]


def test_markdown_that_the_reference_cannot_read_is_located(tmp_path: Path) -> None:
    path = tmp_path / "broken.md"
    text = '+++\nrepository_url = "u"\nrevision = "r"\n+++\n\n## Edit History\n\n'
    path.write_text(text)
    [record] = _all(path)
    assert record.example is None
    expected = read_markdown(text).errors[0].line
    assert [(e.code, e.line) for e in record.errors] == [(BAD_MARKDOWN, expected)]
    assert "cursor position" in record.errors[0].message.lower()


def test_markdown_with_crlf_is_a_file_error_with_the_io_diagnostic(tmp_path: Path) -> None:
    path = tmp_path / "crlf.md"
    path.write_bytes(b"+++\r\nrepository_url = 1\r\n")
    [record] = _all(path)
    [error] = record.errors
    assert (error.code, error.line) == ("IO003", 1)


def test_json_file_default_name_is_the_stem_and_extras_are_kept(tmp_path: Path) -> None:
    data = json.loads(LINE)
    data["prompt"] = {"input": "x"}
    path = tmp_path / "one.json"
    path.write_text(json.dumps(data, indent=2))
    [record] = _all(path)
    assert record.example is not None
    assert record.example.spec.name == "one"
    assert record.example.extra == {"prompt": {"input": "x"}}


def test_json_file_errors_carry_line_and_column(tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_text('{\n  "name": "x",\n  oops\n}\n')
    [record] = _all(path)
    [error] = record.errors
    assert (error.code, error.line, error.column) == (BAD_JSON, 3, 3)
    assert error.message.startswith("not valid JSON (expecting property name")


def test_jsonl_names_lines_and_errors(tmp_path: Path) -> None:
    named = json.loads(LINE)
    named["name"] = "kept"
    missing = json.loads(LINE)
    del missing["cursor_path"]
    wrong = json.loads(LINE)
    wrong["expected_patches"] = [1]
    lines = [
        LINE,
        json.dumps(named),
        "",
        '{"name": "x", oops}',
        json.dumps(missing),
        json.dumps(wrong),
        "[1, 2]",
        LINE + " {}",
        '{"a": NaN}',
        "[" * 100_000,
        LINE[:50],
    ]
    path = tmp_path / "set.jsonl"
    path.write_text("\n".join(lines))
    out = _all(path)
    assert [r.line for r in out] == list(range(1, 12))
    names = [r.example.spec.name if r.example else None for r in out]
    assert names[:2] == ["set-0", "kept"]
    assert "nested too deeply" in out[9].errors[0].message
    kinds = [[(e.code, e.column) for e in r.errors] for r in out]
    assert kinds[2] == [(BLANK_LINE, 1)]
    assert kinds[3] == [(BAD_JSON, 15)]
    assert kinds[4] == [(BAD_SPEC, 1)] and out[4].errors[0].pointer == "/cursor_path"
    assert out[5].errors[0].pointer == "/expected_patches/0"
    assert kinds[6] == [(BAD_SPEC, 1)] and out[6].errors[0].pointer is None
    assert "a JSONL line holds one record" in out[7].errors[0].message
    assert "NaN is not JSON" in out[8].errors[0].message
    assert "was it cut short" in out[10].errors[0].message
    assert all(r.errors[0].path == r.path for r in out if r.errors)


def test_jsonl_invalid_utf8_is_located(tmp_path: Path) -> None:
    path = tmp_path / "bytes.jsonl"
    path.write_bytes(LINE.encode() + b"\n" + b'{"name": "caf\xe9"}\n')
    out = _all(path)
    assert out[0].example is not None
    [error] = out[1].errors
    assert (error.code, error.line, error.column) == (BAD_JSON, 2, 14)
    assert "0xe9" in error.message


def test_stdin_is_jsonl_named_like_a_file_called_stdin() -> None:
    stdin = io.BytesIO((LINE + "\n" + LINE + "\n").encode())
    out = _all(Path("-"), stdin)
    assert [r.path for r in out] == ["<stdin>", "<stdin>"]
    assert [r.example.spec.name for r in out if r.example] == ["stdin-0", "stdin-1"]


def test_unknown_extension_is_a_located_error(tmp_path: Path) -> None:
    path = tmp_path / "notes.txt"
    path.write_text("hello")
    [record] = _all(path)
    [error] = record.errors
    assert error.code == UNKNOWN_EXTENSION and error.line == 1
    assert "'notes.txt'" in error.message and ".jsonl" in error.message


def test_unreadable_sources_are_located_errors(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    fifo = tmp_path / "pipe.md"
    os.mkfifo(fifo)
    [record] = _all(fifo)
    assert record.errors[0].code == BAD_FILE
    assert "not a regular file" in record.errors[0].message
    gone = tmp_path / "gone.jsonl"
    [record] = _all(gone)
    assert "cannot read the file: no such file" in record.errors[0].message
    [record] = _all(tmp_path / "gone.md")
    assert "cannot read the file" in record.errors[0].message
    big = tmp_path / "big.md"
    big.write_text("x" * 100)
    monkeypatch.setattr(records, "MAX_TEXT_FILE_BYTES", 10)
    [record] = _all(big)
    assert "over the 10-byte limit" in record.errors[0].message


def test_directories_are_searched_sorted_skipping_hidden_and_the_output(in_tmp: Path) -> None:
    root = in_tmp / "evals"
    for name in ("b.md", "a.json", "sub/c.jsonl", ".zed/settings.json", "node_modules/x.md"):
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text("{}")
    (root / ".hidden.md").write_text("x")
    (root / "readme.txt").write_text("x")
    (root / "out").mkdir()
    (root / "out" / "o.md").write_text("x")
    (root / "all.jsonl").write_text("{}\n")
    units = list(iter_all_units([Path("evals")], exclude=root / "out"))
    assert [u.path for u in units] == [
        "evals/a.json",
        "evals/all.jsonl",
        "evals/b.md",
        "evals/sub/c.jsonl",
    ]
    units = list(iter_all_units([root], exclude=Path("evals/all.jsonl")))
    assert [u.path for u in units] == [
        "evals/a.json",
        "evals/b.md",
        "evals/out/o.md",
        "evals/sub/c.jsonl",
    ]
    # Named directly, a file is read whatever its name.
    assert [u.path for u in iter_all_units([root / ".hidden.md"])] == ["evals/.hidden.md"]


def test_parse_unit_passes_through_a_unit_error(tmp_path: Path) -> None:
    path = tmp_path / "x.yaml"
    path.write_text("a: 1")
    [unit] = list(iter_all_units([path]))
    record = parse_unit(unit)
    assert record.example is None and record.errors == [unit.error]


def test_a_record_cut_off_mid_line_is_located_on_its_own_line(tmp_path: Path) -> None:
    source = tmp_path / "cut.jsonl"
    source.write_text('{"name": "x", "repository_url"\n{"name": "y"\n')
    errors = [e for r in records.iter_records(source) for e in r.errors]
    assert [(e.line, e.column) for e in errors] == [(1, 31), (2, 13)]


@pytest.mark.parametrize(
    ("line", "message"),
    [
        # Python keeps the last "name"; a conversion would drop the first silently.
        (LINE[:-1] + ', "name": "other"}', 'key "name" occurs twice in one object'),
        # Read as infinity, it would be written back as the non-JSON `Infinity`.
        (LINE[:-1] + ', "score": 1e400}', "number 1e400 is too large for a 64-bit float"),
        (LINE[:-1] + ', "score": NaN}', "NaN is not JSON"),
        # No UTF-8 form: writing the example back would fail.
        (LINE.replace('"src/a.py"', '"src/\\ud800.py"', 1), "string holds a lone"),
        (LINE[:-1] + ', "n": {"\\udc00": 1}}', "string holds a lone UTF-16"),
    ],
)
def test_json_the_reference_refuses_is_a_located_error(
    tmp_path: Path, line: str, message: str
) -> None:
    path = tmp_path / "set.jsonl"
    path.write_text(LINE + "\n" + line + "\n")
    first, second = _all(path)
    assert first.example is not None and not first.errors
    [error] = second.errors
    # The column points at what is refused: the repeated key, the number, the escape.
    at = {"key ": line.rfind('"name"'), "numb": line.find("1e400"), "NaN ": line.find("NaN")}
    column = at.get(message[:4], line.find("\\u")) + 1
    assert (error.code, error.line, error.column) == (BAD_JSON, 2, column)
    assert message in error.message


def test_paired_surrogate_escapes_are_one_character(tmp_path: Path) -> None:
    path = tmp_path / "set.jsonl"
    path.write_text(LINE.replace('"src/a.py"', '"src/\\ud83d\\ude00.py"', 1) + "\n")
    [record] = _all(path)
    assert record.example is not None and record.example.spec.cursor_path == "src/\U0001f600.py"


def test_a_fifo_named_jsonl_is_a_located_error(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe.jsonl"
    os.mkfifo(fifo)
    [record] = _all(fifo)
    assert record.errors[0].code == BAD_FILE
    assert record.errors[0].message == "is not a regular file (a device, socket or FIFO)"


def test_the_reader_and_the_converter_report_one_location_type(tmp_path: Path) -> None:
    """Issue 19: no RecordError, no Finding, no `kind` strings: a finding is a Diagnostic."""
    from evaltools.diagnostics import Diagnostic
    from evaltools.example.convert.pipeline import Options, convert

    path = tmp_path / "set.jsonl"
    path.write_text(LINE + "\n\n{oops\n")
    errors = [e for r in _all(path) for e in r.errors]
    assert all(isinstance(e, Diagnostic) for e in errors)
    assert [(e.line, e.column, e.code) for e in errors] == [(2, 1, "CV004"), (3, 2, "IO008")]
    found: list[object] = []
    convert([path], Options("jsonl", tmp_path / "out.jsonl"), found.append)
    assert found == errors
