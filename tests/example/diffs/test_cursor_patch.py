"""Cursor markers inside expected patches (reference section 7)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from evaltools.example.cursor import CURSOR_POSITION_MARKER
from evaltools.example.diffs.patch_cursor import (
    PatchCursorMarker,
    encode_cursor_in_patch,
    extract_cursor_from_patch,
    extract_patch_cursor,
    parse_patch,
    patch_cursor_line,
)
from evaltools.example.diffs.udiff import LineKind, apply_diff_to_string_with_hunk_offset

M = CURSOR_POSITION_MARKER
HEAD = "--- a/test.rs\n+++ b/test.rs\n"

NEW_CONTENT = (
    '// prints a greeting\nfn main() {\n    println!("hello, {}", );\n    let x = 42;\n}\n'
)
CLEAN = (
    HEAD + "@@ -1,3 +1,4 @@\n+// prints a greeting\n fn main() {\n"
    '-    println!("hi");\n+    println!("hello, {}", );\n     let x = 42;\n }\n'
)
ENCODED = CLEAN.replace('", );\n', '", );\n#' + " " * 26 + "^" + M + "\n")


def test_encode_after_the_added_line_and_extract_back() -> None:
    offset = NEW_CONTENT.index(");")
    assert encode_cursor_in_patch(CLEAN, offset) == ENCODED
    assert extract_cursor_from_patch(ENCODED) == (CLEAN, offset)
    # The offset is into the hunk's new text, which starts where the hunk matched.
    old = 'fn main() {\n    println!("hi");\n    let x = 42;\n}\n'
    new_text, first = apply_diff_to_string_with_hunk_offset(CLEAN, old)
    assert (new_text, first) == (NEW_CONTENT, 0)


def test_without_offset_nothing_changes() -> None:
    crlf = CLEAN.replace("\n", "\r\n")
    assert encode_cursor_in_patch(crlf, None) == crlf
    assert extract_cursor_from_patch(CLEAN) == (CLEAN, None)


def test_encoding_is_idempotent() -> None:
    patch = HEAD + "@@ -1,2 +1,2 @@\n-fn old() {}\n+fn new_name() {}\n#       ^" + M + "\n"
    offset = "fn new_name() {}".index("name")
    once = encode_cursor_in_patch(patch, offset)
    assert encode_cursor_in_patch(once, offset) == once
    assert once.count(M) == 1
    assert once.endswith("+fn new_name() {}\n#       ^" + M + "\n")


@pytest.mark.parametrize(
    ("patch", "offset"),
    [
        ("#   ^" + M + "\n" + HEAD + "+abc\n", 3),  # before any line: just the column
        (HEAD + "+abc\n#^" + M + "\n", 0),  # saturating: `^` on the `#` column
        (HEAD + " ab\n+cd\n# <" + M + "\n", 3),  # `<`: column 0
        (HEAD + " ab\n+cd\n#  ^" + M + "\n# ^" + M + "\n", 4),  # the last marker wins
        (HEAD + " ab\n-gone\n#  ^" + M + "\n", 2),  # after a deletion: the line above counts
        (HEAD + " ab\n+cd\n#   " + M + "\n", None),  # neither `^` nor `<`: dropped silently
        (HEAD + "+é=1\n#  ^" + M + "\n", 2),  # bytes: right after the é
        # Counting runs across hunks and files; deleted and header lines do not count.
        (HEAD + "@@ -1 +1 @@\n a\n-b\n+c\n--- a/x\n+++ b/x\n@@ -9 +9 @@\n d\n+e\n# ^" + M, 7),
    ],
)
def test_extract_offsets(patch: str, offset: int | None) -> None:
    clean, found = extract_cursor_from_patch(patch)
    assert found == offset
    assert M not in clean


def test_extract_keeps_the_markers_and_line_numbers() -> None:
    patch = "\n\n" + HEAD + "+ab\n#  ^" + M + "\n#  " + M + "\n ok\r\n"
    extracted = extract_patch_cursor(patch)
    assert extracted.clean == HEAD + "+ab\n ok\n"  # leading blank lines vanish, CRLF goes
    assert extracted.line_map == (2, 3, 4, 7)
    # The vanished blank lines were context: they still count, two bytes before `+ab`.
    assert extracted.markers == (PatchCursorMarker(5, 2, 4), PatchCursorMarker(6, None, None))
    assert extracted.offset == 4


def test_a_last_empty_line_without_final_newline_is_lost() -> None:
    extracted = extract_patch_cursor("+a\n\n# ^" + M)
    # The marker counts from the empty context line above it (offset 2), column 1.
    assert (extracted.clean, extracted.line_map, extracted.offset) == ("+a\n", (0,), 3)


@pytest.mark.parametrize(
    ("offset", "line", "column"),
    [(0, 3, 0), (4, 3, 4), (5, 4, 0), (6, 4, 1), (7, None, 0), (99, None, 0)],
)
def test_encode_targets_added_lines_only(offset: int, line: int | None, column: int) -> None:
    patch = HEAD + "-x\n+abcd\n+e\n c\n"  # new text "abcd\ne\nc\n": added 0-4 and 5-6
    assert patch_cursor_line(patch, offset) == line
    encoded = encode_cursor_in_patch(patch, offset)
    if line is None:
        assert encoded == patch  # on a context line or past the end: the cursor is dropped
    else:
        assert encoded.split("\n")[line + 1] == "#" + " " * column + "^" + M


def test_encode_keeps_the_final_newline_rule() -> None:
    assert encode_cursor_in_patch("+ab", 1) == "+ab\n# ^" + M
    assert encode_cursor_in_patch("", 0) == ""
    assert encode_cursor_in_patch("\n+ab\n", 1) == "+ab\n#^" + M + "\n"


def test_parse_patch_reports_the_patchs_own_line_numbers() -> None:
    patch = HEAD + "@@ -1,2 +1,2 @@\n-import\n+import x\n#  ^" + M + "\n+from y\n z\n"
    parsed, extracted = parse_patch(patch)
    (hunk,) = parsed.hunks
    assert extracted.offset == 2
    assert [(ln.kind, ln.line) for ln in hunk.lines] == [
        (LineKind.DELETION, 3),
        (LineKind.ADDITION, 4),
        (LineKind.ADDITION, 6),
        (LineKind.CONTEXT, 7),
    ]
    assert (hunk.header_line, parsed.files[0].line) == (2, 0)


_CONTENT = st.text(st.characters(codec="utf-8", blacklist_characters="\r\n"), max_size=6)
_LINES = st.lists(
    st.one_of(
        st.sampled_from(["--- a/f", "+++ b/f", "@@ -1,2 +1,2 @@", "", "# ^" + M, "garbage"]),
        _CONTENT.map(lambda t: "+" + t),
        _CONTENT.map(lambda t: " " + t),
        _CONTENT.map(lambda t: "-" + t),
    ),
    max_size=12,
).filter(lambda lines: not lines or lines[0] not in ("", "# ^" + M))


def _patch(lines: list[str], final_newline: bool) -> str:
    return "\n".join(lines) + ("\n" if final_newline and lines else "")


@given(_LINES, st.booleans(), st.integers(0, 80))
def test_encode_is_idempotent(lines: list[str], final_newline: bool, offset: int) -> None:
    # Holds when the patch starts with no blank line and has no \r: the reference's join drops
    # leading blank lines and `lines()` eats one \r of `\r\r\n`, which shifts the counting.
    once = encode_cursor_in_patch(_patch(lines, final_newline), offset)
    assert encode_cursor_in_patch(once, offset) == once


@given(_LINES, st.booleans(), st.integers(0, 80))
def test_extract_recovers_an_offset_on_an_added_line(
    lines: list[str], final_newline: bool, offset: int
) -> None:
    patch = _patch(lines, final_newline)
    encoded = encode_cursor_in_patch(patch, offset)
    clean, found = extract_cursor_from_patch(encoded)
    assert clean == extract_cursor_from_patch(patch)[0]
    if patch_cursor_line(patch, offset) is not None:
        assert found == offset
    else:
        assert found is None
