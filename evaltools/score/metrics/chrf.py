"""delta chrF: how well the character n-grams an actual edit adds and removes match those of
the expected edit (upstream `delta_chr_f`, reference section 2), with the order, beta and
whitespace handling of a metric definition as parameters."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence, Set
from operator import add
from typing import Literal, NamedTuple

from evaltools.example.diffs.udiff import RUST_WHITESPACE

Whitespace = Literal["collapse", "ignore"]

ORDER = 6
# n-grams of up to ORDER chars cross a change by at most ORDER - 1 chars on each side.
_CONTEXT = ORDER - 1


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


def _bounds(original: str, modified: str) -> tuple[int, int, int]:
    """The common prefix's length and where the common suffix starts in each text."""
    shorter = min(len(original), len(modified))
    prefix = common_prefix(original, modified, shorter)
    suffix = common_suffix(original, modified, shorter - prefix)
    return prefix, len(original) - suffix, len(modified) - suffix


class Delta(NamedTuple):
    """The n-grams of one order an edit adds and removes, as sets in which the k-th extra
    occurrence of a gram (k >= 1) is the pair (gram, k): the size of the intersection of two
    such sets is the sum of the smaller counts (upstream's true positives), at C speed."""

    added: Set[object]
    removed: Set[object]
    total: int


# One per order, 1 to ORDER; None for an empty delta.
Deltas = tuple[Delta | None, ...]


def _expand(into: set[object], gram: str, count: int) -> None:
    into.add(gram)
    if count > 1:
        into.update([(gram, k) for k in range(1, count)])


def _repeated(counts: Counter[str], grams: int) -> list[tuple[str, int]]:
    """The grams counted more than once (none when every gram is distinct)."""
    if len(counts) == grams:
        return []
    ranked = counts.most_common()  # a C sort, the most repeated first
    for i, (_, count) in enumerate(ranked):
        if count == 1:
            return ranked[:i]
    return ranked


def _delta(before: list[str], after: list[str]) -> Delta:
    """What `after` adds to and removes from `before`, as multisets of grams."""
    count_after, count_before = Counter(after), Counter(before)
    keys_after, keys_before = count_after.keys(), count_before.keys()
    if len(count_after) == len(after) and len(count_before) == len(before):
        only_after, only_before = keys_after - keys_before, keys_before - keys_after
        return Delta(only_after, only_before, len(only_after) + len(only_before))
    both = keys_after & keys_before
    # Typed as sets of objects: the pairs of repeated grams join the strings.
    added: set[object] = set(keys_after - both)
    removed: set[object] = set(keys_before - both)
    for gram, count in _repeated(count_after, len(after)):
        if gram not in both:
            _expand(added, gram, count)
    for gram, count in _repeated(count_before, len(before)):
        if gram not in both:
            _expand(removed, gram, count)
    for gram in both:
        d = count_after[gram] - count_before[gram]
        if d > 0:
            _expand(added, gram, d)
        elif d < 0:
            _expand(removed, gram, -d)
    return Delta(added, removed, len(added) + len(removed))


def deltas(original: str, modified: str) -> Deltas:
    """The n-gram deltas of an edit, for every order (texts already normalised). An order is
    None (upstream's "empty delta", which zero entries do not make) when neither region
    (ORDER - 1 chars of context) has n chars."""
    prefix, orig_end, mod_end = _bounds(original, modified)
    if prefix >= orig_end and prefix >= mod_end:
        return (None,) * ORDER
    start = max(prefix - _CONTEXT, 0)
    before = original[start : min(orig_end + _CONTEXT, len(original))]
    after = modified[start : min(mod_end + _CONTEXT, len(modified))]
    grams_before, grams_after = list(before), list(after)
    out: list[Delta | None] = []
    for n in range(1, ORDER + 1):
        if n > 1:  # each n-gram is an (n - 1)-gram and the char after it
            grams_before = list(map(add, grams_before, before[n - 1 :]))
            grams_after = list(map(add, grams_after, after[n - 1 :]))
        if len(before) < n and len(after) < n:
            out.append(None)
            continue
        # n - 1 chars of context are enough for order n: grams further out lie in the common
        # prefix or suffix, in both texts alike, and cancel.
        lead = max(prefix - n + 1, 0) - start
        end_before = min(orig_end + n - 1, len(original)) - start - n + 1
        end_after = min(mod_end + n - 1, len(modified)) - start - n + 1
        out.append(_delta(grams_before[lead:end_before], grams_after[lead:end_after]))
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
    for exp, act in zip(expected_deltas, actual_deltas, strict=True):
        if exp is None and act is None:
            total_p += 1.0
            total_r += 1.0
            continue
        r_all = 0 if exp is None else exp.total
        p_all = 0 if act is None else act.total
        if exp is None or act is None:
            t = 0
        elif exp is act:  # the same edit (deltas are shared through the cache)
            t = p_all
        else:
            t = len(exp.added & act.added) + len(exp.removed & act.removed)
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
