"""Exact lines, wrong editable region and isolated whitespace (reference 3.1, patch_metrics.rs)."""

from __future__ import annotations

import pytest

from evaltools.score.patch_lines import (
    changed_lines,
    exact_lines_match,
    has_isolated_whitespace_changes,
    is_editable_region_correct,
    parse_patch_lines,
)

H = "--- a/f.rs\n+++ b/f.rs\n@@ -1,3 +1,3 @@\n"


def _patch(*lines: str) -> str:
    return H + "".join(line + "\n" for line in lines)


@pytest.mark.parametrize(
    ("expected", "actual", "counts"),
    [
        # L1016-1041: identical, two deletions and two additions
        (("-a", "-b", "+c", "+d"), ("-a", "-b", "+c", "+d"), (4, 0, 0)),
        # L1043-1061
        (
            ("-old line 1", "-old line 2", "+new line 1", "+new line 2"),
            ("-old line 1", "+new line 1", "+extra line"),
            (2, 1, 2),
        ),
        # L1063-1077
        (("-line a", "+line b"), ("-line x", "+line y"), (0, 2, 2)),
        # L1079-1094: a multiset, not a set
        (("+line a", "+line a", "+line a"), ("+line a", "+line a"), (2, 0, 1)),
    ],
)
def test_exact_lines_upstream_values(
    expected: tuple[str, ...], actual: tuple[str, ...], counts: tuple[int, int, int]
) -> None:
    assert tuple(exact_lines_match(_patch(*expected), _patch(*actual))) == counts


def test_exact_lines_identical_is_perfect_and_empty_is_zero() -> None:
    same = exact_lines_match(_patch("-a", "+b"), _patch("-a", "+b"))
    assert (same.precision, same.recall, same.f1) == (1.0, 1.0, 1.0)
    empty = exact_lines_match("", "")
    assert tuple(empty) == (0, 0, 0)
    assert (empty.precision, empty.recall, empty.f1) == (0.0, 0.0, 0.0)


def test_changed_lines_skip_headers_and_keep_prefixes() -> None:
    patch = "diff --git a/x b/x\nindex 1..2\n--- a/x\n+++ b/x\n@@ -1 +1 @@\n-old\n+new\n ctx\n"
    assert changed_lines(patch) == {"-old": 1, "+new": 1}
    # A removed line whose content starts with `--` reads as a header and is skipped.
    assert changed_lines("--- a/x\n+++ b/x\n@@ -1 +1 @@\n--- x\n+y\n") == {"+y": 1}


def test_wrong_editable_region_is_three_leading_deletions() -> None:
    assert not is_editable_region_correct(_patch("-a", "-b", "-c", "+d"))
    assert is_editable_region_correct(_patch("-a", "-b", "+d"))
    assert is_editable_region_correct(_patch(" a", "-b", "-c", "-d"))
    assert is_editable_region_correct("")


@pytest.mark.parametrize(
    ("lines", "row", "isolated"),
    [
        ((" a", "+", " b"), None, True),  # a lone blank line added
        ((" a", "+", "+x", " b"), None, False),  # next to a substantive change
        ((" a", "-   ", " b"), None, True),  # a lone whitespace-only deletion
        ((" a", "+", "+ ", " b"), None, True),  # blank next to blank only
        ((" a", "+", " b"), 1, False),  # added on the cursor's line (new line 2 = row 1 + 1)
        ((" a", "+", " b"), 0, True),
        ((" a", "+x", " b"), None, False),
    ],
)
def test_isolated_whitespace_changes(
    lines: tuple[str, ...], row: int | None, isolated: bool
) -> None:
    assert has_isolated_whitespace_changes(_patch(*lines), row) is isolated


def test_line_parser_keeps_garbage_inside_a_hunk_and_reads_paths() -> None:
    hunks = parse_patch_lines(
        "junk\n--- a/src/x.rs\n+++ b/src/x.rs\n@@ -11,3 +12,4 @@\n a\n\nzzz\n-b\n+c\n"
    )
    assert len(hunks) == 1
    hunk = hunks[0]
    assert (hunk.filename, hunk.old_start, hunk.new_start) == ("src/x.rs", 11, 12)
    assert hunk.lines == ((" ", "a"), ("", ""), ("", "zzz"), ("-", "b"), ("+", "c"))
    assert (
        parse_patch_lines("--- /dev/null\n+++ b/new.rs\n@@ -0,0 +1 @@\n+x\n")[0].filename
        == "new.rs"
    )
