"""`kept_rate` / `recall_rate` (upstream `compute_kept_rate`, `MET/kept_rate.rs`; reference
section 2, step 7), reimplemented from its behaviour:

* the three texts are split into code tokens (`score.tokens.tokenize`), and each run of
  identifier tokens is merged into one unit;
* a longest common subsequence of units against the base text marks, on the prediction
  (candidate) and on the expected text (reference), the units each keeps, and on the base the
  units each deletes; ties are broken the way upstream walks its table back;
* the candidate's new units that a second LCS matches with the reference's new units are kept,
  the others discarded; base units deleted by both are correctly deleted;
* kept_rate = (kept + correctly deleted) / (candidate new + candidate deleted), recall_rate =
  the same over the reference's; sizes are UTF-8 bytes, as upstream's `str::len`.

When the two texts' length changes differ by more than 512 bytes it gives up: both rates 0."""

from __future__ import annotations

from typing import NamedTuple

from evaltools.score.tokens import tokenize

MAX_DIRTY_LENGTH_DELTA = 512


class KeptRate(NamedTuple):
    candidate_new: int
    reference_new: int
    candidate_deleted: int
    reference_deleted: int
    kept: int
    correctly_deleted: int
    discarded: int
    kept_rate: float
    recall_rate: float


def _size(text: str) -> int:
    return len(text) if text.isascii() else len(text.encode("utf-8", "surrogatepass"))


def _is_identifier(token: str) -> bool:
    return all(c.isalnum() or c == "_" for c in token) and bool(token)


def units(text: str) -> list[str]:
    out: list[str] = []
    run: list[str] = []
    for token in tokenize(text):
        if _is_identifier(token):
            run.append(token)
            continue
        if run:
            out.append("".join(run))
            run = []
        out.append(token)
    if run:
        out.append("".join(run))
    return out


def keep_masks(a: list[str], b: list[str]) -> tuple[list[bool], list[bool]]:
    """For each of `a` and `b`, whether the element is in a longest common subsequence: the
    one found walking the table back from the end, preferring to step back in `a` on a tie for
    `a`'s mask and in `b` for `b`'s."""
    keep_a, keep_b = [False] * len(a), [False] * len(b)
    if not a or not b:
        return keep_a, keep_b
    if a == b:
        return [True] * len(a), [True] * len(b)
    prefix = 0
    while prefix < min(len(a), len(b)) and a[prefix] == b[prefix]:
        prefix += 1
    suffix = 0
    while (
        suffix < min(len(a), len(b)) - prefix and a[len(a) - 1 - suffix] == b[len(b) - 1 - suffix]
    ):
        suffix += 1
    for i in range(prefix):
        keep_a[i] = keep_b[i] = True
    for k in range(suffix):
        keep_a[len(a) - 1 - k] = keep_b[len(b) - 1 - k] = True
    mid_a, mid_b = a[prefix : len(a) - suffix], b[prefix : len(b) - suffix]
    if not mid_a or not mid_b:
        return keep_a, keep_b
    table = _table(mid_a, mid_b)
    i, j = len(mid_a), len(mid_b)
    while i and j:
        if mid_a[i - 1] == mid_b[j - 1]:
            keep_a[prefix + i - 1] = True
            i, j = i - 1, j - 1
        elif table[i - 1][j] >= table[i][j - 1]:
            i -= 1
        else:
            j -= 1
    i, j = len(mid_a), len(mid_b)
    while i and j:
        if mid_a[i - 1] == mid_b[j - 1]:
            keep_b[prefix + j - 1] = True
            i, j = i - 1, j - 1
        elif table[i][j - 1] >= table[i - 1][j]:
            j -= 1
        else:
            i -= 1
    return keep_a, keep_b


def _table(a: list[str], b: list[str]) -> list[list[int]]:
    """LCS lengths of every prefix pair."""
    rows = [[0] * (len(b) + 1)]
    for x in a:
        above = rows[-1]
        row = [0]
        left = 0
        for j, y in enumerate(b):
            left = above[j] + 1 if x == y else max(above[j + 1], left)
            row.append(left)
        rows.append(row)
    return rows


def _rate(matched: int, own: int, other: int) -> float:
    if own == 0:
        return 1.0 if other == 0 else 0.0
    return matched / own


def compute_kept_rate(base: str, candidate: str, reference: str) -> KeptRate:
    if base == candidate == reference:
        return KeptRate(0, 0, 0, 0, 0, 0, 0, 1.0, 1.0)
    size = _size(base)
    candidate_delta = abs(_size(candidate) - size)
    reference_delta = abs(_size(reference) - size)
    if abs(candidate_delta - reference_delta) > MAX_DIRTY_LENGTH_DELTA:
        return KeptRate(candidate_delta, reference_delta, 0, 0, 0, 0, candidate_delta, 0.0, 0.0)
    base_units, cand_units, ref_units = units(base), units(candidate), units(reference)
    cand_kept, base_by_cand = keep_masks(cand_units, base_units)
    ref_kept, base_by_ref = keep_masks(ref_units, base_units)
    cand_new = [u for u, k in zip(cand_units, cand_kept, strict=True) if not k]
    ref_new = [u for u, k in zip(ref_units, ref_kept, strict=True) if not k]
    candidate_new = sum(map(_size, cand_new))
    reference_new = sum(map(_size, ref_new))
    matched, _ = keep_masks(cand_new, ref_new)
    kept = sum(_size(u) for u, k in zip(cand_new, matched, strict=True) if k)
    candidate_deleted = reference_deleted = correctly_deleted = 0
    for unit, by_cand, by_ref in zip(base_units, base_by_cand, base_by_ref, strict=True):
        if not by_cand:
            candidate_deleted += _size(unit)
        if not by_ref:
            reference_deleted += _size(unit)
        if not by_cand and not by_ref:
            correctly_deleted += _size(unit)
    matched_edit = kept + correctly_deleted
    candidate_edit = candidate_new + candidate_deleted
    reference_edit = reference_new + reference_deleted
    return KeptRate(
        candidate_new,
        reference_new,
        candidate_deleted,
        reference_deleted,
        kept,
        correctly_deleted,
        candidate_new - kept,
        _rate(matched_edit, candidate_edit, reference_edit),
        _rate(matched_edit, reference_edit, candidate_edit),
    )
