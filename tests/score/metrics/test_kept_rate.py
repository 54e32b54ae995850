"""kept_rate / recall_rate: the values upstream's `MET/kept_rate.rs` tests assert (reference
3.1) and the bounds they check."""

from __future__ import annotations

import random

import pytest

from evaltools.score.metrics import kept_rate
from evaltools.score.metrics.kept_rate import MAX_DIRTY_LENGTH_DELTA, compute_kept_rate, keep_masks
from evaltools.score.metrics.tokens import tokenize, word_units

EPR = "fn example() {\n    epr\n"


def test_lcs_keep_masks() -> None:
    assert keep_masks(list("abcde"), list("ace")) == (
        [True, False, True, False, True],
        [True, True, True],
    )
    assert keep_masks([], ["x"]) == ([], [False])
    # Each side's mask is the one-sided mask of that side (the historical behaviour).
    a, b = ["x", "a", "x", "b"], ["a", "x", "b", "x"]
    mask_a, mask_b = keep_masks(a, b)
    assert mask_a == keep_masks(a, b)[0] and mask_b == keep_masks(b, a)[0]
    assert (mask_a, mask_b) == ([False, True, True, True], [True, True, True, False])


def _merged(text: str) -> list[str]:
    """Upstream's construction: tokens, then each run of identifier tokens joined."""
    out: list[str] = []
    run = ""
    for token in tokenize(text):
        if all(c.isalnum() or c == "_" for c in token):
            run += token
            continue
        out += [run, token] if run else [token]
        run = ""
    return [*out, run] if run else out


class _FullTable:
    """The whole dynamic-programming table, as upstream fills it: the oracle for the bit-vector
    rows."""

    def __init__(self, a: list[str], b: list[str]) -> None:
        self.table = [[0] * (len(b) + 1) for _ in range(len(a) + 1)]
        for i, x in enumerate(a, 1):
            for j, y in enumerate(b, 1):
                up, left = self.table[i - 1][j], self.table[i][j - 1]
                self.table[i][j] = self.table[i - 1][j - 1] + 1 if x == y else max(up, left)

    def lcs(self, i: int, j: int) -> int:
        return self.table[i][j]


def test_keep_masks_match_the_full_table(monkeypatch: pytest.MonkeyPatch) -> None:
    rng = random.Random(7)
    cases = []
    for _ in range(400):
        a = [rng.choice("abcx") for _ in range(rng.randrange(0, 12))]
        b = [rng.choice("abcy") for _ in range(rng.randrange(0, 12))]
        cases.append((a, b, keep_masks(a, b)))
    monkeypatch.setattr(kept_rate, "_Table", _FullTable)
    for a, b, found in cases:
        assert found == keep_masks(a, b), (a, b)


@pytest.mark.parametrize(
    "text",
    [
        "foo(new_name)",
        "HTTPServer.getX2y_z  =>  a::b\r\n\n\tCamelCase_snake__x9",
        "caf\u00e9 = na\u00efve_\u65e5\u672c\u8a9e + \U0001f389; x\u00a0y",
        "",
    ],
)
def test_identifier_tokens_are_merged_into_units(text: str) -> None:
    assert word_units(text) == _merged(text)
    assert word_units("foo(new_name)") == ["foo", "(", "new_name", ")"]


def test_rate_extremes() -> None:
    no_change = compute_kept_rate("foo bar", "foo bar", "foo bar")
    assert (no_change.kept_rate, no_change.recall_rate, no_change.candidate_new) == (1.0, 1.0, 0)
    accepted = compute_kept_rate("old", "new", "new")
    assert (accepted.kept_rate, accepted.recall_rate) == (1.0, 1.0)
    discarded = compute_kept_rate("old", "old", "new")
    assert (discarded.kept_rate, discarded.recall_rate) == (0.0, 0.0)


def test_pure_addition() -> None:
    kept = compute_kept_rate("", "brand new line\n", "brand new line\n")
    assert kept.kept == kept.candidate_new
    other = compute_kept_rate("", "brand new line\n", "something completely different\n")
    assert other.kept < other.candidate_new


def test_decoy_when_base_excluded() -> None:
    base = "    decoy.when(mock_sync_hardware_api.sp()).then_return(SpeedStatus.IDLE)\n"
    candidate = (
        "    decoy.when(mock_sync_module_hardware.speed_status).then_return(SpeedStatus.IDLE)\n"
    )
    result = compute_kept_rate(base, candidate, candidate)
    assert result.candidate_new == len("mock_sync_module_hardware") + len("speed_status")
    assert result.correctly_deleted > 0
    assert (result.kept_rate, result.recall_rate) == (1.0, 1.0)


def test_missing_deletion() -> None:
    result = compute_kept_rate(EPR, EPR + 'eprintln!("");\n', 'fn example() {\neprintln!("");\n')
    assert result.kept_rate == pytest.approx(14 / 15, abs=1e-6)
    assert (result.kept, result.discarded) == (14, 1)


def test_empty_prediction() -> None:
    result = compute_kept_rate("old line\n", "", "new line\n")
    assert result.candidate_new == 0
    assert 0 < result.correctly_deleted < result.candidate_deleted
    assert 0.0 < result.kept_rate < 1.0 and 0.0 < result.recall_rate < 1.0


def test_partial_kept() -> None:
    result = compute_kept_rate("old\n", "alpha\nbeta\ngamma\n", "alpha\ngamma\n")
    assert result.kept > 0 and result.discarded > 0
    assert 0.0 < result.kept_rate < 1.0


def test_bails_for_dirty_final() -> None:
    base = "fn example() {\n    work();\n}\n"
    candidate = "fn example() {\n    work();\n    predicted();\n}\n"
    settled = "settled();\n    " * (MAX_DIRTY_LENGTH_DELTA // 8 + 64)
    reference = f"fn example() {{\n    work();\n    {settled}\n}}\n"
    result = compute_kept_rate(base, candidate, reference)
    assert (result.kept_rate, result.recall_rate, result.kept) == (0.0, 0.0, 0)
    assert result.discarded == result.candidate_new


def test_eprintln_token_alignment() -> None:
    result = compute_kept_rate(
        EPR,
        'fn example() {\n    eprintln!("hello world!");\n',
        'fn example() {\n    eprintln!("");\n',
    )
    assert 0.0 < result.kept_rate < 1.0
    assert (result.kept, result.discarded) == (14, 12)


def test_kept_rate_treats_unchanged_stale_text_as_context() -> None:
    result = compute_kept_rate("a=fomr\nb=old\n", "a=formula;\nb=old\n", "a=formula;\nb=new\n")
    assert result.candidate_new == result.kept == len("formula;")
    assert result.discarded == 0
    assert result.candidate_deleted == result.correctly_deleted == len("fomr")
    assert result.kept_rate == 1.0
    assert result.recall_rate == pytest.approx(2 / 3, abs=1e-6)


def test_annotations_rename() -> None:
    result = compute_kept_rate("    foo(old_name)\n", "    foo(new_name)\n", "    foo(new_name)\n")
    assert result.candidate_new == len("new_name")
    assert result.candidate_deleted == result.reference_deleted == len("old_name")
    assert result.correctly_deleted == len("old_name")
    assert result.recall_rate == 1.0


def test_repetitive_tokens_remain_discarded() -> None:
    result = compute_kept_rate(
        "foo + foo + foo + foo + foo\n" * 16,
        "foo + foo + prediction_token + foo + foo\n" * 16,
        "foo + foo + kept_token + foo + foo\n" * 16,
    )
    assert result.kept == 0
    assert result.correctly_deleted == len("foo") * 16
    assert result.discarded == result.candidate_new == len("prediction_token") * 16
    assert result.kept_rate > 0.0 and result.recall_rate > 0.0


def test_sizes_are_utf8_bytes() -> None:
    result = compute_kept_rate("x = 1\n", "x = \u00e9t\u00e9\n", "x = \u00e9t\u00e9\n")
    assert result.candidate_new == len("\u00e9t\u00e9".encode()) == 5
