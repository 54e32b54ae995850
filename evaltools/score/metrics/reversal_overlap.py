"""How many characters of a prediction undo the user's edit (upstream `compute_reversal_overlap`,
`MET/reversal.rs`), reimplemented from its behaviour:

* both edits (original -> current by the user, current -> predicted by the model) are diffed
  by lines with the histogram diff; a changed block of at most 8 lines and 512 bytes a side is
  diffed again by code tokens (`score.tokens.tokenize`);
* an edit whose new text keeps all of its old text in order (or the reverse) is reduced to the
  inserted (or deleted) characters alone, found by a character diff;
* the prediction's characters that delete text the user added, plus, for each prediction edit
  that inserts at a place where the user deleted text, the longest common subsequence of the two,
  are the reversing characters; the total is every character the prediction inserts or deletes.

Offsets here are in code points, upstream's in bytes: only overlaps and character counts leave
this module, and both are the same in either unit (the 512-byte limit is checked in bytes)."""

from __future__ import annotations

import re
from typing import NamedTuple

from evaltools.score.metrics.chrf import common_prefix, common_suffix
from evaltools.score.metrics.histogram import diff
from evaltools.score.metrics.tokens import tokenize

_LINE = re.compile(r"[^\n]*\n|[^\n]+")
MAX_TOKEN_DIFF_BYTES = 512
MAX_TOKEN_DIFF_LINES = 8


class Edit(NamedTuple):
    start: int  # in the old text
    end: int
    old: str
    new: str


class Overlap(NamedTuple):
    reversing: int
    total: int

    @property
    def ratio(self) -> float:
        return self.reversing / self.total if self.total else 0.0


def _utf8_len(text: str) -> int:
    return len(text) if text.isascii() else len(text.encode("utf-8", "surrogatepass"))


def _diff_pieces(old: list[str], new: list[str]) -> list[tuple[int, int, int, int, int, int]]:
    """Each change as (old start, old end, new start, new end) in characters, then its token
    counts (old, new)."""
    old_at = [0]
    for piece in old:
        old_at.append(old_at[-1] + len(piece))
    new_at = [0]
    for piece in new:
        new_at.append(new_at[-1] + len(piece))
    return [
        (old_at[c.old_start], old_at[c.old_end], new_at[c.new_start], new_at[c.new_end],
         c.old_end - c.old_start, c.new_end - c.new_start)
        for c in diff(old, new)
    ]  # fmt: skip


def _token_diff_fits(old: str, new: str, old_lines: int, new_lines: int) -> bool:
    return (
        bool(old)
        and bool(new)
        and old_lines <= MAX_TOKEN_DIFF_LINES
        and new_lines <= MAX_TOKEN_DIFF_LINES
        and _utf8_len(old) <= MAX_TOKEN_DIFF_BYTES
        and _utf8_len(new) <= MAX_TOKEN_DIFF_BYTES
    )


def _shared_lines(old: str, new: str) -> tuple[int, int]:
    """Where the lines both texts start with end, and how many characters the lines they both
    end with take: the lines the diff sets aside before it starts."""
    limit = min(len(old), len(new))
    start = old.rfind("\n", 0, common_prefix(old, new, limit)) + 1
    shared = common_suffix(old, new, limit - start)
    cut_old, cut_new = len(old) - shared, len(new) - shared
    if (cut_old and old[cut_old - 1] != "\n") or (cut_new and new[cut_new - 1] != "\n"):
        # The shared end begins inside a line: its lines start after the next newline.
        found = old.find("\n", cut_old)
        cut_old = len(old) if found < 0 else found + 1
    return start, len(old) - cut_old


def granular_edits(old_text: str, new_text: str) -> list[Edit]:
    edits: list[Edit] = []
    start, shared_end = _shared_lines(old_text, new_text)
    old_mid = old_text[start : len(old_text) - shared_end]
    new_mid = new_text[start : len(new_text) - shared_end]
    for s_old, e_old, s_new, e_new, old_lines, new_lines in _diff_pieces(
        _LINE.findall(old_mid), _LINE.findall(new_mid)
    ):
        old_start, old_end = start + s_old, start + e_old
        old, new = old_mid[s_old:e_old], new_mid[s_new:e_new]
        if not _token_diff_fits(old, new, old_lines, new_lines):
            edits.append(Edit(old_start, old_end, old, new))
            continue
        for a, b, c, d, _, _ in _diff_pieces(tokenize(old), tokenize(new)):
            edits.append(Edit(old_start + a, old_start + b, old[a:b], new[c:d]))
    return edits


def _normalised(edits: list[Edit]) -> list[Edit]:
    """An edit that only inserts (or only deletes) characters around the kept ones becomes
    those insertions (or deletions)."""
    out: list[Edit] = []
    for edit in edits:
        if not edit.old or not edit.new:
            out.append(edit)
            continue
        chars = _diff_pieces(list(edit.old), list(edit.new))
        only_deletes = all(s != e and sn == en for s, e, sn, en, _, _ in chars)
        only_inserts = all(s == e and sn != en for s, e, sn, en, _, _ in chars)
        if chars and (only_deletes or only_inserts):
            out += [
                Edit(edit.start + s, edit.start + e, edit.old[s:e], edit.new[sn:en])
                for s, e, sn, en, _, _ in chars
            ]
        else:
            out.append(edit)
    return out


def _lcs_length(a: str, b: str) -> int:
    """Longest common subsequence of characters, bit-parallel over `b` (Allison-Dix)."""
    if not a or not b:
        return 0
    where: dict[str, int] = {}
    for i, char in enumerate(b):
        where[char] = where.get(char, 0) | (1 << i)
    full = (1 << len(b)) - 1
    row = full
    for char in a:
        matches = row & where.get(char, 0)
        row = ((row + matches) | (row - matches)) & full
    return len(b) - row.bit_count()


def _in_current(history: list[Edit]) -> tuple[list[tuple[int, int]], list[tuple[str, int]]]:
    """The user's insertions as ranges of the current text, and its deletions with the place
    they were."""
    added: list[tuple[int, int]] = []
    deleted: list[tuple[str, int]] = []
    shift = 0
    for edit in history:
        at = edit.start + shift
        if edit.new:
            added.append((at, at + len(edit.new)))
        if edit.old:
            deleted.append((edit.old, at))
        shift += len(edit.new) - len(edit.old)
    return added, deleted


def _reversing(history: list[Edit], prediction: list[Edit]) -> int:
    added, deleted = _in_current(history)
    count = 0
    for edit in prediction:
        for start, end in added:
            count += max(min(edit.end, end) - max(edit.start, start), 0)
        if edit.new:
            for text, at in deleted:
                if edit.start <= at < edit.end or at == edit.start:
                    count += _lcs_length(text, edit.new)
    return count


def history_edits(original: str, current: str) -> list[Edit]:
    """The user's edit, as the overlap reads it (the same for every prediction of an example)."""
    return _normalised(granular_edits(original, current))


def cannot_reverse(history: list[Edit], current: str, predicted: str) -> bool:
    """Whether every edit the diff could find (they all lie in the lines the two texts do not
    share) is clear of the user's edit: then nothing is reversed and the ratio is 0, whatever
    the prediction's total."""
    start, shared_end = _shared_lines(current, predicted)
    end = len(current) - shared_end
    added, deleted = _in_current(history)
    return all(max(a, start) >= min(b, end) for a, b in added) and not any(
        start <= at <= end for _, at in deleted
    )


def overlap_with(history: list[Edit], current: str, predicted: str) -> Overlap:
    prediction = _normalised(granular_edits(current, predicted))
    total = sum(len(e.new) + len(e.old) for e in prediction)
    return Overlap(_reversing(history, prediction), total)


def reversal_overlap(original: str, current: str, predicted: str) -> Overlap:
    """Raises `histogram.TooRepetitive` where upstream's diff would not be the histogram one."""
    return overlap_with(history_edits(original, current), current, predicted)
