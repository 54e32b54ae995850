"""One position converter (`evaltools.positions`): the line index agrees with counting from
the start for every offset, in text and in bytes, and places each of a record's thousands of
findings at its own line."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from evaltools.__main__ import main
from evaltools.positions import Lines, line_column, lines_of
from tests.conftest import CORPUS


def counted(text: str, offset: int) -> tuple[int, int]:
    """Line and column by counting from the start (what each finding once paid)."""
    before = text[:offset]
    return before.count("\n") + 1, len(before) - (before.rfind("\n") + 1) + 1


@given(st.text(alphabet="ab\né\n\U0001f600", max_size=60))
def test_the_index_agrees_with_counting_in_text(text: str) -> None:
    lines = Lines(text)
    for offset in range(len(text) + 1):
        assert lines.line_column(offset) == line_column(text, offset) == counted(text, offset)


@given(st.binary(max_size=40).map(lambda b: b.replace(b"\x00", b"\n")))
def test_the_index_agrees_with_counting_in_bytes(data: bytes) -> None:
    lines = Lines(data)
    for offset in range(len(data) + 1):
        line, column = lines.line_column(offset)
        assert (line, column) == line_column(data, offset)
        start = data.rfind(b"\n", 0, offset) + 1
        assert line == data.count(b"\n", 0, offset) + 1
        assert column == len(data[start:offset].decode("utf-8", "replace")) + 1


@pytest.mark.parametrize("suffix", [".json", ".jsonl"])
def test_each_of_many_findings_of_one_record_is_at_its_own_line(
    in_tmp: Path, capsys: pytest.CaptureFixture[str], suffix: str
) -> None:
    shutil.copyfile(CORPUS / "flask--add-import-statement.md", in_tmp / "o--x.md")
    assert main(["convert", "o--x.md", "--to", "json", "-o", "x.json"]) == 0
    record = json.loads((in_tmp / "x.json").read_text())
    record["expected_patches"] = [""] * 1000  # EP309 (empty patch) at each, EP313's limit
    text = json.dumps(record, indent=1) if suffix == ".json" else json.dumps(record) + "\n"
    (in_tmp / f"x{suffix}").write_text(text)
    capsys.readouterr()
    assert main(["lint", f"x{suffix}", "--select", "EP309"]) == 0  # warnings
    found = [line for line in capsys.readouterr().out.splitlines() if "EP309" in line]
    assert len(found) == 1000
    lines = text.split("\n")
    for index, finding in enumerate(found):
        _, line, column, _ = finding.split(":", 3)
        if suffix == ".json":
            # Pretty-printed: the i-th patch is the i-th `""` line of the list.
            assert lines[int(line) - 1].strip().rstrip(",") == '""'
        else:
            assert line == "1"
        assert f"(at /expected_patches/{index})" in finding
        assert text.split("\n")[int(line) - 1][int(column) - 1] == '"'


@given(
    st.lists(st.sampled_from([b"a", b"\r", b"\n", b"\x0c", b"\xc2\x85"]), max_size=30).map(b"".join)
)
def test_lines_of_ends_a_line_at_newline_only(data: bytes) -> None:
    lines = lines_of(data)
    assert b"".join(lines) == data
    assert all(line.endswith(b"\n") for line in lines[:-1])
    assert all(b"\n" not in line[:-1] for line in lines)
    assert len(lines) == data.count(b"\n") + (0 if data.endswith(b"\n") or not data else 1)


def test_a_lines_span_leaves_its_newline_out_and_stays_in_the_text() -> None:
    lines = Lines("ab\ncd")
    assert [lines.span(n) for n in (0, 1, 2, 9)] == [(0, 2), (0, 2), (3, 5), (3, 5)]
    assert Lines("ab\n").span(2) == (3, 3)
    assert Lines(b"\xc3\xa9\n").span(1) == (0, 2)  # bytes: offsets in bytes
