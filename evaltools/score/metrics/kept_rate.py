"""`kept_rate` / `recall_rate` (upstream `compute_kept_rate`, `MET/kept_rate.rs`; reference
section 2, step 7), reimplemented from its behaviour:

* the three texts are split into code tokens (`score.tokens.tokenize`), and each run of
  identifier tokens is merged into one unit (`score.tokens.word_units`);
* a longest common subsequence of units against the base text marks, on the prediction
  (candidate) and on the expected text (reference), the units each keeps, and on the base the
  units each deletes; ties are broken the way upstream walks its table back;
* the candidate's new units that a second LCS matches with the reference's new units are kept,
  the others discarded; base units deleted by both are correctly deleted;
* kept_rate = (kept + correctly deleted) / (candidate new + candidate deleted), recall_rate =
  the same over the reference's; sizes are UTF-8 bytes, as upstream's `str::len`.

When the two texts' length changes differ by more than 512 bytes it gives up: both rates 0."""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

from evaltools.score.metrics.chrf import common_prefix, common_suffix
from evaltools.score.metrics.tokens import word_units

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


def keep_masks(a: list[str], b: list[str]) -> tuple[list[bool], list[bool]]:
    """For each of `a` and `b`, whether the element is in a longest common subsequence: the
    one found walking the table back from the end, preferring to step back in `a` on a tie for
    `a`'s mask and in `b` for `b`'s."""
    out_a, out_b = left_out(a, b)
    keep_a, keep_b = [True] * len(a), [True] * len(b)
    for i in out_a:
        keep_a[i] = False
    for j in out_b:
        keep_b[j] = False
    return keep_a, keep_b


def left_out(a: list[str], b: list[str]) -> tuple[list[int], list[int]]:
    """The indices of `a` and of `b` outside that subsequence (`keep_masks`), ascending."""
    if not a or not b:
        return list(range(len(a))), list(range(len(b)))
    if a == b:
        return [], []
    prefix = common_prefix(a, b, min(len(a), len(b)))
    suffix = common_suffix(a, b, min(len(a), len(b)) - prefix)
    mid_a, mid_b = a[prefix : len(a) - suffix], b[prefix : len(b) - suffix]
    if not mid_a or not mid_b:
        return [prefix + i for i in range(len(mid_a))], [prefix + j for j in range(len(mid_b))]
    lcs = _Table(mid_a, mid_b).lcs
    kept_a = _kept(mid_a, mid_b, lcs, in_a=True)
    kept_b = _kept(mid_a, mid_b, lcs, in_a=False)
    return (
        [prefix + k for k in range(len(mid_a)) if k not in kept_a],
        [prefix + k for k in range(len(mid_b)) if k not in kept_b],
    )


def _kept(a: list[str], b: list[str], lcs: Callable[[int, int], int], *, in_a: bool) -> set[int]:
    """The indices of `a` (`in_a`) or of `b` on the subsequence found walking the table back
    from the end, stepping back in that same sequence on a tie."""
    kept: set[int] = set()
    i, j = len(a), len(b)
    while i and j:
        if a[i - 1] == b[j - 1]:
            kept.add(i - 1 if in_a else j - 1)
            i, j = i - 1, j - 1
        else:
            up, left = lcs(i - 1, j), lcs(i, j - 1)
            if up > left or (in_a and up == left):
                i -= 1
            else:
                j -= 1
    return kept


class _Table:
    """LCS lengths of every prefix pair of `a` and `b`, one bit-vector row per prefix of `a`
    (Allison-Dix, Hyyro): a zero bit at column j means the length grows by one there, so
    `lcs(i, j)` is j less the set bits below j of row i."""

    def __init__(self, a: list[str], b: list[str]) -> None:
        where: dict[str, int] = {}
        for k, token in enumerate(b):
            where[token] = where.get(token, 0) | (1 << k)
        full = (1 << len(b)) - 1
        row = full
        self.rows = [row]
        for token in a:
            matches = row & where.get(token, 0)
            row = ((row + matches) | (row - matches)) & full
            self.rows.append(row)

    def lcs(self, i: int, j: int) -> int:
        return j - (self.rows[i] & ((1 << j) - 1)).bit_count()


class Memo:
    """What one example's predictions share: its base and expected texts' units, and their
    subsequence with the base."""

    def __init__(self) -> None:
        self.units: dict[str, list[str]] = {}
        self.against: dict[tuple[str, str], tuple[list[str], frozenset[int]]] = {}

    def of(self, text: str) -> list[str]:
        found = self.units.get(text)
        if found is None:
            found = self.units[text] = word_units(text)
        return found

    def against_base(self, text: str, base: str) -> tuple[list[str], frozenset[int]]:
        """The units of `text` that a longest common subsequence with `base` leaves out (its
        new units), and the indices of the base units it leaves out (those `text` deletes)."""
        key = (text, base)
        found = self.against.get(key)
        if found is None:
            units = self.of(text)
            out_text, out_base = left_out(units, self.of(base))
            found = self.against[key] = ([units[i] for i in out_text], frozenset(out_base))
        return found


def _rate(matched: int, own: int, other: int) -> float:
    if own == 0:
        return 1.0 if other == 0 else 0.0
    return matched / own


def compute_kept_rate(
    base: str, candidate: str, reference: str, memo: Memo | None = None
) -> KeptRate:
    """`memo`: one per example (its texts repeat across predictions)."""
    if base == candidate == reference:
        return KeptRate(0, 0, 0, 0, 0, 0, 0, 1.0, 1.0)
    size: Callable[[str], int] = _size
    base_size = size(base)
    candidate_delta = abs(size(candidate) - base_size)
    reference_delta = abs(size(reference) - base_size)
    if abs(candidate_delta - reference_delta) > MAX_DIRTY_LENGTH_DELTA:
        return KeptRate(candidate_delta, reference_delta, 0, 0, 0, 0, candidate_delta, 0.0, 0.0)
    if base.isascii() and candidate.isascii() and reference.isascii():
        size = len
    memo = memo or Memo()
    base_units = memo.of(base)
    cand_new, cand_deleted = memo.against_base(candidate, base)
    ref_new, ref_deleted = memo.against_base(reference, base)
    candidate_new = sum(map(size, cand_new))
    reference_new = sum(map(size, ref_new))
    discarded = sum(size(cand_new[i]) for i in left_out(cand_new, ref_new)[0])
    kept = candidate_new - discarded
    candidate_deleted = sum(size(base_units[i]) for i in cand_deleted)
    reference_deleted = sum(size(base_units[i]) for i in ref_deleted)
    correctly_deleted = sum(size(base_units[i]) for i in cand_deleted & ref_deleted)
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
        discarded,
        _rate(matched_edit, candidate_edit, reference_edit),
        _rate(matched_edit, reference_edit, candidate_edit),
    )
