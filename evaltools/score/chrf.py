"""delta chrF: how well the character n-grams an actual edit adds and removes match those of
the expected edit (upstream `delta_chr_f`, reference section 2), with the order, beta and
whitespace handling of a metric definition as parameters."""

from __future__ import annotations

from collections import Counter
from typing import Literal, NamedTuple

from evaltools.example.udiff import RUST_WHITESPACE

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


def collapse_whitespace(text: str) -> str:
    """Runs of whitespace other than `\\n` become one space, runs of `\\n` one `\\n`; a space
    run and a newline run are collapsed separately."""
    out: list[str] = []
    last = ""
    for c in text:
        if c == "\n":
            if last != "\n":
                out.append(c)
                last = "\n"
        elif c in RUST_WHITESPACE:
            if last != " ":
                out.append(" ")
                last = " "
        else:
            out.append(c)
            last = ""
    return "".join(out)


def _normalise(text: str, whitespace: Whitespace) -> str:
    if whitespace == "ignore":
        return "".join(c for c in text if c not in RUST_WHITESPACE)
    if not any(c in RUST_WHITESPACE for c in text):
        return text
    return collapse_whitespace(text)


def changed_regions(original: str, modified: str) -> tuple[str, str]:
    """The changed middle of both texts plus ORDER - 1 chars of context on each side; both
    empty when nothing changed."""
    limit = min(len(original), len(modified))
    prefix = 0
    while prefix < limit and original[prefix] == modified[prefix]:
        prefix += 1
    most = limit - prefix
    suffix = 0
    while suffix < most and original[-1 - suffix] == modified[-1 - suffix]:
        suffix += 1
    orig_end = len(original) - suffix
    mod_end = len(modified) - suffix
    if prefix >= orig_end and prefix >= mod_end:
        return "", ""
    start = max(prefix - _CONTEXT, 0)
    return (
        original[start : min(orig_end + _CONTEXT, len(original))],
        modified[start : min(mod_end + _CONTEXT, len(modified))],
    )


def _delta_counts(before: str, after: str, n: int) -> Counter[str] | None:
    """The n-grams `after` adds (positive) and removes (as `¬ngram`); None when neither text
    has an n-gram of length n (upstream's "empty delta", which zero entries do not make)."""
    if len(before) < n and len(after) < n:
        return None
    counts: Counter[str] = Counter(after[i : i + n] for i in range(len(after) - n + 1))
    counts.subtract(before[i : i + n] for i in range(len(before) - n + 1))
    out: Counter[str] = Counter()
    for gram, d in counts.items():
        if d > 0:
            out[gram] = d
        elif d < 0:
            out[_NOT + gram] = -d
    return out


def delta_chr_f(
    original: str, expected: str, actual: str, *, beta: float, whitespace: Whitespace
) -> ChrF:
    if original == expected == actual:
        return ChrF(100.0, beta, 0, 0, 0, 1.0, 1.0)
    orig = _normalise(original, whitespace)
    orig_e, exp_region = changed_regions(orig, _normalise(expected, whitespace))
    orig_a, act_region = changed_regions(orig, _normalise(actual, whitespace))
    total_p = total_r = 0.0
    tp = fp = fn = 0
    for n in range(1, ORDER + 1):
        exp = _delta_counts(orig_e, exp_region, n)
        act = _delta_counts(orig_a, act_region, n)
        if exp is None and act is None:
            total_p += 1.0
            total_r += 1.0
            continue
        exp = exp or Counter()
        act = act or Counter()
        t = sum(min(c, act[g]) for g, c in exp.items() if g in act)
        p_all = sum(act.values())
        r_all = sum(exp.values())
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
