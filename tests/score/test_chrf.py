"""delta chrF against the values of reference section 3.3 (computed by running the upstream
code, for the current constants and two earlier ones) and the asserted ones of 3.1."""

from __future__ import annotations

import pytest

from evaltools.score.chrf import braces_disbalance, collapse_whitespace, delta_chr_f

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
