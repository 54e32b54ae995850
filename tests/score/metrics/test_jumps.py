"""jump_location and editable_context_coverage: the values upstream's `MET/jumps.rs` tests
assert (reference 3.1, L470-697) and the jump-location assertions of prediction_score.rs."""

from __future__ import annotations

import pytest

from evaltools.score.context.documents import Document
from evaltools.score.metrics.jumps import (
    LineFile,
    classification,
    editable_context_coverage,
    locations,
    patch_location_match,
)
from evaltools.score.patch_lines import parse_patch_lines

HEAD = "--- a/src/main.rs\n+++ b/src/main.rs\n"


def _coverage(patch: str, *rows: tuple[str, int, int]) -> LineFile:
    docs = [Document(path, start, end, "") for path, start, end in rows]
    return editable_context_coverage(locations(parse_patch_lines(patch)), docs)


def _jump(expected: str, actual: str) -> LineFile:
    exp, act = locations(parse_patch_lines(expected)), locations(parse_patch_lines(actual))
    return patch_location_match(exp, act)


def _new(*counts: int) -> LineFile:
    return classification((counts[0], counts[1], counts[2]), (counts[3], counts[4], counts[5]))


@pytest.mark.parametrize(
    ("patch", "rows", "want"),
    [
        # deletion_counts_deleted_old_line_as_true_positive (L481)
        (HEAD + "@@ -2,1 +2,0 @@\n-let value = 1;\n", [("src/main.rs", 1, 2)], (1, 0, 0, 1, 0, 0)),
        # retrieved_lines_inside_relevance_window_are_true_positives (L498)
        (
            HEAD + "@@ -4,1 +4,0 @@\n-let value = 4;\n",
            [("src/main.rs", 0, 1), ("src/main.rs", 3, 4)],
            (2, 0, 0, 1, 0, 0),
        ),
        # replacement_counts_deleted_old_line_without_addition_anchor
        (
            HEAD + "@@ -1,3 +1,3 @@\n fn main() {\n-    let value = 1;\n+    let value = 2;\n }\n",
            [("src/main.rs", 1, 2)],
            (1, 0, 0, 1, 0, 0),
        ),
        # pure_insertion_counts_previous_and_next_old_lines_as_expected_context (L531)
        (
            HEAD + "@@ -1,2 +1,3 @@\n line 1\n+inserted\n line 2\n",
            [("src/main.rs", 0, 1)],
            (1, 0, 1, 1, 0, 0),
        ),
        # pure_insertion_at_file_boundary_uses_available_neighboring_context
        (
            HEAD + "@@ -1,1 +1,2 @@\n+inserted\n line 1\n",
            [("src/main.rs", 0, 1)],
            (1, 0, 0, 1, 0, 0),
        ),
        # counts_false_negatives_and_file_false_positives (L567)
        (
            HEAD + "@@ -1,3 +1,3 @@\n-let first = 1;\n+let first = 2;\n let middle = 3;\n"
            "-let last = 4;\n+let last = 5;\n",
            [("src/main.rs", 0, 1), ("src/lib.rs", 0, 1)],
            (1, 1, 1, 1, 1, 0),
        ),
        # overlapping_excerpts_are_counted_once (L584)
        (
            HEAD + "@@ -2,1 +2,0 @@\n-let value = 1;\n",
            [("src/main.rs", 0, 2), ("src/main.rs", 1, 3)],
            (3, 0, 0, 1, 0, 0),
        ),
        # retrieved_lines_outside_relevance_window_are_false_positives (L619)
        (HEAD + "@@ -1,1 +1,0 @@\n-line 1\n", [("src/main.rs", 21, 22)], (0, 1, 1, 1, 0, 0)),
        # empty_patch_with_no_context_has_perfect_f1 (L630)
        ("", [], (0, 0, 0, 0, 0, 0)),
    ],
)
def test_editable_context_coverage(
    patch: str, rows: list[tuple[str, int, int]], want: tuple[int, ...]
) -> None:
    assert _coverage(patch, *rows) == _new(*want)


def test_nearby_lines_do_not_satisfy_line_recall_without_exact_anchor_lines() -> None:
    # L600-605: the line recall is the share of anchor rows held, not tp / (tp + fn).
    score = _coverage(
        HEAD + "@@ -1,2 +1,3 @@\n line 1\n+inserted\n line 2\n", ("src/main.rs", 2, 3)
    )
    assert (score.lines_tp, score.lines_fp, score.lines_fn) == (1, 0, 2)
    assert (score.lines_precision, score.lines_recall, score.lines_f1) == (1.0, 0.0, 0.0)


REPLACE = "@@ -{0},1 +{0},1 @@\n-let value = 1;\n+let value = 2;\n"


@pytest.mark.parametrize(
    ("expected", "actual", "want"),
    [
        # patch_location_match_counts_file_and_nearby_line_matches (L652)
        (HEAD + REPLACE.format(50), HEAD + REPLACE.format(55), (1, 0, 0, 1, 0, 0)),
        # patch_location_match_counts_missing_and_extra_files (L674)
        (
            HEAD + REPLACE.format(1),
            HEAD.replace("main", "lib") + REPLACE.format(1),
            (0, 1, 1, 0, 1, 1),
        ),
        # patch_location_match_normalizes_project_prefixed_actual_path (L696)
        (
            HEAD + REPLACE.format(1),
            HEAD.replace("src/", "project/src/") + REPLACE.format(1),
            (1, 0, 0, 1, 0, 0),
        ),
        # Out of the 20-row window: a miss and a false alarm in the same file.
        (HEAD + REPLACE.format(1), HEAD + REPLACE.format(30), (0, 1, 1, 1, 0, 0)),
    ],
)
def test_patch_location_match(expected: str, actual: str, want: tuple[int, ...]) -> None:
    assert _jump(expected, actual) == _new(*want)


def test_each_actual_anchor_takes_the_first_free_expected_one() -> None:
    # Expected rows 0 and 30; actual rows 10 and 20: row 10 takes 0, row 20 takes 30.
    expected = HEAD + REPLACE.format(1) + REPLACE.format(31)
    actual = HEAD + REPLACE.format(11) + REPLACE.format(21)
    assert _jump(expected, actual) == _new(2, 0, 0, 1, 0, 0)
    # Two actual rows near one expected row: one match, one false positive.
    assert _jump(HEAD + REPLACE.format(5), HEAD + REPLACE.format(4) + REPLACE.format(6)) == _new(
        1, 1, 0, 1, 0, 0
    )


def test_field_order_is_upstreams() -> None:
    assert list(_new(0, 0, 0, 0, 0, 0).fields()) == [
        "lines_tp", "lines_fp", "lines_fn", "lines_precision", "lines_recall", "lines_f1",
        "files_tp", "files_fp", "files_fn", "files_precision", "files_recall", "files_f1",
    ]  # fmt: skip
