"""The summary says what its numbers are (pooled P/R of the pooled counts, which predictions a
mean leaves out, no perfect precision for an absent prediction), and `--mode eval` scores as
`ep eval` does: an empty prediction for an example without one, related context capped."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from evaltools.__main__ import main
from evaltools.score.context.related_limit import Excerpt, selected
from tests.score._examples import LIB_EXPECTED, PERFECT, example, prediction, write_jsonl


def _run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    rc = main(["score", *args])
    captured = capsys.readouterr()
    return rc, captured.out, captured.err


def _json(capsys: pytest.CaptureFixture[str], *args: str) -> dict[str, Any]:
    rc, out, _ = _run(capsys, "--format", "json", *args)
    assert rc == 0
    result: dict[str, Any] = json.loads(out)
    return result


def test_pooled_precision_and_recall_are_those_of_the_pooled_counts(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # The second example has no document (upstream's quirk, SC101): 0 with no counts at all.
    run = write_jsonl(
        tmp_path / "run.jsonl",
        [
            example("perfect", [prediction(PERFECT)]),
            example("nothing", [prediction(PERFECT)], start_row=None),
        ],
    )
    rc, out, _ = _run(capsys, str(run))
    assert rc == 0
    assert (
        "Delta chrF (\u03b2=0.5): TP=60, FP=0, FN=0, pooled P=100.0% R=100.0% F1=100.0% "
        "(mean per prediction P=50.0%, R=50.0%)\n"
    ) in out
    summary = _json(capsys, str(run))["summary"]  # upstream's keys keep upstream's means
    assert (summary["delta_chr_f_precision"], summary["delta_chr_f_recall"]) == (0.5, 0.5)


def test_an_absent_prediction_does_not_show_as_perfect(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    run = write_jsonl(tmp_path / "run.jsonl", [example("none", [prediction(None)])])
    rc, out, _ = _run(capsys, str(run))
    assert rc == 0
    assert "Jump (pooled): lines P=- R=0.0% F1=0.0%, files P=- R=0.0% F1=0.0%\n" in out
    summary = _json(capsys, str(run))["summary"]
    assert summary["avg_jump_location_lines_precision"] == 1.0  # upstream's 0/0


def test_examples_without_a_prediction_are_named_and_scored_empty_under_eval(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    run = write_jsonl(
        tmp_path / "run.jsonl",
        [example("given", [prediction(PERFECT)]), example("missing", [])],
    )
    rc, out, _ = _run(capsys, str(run))
    assert rc == 0
    assert (
        "Without a prediction: 1 example(s), not scored, as `ep score` does (`--mode eval` "
        "scores one empty prediction for each, as `ep eval` does): missing\n"
    ) in out
    rc, out, _ = _run(capsys, "--format", "markdown", str(run))
    assert "\nWithout a prediction: 1 example(s), not scored, as `ep score` does" in out
    doc = _json(capsys, str(run))
    assert (doc["mode"], doc["summary"]["total_examples"]) == ("score", 1)
    assert doc["without_prediction"] == ["missing"]

    rc, out, _ = _run(capsys, "--mode", "eval", str(run))
    assert rc == 0
    assert (
        "Without a prediction: 1 example(s), each scored as one empty prediction, as `ep eval` "
        "does: missing\n"
    ) in out
    doc = _json(capsys, "--mode", "eval", str(run))
    assert doc["summary"]["total_examples"] == 2
    empty = doc["scores"][1]
    assert (empty["name"], empty["delta_chr_f"], empty["wrong_editable_region"]) == (
        "missing",
        0.0,
        None,
    )
    assert (empty["exact_lines_tp"], empty["exact_lines_fp"], empty["exact_lines_fn"]) == (0, 0, 2)
    assert doc["summary"]["avg_delta_chr_f"] == 50.0


def test_eval_mode_caps_related_context_in_order(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    def excerpt(start: int, text: str, order: int) -> dict[str, Any]:
        rows = {"start": start, "end": start + text.count("\n")}
        return {"row_range": rows, "text": text, "order": order}

    big = "x" * 99 + "\n"
    first = excerpt(0, big * 120, 0)  # 12,000 bytes
    related: list[dict[str, Any]] = [
        {"path": "p/src/big.rs", "max_row": 200, "excerpts": [first]},
        {
            "path": "p/src/lib.rs",
            "max_row": 13,
            "excerpts": [excerpt(10, "fn value() {\n    1\n}\n", 1)],
        },
    ]
    record = example(
        "rel", [prediction(LIB_EXPECTED)], expected=[LIB_EXPECTED], start_row=None, related=related
    )
    run = write_jsonl(tmp_path / "r.jsonl", [record])
    # 12,000 bytes of big.rs come first in `order`: lib.rs no longer fits under ep eval's cap.
    as_score = _json(capsys, str(run))
    as_eval = _json(capsys, "--mode", "eval", str(run))
    assert as_score["scores"][0]["delta_chr_f"] == 100.0
    assert as_eval["scores"][0]["delta_chr_f"] == 0.0
    # The related context is counted as upstream does: once per example, after the cap.
    sizes = [
        (
            doc["summary"]["total_retrieved_context_bytes"],
            doc["summary"]["retrieved_context_examples"],
        )
        for doc in (as_score, as_eval)
    ]
    assert sizes == [(12_021, 1), (12_000, 1)]
    rc, out, _ = _run(capsys, "--mode", "eval", str(run))
    assert rc == 0
    assert "Retrieved context size: 12000 bytes avg (1 examples)\n" in out
    first["text"] = big * 119
    run = write_jsonl(tmp_path / "r.jsonl", [record])
    assert _json(capsys, "--mode", "eval", str(run))["scores"][0]["delta_chr_f"] == 100.0


def test_the_cap_takes_excerpts_by_order_counting_rows_not_yet_covered() -> None:
    # Upstream's own case (CLI/score.rs): "abcd" (order 0) and "efghij" (order 2) fit in 10.
    files = [[Excerpt(0, 1, "abcd", 0), Excerpt(5, 6, "efghij", 2)]]
    assert selected(files, 10) == [[True, True]]
    assert selected(files, 9) == [[True, False]]
    # Order first, whatever the file: the later file's order-0 excerpt is taken first.
    two = [[Excerpt(0, 1, "aaaa\n", 1)], [Excerpt(0, 1, "bbbb\n", 0)]]
    assert selected(two, 5) == [[False], [True]]
    # Rows an excerpt of the same file already covers cost nothing; one adding nothing is
    # left out.
    overlap = [[Excerpt(0, 2, "a\nb\n", 0), Excerpt(1, 3, "b\nc\n", 1), Excerpt(0, 1, "a\n", 2)]]
    assert selected(overlap, 6) == [[True, True, False]]
    assert selected(overlap, 5) == [[True, False, False]]


def test_write_scores_refuses_eval_mode(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    run = write_jsonl(tmp_path / "run.jsonl", [example("ex", [prediction(PERFECT)])])
    before = run.read_bytes()
    rc, _, err = _run(capsys, "--mode", "eval", "--write-scores", str(run))
    assert rc == 2
    assert "--write-scores writes score[] as `ep score` does" in err
    assert run.read_bytes() == before
