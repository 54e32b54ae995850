"""The server places findings and edits where the editor counts them: a line ends at
"\r\n", "\r" or "\n" there, and a form feed, U+0085 or U+2028 (which JSON strings may hold
raw) ends none, though `str.splitlines` (pygls' lines) ends one at each."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from evaltools.__main__ import main
from tests.conftest import corpus_files
from tests.server.lspclient import Client, apply_edits, offset_at
from tests.server.test_server import repo

__all__ = ["repo"]  # the fixture


def cli_places(path: Path, capsys: pytest.CaptureFixture[str]) -> list[tuple[str, int, str]]:
    """Each finding of `check` as (code, offset into the text, message)."""
    text = path.read_bytes().decode()  # read_text would turn a lone "\r" into "\n"
    capsys.readouterr()
    main(["check", str(path), "--format", "json"])
    starts = [0] + [i + 1 for i, c in enumerate(text) if c == "\n"]
    return sorted(
        (d["code"], starts[d["line"] - 1] + d["column"] - 1, d["message"])
        for d in json.loads(capsys.readouterr().out)
    )


def lsp_places(text: str, published: list[dict[str, object]]) -> list[tuple[str, int, str]]:
    return sorted(
        (str(d["code"]), offset_at(text, d["range"]["start"]), str(d["message"]))  # type: ignore[index]
        for d in published
    )


def two_records(tmp: Path, separator: str) -> str:
    """The corpus example twice as JSONL: the first with `separator` inside a string (or,
    a lone "\r", between members), the second with a misspelt cursor marker."""
    path = tmp / "x.jsonl"
    assert main(["convert", str(corpus_files()[0]), "--to", "jsonl", "-o", str(path)]) == 0
    record = json.loads(path.read_bytes())
    if separator == "\r":
        first = json.dumps(record).replace(', "', ',\r"', 3)
    else:
        first = json.dumps(record | {"note": f"a{separator}b"}, ensure_ascii=False)
    second = json.dumps(record | {"name": "b"}).replace("CURSOR_POSITION", "CURSOR_POSITON")
    return f"{first}\n{second}\n"


@pytest.mark.parametrize("separator", ["\u2028", "\x85", "\r"])
def test_a_finding_after_a_line_separator_is_where_check_puts_it(
    repo: Path, capsys: pytest.CaptureFixture[str], separator: str
) -> None:
    text = two_records(repo, separator)
    path = repo / "codex-acp--add-derive.jsonl"
    path.write_text(text, encoding="utf-8", newline="")
    expected = cli_places(path, capsys)
    assert any(offset > text.index("\n") for _, offset, _ in expected)
    client = Client(repo)
    client.start(repo)
    uri = client.open(path, text)
    assert lsp_places(text, client.diagnostics(uri, 1)) == expected
    assert client.stop() == 0


def test_a_markdown_example_with_a_form_feed_keeps_its_places_and_its_formatting(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = corpus_files()[0].read_text("utf-8")
    assert source.count("^[CURSOR_POSITION]") == 1
    text = source.replace("^[CURSOR_POSITION]", "\x0c\u2028^[CURSOR_POSITON]").replace(
        "+++\n\n##", "+++\n\n\n\n##"
    )
    path = repo / "codex-acp--add-derive.md"
    path.write_text(text, encoding="utf-8", newline="")
    expected = cli_places(path, capsys)
    assert "EP201" in {code for code, _, _ in expected}
    client = Client(repo)
    capabilities = client.start(repo)["capabilities"]
    # Whole texts: an edit pygls applied itself would land on its own (splitlines) lines.
    assert capabilities["textDocumentSync"]["change"] == 1  # Full
    uri = client.open(path, text)
    assert lsp_places(text, client.diagnostics(uri, 1)) == expected
    # The canonical rewrite ends at the text's end, wherever the editor counts it.
    fixed = text.replace("POSITON", "POSITION")
    path.write_text(fixed, encoding="utf-8", newline="")
    assert main(["roundtrip", "--fix", str(path)]) == 0
    canonical = path.read_bytes().decode()
    assert canonical != fixed
    client.change(uri, 2, fixed)
    client.diagnostics(uri, 2)
    edits = client.request(
        "textDocument/formatting",
        {"textDocument": {"uri": uri}, "options": {"tabSize": 4, "insertSpaces": True}},
    )
    assert apply_edits(fixed, edits) == canonical
    assert client.stop() == 0


def test_a_column_past_a_crlf_lines_end_is_a_range_at_its_end() -> None:
    from pygls.workspace.position_codec import PositionCodec

    from evaltools.server.actions import finding_range
    from evaltools.server.lines import DocumentLines

    lines = DocumentLines("abc\r\nde\n", PositionCodec())
    found = finding_range(lines, 1, 5)  # the "\n" of line 1
    assert (found.start.line, found.start.character) == (0, 3)
    assert (found.end.line, found.end.character) == (0, 3)
    # An astral character counts two UTF-16 units.
    lines = DocumentLines("a\U0001f600b c\n", PositionCodec())
    found = finding_range(lines, 1, 3)
    assert (found.start.character, found.end.character) == (3, 4)
