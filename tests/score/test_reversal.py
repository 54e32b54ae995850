"""reversal_ratio: the cases whose value upstream decides before diffing, and None for the
others (reference section 2, step 7; upstream `MET/reversal.rs`)."""

from __future__ import annotations

from typing import Any

from evaltools.score.reversal import History, history, reversal_ratio


def _event(path: str, diff: str = "@@ -1 +1 @@\n-a\n+b\n", predicted: bool = False) -> Any:
    return {"event": "BufferChange", "path": path, "diff": diff, "predicted": predicted}


def test_the_last_event_for_the_cursor_path_decides() -> None:
    user, other = _event("proj/src/a.rs"), _event("src/b.rs", diff="x")
    assert history([user, other], "src/a.rs") == History("src/a.rs", user["diff"])
    assert history([_event("src/a.rs")], "src/a.rs").last_user_diff is not None
    # A later predicted event for the file hides the user's edit before it.
    assert history([user, _event("src/a.rs", predicted=True)], "src/a.rs").last_user_diff is None
    assert history([user, _event("src/a.rs", diff="")], "src/a.rs").last_user_diff is None
    assert history([], "src/a.rs").last_user_diff is None
    assert history(["junk", {"path": 3}], "src/a.rs").last_user_diff is None
    # Only the event's first component may be dropped, not the cursor path's.
    assert history([_event("a.rs")], "src/a.rs").last_user_diff is None


def test_ratio_is_known_only_where_no_diff_is_needed() -> None:
    edited = History("src/a.rs", "@@ -1 +1 @@\n-a\n+b\n")
    assert reversal_ratio(History("src/a.rs", None), "b\n", "c\n") == 0.0
    assert reversal_ratio(edited, "b\n", None) == 0.0
    assert reversal_ratio(edited, "b\n", "b\n") == 0.0
    assert reversal_ratio(edited, "b\n", "a\n") is None
