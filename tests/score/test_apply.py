"""Applying patches as the current upstream does, and the inline cursor of expected patches."""

from __future__ import annotations

import pytest

from evaltools.example.diffs.udiff import ApplyError
from evaltools.score.apply import apply_diff, apply_with_hunk_offset, extract_inline_cursor

HEADER = "--- a/f\n+++ b/f\n"


def test_a_patch_without_a_file_header_is_a_no_op() -> None:
    assert apply_diff("@@ -1,2 +1,2 @@\n a\n-b\n+c\n", "a\nb\n") == "a\nb\n"


def test_a_pure_insertion_goes_to_the_start_of_its_row() -> None:
    assert apply_diff(HEADER + "@@ -2,0 +2 @@\n+new\n", "x\ny\n") == "x\nnew\ny\n"


def test_file_global_line_numbers_cannot_choose_among_matches_in_an_excerpt() -> None:
    with pytest.raises(ApplyError):
        apply_diff(HEADER + "@@ -101,2 +101,2 @@\n a\n-b\n+c\n", "a\nb\na\nb\n")


def test_later_hunks_are_placed_with_the_line_delta_of_earlier_ones() -> None:
    text = "a\nb\na\nb\n"
    # The first hunk adds a line above, so the second hunk's old row 2 is row 3 by then; both
    # contexts occur twice, so only the line numbers (with the delta) can place them.
    diff = HEADER + "@@ -1,1 +1,2 @@\n+z\n a\n@@ -3,2 +4,2 @@\n a\n-b\n+B\n"
    assert apply_diff(diff, text) == "z\na\nb\na\nB\n"
    assert apply_with_hunk_offset(HEADER + "@@ -3 +3 @@\n-a\n+X\n", text) == ("a\nb\nX\nb\n", 4)


def test_inline_cursor_offset_counts_context_and_added_lines() -> None:
    patch = (
        "--- a/src/main.rs\n+++ b/src/main.rs\n@@ -11,3 +11,3 @@\n fn main() {\n"
        '-    let x = 42;\n+    let x = 100;<|user_cursor|>\n     println!("{}", x);\n'
    )
    clean, cursor = extract_inline_cursor(patch)
    assert cursor == 28  # reference 3.3
    assert "<|user_cursor|>" not in clean
    assert clean == patch.replace("<|user_cursor|>", "")
    new_text = 'fn main() {\n    let x = 100;\n    println!("{}", x);\n'
    assert new_text.find(";\n    println") + 1 == cursor


def test_inline_cursor_first_marker_wins_and_empty_lines_count_as_context() -> None:
    patch = "--- a/f\n+++ b/f\n@@ -1,2 +1,3 @@\n a\n\n+b<|user_cursor|>c<|user_cursor|>\n"
    clean, cursor = extract_inline_cursor(patch)
    assert cursor == len("a\n\nb")
    assert clean.endswith("+bc\n")
    assert extract_inline_cursor("no marker") == ("no marker", None)
