"""The histogram diff upstream's reversal ratio runs on (imara-diff 0.1, `Algorithm::Histogram`),
reimplemented from its behaviour: which common run it anchors on decides which characters count
as reversed, so a different (even a shorter) diff would change the ratio.

* The common prefix and suffix are set aside once, at the top.
* In the rest, each token of the new side that occurs in the old side, and at most as often as
  the rarest anchor so far, is extended to the longest run of equal tokens around each of its
  old occurrences. A run wins when it is longer, or when its rarest token is rarer. The sides
  left and right of the winning run are diffed the same way.
* The next old occurrence tried must lie past the run's end measured on the *new* side (a quirk
  of imara-diff 0.1, kept: it skips some candidates).
* When every common token occurs more than 63 times, imara-diff falls back to its Myers diff,
  which is not reproduced: `TooRepetitive` is raised and the caller reports the value unknown."""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import NamedTuple

MAX_CHAIN = 63


class TooRepetitive(Exception):
    """imara-diff would switch to its Myers diff here."""


class Change(NamedTuple):
    """Token ranges: old[old_start:old_end] becomes new[new_start:new_end]."""

    old_start: int
    old_end: int
    new_start: int
    new_end: int


def diff(old: Sequence[Hashable], new: Sequence[Hashable]) -> list[Change]:
    """The changes, in order, that turn `old` into `new`."""
    ids: dict[Hashable, int] = {}
    a = [ids.setdefault(t, len(ids)) for t in old]
    b = [ids.setdefault(t, len(ids)) for t in new]
    start = 0
    limit = min(len(a), len(b))
    while start < limit and a[start] == b[start]:
        start += 1
    end_a, end_b = len(a), len(b)
    while end_a > start and end_b > start and a[end_a - 1] == b[end_b - 1]:
        end_a -= 1
        end_b -= 1
    out: list[Change] = []
    _run(a[start:end_a], start, b[start:end_b], start, out)
    return out


def _run(old: list[int], old_at: int, new: list[int], new_at: int, out: list[Change]) -> None:
    while True:
        if not old or not new:
            if old or new:
                out.append(Change(old_at, old_at + len(old), new_at, new_at + len(new)))
            return
        anchor = _anchor(old, new)
        if anchor is None:
            out.append(Change(old_at, old_at + len(old), new_at, new_at + len(new)))
            return
        old_start, new_start, length = anchor
        _run(old[:old_start], old_at, new[:new_start], new_at, out)
        old = old[old_start + length :]
        new = new[new_start + length :]
        old_at += old_start + length
        new_at += new_start + length


def _anchor(old: list[int], new: list[int]) -> tuple[int, int, int] | None:
    """The common run to split at: (old start, new start, length); None when the sides share
    no token."""
    where: dict[int, list[int]] = {}
    for i, token in enumerate(old):
        where.setdefault(token, []).append(i)
    rarest = MAX_CHAIN + 1
    best = (0, 0, 0)
    shared = False
    pos = 0
    while pos < len(new):
        places = where.get(new[pos])
        if places is None:
            pos += 1
            continue
        shared = True
        if len(places) > rarest:
            pos += 1
            continue
        next_pos = pos + 1
        k = 0
        while True:
            i = places[k]
            rare = len(places)
            s_old, s_new = i, pos
            while s_old > 0 and s_new > 0 and old[s_old - 1] == new[s_new - 1]:
                s_old -= 1
                s_new -= 1
                rare = min(rare, len(where[old[s_old]]))
            e_old, e_new = i + 1, pos + 1
            while e_old < len(old) and e_new < len(new) and old[e_old] == new[e_new]:
                rare = min(rare, len(where[old[e_old]]))
                e_old += 1
                e_new += 1
            next_pos = max(next_pos, e_new)
            if best[2] < e_new - s_new or rarest > rare:
                rarest = rare
                best = (s_old, s_new, e_new - s_new)
            k += 1
            while k < len(places) and places[k] <= e_new:
                k += 1
            if k == len(places):
                break
        pos = next_pos
    if not shared:
        return None
    if rarest > MAX_CHAIN:
        raise TooRepetitive
    return best
