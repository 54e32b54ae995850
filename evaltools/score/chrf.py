"""delta chrF: how well the character n-grams an actual edit adds and removes match those of
the expected edit (upstream `delta_chr_f`, reference section 2), with the order, beta and
whitespace handling of a metric definition as parameters."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from typing import Literal, NamedTuple

from evaltools.example.diffs.udiff import RUST_WHITESPACE

Whitespace = Literal["collapse", "ignore"]

ORDER = 6
# n-grams of up to ORDER chars cross a change by at most ORDER - 1 chars on each side.
_CONTEXT = ORDER - 1
_NOT = "\u00ac"  # the prefix upstream gives the n-grams an edit removes


class ChrF(NamedTuple):
    score: float
    beta: float
    true_positives: int
    false_positives: int
    false_negatives: int
    precision: float
    recall: float


def zero(beta: float) -> ChrF:
    return ChrF(0.0, beta, 0, 0, 0, 0.0, 0.0)


_SPACES = re.compile("[" + re.escape("".join(sorted(RUST_WHITESPACE - {"\n"}))) + "]+")
_NEWLINES = re.compile("\n+")
_DROP_WHITESPACE = str.maketrans(dict.fromkeys(RUST_WHITESPACE))


def collapse_whitespace(text: str) -> str:
    """Runs of whitespace other than `\\n` become one space, runs of `\\n` one `\\n`; a space
    run and a newline run are collapsed separately."""
    return _NEWLINES.sub("\n", _SPACES.sub(" ", text))


def normalise(text: str, whitespace: Whitespace) -> str:
    if whitespace == "ignore":
        return text.translate(_DROP_WHITESPACE)
    return collapse_whitespace(text)


def common_prefix(a: Sequence[object], b: Sequence[object], limit: int) -> int:
    """How many leading items `a` and `b` share, up to `limit`."""
    # Bisection over slice comparisons: C-speed compares instead of a Python loop per item.
    lo, hi = 0, limit
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if a[:mid] == b[:mid]:
            lo = mid
        else:
            hi = mid - 1
    return lo


def common_suffix(a: Sequence[object], b: Sequence[object], limit: int) -> int:
    lo, hi = 0, limit
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if a[len(a) - mid :] == b[len(b) - mid :]:
            lo = mid
        else:
            hi = mid - 1
    return lo


def changed_regions(original: str, modified: str) -> tuple[str, str]:
    """The changed middle of both texts plus ORDER - 1 chars of context on each side; both
    empty when nothing changed."""
    prefix = common_prefix(original, modified, min(len(original), len(modified)))
    suffix = common_suffix(original, modified, min(len(original), len(modified)) - prefix)
    orig_end = len(original) - suffix
    mod_end = len(modified) - suffix
    if prefix >= orig_end and prefix >= mod_end:
        return "", ""
    start = max(prefix - _CONTEXT, 0)
    return (
        original[start : min(orig_end + _CONTEXT, len(original))],
        modified[start : min(mod_end + _CONTEXT, len(modified))],
    )


_EMPTY: Counter[str] = Counter()
# One per order, 1 to ORDER: the delta's counts and their sum; None for an empty delta.
Deltas = tuple["tuple[Counter[str], int] | None", ...]


def _delta_counts(before: str, after: str, n: int) -> Counter[str] | None:
    """The n-grams `after` adds (positive) and removes (as `¬ngram`); None when neither text
    has an n-gram of length n (upstream's "empty delta", which zero entries do not make)."""
    if len(before) < n and len(after) < n:
        return None
    counts: Counter[str] = Counter([after[i : i + n] for i in range(len(after) - n + 1)])
    counts.subtract([before[i : i + n] for i in range(len(before) - n + 1)])
    out: Counter[str] = Counter()
    for gram, d in counts.items():
        if d > 0:
            out[gram] = d
        elif d < 0:
            out[_NOT + gram] = -d
    return out


def deltas(original: str, modified: str) -> Deltas:
    """The n-gram deltas of an edit, for every order (texts already normalised)."""
    before, after = changed_regions(original, modified)
    out: list[tuple[Counter[str], int] | None] = []
    for n in range(1, ORDER + 1):
        counts = _delta_counts(before, after, n)
        out.append(None if counts is None else (counts, sum(counts.values())))
    return tuple(out)


class ChrFCache:
    """What repeats across the predictions of one example and its expected patches:
    normalised texts and the n-gram deltas of edits (expected ones, and a prediction's against
    each expected patch)."""

    def __init__(self) -> None:
        self.normalised: dict[tuple[str, str], str] = {}
        self.edits: dict[tuple[str, str], Deltas] = {}

    def normalise(self, text: str, whitespace: Whitespace) -> str:
        key = (text, whitespace)
        found = self.normalised.get(key)
        if found is None:
            found = self.normalised[key] = normalise(text, whitespace)
        return found

    def deltas(self, original: str, expected: str) -> Deltas:
        key = (original, expected)
        found = self.edits.get(key)
        if found is None:
            found = self.edits[key] = deltas(original, expected)
        return found


def delta_chr_f(
    original: str,
    expected: str,
    actual: str,
    *,
    beta: float,
    whitespace: Whitespace,
    cache: ChrFCache | None = None,
) -> ChrF:
    if original == expected == actual:
        return ChrF(100.0, beta, 0, 0, 0, 1.0, 1.0)
    cache = cache or ChrFCache()
    orig = cache.normalise(original, whitespace)
    expected_deltas = cache.deltas(orig, cache.normalise(expected, whitespace))
    actual_deltas = cache.deltas(orig, cache.normalise(actual, whitespace))
    total_p = total_r = 0.0
    tp = fp = fn = 0
    for exp_delta, act_delta in zip(expected_deltas, actual_deltas, strict=True):
        if exp_delta is None and act_delta is None:
            total_p += 1.0
            total_r += 1.0
            continue
        exp, r_all = exp_delta or (_EMPTY, 0)
        act, p_all = act_delta or (_EMPTY, 0)
        if exp is act:  # the same edit (deltas are shared through the cache)
            t = p_all
        else:
            common = exp.keys() & act.keys()
            t = sum(map(min, map(exp.__getitem__, common), map(act.__getitem__, common)))
        total_p += t / p_all if p_all else 0.0
        total_r += t / r_all if r_all else 0.0
        tp += t
        fp += p_all - t
        fn += r_all - t
    precision = total_p / ORDER
    recall = total_r / ORDER
    if precision + recall == 0.0:
        score = 0.0
    else:
        b2 = beta * beta
        score = (1 + b2) * precision * recall / (b2 * precision + recall) * 100.0
    return ChrF(score, beta, tp, fp, fn, precision, recall)


def braces_disbalance(text: str) -> int:
    return (
        abs(text.count("{") - text.count("}"))
        + abs(text.count("(") - text.count(")"))
        + abs(text.count("[") - text.count("]"))
    )
