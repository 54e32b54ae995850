"""`reversal_ratio` (upstream `compute_prediction_reversal_ratio_from_history`, reference
section 2, step 7): how much of a prediction undoes the user's most recent edit of the cursor
file. Only the cases whose value does not depend on upstream's diff are computed here:

* the ratio is 0 when the last edit event for the cursor path is a predicted one, has an empty
  diff, or there is none (upstream returns before diffing);
* it is 0 when upstream passes no predicted text (no touched document is the cursor file, or
  the content score is the zero one), or when the predicted text is the cursor excerpt itself
  (the prediction's edits are empty, so the ratio's denominator is 0).

Any other case needs upstream's histogram line diff refined by token and character diffs
(imara-diff), which is not reproduced: `reversal_ratio` returns None there, and a score
with an unknown ratio is not written back (`--write-scores`)."""

from __future__ import annotations

from typing import Any, NamedTuple

from evaltools.score.documents import strip_first_component


class History(NamedTuple):
    cursor_path: str  # the example's cursor_path: the file whose edits count
    # The diff of the most recent edit event for the cursor path, when upstream diffs it:
    # a user edit (not a predicted one) with a non-empty diff. None: the ratio is 0.
    last_user_diff: str | None


NO_HISTORY = History("", None)


def _for_path(event_path: str, cursor_path: str) -> bool:
    # Upstream compares paths, and also the event's path without its first component.
    return event_path == cursor_path or strip_first_component(event_path) == cursor_path


def history(events: list[Any], cursor_path: str) -> History:
    """From `prompt_inputs.events` (`{"event": "BufferChange", "path", "diff", "predicted"}`
    objects; anything else is no event for the cursor file)."""
    last: dict[str, Any] | None = None
    for event in events:
        path = event.get("path") if isinstance(event, dict) else None
        if isinstance(path, str) and _for_path(path, cursor_path):
            last = event
    if last is None or last.get("predicted") is True:
        return History(cursor_path, None)
    diff = last.get("diff")
    return History(cursor_path, diff if isinstance(diff, str) and diff else None)


def reversal_ratio(history: History, cursor_excerpt: str, predicted: str | None) -> float | None:
    """`predicted`: the text upstream compares with the excerpt, None when it passes none.
    None when the ratio depends on the diff this module does not reproduce."""
    if history.last_user_diff is None or predicted is None or predicted == cursor_excerpt:
        return 0.0
    return None
