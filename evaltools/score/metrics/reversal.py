"""`reversal_ratio` (upstream `compute_prediction_reversal_ratio_from_history`, reference
section 2, step 7): how much of a prediction undoes the user's most recent edit of the cursor
file, reimplemented from upstream's behaviour (`MET/reversal.rs`).

* Only the last edit event for the cursor path counts; the ratio is 0 when it is a predicted
  one, has an empty diff, or there is none, and when upstream passes no predicted text.
* The text before the user's edit is rebuilt by applying the edit backwards to the cursor
  excerpt: with `excerpt_start_row`, only the edit's lines inside the excerpt (renumbered to
  it); without, the whole edit, or hunk by hunk where it does not apply whole.
* The ratio is then the characters of the prediction that reverse that edit over all the
  characters it changes (`score.reversal_overlap`).

None (unknown) only where upstream's diff would leave the histogram algorithm
(`histogram.TooRepetitive`); such a score is not written back (`--write-scores`, SC006)."""

from __future__ import annotations

import re
from typing import Any, NamedTuple

from evaltools.example.diffs.udiff import rust_lines
from evaltools.score.apply import try_apply
from evaltools.score.context.documents import strip_first_component
from evaltools.score.metrics.histogram import TooRepetitive
from evaltools.score.metrics.reversal_overlap import (
    Edit,
    Overlap,
    cannot_reverse,
    history_edits,
    overlap_with,
    reversal_overlap,
)

_HEADERS = "--- a/file\n+++ b/file\n"
_RANGE = re.compile(r"\+?[0-9]+")
_U32 = 2**32


class History(NamedTuple):
    cursor_path: str  # the example's cursor_path: the file whose edits count
    # The diff of the most recent edit event for the cursor path, when upstream diffs it:
    # a user edit (not a predicted one) with a non-empty diff. None: the ratio is 0.
    last_user_diff: str | None
    excerpt_start_row: int | None = None  # prompt_inputs.excerpt_start_row


NO_HISTORY = History("", None)


def _for_path(event_path: str, cursor_path: str) -> bool:
    # Upstream compares paths, and also the event's path without its first component.
    return event_path == cursor_path or strip_first_component(event_path) == cursor_path


def history(events: list[Any], cursor_path: str, excerpt_start_row: int | None = None) -> History:
    """From `prompt_inputs.events` (`{"event": "BufferChange", "path", "diff", "predicted"}`
    objects; anything else is no event for the cursor file)."""
    last: dict[str, Any] | None = None
    for event in events:
        path = event.get("path") if isinstance(event, dict) else None
        if isinstance(path, str) and _for_path(path, cursor_path):
            last = event
    if last is None or last.get("predicted") is True:
        return History(cursor_path, None, excerpt_start_row)
    diff = last.get("diff")
    usable = diff if isinstance(diff, str) and diff else None
    return History(cursor_path, usable, excerpt_start_row)


class HunkText(NamedTuple):
    """A hunk as upstream's reversal code reads it: its header numbers and (kind, text) lines,
    kind one of ' ', '+', '-'."""

    old_start: int
    old_count: int
    new_start: int
    new_count: int
    lines: tuple[tuple[str, str], ...]

    def delta(self) -> tuple[int, int]:
        added = sum(1 for kind, _ in self.lines if kind == "+")
        return added, sum(1 for kind, _ in self.lines if kind == "-")


def _number(text: str) -> int | None:
    # Rust's u32 parse: digits with an optional '+', below 2^32.
    if not _RANGE.fullmatch(text):
        return None
    value = int(text)
    return value if value < _U32 else None


def _pair(text: str) -> tuple[int, int] | None:
    start, comma, count = text.partition(",")
    first, second = _number(start), _number(count) if comma else 1
    return None if first is None or second is None else (first, second)


def _header(line: str) -> tuple[int, int, int, int] | None:
    if not line.startswith("@@ -"):
        return None
    old, space, rest = line[4:].partition(" ")
    if not space or not rest.startswith("+") or " @@" not in rest:
        return None
    old_pair, new_pair = _pair(old), _pair(rest[1:].split(" @@", 1)[0])
    if old_pair is None or new_pair is None:
        return None
    return old_pair + new_pair


def parse_hunks(diff: str) -> list[HunkText]:
    """Lines before the first `@@ -a,b +c,d @@` are skipped; inside a hunk, lines that are
    not ' ', '+', '-' or empty are skipped (headers included: `+++ x` reads as an addition)."""
    hunks: list[HunkText] = []
    numbers: tuple[int, int, int, int] | None = None
    lines: list[tuple[str, str]] = []
    for line in rust_lines(diff):
        header = _header(line)
        if header is not None:
            if numbers is not None:
                hunks.append(HunkText(*numbers, tuple(lines)))
            numbers, lines = header, []
        elif numbers is not None:
            if line[:1] in ("+", "-", " "):
                lines.append((line[0], line[1:]))
            elif not line:
                lines.append((" ", ""))
    if numbers is not None:
        hunks.append(HunkText(*numbers, tuple(lines)))
    return hunks


def format_hunk(hunk: HunkText) -> str:
    head = f"@@ -{hunk.old_start},{hunk.old_count} +{hunk.new_start},{hunk.new_count} @@\n"
    return head + "".join(f"{kind}{text}\n" for kind, text in hunk.lines)


def _reversed_line(line: str) -> str:
    if line.startswith("--- "):
        return "+++ " + line[4:]
    if line.startswith("+++ "):
        return "--- " + line[4:]
    if line.startswith("+") and not line.startswith("+++"):
        return "-" + line[1:]
    if line.startswith("-") and not line.startswith("---"):
        return "+" + line[1:]
    return line


def reverse_diff(diff: str) -> str:
    out = [_reversed_line(line) for line in rust_lines(diff)]
    return "\n".join(out) + ("\n" if diff.endswith("\n") else "")


def apply_leniently(diff: str, text: str) -> str:
    """Each hunk on its own; one that does not apply is skipped."""
    for hunk in parse_hunks(diff):
        updated = try_apply(_HEADERS + format_hunk(hunk), text)
        if updated is not None:
            text = updated
    return text


def filter_to_excerpt(diff: str, start_row: int, row_count: int) -> tuple[str, int]:
    """The diff's lines that fall in the excerpt's rows (new-file rows, 0-based), renumbered
    from the excerpt's first row; and the line count change of the hunks kept or before it."""
    end_row = start_row + row_count
    kept: list[HunkText] = []
    offset = 0
    for hunk in parse_hunks(diff):
        first = max(hunk.new_start - 1, 0)
        added, deleted = hunk.delta()
        if first + hunk.new_count <= start_row:
            offset += added - deleted
            continue
        if first >= end_row:
            continue
        row = first
        lines: list[tuple[str, str]] = []
        old_count = new_count = 0
        first_in: int | None = None
        for kind, text in hunk.lines:
            inside = start_row <= row < end_row
            if inside:
                first_in = row if first_in is None else first_in
                lines.append((kind, text))
                old_count += kind != "+"
                new_count += kind != "-"
            if kind != "-":
                row += 1
        if lines:
            at = (first_in if first_in is not None else start_row) - start_row + 1
            kept.append(HunkText(at, old_count, at, new_count, tuple(lines)))
        offset += added - deleted
    return "".join(format_hunk(h) for h in kept), offset


def _shift_start(diff: str, start_row: int) -> int:
    """The excerpt's first row before the edit: hunks that end above it moved it."""
    for hunk in parse_hunks(diff):
        if max(hunk.new_start - 1, 0) + hunk.new_count <= start_row:
            added, deleted = hunk.delta()
            start_row = max(start_row - (added - deleted), 0)
    return start_row


def before_excerpt(diffs: list[str], excerpt: str, start_row: int) -> str:
    """The excerpt with `diffs` (oldest first) undone, newest first, where they touch it."""
    before = excerpt
    for diff in reversed(diffs):
        if not diff:
            continue
        rows = max(len(rust_lines(before)), 1)
        inside, _ = filter_to_excerpt(diff, start_row, rows)
        if inside:
            undone = try_apply(reverse_diff(_HEADERS + inside), before)
            if undone is None:
                continue
            before = undone
        start_row = _shift_start(diff, start_row)
    return before


def excerpt_aware_overlap(
    diffs: list[str], excerpt: str, start_row: int, predicted: str
) -> Overlap:
    return reversal_overlap(before_excerpt(diffs, excerpt, start_row), excerpt, predicted)


def _before_edit(diff: str, excerpt: str) -> str:
    reversed_diff = reverse_diff(diff)
    undone = try_apply(_HEADERS + reversed_diff, excerpt)
    return undone if undone is not None else apply_leniently(reversed_diff, excerpt)


class ReversalMemo:
    """The user's edit as the overlap reads it, once per example."""

    def __init__(self) -> None:
        self.edits: dict[tuple[str, str, int | None], list[Edit]] = {}

    def history(self, history: History, excerpt: str) -> list[Edit]:
        diff = history.last_user_diff
        assert diff is not None
        key = (diff, excerpt, history.excerpt_start_row)
        found = self.edits.get(key)
        if found is None:
            start = history.excerpt_start_row
            before = (
                _before_edit(diff, excerpt)
                if start is None
                else before_excerpt([diff], excerpt, start)
            )
            found = self.edits[key] = history_edits(before, excerpt)
        return found


def reversal_ratio(
    history: History,
    cursor_excerpt: str,
    predicted: str | None,
    memo: ReversalMemo | None = None,
) -> float | None:
    """`predicted`: the text upstream compares with the excerpt, None when it passes none.
    None when upstream's diff is not the histogram one here (unknown). `memo`: one per
    example."""
    if history.last_user_diff is None or predicted is None or predicted == cursor_excerpt:
        return 0.0  # the last one: the prediction changes nothing, the ratio's total is 0
    try:
        edits = (memo or ReversalMemo()).history(history, cursor_excerpt)
        if cannot_reverse(edits, cursor_excerpt, predicted):
            return 0.0
        return overlap_with(edits, cursor_excerpt, predicted).ratio
    except TooRepetitive:
        return None
