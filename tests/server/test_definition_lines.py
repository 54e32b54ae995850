"""The code a hover shows for a gold chunk ID: the lines its span names, counted as chunk IDs
count them (at "\n" only)."""

from __future__ import annotations

from pathlib import Path

from evaltools.server.analysis import definition_lines


def test_a_form_feed_or_line_separator_does_not_shift_the_lines_shown(tmp_path: Path) -> None:
    # A page break (Emacs' ^L) and a U+2028 in a string: `str.splitlines` counts a line at
    # each, git and the chunk IDs do not.
    source = 'A = 1\n\x0c\nS = "a\u2028b"\n\n\ndef f():\n    return 2\n'
    (tmp_path / "a.py").write_text(source, encoding="utf-8")
    assert definition_lines(tmp_path, "a.py:6-7:f") == "def f():\n    return 2"


def test_a_crlf_file_shows_its_lines_without_carriage_returns(tmp_path: Path) -> None:
    (tmp_path / "a.py").write_bytes(b"A = 1\r\n\r\ndef f():\r\n    return 2\r\n")
    assert definition_lines(tmp_path, "a.py:3-4:f") == "def f():\n    return 2"


def test_the_first_lines_of_a_long_definition(tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text("".join(f"x{i} = {i}\n" for i in range(20)), "utf-8")
    assert definition_lines(tmp_path, "a.py:2-20:x", count=2) == "x1 = 1\nx2 = 2"
