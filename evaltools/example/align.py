"""Does a patch fit the cursor excerpt? Hunks against a window of the file.

The excerpt is a window of the file, and real hunks often reach past its first or last
line. So a hunk's old side (context and deleted lines) must agree with the excerpt
wherever the two overlap. A hunk that agrees nowhere but nearly agrees somewhere, or
whose header puts it inside the window where it disagrees, is a contradiction; a hunk
that agrees nowhere and resembles nothing edits lines outside the window.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from evaltools.example.udiff import Hunk

MIN_NEAR_MATCHES = 2


class Fit(str, enum.Enum):
    AGREES = "agrees"
    CONTRADICTS = "contradicts"
    OUTSIDE = "outside"
    UNCHECKED = "unchecked"  # no old side: a pure insertion without context


@dataclass(frozen=True)
class Placement:
    start: int  # excerpt line index of the hunk's first old line (may be negative)
    matches: int
    mismatches: int
    first_mismatch: int | None  # index into the hunk's old lines


@dataclass(frozen=True)
class HunkFit:
    hunk: Hunk
    fit: Fit
    placement: Placement | None


def _place(old: list[str], window: list[str], start: int) -> Placement:
    matches = mismatches = 0
    first: int | None = None
    for index in range(max(0, -start), min(len(old), len(window) - start)):
        if old[index] == window[start + index]:
            matches += 1
        else:
            mismatches += 1
            if first is None:
                first = index
    return Placement(start, matches, mismatches, first)


def _meaningful(old: list[str], placement: Placement) -> bool:
    """Near-agreement must rest on more than blank lines and lone braces."""
    lo = max(0, -placement.start)
    return any(len(line.strip()) > 2 for line in old[lo : lo + placement.matches])


def fit_hunks(hunks: list[Hunk], excerpt: str) -> list[HunkFit]:
    window = excerpt.split("\n")
    fits: list[HunkFit] = []
    window_start: int | None = None  # file line (0-based) of the excerpt's first line
    for hunk in hunks:
        old = [line.text for line in hunk.old_lines]
        if not old:
            fits.append(HunkFit(hunk, Fit.UNCHECKED, None))
            continue
        placements = [_place(old, window, s) for s in range(1 - len(old), len(window))]
        agreeing = [p for p in placements if p.mismatches == 0 and p.matches > 0]
        if agreeing:
            best = max(agreeing, key=lambda p: p.matches)
            fits.append(HunkFit(hunk, Fit.AGREES, best))
            if window_start is None and hunk.header is not None and best.matches >= 3:
                window_start = hunk.header.old_start - best.start
            continue
        fits.append(HunkFit(hunk, *_judge(old, window, placements)))
    if window_start is not None:
        fits = [_by_header(f, window, window_start) for f in fits]
    return fits


def _judge(
    old: list[str], window: list[str], placements: list[Placement]
) -> tuple[Fit, Placement | None]:
    near = max(placements, key=lambda p: (p.matches - p.mismatches, p.matches))
    if (
        near.matches >= MIN_NEAR_MATCHES
        and near.mismatches * 2 <= near.matches
        and _meaningful(old, near)
    ):
        return Fit.CONTRADICTS, near
    return Fit.OUTSIDE, None


def _by_header(fit: HunkFit, window: list[str], window_start: int) -> HunkFit:
    """A hunk that fits nowhere but whose header puts it inside the window contradicts it."""
    if fit.fit is not Fit.OUTSIDE or fit.hunk.header is None:
        return fit
    old = [line.text for line in fit.hunk.old_lines]
    start = fit.hunk.header.old_start - window_start
    inside = start >= 0 and start + len(old) <= len(window)
    if not inside:
        return fit
    placement = _place(old, window, start)
    if placement.mismatches and placement.matches and _meaningful(old, placement):
        return HunkFit(fit.hunk, Fit.CONTRADICTS, placement)
    return fit
