"""reversal_ratio (reference section 2, step 7; upstream `MET/reversal.rs`): every case upstream's
tests assert, with the values they assert (`compute_reversal_overlap` L837-1100, the excerpt
filter, the excerpt-aware undo, the lenient apply, the LCS, and the ratio tests)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from evaltools.score.metrics import histogram
from evaltools.score.metrics import reversal as reversal_module
from evaltools.score.metrics import reversal_overlap as reversal_overlap_module
from evaltools.score.metrics.reversal import (
    History,
    ReversalMemo,
    apply_leniently,
    excerpt_aware_overlap,
    filter_to_excerpt,
    history,
    reversal_ratio,
    reverse_diff,
)
from evaltools.score.metrics.reversal_overlap import _lcs_length, granular_edits, reversal_overlap


def _event(path: str, diff: str = "@@ -1 +1 @@\n-a\n+b\n", predicted: bool = False) -> Any:
    return {"event": "BufferChange", "path": path, "diff": diff, "predicted": predicted}


def test_the_last_event_for_the_cursor_path_decides() -> None:
    user, other = _event("proj/src/a.rs"), _event("src/b.rs", diff="x")
    assert history([user, other], "src/a.rs") == History("src/a.rs", user["diff"])
    assert history([_event("src/a.rs")], "src/a.rs", 4) == History("src/a.rs", user["diff"], 4)
    # A later predicted event for the file hides the user's edit before it.
    assert history([user, _event("src/a.rs", predicted=True)], "src/a.rs").last_user_diff is None
    assert history([user, _event("src/a.rs", diff="")], "src/a.rs").last_user_diff is None
    assert history([], "src/a.rs").last_user_diff is None
    assert history(["junk", {"path": 3}], "src/a.rs").last_user_diff is None
    # Only the event's first component may be dropped, not the cursor path's.
    assert history([_event("a.rs")], "src/a.rs").last_user_diff is None


# (name, original, current, predicted, reversing chars, total chars): upstream's 24 cases.
OVERLAP_CASES = [
    ("user_adds_line_prediction_removes_it", "a\nb\nc", "a\nnew line\nb\nc", "a\nb\nc", 9, 9),
    ("user_deletes_line_prediction_restores_it", "a\ndeleted\nb", "a\nb", "a\ndeleted\nb", 8, 8),
    ("user_deletes_text_prediction_restores_partial", "hello beautiful world", "hello world",
     "hello beautiful world", 10, 10),
    ("user_deletes_foo_prediction_adds_bar", "foo", "", "bar", 0, 3),
    ("independent_edits_different_locations", "line1\nline2\nline3", "LINE1\nline2\nline3",
     "LINE1\nline2\nLINE3", 0, 10),
    ("no_history_edits", "same", "same", "different", 0, 13),
    ("user_replaces_text_prediction_reverses", "keep\ndelete_me\nkeep2", "keep\nadded\nkeep2",
     "keep\ndelete_me\nkeep2", 14, 14),
    ("user_modifies_word_prediction_modifies_differently", "the quick brown fox",
     "the slow brown fox", "the fast brown fox", 4, 8),
    ("user finishes function name (suffix)", "", "epr", "eprintln!()", 0, 8),
    ("user starts function name (prefix)", "", "my_function()", "test_my_function()", 0, 5),
    ("user types partial, prediction extends in multiple places", "", "test_my_function",
     "a_test_for_my_special_function_plz", 0, 18),
    ("subsequence with interleaved underscores", "", "a_b_c", "_a__b__c__", 0, 5),
    ("not a subsequence - different characters", "", "abc", "xyz", 3, 6),
    ("not a subsequence - wrong order", "", "abc", "cba", 3, 6),
    ("partial subsequence - only some chars match", "", "abcd", "axbx", 4, 8),
    ("completing a method call", "", "vec.pu", "vec.push(item)", 0, 8),
    ("completing an import statement", "", "use std::col", "use std::collections::HashMap",
     0, 17),
    ("completing a struct field", "", "name: St", "name: String", 0, 4),
    ("prediction replaces with completely different text", "", "hello", "world", 5, 10),
    ("empty prediction removes user text", "", "mistake", "", 7, 7),
    ("fixing typo is not reversal", "", "<dv", "<div>", 0, 2),
    ("infix insertion not reversal", "from my_project import Foo\n",
     "ifrom my_project import Foo\n", "import\nfrom my_project import Foo\n", 0, 6),
    ("non-word based reversal", "from", "ifrom", "from", 1, 1),
    ("multiple insertions no reversal", 'print("Hello, World!")', 'sys.("Hello, World!")',
     'sys.stdout.write("Hello, World!\\n")', 0, 14),
    # test_unicode_reversal_overlap
    ("unicode_extension_cjk", "", "日", "日本語", 0, 2),
    ("unicode_extension_emoji", "", "🎉", "🎉🎊🎈", 0, 2),
    ("unicode_deletion_restored", "héllo wörld", "héllo", "héllo wörld", 6, 6),
    ("unicode_addition_reversed", "café", "café latté", "café", 6, 6),
    ("mixed_ascii_unicode", "", "test日本", "test日本語です", 0, 3),
    ("unicode_replacement_not_subsequence", "", "日本", "中国", 2, 4),
]  # fmt: skip


@pytest.mark.parametrize(
    ("original", "current", "predicted", "reversing", "total"),
    [case[1:] for case in OVERLAP_CASES],
    ids=[case[0] for case in OVERLAP_CASES],
)
def test_reversal_overlap(
    original: str, current: str, predicted: str, reversing: int, total: int
) -> None:
    assert tuple(reversal_overlap(original, current, predicted)) == (reversing, total)


FILTER_CASES = [
    ("hunk_entirely_before_excerpt", "@@ -1,3 +1,4 @@\n line1\n+inserted\n line2\n line3\n",
     10, 5, "", 1),
    ("hunk_entirely_inside_excerpt", "@@ -12,3 +12,4 @@\n line12\n+inserted\n line13\n line14\n",
     10, 10, "@@ -2,3 +2,4 @@\n line12\n+inserted\n line13\n line14\n", 1),
    ("hunk_entirely_after_excerpt", "@@ -50,3 +50,4 @@\n line50\n+inserted\n line51\n line52\n",
     10, 5, "", 0),
    ("hunk_straddles_excerpt_start",
     "@@ -8,5 +8,6 @@\n line8\n line9\n+inserted\n line10\n line11\n line12\n",
     10, 10, "@@ -1,3 +1,3 @@\n line10\n line11\n line12\n", 1),
    ("hunk_straddles_excerpt_end",
     "@@ -18,5 +18,6 @@\n line18\n line19\n+inserted\n line20\n line21\n line22\n",
     10, 10, "@@ -8,2 +8,3 @@\n line18\n line19\n+inserted\n", 1),
    ("multiple_hunks_mixed",
     "@@ -1,2 +1,3 @@\n line1\n+before_excerpt\n line2\n"
     "@@ -12,2 +13,3 @@\n line12\n+inside_excerpt\n line13\n"
     "@@ -50,2 +52,3 @@\n line50\n+after_excerpt\n line51\n",
     10, 10, "@@ -3,2 +3,3 @@\n line12\n+inside_excerpt\n line13\n", 2),
    ("deletion_before_excerpt", "@@ -1,4 +1,3 @@\n line1\n-deleted\n line2\n line3\n",
     10, 5, "", -1),
    ("deletion_inside_excerpt", "@@ -12,4 +12,3 @@\n line12\n-deleted\n line13\n line14\n",
     10, 10, "@@ -2,4 +2,3 @@\n line12\n-deleted\n line13\n line14\n", -1),
    ("empty_diff", "", 10, 5, "", 0),
    ("hunk_spans_entire_excerpt",
     "@@ -8,10 +8,12 @@\n line8\n line9\n line10\n line11\n+inserted1\n line12\n line13\n"
     "+inserted2\n line14\n line15\n line16\n line17\n",
     10, 5, "@@ -1,3 +1,5 @@\n line11\n+inserted1\n line12\n line13\n+inserted2\n", 2),
    ("replacement_inside_excerpt", "@@ -12,3 +12,3 @@\n line12\n-old_text\n+new_text\n line14\n",
     10, 10, "@@ -2,3 +2,3 @@\n line12\n-old_text\n+new_text\n line14\n", 0),
]  # fmt: skip


@pytest.mark.parametrize(
    ("diff", "start", "rows", "expected", "offset"),
    [case[1:] for case in FILTER_CASES],
    ids=[case[0] for case in FILTER_CASES],
)
def test_filter_hunks_by_excerpt(
    diff: str, start: int, rows: int, expected: str, offset: int
) -> None:
    assert filter_to_excerpt(diff, start, rows) == (expected, offset)


LINES_10_13 = "line10\nline11\nline12\nline13\n"
EXCERPT_CASES = [
    ("edit_outside_excerpt_no_reversal", ["@@ -1,2 +1,3 @@\n line1\n+added_outside\n line2\n"],
     "line10\nline11\nline12\n", "line10\nmodified\nline12\n", 0, 14),
    ("edit_inside_excerpt_with_reversal",
     ["@@ -10,3 +10,4 @@\n line10\n+user_added\n line11\n line12\n"],
     "line10\nuser_added\nline11\nline12\n", "line10\nline11\nline12\n", 11, 11),
    ("straddling_edit_partial_reversal",
     ["@@ -8,6 +8,8 @@\n line8\n line9\n+before_excerpt\n line10\n+inside_excerpt\n line11\n"
      " line12\n line13\n"],
     "line10\ninside_excerpt\nline11\nline12\nline13\n", LINES_10_13, 15, 15),
    ("multiple_edits_mixed_locations",
     ["@@ -1,2 +1,3 @@\n line1\n+outside1\n line2\n",
      "@@ -11,2 +12,3 @@\n line11\n+inside1\n line12\n"],
     "line10\nline11\ninside1\nline12\nline13\n", LINES_10_13, 8, 8),
    ("no_edit_history", [], "line10\nline11\nline12\n", "line10\nmodified\nline12\n", 0, 14),
    ("edit_after_excerpt_no_effect", ["@@ -50,2 +50,3 @@\n line50\n+added_after\n line51\n"],
     "line10\nline11\nline12\n", "line10\nchanged\nline12\n", 0, 13),
    ("line_offset_tracking_across_hunks",
     ["@@ -1,2 +1,4 @@\n line1\n+added1\n+added2\n line2\n",
      "@@ -12,2 +14,3 @@\n line12\n+inside_after_offset\n line13\n"],
     "line10\nline11\nline12\ninside_after_offset\nline13\n", LINES_10_13, 20, 20),
]  # fmt: skip


@pytest.mark.parametrize(
    ("diffs", "excerpt", "predicted", "reversing", "total"),
    [case[1:] for case in EXCERPT_CASES],
    ids=[case[0] for case in EXCERPT_CASES],
)
def test_excerpt_aware_reversal_tracking(
    diffs: list[str], excerpt: str, predicted: str, reversing: int, total: int
) -> None:
    assert tuple(excerpt_aware_overlap(diffs, excerpt, 10, predicted)) == (reversing, total)


def test_excerpt_aware_reversal_error_recovery() -> None:
    diffs = ["@@ -1,2 +1,3 @@\n nonexistent_context\n+added\n more_nonexistent\n"]
    found = excerpt_aware_overlap(
        diffs, "completely\ndifferent\ncontent\n", 0, "completely\nmodified\ncontent\n"
    )
    assert 0.0 <= found.ratio <= 1.0


SIX_LINES = "line1\nline2\nline3\nline4\nline5\nline6\n"
LENIENT_CASES = [
    ("hunk_context_not_found_skipped",
     "@@ -1,3 +1,4 @@\n context_not_in_content\n+added_line\n more_context\n final_context\n",
     "completely\ndifferent\ncontent\n", "completely\ndifferent\ncontent\n"),
    ("hunk_context_found_applied", "@@ -1,3 +1,4 @@\n line1\n+inserted\n line2\n line3\n",
     "line1\nline2\nline3\n", "line1\ninserted\nline2\nline3\n"),
    ("multiple_hunks_partial_match",
     "@@ -1,2 +1,3 @@\n not_found\n+skipped\n also_not_found\n"
     "@@ -5,2 +6,3 @@\n line5\n+applied\n line6\n",
     SIX_LINES, SIX_LINES.replace("line5\n", "line5\napplied\n")),
    ("empty_diff", "", "unchanged\ncontent\n", "unchanged\ncontent\n"),
]  # fmt: skip


@pytest.mark.parametrize(
    ("diff", "content", "expected"),
    [case[1:] for case in LENIENT_CASES],
    ids=[case[0] for case in LENIENT_CASES],
)
def test_lenient_diff_application(diff: str, content: str, expected: str) -> None:
    assert apply_leniently(diff, content) == expected


def test_compute_lcs_length() -> None:
    assert _lcs_length("", "") == 0
    assert _lcs_length("abc", "") == 0
    assert _lcs_length("", "abc") == 0
    assert _lcs_length("abc", "abc") == 3
    assert _lcs_length("abc", "def") == 0
    assert _lcs_length("abcdef", "ace") == 3
    assert _lcs_length("AGGTAB", "GXTXAYB") == 4
    assert _lcs_length("日本語", "日語") == 2


def test_reverse_diff() -> None:
    forward = (
        "--- a/file.rs\n+++ b/file.rs\n@@ -1,3 +1,4 @@\n fn main() {\n+    let x = 42;\n"
        '     println!("hello");\n}'
    )
    reversed_diff = reverse_diff(forward)
    assert "+++ a/file.rs" in reversed_diff and "--- b/file.rs" in reversed_diff
    assert "-    let x = 42;" in reversed_diff and " fn main()" in reversed_diff
    assert reverse_diff("@@ -1 +1 @@\n-old\n+new\n").endswith("\n")
    assert not reverse_diff("@@ -1 +1 @@\n-old\n+new").endswith("\n")


USER_ADDED = "@@ -1,2 +1,3 @@\n line1\n+user_added\n line2\n"


def _ratio(excerpt: str, events: list[Any], start: int | None, predicted: str) -> float | None:
    return reversal_ratio(history(events, "src/test.rs", start), excerpt, predicted)


def test_compute_prediction_reversal_ratio() -> None:
    full = _ratio(
        "line1\nuser_added\nline2\n", [_event("src/test.rs", USER_ADDED)], None, "line1\nline2\n"
    )
    assert full is not None and full > 0.9
    with_excerpt = _ratio(
        "line10\nuser_added\nline11\n",
        [_event("src/test.rs", "@@ -10,2 +10,3 @@\n line10\n+user_added\n line11\n")],
        10,
        "line10\nline11\n",
    )
    assert with_excerpt is not None and with_excerpt > 0.9
    assert _ratio("original content\n", [], None, "completely different\n") == 0.0
    other = [_event("src/other.rs", USER_ADDED)]
    assert _ratio("line1\nuser_added\nline2\n", other, None, "line1\nline2\n") == 0.0
    wrong = [_event("src/test.rs", "@@ -1,2 +1,3 @@\n wrong_context\n+user_added\n more_wrong\n")]
    lenient = _ratio(
        "actual_line1\nuser_added\nactual_line2\n", wrong, None, "actual_line1\nactual_line2\n"
    )
    assert lenient is not None and 0.0 <= lenient <= 1.0
    # test_only_most_recent_edit_tracked
    events = [
        _event("src/test.rs", USER_ADDED.replace("user_added", "first_add")),
        _event("src/test.rs", "@@ -2,2 +2,3 @@\n first_add\n+second_add\n line2\n"),
    ]
    recent = _ratio(
        "line1\nfirst_add\nsecond_add\nline2\n", events, None, "line1\nfirst_add\nline2\n"
    )
    assert recent is not None and recent > 0.9


def test_ratio_is_zero_without_a_user_edit_or_predicted_text() -> None:
    edited = History("src/a.rs", "@@ -1 +1 @@\n-a\n+b\n")
    assert reversal_ratio(History("src/a.rs", None), "b\n", "c\n") == 0.0
    assert reversal_ratio(edited, "b\n", None) == 0.0
    assert reversal_ratio(edited, "b\n", "b\n") == 0.0
    assert reversal_ratio(edited, "b\n", "a\n") == 1.0


def test_a_text_too_repetitive_for_the_histogram_diff_is_unknown() -> None:
    # Upstream's diff switches to Myers when every shared token occurs more than 63 times.
    assert histogram.diff([2] + [1] * 63, [3] + [1] * 63) == [histogram.Change(0, 1, 0, 1)]
    with pytest.raises(histogram.TooRepetitive):
        histogram.diff([1] * 64 + [2], [3] + [1] * 64)
    edit = History("src/main.rs", "@@ -1,1 +1,1 @@\n-Z\n+A\n", 0)
    fine = "A\n" + "x\n" * 63 + "B\n"
    assert reversal_ratio(edit, fine, fine.replace("A", "C").replace("B", "D")) == 0.25
    many = "A\n" + "x\n" * 64 + "B\n"
    assert reversal_ratio(edit, many, many.replace("A", "C").replace("B", "D")) is None


def test_histogram_anchors_on_the_rarest_common_run() -> None:
    # "b" occurs once in the old side: the diff keeps it and the repeated "a"s around it move.
    assert histogram.diff(list("aab"), list("baa")) == [
        histogram.Change(0, 2, 0, 0),
        histogram.Change(3, 3, 1, 3),
    ]


def test_setting_shared_lines_aside_first_changes_no_edit(monkeypatch: pytest.MonkeyPatch) -> None:
    rng = random.Random(3)
    lines = ["a\n", "b\n", "\n", "a b\n", "x = 1\n", "a", "b"]
    cases = []
    for _ in range(300):
        old = "".join(rng.choice(lines) for _ in range(rng.randrange(0, 8)))
        new = "".join(rng.choice(lines) for _ in range(rng.randrange(0, 8)))
        cases.append((old, new, granular_edits(old, new)))
    monkeypatch.setattr(reversal_overlap_module, "_shared_lines", lambda old, new: (0, 0))
    for old, new, found in cases:
        assert found == granular_edits(old, new), (old, new)


def test_the_shortcut_for_predictions_clear_of_the_user_edit_changes_no_ratio(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    rng = random.Random(5)
    lines = ["a\n", "b\n", "\n", "x = 1\n", "x = 2\n", "fn f() {\n", "}\n"]

    def changed(text: list[str]) -> list[str]:
        out = list(text)
        at = rng.randrange(len(out) + 1)
        kind = rng.randrange(3)
        if kind == 0 and at < len(out):
            out[at] = rng.choice(lines)
        elif kind == 1 and at < len(out):
            del out[at]
        else:
            out.insert(at, rng.choice(lines))
        return out

    cases = []
    shortcuts = 0
    for _ in range(300):
        current_lines = [rng.choice(lines) for _ in range(rng.randrange(1, 12))]
        original, current = "".join(changed(current_lines)), "".join(current_lines)
        predicted = "".join(changed(current_lines))
        edits = reversal_overlap_module.history_edits(original, current)
        shortcuts += reversal_overlap_module.cannot_reverse(edits, current, predicted)
        edit = History("f", "@@ -1 +1 @@\n-q\n+r\n")  # any user edit: the texts decide
        memo = ReversalMemo()
        memo.edits[(edit.last_user_diff or "", current, None)] = edits
        ratio = reversal_ratio(edit, current, predicted, memo)
        cases.append((edit, current, predicted, memo, ratio))
    assert shortcuts > 60  # the shortcut is taken often enough to be tested
    monkeypatch.setattr(reversal_module, "cannot_reverse", lambda *args: False)
    for edit, current, predicted, memo, found in cases:
        assert found == reversal_ratio(edit, current, predicted, memo), (current, predicted)
