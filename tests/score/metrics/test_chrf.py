"""delta chrF against the values of reference section 3.3 (computed by running the upstream
code, for the current constants and two earlier ones) and the asserted ones of 3.1."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from evaltools.score.metrics.chrf import braces_disbalance, collapse_whitespace, delta_chr_f

# (original, expected, actual), current (beta 0.5, collapse), beta 2 collapse, beta 2 ignore
TABLE = [
    (
        ("one two three", "one three", "one two four"),
        24.026800569287,
        28.884792182520,
        38.657472121269,
    ),
    (
        ("let x = 42;", "let x = 100;", "let x = 99;"),
        48.264642082429,
        43.713163064833,
        43.713163064833,
    ),
    (("prefix old suffix", "prefix new suffix", "prefix old suffix"), 0.0, 0.0, 0.0),
    (("helloworld", "helloworld", "helloextraworld"), 0.0, 0.0, 0.0),
    (
        ("fn main() {}", "fn main() { println!(); }", "fn main() { print!(); }"),
        78.272203420836,
        71.628860801875,
        67.062806311794,
    ),
    (("abcdefghij", "abcXXXghij", "abcYYghij"), 54.858360397229, 51.132088677363, 51.132088677363),
    (
        ("one two three four", "one THREE four", "one two FOUR"),
        53.713647499855,
        45.518747743191,
        48.326690191814,
    ),
    (("a", "b", "c"), 91.666666666667, 91.666666666667, 91.666666666667),
    (("", "abc", ""), 50.0, 50.0, 50.0),
    (("a  b\n", "a b\n", "a  b\n"), 100.0, 100.0, 100.0),
]
DEFINITIONS = [(0.5, "collapse"), (2.0, "collapse"), (2.0, "ignore")]

# The counts and macro precision/recall the table gives for the current definition.
COUNTS = {
    "one two three": (12, 40, 24, 0.227513227513, 0.309722222222),
    "let x = 42;": (17, 17, 23, 0.5, 0.423809523810),
    "prefix old suffix": (0, 0, 66, None, None),
    "helloworld": (0, 60, 0, None, None),
    "fn main() {}": (61, 15, 27, None, None),
    "abcdefghij": (29, 23, 29, None, None),
    "one two three four": (48, 36, 64, None, None),
    "a": (1, 1, 1, None, None),
    "": (0, 0, 6, None, None),
}


@pytest.mark.parametrize(("texts", "current", "beta2_collapse", "beta2_ignore"), TABLE)
def test_the_three_definitions_give_the_upstream_values(
    texts: tuple[str, str, str], current: float, beta2_collapse: float, beta2_ignore: float
) -> None:
    for (beta, whitespace), want in zip(
        DEFINITIONS, (current, beta2_collapse, beta2_ignore), strict=True
    ):
        got = delta_chr_f(*texts, beta=beta, whitespace=whitespace)  # type: ignore[arg-type]
        assert got.score == pytest.approx(want, abs=1e-9), (texts, beta, whitespace)
        assert got.beta == beta


@pytest.mark.parametrize("original", list(COUNTS))
def test_counts_and_macro_precision_recall(original: str) -> None:
    texts = next(t for t, *_ in TABLE if t[0] == original)
    got = delta_chr_f(*texts, beta=0.5, whitespace="collapse")
    tp, fp, fn, precision, recall = COUNTS[original]
    assert (got.true_positives, got.false_positives, got.false_negatives) == (tp, fp, fn)
    if precision is not None:
        assert got.precision == pytest.approx(precision, abs=1e-12)
        assert got.recall == pytest.approx(recall, abs=1e-12)


def test_upstream_asserted_zero_and_hundred() -> None:
    # prediction_score.rs L633-657: "" -> "cccccc" expected, "bbbbbb" predicted.
    assert delta_chr_f("", "cccccc", "bbbbbb\n", beta=0.5, whitespace="collapse").score == 0.0
    same = delta_chr_f("x\n", "y\n", "y\n", beta=0.5, whitespace="collapse")
    assert same.score == 100.0
    unchanged = delta_chr_f("x", "x", "x", beta=0.5, whitespace="collapse")
    assert (unchanged.score, unchanged.precision, unchanged.recall) == (100.0, 1.0, 1.0)


def test_collapse_whitespace() -> None:
    assert collapse_whitespace("abc   \n\n\n   123") == "abc \n 123"
    assert collapse_whitespace("a\t\r b\n\n") == "a b\n"


@pytest.mark.parametrize(
    ("text", "want"), [("let x = { 1 + 2 };", 0), ("let x = { 1 + 2", 1), ("let x = { 1 + 2 )", 2)]
)
def test_braces_disbalance(text: str, want: int) -> None:
    assert braces_disbalance(text) == want


def _reference_chr_f(original: str, expected: str, actual: str, beta: float) -> tuple[object, ...]:
    """Reference section 2 step by step, with plain counters and a `¬` prefix for the n-grams
    an edit removes: what the set-based delta_chr_f must equal exactly."""
    if original == expected == actual:
        return (100.0, 0, 0, 0, 1.0, 1.0)
    orig, exp, act = (collapse_whitespace(t) for t in (original, expected, actual))

    def region(x: str) -> tuple[str, str]:
        p = 0
        while p < min(len(orig), len(x)) and orig[p] == x[p]:
            p += 1
        s = 0
        while s < min(len(orig), len(x)) - p and orig[-1 - s] == x[-1 - s]:
            s += 1
        if p >= len(orig) - s and p >= len(x) - s:
            return "", ""
        start = max(p - 5, 0)
        end_orig, end_x = min(len(orig) - s + 5, len(orig)), min(len(x) - s + 5, len(x))
        return orig[start:end_orig], x[start:end_x]

    def delta(before: str, after: str, n: int) -> Counter[str] | None:
        if len(before) < n and len(after) < n:
            return None
        diff = Counter(after[i : i + n] for i in range(len(after) - n + 1))
        diff.subtract(before[i : i + n] for i in range(len(before) - n + 1))
        return Counter({(g if d > 0 else "¬" + g): abs(d) for g, d in diff.items() if d})

    regions = region(exp), region(act)
    total_p = total_r = 0.0
    tp = fp = fn = 0
    for n in range(1, 7):
        e, a = delta(*regions[0], n), delta(*regions[1], n)
        if e is None and a is None:
            total_p += 1.0
            total_r += 1.0
            continue
        e, a = e or Counter(), a or Counter()
        t = sum(min(e[k], a[k]) for k in e.keys() & a.keys())
        p_all, r_all = sum(a.values()), sum(e.values())
        total_p += t / p_all if p_all else 0.0
        total_r += t / r_all if r_all else 0.0
        tp, fp, fn = tp + t, fp + p_all - t, fn + r_all - t
    precision, recall = total_p / 6, total_r / 6
    b2 = beta * beta
    score = 0.0
    if precision + recall:
        score = (1 + b2) * precision * recall / (b2 * precision + recall) * 100
    return (score, tp, fp, fn, precision, recall)


_TEXT = st.text(alphabet="ab ¬\n(", max_size=24)


@settings(max_examples=400, deadline=None, derandomize=True)
@given(_TEXT, _TEXT, _TEXT, _TEXT, _TEXT)
def test_set_based_counts_agree_with_plain_counters(
    stem: str, tail: str, expected_mid: str, actual_mid: str, original_mid: str
) -> None:
    # Repeated grams (a small alphabet) take the counted path, distinct ones the set path.
    mids = (original_mid, expected_mid, actual_mid)
    original, expected, actual = (stem + mid + tail for mid in mids)
    got = delta_chr_f(original, expected, actual, beta=0.5, whitespace="collapse")
    want = _reference_chr_f(original, expected, actual, 0.5)
    assert (got.score, got.true_positives, got.false_positives, got.false_negatives,
            got.precision, got.recall) == want  # fmt: skip
