"""The Cursor Position block (reference section 6). Patch markers: test_cursor_patch.py."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from evaltools.example.cursor import (
    CURSOR_POSITION_MARKER,
    INLINE_CURSOR_MARKER,
    CursorError,
    cursor_excerpt,
    format_cursor_excerpt,
    locate_cursor,
)
from evaltools.example.diffs.udiff import RUST_WHITESPACE
from tests.example.markdown._fences import corpus_files, section_blocks

CODE = 'fn main() {\n    let x = 42;\n    println!("{}", x);\n}'
M = CURSOR_POSITION_MARKER


def with_marker_after_line(excerpt: str, line: int, marker: str) -> str:
    lines = excerpt.split("\n")
    return "\n".join([*lines[: line + 1], marker, *lines[line + 1 :]])


# --- writing and reading back (reference cases) --------------------------------------------


@pytest.mark.parametrize(
    ("find", "shift", "marker"),
    [
        ("42", 0, "    //      ^"),  # indent kept: the column is past indent + prefix
        ("et x", 0, "//   ^"),  # column 5 < 4 + 2: no indent, prefix padded
        ("let", 0, "//  ^"),
        ("    let", 0, "// <"),  # column 0 < len("//"): the `<` form
        (";", 1, "    //         ^"),  # end of line
    ],
)
def test_caret_and_less_than_forms(find: str, shift: int, marker: str) -> None:
    offset = CODE.index(find) + shift
    block = format_cursor_excerpt(CODE, offset, "//")
    assert block == with_marker_after_line(CODE, 1, marker + M)
    assert cursor_excerpt(block) == (CODE, offset)


def test_cursor_at_end_of_file_leaves_no_trailing_newline() -> None:
    excerpt = "fn main() {\n    let x = 42;"
    block = format_cursor_excerpt(excerpt, len(excerpt), "//")
    assert block == excerpt + "\n    //         ^" + M
    assert cursor_excerpt(block) == (excerpt, len(excerpt))


@pytest.mark.parametrize(
    ("excerpt", "offset", "prefix", "marker"),
    [
        ("xyz", 1, "//", " // <"),  # the leading spaces are the column
        ("xyz", 1, "<!--", " <!-- <"),
        ("abc", 2, "", "  ^"),  # unknown language: bare marker
        ("", 0, "#", "# <"),
        ("\t\tfoo()", 4, "//", "\t\t//^"),  # tabs in the indent are copied
        ("\t\tfoo()", 3, "//", "// ^"),
        ("é = 1", 3, "#", "#  ^"),  # columns are bytes: é is two
        ("a\n    \nb", 6, "#", "#   ^"),  # whitespace-only line: indent includes its \n
        ("a\n    ", 6, "", "    ^"),  # whitespace-only last line
    ],
)
def test_marker_shapes(excerpt: str, offset: int, prefix: str, marker: str) -> None:
    block = format_cursor_excerpt(excerpt, offset, prefix)
    line = excerpt.encode()[:offset].count(b"\n")
    if excerpt:
        assert block == with_marker_after_line(excerpt, line, marker + M)
    else:
        assert block == "\n" + marker + M
    assert cursor_excerpt(block) == (excerpt, offset)


@pytest.mark.parametrize("offset", [-1, 4, 1])
def test_format_rejects_offsets_that_are_no_character_boundary(offset: int) -> None:
    with pytest.raises(ValueError, match="not a character boundary"):
        format_cursor_excerpt("é\n", offset, "#")


_NO_NEWLINE = st.characters(codec="utf-8", blacklist_characters="\n")


@given(
    st.lists(st.text(_NO_NEWLINE, max_size=8), min_size=1, max_size=5),
    st.data(),
    st.text(st.characters(codec="utf-8", blacklist_characters="\n^"), max_size=4),
)
def test_format_then_read_round_trips(lines: list[str], data: st.DataObject, prefix: str) -> None:
    excerpt = "\n".join(lines).rstrip("\n")
    for marker in (M, INLINE_CURSOR_MARKER):
        excerpt = excerpt.replace(marker, "")
    if prefix and (prefix[0] in RUST_WHITESPACE or prefix[-1] in RUST_WHITESPACE):
        prefix = "#"
    offset = len(excerpt[: data.draw(st.integers(0, len(excerpt)))].encode())
    block = format_cursor_excerpt(excerpt, offset, prefix)
    assert cursor_excerpt(block) == (excerpt, offset)
    location = locate_cursor(block)
    column = offset - excerpt.encode().rfind(b"\n", 0, offset) - 1
    assert location.kind == ("<" if column < len(prefix.encode()) else "^")
    assert location.lt_canonical in (None, True)
    assert not (location.past_end_of_line or location.inside_multibyte)


# --- reading -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("block", "excerpt", "offset"),
    [
        ("fn main() {\n    let x = <|user_cursor|>42;\n}", "fn main() {\n    let x = 42;\n}", 24),
        ("fn main() {\n<|user_cursor|>    let x = 42;\n}", "fn main() {\n    let x = 42;\n}", 12),
        ("fn main() {}<|user_cursor|>", "fn main() {}", 12),
        # Only the first inline marker goes; nothing else is touched, not even trailing \n.
        ("a<|user_cursor|>b<|user_cursor|>\n\n", "ab<|user_cursor|>\n\n", 1),
        # The inline form wins over a comment marker.
        ("a<|user_cursor|>\n^[CURSOR_POSITION]", "a\n^[CURSOR_POSITION]", 1),
    ],
)
def test_inline_marker(block: str, excerpt: str, offset: int) -> None:
    assert cursor_excerpt(block) == (excerpt, offset)
    assert locate_cursor(block).kind == "inline"


def test_inline_marker_location() -> None:
    location = locate_cursor("x\né<|user_cursor|>y")
    assert (location.marker_line, location.marker_column, location.column) == (1, 2, 2)
    assert (location.cursor_line, location.offset, location.non_ascii_before_cursor) == (1, 4, True)


@pytest.mark.parametrize(
    ("block", "excerpt", "offset"),
    [
        ("a\r\n^" + M + "\n\n\n", "a\r", 0),  # trailing \n go, \r stays
        ("  ^" + M + "\nabc", "abc", 2),  # marker on the first line: counts from the start
        ("abc\n// <" + M + " ^", "abc", 22),  # a `^` anywhere wins over `<`
        ("abc\n\u3000// <" + M, "abc", 3),  # `<`: first non-whitespace, in bytes
        ("abc\n\x1c// <" + M, "abc", 0),  # U+001C is not whitespace to Rust
        ("abc\n   // <" + M + "\nxyz", "abc\nxyz", 3),
        ("\t/\n   // <" + M + "\nbar", "\t/\nbar", 3),  # column 3 on a 2-byte line: next line
        ("ab\n     ^" + M, "ab", 5),  # nothing clamps the offset
    ],
)
def test_reading(block: str, excerpt: str, offset: int) -> None:
    assert cursor_excerpt(block) == (excerpt, offset)


@pytest.mark.parametrize(
    ("block", "line", "fragment"),
    [
        ("fn main() {}\n", 1, "missing [CURSOR_POSITION] marker"),
        ("abc\n// [CURSOR_POSITION]\n", 2, "must contain '^' or '<'"),
        # Source text holding the marker above the real one makes its line the marker line.
        ("s = '[CURSOR_POSITION]'\nabc\n ^[CURSOR_POSITION]", 1, "must contain '^' or '<'"),
        # The excerpt loses its trailing newlines, then the reference slices past its end.
        ("foo\n\n# <[CURSOR_POSITION]\n", 3, "crashes the reference"),
    ],
)
def test_errors(block: str, line: int, fragment: str) -> None:
    with pytest.raises(CursorError) as caught:
        cursor_excerpt(block)
    assert (caught.value.line, fragment in caught.value.message) == (line, True)


def test_location_past_end_and_less_than_placement() -> None:
    location = locate_cursor("\tfoo(\n\t/\n   // <" + M + "\n\tbar\n")
    assert (location.kind, location.column, location.marker_column) == ("<", 3, 6)
    assert (location.cursor_line, location.offset, location.past_end_of_line) == (1, 9, True)
    assert (location.lt_canonical, location.canonical_after_line) == (False, 2)
    assert location.canonical_marker == "// <" + M


@pytest.mark.parametrize(
    ("block", "canonical", "expected"),
    [
        ("\t\t\tfoo;\n\t\t\t// <" + M, False, "// ^" + M),  # what Zed writes at column 3
        ("abc\n // <" + M + "\nx", True, " // <" + M),
        ("abc\n// <" + M, True, "// <" + M),
        ("abc\n//<" + M, False, "// <" + M),
        ("abc\n//   <" + M, False, "// <" + M),
        ("x\n <!-- <" + M, True, " <!-- <" + M),
        ("é\n <" + M, False, None),  # inside a character: nothing to compare with
        ("<" + M + "\nab", False, "^" + M),  # first line: no prefix, so Zed writes `^`
    ],
)
def test_less_than_canonical(block: str, canonical: bool, expected: str | None) -> None:
    location = locate_cursor(block)
    assert (location.lt_canonical, location.canonical_marker) == (canonical, expected)


def test_location_flags() -> None:
    multibyte = locate_cursor("é\n ^" + M)
    assert (multibyte.offset, multibyte.inside_multibyte, multibyte.non_ascii_before_cursor) == (
        1,
        True,
        True,
    )
    after = locate_cursor("é = 1\n#  ^" + M)
    assert (after.offset, after.inside_multibyte, after.non_ascii_before_cursor) == (3, False, True)
    beyond = locate_cursor("ab\n     ^" + M)
    assert (beyond.past_end_of_line, beyond.past_end_of_excerpt) == (True, True)
    first = locate_cursor("  ^" + M + "\nabc")
    assert (first.has_line_above, first.cursor_line, first.marker_line) == (False, 0, 0)
    caret = locate_cursor(CODE.replace("\n    println", "\n//^" + M + "\n    println"))
    assert (caret.lt_canonical, caret.canonical_marker, caret.marker_line) == (None, None, 2)


# --- the corpus ----------------------------------------------------------------------------

CORPUS_CURSORS = {
    "codex-acp--add-derive": ("^", 24),
    "flask--add-and-rename-test-function": ("^", 30),
    "flask--add-import-statement": ("^", 2),
    "flask--add-test-function": ("^", 2),
    "flask--rename-accepted-prediction": ("^", 29),
    "tree-sitter--if-let-to-match": ("^", 29),
    "tree-sitter--tuple-to-struct-definition": ("^", 3),
    "tree-sitter--tuple-to-struct-field-access": ("^", 61),
    "tree-sitter--tuple-to-struct-for-loop": ("^", 29),
    "tree-sitter--tuple-to-struct-literal": ("^", 46),
    "vscode--add-async-and-await": ("^", 10),
    "vscode--add-class-decorator": ("<", 0),
    "vscode--add-interface-method": ("<", 3),
    "vscode--log-object-property": ("^", 26),
    "zed--add-eprintln": ("^", 11),
    "zed--change-match-arm": ("^", 32),
}


@pytest.mark.parametrize("path", corpus_files(), ids=lambda p: p.name)
def test_corpus_cursor_blocks(path: Path) -> None:
    (block,) = section_blocks(path, "Cursor Position")
    location = locate_cursor(block.text)
    assert (location.kind, location.column) == CORPUS_CURSORS[path.stem.split("@")[0]]
    assert not location.past_end_of_line and not location.inside_multibyte
    assert not location.non_ascii_before_cursor and location.has_line_above
    # Only vscode--add-interface-method has a `<` where Zed would write something else.
    assert (
        location.lt_canonical
        is {"^": None, "<": path.stem != "vscode--add-interface-method"}[location.kind]
    )
    lines = block.text.split("\n")
    del lines[location.marker_line]
    assert cursor_excerpt(block.text) == ("\n".join(lines).rstrip("\n"), location.offset)
