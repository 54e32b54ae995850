"""Does a patch fit the cursor excerpt? Hunks against a window of the file.

The excerpt is a window of the file, and real hunks often reach past its first or last
line. So a hunk's old side (context and deleted lines) must agree with the excerpt
wherever the two overlap. A hunk that agrees nowhere but nearly agrees somewhere, or
whose header puts it inside the window where it disagrees, is a contradiction; a hunk
that agrees nowhere and resembles nothing edits lines outside the window.
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from typing import NamedTuple

from evaltools.example.diffs.udiff import Hunk

MIN_NEAR_MATCHES = 2
# Work allowed per line of input (excerpt and hunks) before alignment gives up: real
# examples need a handful; only an excerpt of thousands of identical lines comes near.
WORK_PER_LINE = 20
MIN_WORK = 100_000


class Fit(str, enum.Enum):
    AGREES = "agrees"
    CONTRADICTS = "contradicts"
    OUTSIDE = "outside"
    UNCHECKED = "unchecked"  # no old side: a pure insertion without context
    GAVE_UP = "gave-up"  # too many candidate places to compare within the work budget


# Value types here are named tuples, not frozen dataclasses: each dataclass costs about a
# millisecond at import, on the path of the lint hook.
class Placement(NamedTuple):
    start: int  # excerpt line index of the hunk's first old line (may be negative)
    matches: int
    mismatches: int


class HunkFit(NamedTuple):
    hunk: Hunk
    fit: Fit
    placement: Placement | None


def _place(old: Sequence[str], window: Sequence[str], start: int) -> Placement:
    lo, hi = max(0, -start), min(len(old), len(window) - start)
    matches = sum(1 for index in range(lo, hi) if old[index] == window[start + index])
    return Placement(start, matches, max(hi - lo, 0) - matches)


def _meaningful(old: Sequence[str], placement: Placement) -> bool:
    """Near-agreement must rest on more than blank lines and lone braces."""
    lo = max(0, -placement.start)
    return any(len(line.strip()) > 2 for line in old[lo : lo + placement.matches])


class _Aligner:
    """Finds where a hunk's old lines meet the excerpt through an index of the excerpt's
    lines, so a hunk costs the occurrences of its own lines, not the excerpt's length."""

    def __init__(self, window: list[str], budget: int) -> None:
        self.window = window
        self.budget = budget
        self.positions: dict[str, list[int]] = {}
        for number, text in enumerate(window):
            self.positions.setdefault(text, []).append(number)

    def best(self, old: Sequence[str]) -> tuple[Placement | None, Placement | None] | None:
        """The best agreeing placement and the nearest one (ties: the earliest start), among
        placements with at least one matching line; None past the work budget."""
        counts: dict[int, int] = {}
        for index, text in enumerate(old):
            found = self.positions.get(text, ())
            self.budget -= len(found) + 1
            if self.budget < 0:
                return None
            for number in found:
                counts[number - index] = counts.get(number - index, 0) + 1
        size, length = len(self.window), len(old)
        agreeing: tuple[int, int] | None = None  # (matches, -start)
        near: tuple[int, int, int] | None = None  # (matches - mismatches, matches, -start)
        for start, matches in counts.items():
            mismatches = min(length, size - start) - max(0, -start) - matches
            if mismatches == 0 and (agreeing is None or (matches, -start) > agreeing):
                agreeing = (matches, -start)
            key = (matches - mismatches, matches, -start)
            if near is None or key > near:
                near = key
        return (
            None if agreeing is None else Placement(-agreeing[1], agreeing[0], 0),
            None if near is None else Placement(-near[2], near[1], near[1] - near[0]),
        )


def fit_hunks(hunks: Sequence[Hunk], excerpt: str) -> list[HunkFit]:
    window = excerpt.split("\n")
    olds = [[line.text for line in hunk.old_lines] for hunk in hunks]
    budget = max(MIN_WORK, WORK_PER_LINE * (len(window) + sum(len(old) for old in olds)))
    aligner = _Aligner(window, budget)
    fits: list[HunkFit] = []
    window_start: int | None = None  # file line (0-based) of the excerpt's first line
    for hunk, old in zip(hunks, olds, strict=True):
        if not old:
            fits.append(HunkFit(hunk, Fit.UNCHECKED, None))
            continue
        found = aligner.best(old)
        if found is None:
            fits.append(HunkFit(hunk, Fit.GAVE_UP, None))
            continue
        best, near = found
        if best is not None:
            fits.append(HunkFit(hunk, Fit.AGREES, best))
            if window_start is None and hunk.header is not None and best.matches >= 3:
                window_start = hunk.header.old_start - best.start
            continue
        fits.append(HunkFit(hunk, *_judge(old, near)))
    if window_start is not None:
        fits = [_by_header(f, old, window, window_start) for f, old in zip(fits, olds, strict=True)]
    return fits


def _judge(old: Sequence[str], near: Placement | None) -> tuple[Fit, Placement | None]:
    # A placement without a single match is never near, so it is never considered.
    if (
        near is not None
        and near.matches >= MIN_NEAR_MATCHES
        and near.mismatches * 2 <= near.matches
        and _meaningful(old, near)
    ):
        return Fit.CONTRADICTS, near
    return Fit.OUTSIDE, None


def _by_header(
    fit: HunkFit, old: Sequence[str], window: Sequence[str], window_start: int
) -> HunkFit:
    """A hunk that fits nowhere but whose header puts it inside the window contradicts it."""
    if fit.fit is not Fit.OUTSIDE or fit.hunk.header is None:
        return fit
    start = fit.hunk.header.old_start - window_start
    inside = start >= 0 and start + len(old) <= len(window)
    if not inside:
        return fit
    placement = _place(old, window, start)
    if placement.mismatches and placement.matches and _meaningful(old, placement):
        return HunkFit(fit.hunk, Fit.CONTRADICTS, placement)
    return fit
