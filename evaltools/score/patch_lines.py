"""The metrics crate's own line-level reading of a patch (upstream `Patch::parse_unified_diff`,
reference 1.6 B) and the metrics built on it: exact lines, isolated whitespace changes, wrong
editable region. Unlike the applying parser, garbage does not end a hunk here."""

from __future__ import annotations

from collections import Counter
from typing import NamedTuple

from evaltools.example.diffs.udiff import RUST_WHITESPACE, rust_lines

_WS = "".join(sorted(RUST_WHITESPACE))

# Line kinds: one character, the prefix the line is written back with (garbage: "").
CONTEXT, ADDITION, DELETION, GARBAGE = " ", "+", "-", ""


class PatchHunk(NamedTuple):
    filename: str
    old_start: int  # 1-based as written; 0 when unreadable
    new_start: int
    lines: tuple[tuple[str, str], ...]  # (kind, text without the prefix)

    @property
    def has_change(self) -> bool:
        return any(kind in (ADDITION, DELETION) for kind, _ in self.lines)


def _header_start(part: str, sign: str) -> int:
    start = part.lstrip(sign).split(",", 1)[0]
    return int(start) if start.isascii() and start.isdigit() else 0


def _hunk_header(line: str) -> tuple[int, int]:
    parts = line.lstrip("@").strip(_WS).split()
    if len(parts) < 2:
        return 0, 0
    return _header_start(parts[0], "-"), _header_start(parts[1], "+")


def _header_path(rest: str, prefix: str) -> str | None:
    trimmed = rest.strip(_WS)
    path = trimmed[2:] if trimmed.startswith(prefix) else rest
    return None if path == "/dev/null" else path


def parse_patch_lines(patch: str) -> list[PatchHunk]:
    hunks: list[PatchHunk] = []
    filename = ""
    starts = (0, 0)
    lines: list[tuple[str, str]] = []
    in_header = True

    def close() -> None:
        if lines:
            hunks.append(PatchHunk(filename, starts[0], starts[1], tuple(lines)))

    for line in rust_lines(patch):
        if in_header:
            if not line.startswith(("--- ", "+++", "@@")):
                continue
            in_header = False
        if line.startswith("@@"):
            close()
            lines = []
            starts = _hunk_header(line)
        elif line.startswith(("--- ", "+++ ")):
            path = _header_path(line[4:], "a/" if line[0] == "-" else "b/")
            filename = filename if path is None else path
        elif line[:1] in (ADDITION, DELETION, CONTEXT) and line:
            lines.append((line[0], line[1:]))
        else:
            lines.append((GARBAGE, line))
    close()
    return hunks


_NOT_CHANGED_LINES = ("---", "+++", "@@", "diff ", "index ")


def changed_lines(patch: str) -> Counter[str]:
    """The multiset of `+`/`-` lines, prefix included, headers left out."""
    return Counter(
        line
        for line in rust_lines(patch)
        if line[:1] in ("+", "-") and not line.startswith(_NOT_CHANGED_LINES)
    )


class Classification(NamedTuple):
    true_positives: int
    false_positives: int
    false_negatives: int

    @property
    def precision(self) -> float:
        total = self.true_positives + self.false_positives
        return self.true_positives / total if total else 0.0

    @property
    def recall(self) -> float:
        total = self.true_positives + self.false_negatives
        return self.true_positives / total if total else 0.0

    @property
    def f1(self) -> float:
        p, r = self.precision, self.recall
        return 2 * p * r / (p + r) if p + r else 0.0


def from_counts(expected: Counter[str], actual: Counter[str]) -> Classification:
    tp = sum(min(c, actual[k]) for k, c in expected.items() if k in actual)
    return Classification(tp, sum(actual.values()) - tp, sum(expected.values()) - tp)


def exact_lines_match(
    expected_patch: str | Counter[str], actual_patch: str | Counter[str]
) -> Classification:
    """Either side may be given as its `changed_lines` already."""
    expected = changed_lines(expected_patch) if isinstance(expected_patch, str) else expected_patch
    actual = changed_lines(actual_patch) if isinstance(actual_patch, str) else actual_patch
    return from_counts(expected, actual)


def _blank(text: str) -> bool:
    return not text.strip(_WS)


def _isolated(lines: tuple[tuple[str, str], ...], index: int) -> bool:
    """No non-blank change next to line `index` within its run of changes."""
    for step in (-1, 1):
        at = index + step
        while 0 <= at < len(lines) and lines[at][0] in (ADDITION, DELETION):
            if not _blank(lines[at][1]):
                return False
            at += step
    return True


def _hunks(patch: str | list[PatchHunk]) -> list[PatchHunk]:
    return parse_patch_lines(patch) if isinstance(patch, str) else patch


def has_isolated_whitespace_changes(patch: str | list[PatchHunk], cursor_row: int | None) -> bool:
    """A blank added or deleted line with no substantive change in its run; a blank line
    added on the cursor's new-file line (`cursor_row + 1`, 1-based) does not count."""
    cursor_line = None if cursor_row is None else cursor_row + 1
    for hunk in _hunks(patch):
        new_line = hunk.new_start
        for i, (kind, text) in enumerate(hunk.lines):
            if kind == CONTEXT:
                new_line += 1
                continue
            if kind == ADDITION:
                new_line += 1
                if _blank(text) and cursor_line == new_line - 1:
                    continue
            elif kind != DELETION:
                continue
            if _blank(text) and _isolated(hunk.lines, i):
                return True
    return False


def is_editable_region_correct(patch: str | list[PatchHunk]) -> bool:
    """False when the first hunk begins with three or more deleted lines (the sign of a
    prediction made for the wrong editable region)."""
    hunks = _hunks(patch)
    if not hunks:
        return True
    deleted = 0
    for kind, _ in hunks[0].lines:
        if kind != DELETION:
            break
        deleted += 1
    return deleted < 3
