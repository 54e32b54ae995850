"""Whole-prediction scores: the upstream assertions of prediction_score.rs (reference 3.1) and
the whole-score results of reference 3.3, under each definition."""

from __future__ import annotations

import pytest

from evaltools.score.apply import apply_diff, extract_inline_cursor
from evaltools.score.context.documents import Document
from evaltools.score.definitions import DEFAULT, NAMES, definition
from evaltools.score.prediction import ActualCursor, Expected, Prediction, f32, score_prediction

EXCERPT = 'fn main() {\n    let x = 42;\n    println!("{}", x);\n}\n'
EXPECTED = (
    "--- a/src/main.rs\n+++ b/src/main.rs\n@@ -11,3 +11,3 @@\n fn main() {\n"
    '-    let x = 42;\n+    let x = 100;<|user_cursor|>\n     println!("{}", x);\n'
)
DOCS = (Document("src/main.rs", 10, 14, EXCERPT),)


def _expected(raw: str = EXPECTED, base: str = EXCERPT) -> tuple[Expected, ...]:
    patch, cursor = extract_inline_cursor(raw)
    return (Expected(patch, apply_diff(patch, base), cursor),)


def _perfect() -> str:
    return _expected()[0].patch


def test_perfect_prediction() -> None:
    score = score_prediction(
        EXCERPT, _expected(), Prediction(_perfect(), None), DOCS, DEFAULT
    ).score
    assert score["delta_chr_f"] == 100.0
    assert score["delta_chr_f_true_positives"] == 60
    assert (score["exact_lines_tp"], score["exact_lines_fp"], score["exact_lines_fn"]) == (2, 0, 0)
    assert score["wrong_editable_region"] is False
    # Reference 3.3: kept_rate 1.0, `100` kept and `42` correctly deleted.
    kept = ("kept_rate", "recall_rate", "kept_chars", "correctly_deleted_chars", "discarded_chars")
    assert tuple(score[k] for k in kept) == (1.0, 1.0, 3, 2, 0)


def test_a_near_miss_prediction() -> None:
    patch = _perfect().replace("100;", "99;")
    score = score_prediction(EXCERPT, _expected(), Prediction(patch, None), DOCS, DEFAULT).score
    assert score["delta_chr_f"] == 48.73658
    assert score["delta_chr_f_precision"] == 0.5
    assert score["delta_chr_f_recall"] == pytest.approx(0.442627742628, abs=1e-12)
    counts = (
        "delta_chr_f_true_positives",
        "delta_chr_f_false_positives",
        "delta_chr_f_false_negatives",
    )
    assert tuple(score[k] for k in counts) == (27, 27, 33)
    assert (score["exact_lines_tp"], score["exact_lines_fp"], score["exact_lines_fn"]) == (1, 1, 1)
    assert (score["kept_rate"], score["recall_rate"]) == (0.5, 0.4)


def test_quirk_without_excerpt_start_row_a_perfect_prediction_scores_zero() -> None:
    score = score_prediction(EXCERPT, _expected(), Prediction(_perfect(), None), (), DEFAULT).score
    assert score["delta_chr_f"] == 0.0
    assert "kept_rate" not in score and "recall_rate" not in score  # upstream: None


def test_a_prediction_that_does_not_apply_scores_zero_with_every_expected_ngram_missed() -> None:
    patch = _perfect().replace("42", "43")
    scored = score_prediction(EXCERPT, _expected(), Prediction(patch, None), DOCS, DEFAULT)
    assert scored.score["delta_chr_f"] == 0.0
    assert scored.score["delta_chr_f_false_negatives"] == 60
    assert scored.score["kept_rate"] == 0.0
    assert scored.actual_dropped == 1


def test_no_prediction() -> None:
    score = score_prediction(EXCERPT, _expected(), Prediction(None, None), DOCS, DEFAULT).score
    assert (score["exact_lines_tp"], score["exact_lines_fp"], score["exact_lines_fn"]) == (0, 0, 2)
    assert score["wrong_editable_region"] is None
    assert score["has_isolated_whitespace_changes"] is False


def test_cursor_metrics_compare_the_expected_offset_with_the_editable_region_offset() -> None:
    expected = _expected()
    hit = Prediction(_perfect(), ActualCursor(1, 28))
    score = score_prediction(EXCERPT, expected, hit, DOCS, DEFAULT).score
    assert (score["cursor_distance"], score["cursor_exact_match"]) == (0, True)
    off = score_prediction(
        EXCERPT, expected, Prediction(_perfect(), ActualCursor(1, None)), DOCS, DEFAULT
    )
    assert (off.score["cursor_distance"], off.score["cursor_exact_match"]) == (28, False)
    none = score_prediction(EXCERPT, expected, Prediction(_perfect(), None), DOCS, DEFAULT).score
    assert "cursor_distance" not in none
    assert none["cursor_exact_match"] is False


LIB_EXPECTED = (
    "--- a/src/lib.rs\n+++ b/src/lib.rs\n@@ -11,3 +11,3 @@\n fn value() {\n-    1\n+    2\n }\n"
)
LIB_DOCS = (
    Document("src/main.rs", 0, 1, "fn main() {}\n"),
    Document("src/lib.rs", 10, 13, "fn value() {\n    1\n}\n"),
)


def test_upstream_related_file_prediction_scores_100() -> None:
    # prediction_score.rs L659-696: the prediction names the project as its first component.
    expected = (Expected(LIB_EXPECTED, "fn main() {}\n", None),)
    actual = LIB_EXPECTED.replace("src/lib.rs", "project/src/lib.rs")
    score = score_prediction(
        "fn main() {}\n", expected, Prediction(actual, None), LIB_DOCS, DEFAULT
    ).score
    assert score["delta_chr_f"] == 100.0
    assert score["exact_lines_tp"] == 2
    assert score["delta_chr_f_true_positives"] == 36
    assert score["jump_location"]["files_f1"] == 1.0


def test_upstream_related_file_without_prediction() -> None:
    # L698-729: no actual patch, only the related file as context.
    expected = (Expected(LIB_EXPECTED, "fn main() {}\n", None),)
    score = score_prediction(
        "fn main() {}\n", expected, Prediction(None, None), LIB_DOCS[1:], DEFAULT
    ).score
    assert score["delta_chr_f"] < 100
    assert score["delta_chr_f"] == 0.0
    assert score["exact_lines_fn"] == 2
    assert (score["jump_location"]["files_fn"], score["jump_location"]["lines_fn"]) == (1, 1)
    # The related file holds the expected change's rows: full coverage.
    coverage = score["editable_context_coverage"]
    assert (coverage["lines_fn"], coverage["files_tp"], coverage["lines_recall"]) == (0, 1, 1.0)


def test_upstream_no_context_insertion_into_an_empty_text() -> None:
    # L633-657: context None, so scored on the original text.
    expected_patch = "--- a/file.txt\n+++ b/file.txt\n@@ -0,0 +1 @@\n+cccccc\n"
    actual = "--- a/file.txt\n+++ b/file.txt\n@@ -0,0 +1 @@\n+bbbbbb\n"
    expected = (Expected(expected_patch, "cccccc", None),)
    score = score_prediction("", expected, Prediction(actual, None), None, DEFAULT).score
    assert score["delta_chr_f"] == 0.0
    assert score["kept_rate"] == 0.0


def test_ties_go_to_the_last_expected_patch() -> None:
    first, _ = extract_inline_cursor(EXPECTED)
    expected = (
        Expected(first, apply_diff(first, EXCERPT), 5),
        Expected(first, apply_diff(first, EXCERPT), 9),
    )
    score = score_prediction(
        EXCERPT, expected, Prediction(first, ActualCursor(1, 9)), DOCS, DEFAULT
    ).score
    assert score["cursor_distance"] == 0


def test_the_better_expected_patch_is_chosen() -> None:
    perfect = _perfect()
    other = perfect.replace("100;", "7;")
    expected = (
        Expected(perfect, apply_diff(perfect, EXCERPT), 1),
        Expected(other, apply_diff(other, EXCERPT), 2),
    )
    score = score_prediction(
        EXCERPT, expected, Prediction(perfect, ActualCursor(1, 1)), DOCS, DEFAULT
    ).score
    assert (score["delta_chr_f"], score["cursor_distance"]) == (100.0, 0)


@pytest.mark.parametrize(
    ("name", "want"), [("v6", 48.264644), ("v5", 48.264644), ("v4", 43.713165), ("v3", 43.713165)]
)
def test_each_definition_on_the_let_x_example(name: str, want: float) -> None:
    base = "let x = 42;"  # the trailing-newline fallback of apply keeps it without one
    exp = "--- a/f\n+++ b/f\n@@ -1 +1 @@\n-let x = 42;\n+let x = 100;\n"
    act = exp.replace("100", "99")
    expected = (Expected(exp, apply_diff(exp, base), None),)
    docs = (Document("f", 0, 1, base),)
    chosen = definition(name)
    documents = docs if chosen.context_scoring else None
    score = score_prediction(base, expected, Prediction(act, None), documents, chosen).score
    assert score["delta_chr_f"] == pytest.approx(want, abs=1e-5)
    assert score["delta_chr_f_beta"] == chosen.beta


def test_before_the_rewrite_a_missing_or_failing_prediction_scores_zero() -> None:
    v5 = definition("v5")
    missing = score_prediction(EXCERPT, _expected(), Prediction(None, None), None, v5).score
    failing = score_prediction(
        EXCERPT, _expected(), Prediction(_perfect().replace("42", "43"), None), None, v5
    )
    assert missing["delta_chr_f"] == 0.0 and missing["delta_chr_f_false_negatives"] == 0
    assert failing.score["delta_chr_f"] == 0.0 and failing.actual_dropped == 1
    # kept_rate changed three times while v5 was current: none is reproduced for it.
    assert "kept_rate" not in missing and "kept_rate" not in failing.score


def test_names_and_f32() -> None:
    assert definition("current") is DEFAULT
    assert set(NAMES) == {"v6", "v5", "v4", "v3", "current"}
    assert f32(24.026800569287) == 24.0268
    assert f32(100.0) == 100.0


def test_the_jump_location_breaks_a_tie_on_chrf_and_exact_lines() -> None:
    # A prediction that does not apply scores 0 against both patches and matches no line; its
    # location (row 40) is near the first expected patch's (row 40), 30 rows from the second's.
    near = _perfect().replace("@@ -11,3 +11,3 @@", "@@ -41,3 +41,3 @@")
    far = _perfect()
    expected = (
        Expected(near, apply_diff(near, EXCERPT), 1),
        Expected(far, apply_diff(far, EXCERPT), 2),
    )
    elsewhere = (
        "--- a/src/main.rs\n+++ b/src/main.rs\n@@ -41,2 +41,2 @@\n fn other() {\n"
        "-    let y = 1;\n+    let y = 2;\n"
    )
    score = score_prediction(
        EXCERPT, expected, Prediction(elsewhere, ActualCursor(1, 0)), DOCS, DEFAULT
    ).score
    assert (score["delta_chr_f"], score["exact_lines_tp"]) == (0.0, 0)
    assert score["jump_location"]["lines_tp"] == 1
    assert score["cursor_distance"] == 1  # the first patch's cursor: chosen by location
