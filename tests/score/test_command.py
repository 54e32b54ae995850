"""`evaltools score` end to end: in-process runs on hand-made `ep predict` examples."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path
from typing import Any

import pytest

from evaltools.__main__ import main
from evaltools.cli.table import METRICS
from evaltools.score.definitions import NAMES
from tests.conftest import CORPUS
from tests.score._examples import (
    EXCERPT,
    LIB_EXPECTED,
    NEAR,
    NOT_APPLYING,
    PERFECT,
    example,
    prediction,
    write_jsonl,
)


def _score(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, dict[str, Any], str]:
    rc = main(["score", "--format", "json", *args])
    captured = capsys.readouterr()
    return rc, json.loads(captured.out), captured.err


def test_perfect_empty_and_non_applying_predictions(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    preds = [prediction(PERFECT), prediction(""), prediction(NOT_APPLYING), prediction(None)]
    path = write_jsonl(tmp_path / "run.jsonl", [example("ex", preds)])
    rc, doc, err = _score(capsys, str(path))
    assert rc == 0  # warnings only
    assert doc["metric"] == "v6"
    scores = doc["scores"]
    assert [(s["name"], s["prediction"]) for s in scores] == [
        ("ex", 0),
        ("ex", 1),
        ("ex", 2),
        ("ex", 3),
    ]
    assert [s["delta_chr_f"] for s in scores] == [100.0, 0.0, 0.0, 0.0]
    assert scores[1]["delta_chr_f_false_negatives"] == 60
    assert scores[1]["wrong_editable_region"] is False
    assert scores[3]["wrong_editable_region"] is None
    assert list(scores[0])[:4] == [
        "name",
        "prediction",
        "delta_chr_f",
        "delta_chr_f_true_positives",
    ]
    assert "SC002" in err and "/predictions/2" in err
    summary = doc["summary"]
    assert summary["total_examples"] == 4
    assert summary["avg_delta_chr_f"] == 25.0
    assert summary["exact_lines_true_positives"] == 3  # 2 + 0 + 1 + 0
    assert summary["wrong_editable_region_rate"] == 0.0
    assert summary["isolated_whitespace_rate"] == 0.0
    assert summary["isolated_whitespace_count"] == 0
    assert [s["kept_rate"] for s in scores] == [1.0, 0.0, 0.0, 0.0]
    keys = list(summary)
    assert keys[keys.index("exact_lines_f1") + 1] == "avg_reversal_ratio"
    assert summary["avg_reversal_ratio"] == 0.0
    # Jump location: the perfect prediction's row matches; no patch or an empty one has none.
    assert [s["jump_location"]["lines_tp"] for s in scores] == [1, 0, 1, 0]
    assert summary["jump_location_examples"] == 4
    assert (summary["jump_location_lines_tp"], summary["jump_location_lines_fn"]) == (2, 2)
    assert summary["avg_jump_location_files_f1"] == 0.5
    assert summary["editable_context_examples"] == 4
    assert summary["avg_editable_context_lines_recall"] == 1.0
    kept = {k: v for k, v in summary.items() if "kept" in k or "recall_rate" in k or "_chars" in k}
    assert kept == {
        "avg_kept_rate": 0.25,
        "kept_rate_examples": 4,
        "avg_recall_rate": 0.25,
        "recall_rate_examples": 4,
        "total_kept_chars": 3,
        "total_correctly_deleted_chars": 2,
        "total_discarded_chars": 0,
    }
    assert doc["groups"] == {}


def test_kept_rate_means_skip_predictions_without_one(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Without excerpt_start_row or related files upstream has no kept rate (None), and its
    # means are over the predictions that have one.
    records = [
        example("rated", [prediction(PERFECT.replace("100;", "99;"))]),
        example("unrated", [prediction(PERFECT)], start_row=None),
    ]
    rc, doc, _ = _score(capsys, str(write_jsonl(tmp_path / "run.jsonl", records)))
    assert rc == 0
    assert "kept_rate" not in doc["scores"][1]
    summary = doc["summary"]
    assert (summary["avg_kept_rate"], summary["avg_recall_rate"]) == (0.5, 0.4)
    assert summary["kept_rate_examples"] == summary["recall_rate_examples"] == 1
    rc = main(["score", str(tmp_path / "run.jsonl")])
    assert (
        "Kept rate: 50.0%, recall rate: 40.0% over 1 of 2 predictions (chars kept 0, correctly "
        "deleted 2, discarded 2); left out, as upstream does, 1 where neither the prediction "
        "nor any expected patch changes a document it is scored on: unrated\n"
    ) in capsys.readouterr().out


def test_several_expected_patches_ties_go_to_the_last(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    first = PERFECT.replace("100;", "100;<|user_cursor|>")
    second = PERFECT.replace("    let x = 100;", "    let x<|user_cursor|> = 100;")
    preds = [prediction(PERFECT, cursor=21)]
    path = write_jsonl(tmp_path / "run.jsonl", [example("tie", preds, expected=[first, second])])
    rc, doc, _ = _score(capsys, str(path))
    assert rc == 0
    assert doc["scores"][0]["delta_chr_f"] == 100.0
    assert (doc["scores"][0]["cursor_distance"], doc["scores"][0]["cursor_exact_match"]) == (
        0,
        True,
    )
    # The better patch wins whatever its place.
    worse = PERFECT.replace("100;", "7;<|user_cursor|>")
    path = write_jsonl(tmp_path / "run.jsonl", [example("best", preds, expected=[first, worse])])
    _, doc, _ = _score(capsys, str(path))
    assert doc["scores"][0]["delta_chr_f"] == 100.0
    assert doc["scores"][0]["cursor_distance"] == 7


def test_related_file_documents_drop_the_first_path_component(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    related = [
        {
            "path": "project/src/lib.rs",
            "max_row": 13,
            "excerpts": [
                {
                    "row_range": {"start": 10, "end": 13},
                    "text": "fn value() {\n    1\n}\n",
                    "order": 0,
                }
            ],
        }
    ]
    record = example(
        "rel", [prediction(LIB_EXPECTED)], expected=[LIB_EXPECTED], start_row=None, related=related
    )
    rc, doc, err = _score(capsys, str(write_jsonl(tmp_path / "r.jsonl", [record])))
    assert rc == 0
    assert doc["scores"][0]["delta_chr_f"] == 100.0
    assert doc["scores"][0]["delta_chr_f_true_positives"] == 36
    assert "SC101" not in err


def test_quirk_no_documents_is_reproduced_and_reported(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = example("quirk", [prediction(PERFECT)], start_row=None)
    path = write_jsonl(tmp_path / "q.jsonl", [record])
    rc, doc, err = _score(capsys, str(path))
    assert doc["scores"][0]["delta_chr_f"] == 0.0
    assert "SC101" in err and "q.jsonl:1:1" in err
    assert rc == 0
    # The definition before the rewrite scores on the excerpt and has no such quirk.
    rc, doc, err = _score(capsys, "--metric", "v5", str(path))
    assert doc["metric"] == "v5"
    assert doc["scores"][0]["delta_chr_f"] == 100.0
    assert "SC101" not in err


def test_old_cursor_marker_in_an_expected_patch_is_a_finding(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    old = PERFECT.replace("100;\n", "100;\n#" + " " * 16 + "^[CURSOR_POSITION]\n")
    preds = [prediction(PERFECT, cursor=28)]
    path = write_jsonl(tmp_path / "o.jsonl", [example("old", preds, expected=[old])])
    _, doc, err = _score(capsys, str(path))
    assert "SC102" in err
    # The current parser keeps the marker line: no expected cursor, so no match.
    assert doc["scores"][0]["delta_chr_f"] == 100.0
    assert "cursor_distance" not in doc["scores"][0]
    assert doc["scores"][0]["cursor_exact_match"] is False
    # Before 2026-06-25 the marker line was the cursor.
    _, doc, _ = _score(capsys, "--metric", "v4", str(path))
    assert doc["scores"][0]["delta_chr_f"] == 100.0
    assert doc["scores"][0]["cursor_distance"] == 0


def test_missing_prompt_inputs_is_an_error_and_the_rest_is_scored(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    broken = example("broken", [prediction(PERFECT)])
    del broken["prompt_inputs"]
    path = write_jsonl(tmp_path / "m.jsonl", [broken, example("fine", [prediction(NEAR)])])
    rc, doc, err = _score(capsys, str(path))
    assert rc == 1
    assert "m.jsonl:1:1: SC003" in err
    assert [s["name"] for s in doc["scores"]] == ["fine"]
    assert doc["scores"][0]["delta_chr_f"] == 48.73658


@pytest.mark.parametrize(
    "mutate",
    [
        lambda r: r["prompt_inputs"].update(cursor_excerpt=3),
        lambda r: r["prompt_inputs"].update(related_files=[{"path": 1}]),
        lambda r: r["prompt_inputs"].update(
            related_files=[{"path": "a/b", "excerpts": [{"row_range": 1}]}]
        ),
        lambda r: r["prompt_inputs"].update(excerpt_start_row="ten"),
        lambda r: r.update(predictions={"a": 1}),
        lambda r: r.update(predictions=[3]),
        lambda r: r.update(predictions=[{"actual_patch": 5}]),
        lambda r: r.update(prompt_inputs=[]),
    ],
)
def test_malformed_examples_are_findings_never_crashes(
    mutate: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = example("bad", [prediction(PERFECT)])
    mutate(record)
    path = write_jsonl(tmp_path / "b.jsonl", [record, example("good", [prediction(PERFECT)])])
    rc, doc, err = _score(capsys, str(path))
    assert rc == 1
    assert "b.jsonl:1:1: SC003" in err
    assert [s["name"] for s in doc["scores"]] == ["good"]


def test_unreadable_inputs_are_findings(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "x.jsonl").write_text('{"name": \n[1, 2]\n\n', encoding="utf-8")
    (tmp_path / "y.json").write_bytes(b"\xff\xfe")
    prediction_only = example(
        "p", [prediction("just some text\n"), prediction("@@ -1 +1 @@\n-a\n+b\n")]
    )
    write_jsonl(tmp_path / "z.jsonl", [prediction_only])
    rc, doc, err = _score(capsys, str(tmp_path))
    assert rc == 1
    assert "x.jsonl:1" in err and "y.json:1" in err
    assert "SC001" in err  # text that is no diff
    assert [s["delta_chr_f"] for s in doc["scores"]] == [0.0, 0.0]


def test_markdown_examples_with_a_predictions_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = CORPUS / "flask--add-import-statement.md"
    shutil.copy(source, tmp_path / source.name)
    from evaltools.example.diffs.patch_cursor import extract_cursor_from_patch
    from evaltools.example.markdown.reader import from_markdown

    spec = from_markdown(source.read_text(encoding="utf-8"), "flask--add-import-statement")
    patch, cursor = extract_cursor_from_patch(spec.expected_patches[1])
    lines = [
        {"name": "flask--add-import-statement", "patch": patch, "cursor_offset": cursor},
        {"name": "flask--add-import-statement", "patch": None},
        {"name": "no-such-example", "patch": ""},
        {"name": "flask--add-import-statement", "patch": 7},
    ]
    predictions = tmp_path / "p.jsonl"
    predictions.write_text(
        "".join(json.dumps(x) + "\n" for x in lines) + "{oops\n", encoding="utf-8"
    )
    rc, doc, err = _score(capsys, str(tmp_path / source.name), "--predictions", str(predictions))
    assert rc == 1
    assert [s["delta_chr_f"] for s in doc["scores"]] == [100.0, 0.0]
    assert (doc["scores"][0]["cursor_distance"], doc["scores"][0]["cursor_exact_match"]) == (
        0,
        True,
    )
    assert "p.jsonl:3:1: SC004" in err
    assert "p.jsonl:4:1: SC005" in err and "p.jsonl:5:1: SC005" in err


# An example without predictions: --write-scores leaves it as it is.
UNSCORED = {
    "name": "spec-only",
    "repository_url": "u",
    "revision": "r",
    "cursor_path": "a",
    "cursor_position": "x",
    "edit_history": "",
    "expected_patches": [],
}


def test_write_scores_changes_only_the_scored_records(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    unscored = UNSCORED
    path = write_jsonl(
        tmp_path / "w.jsonl", [example("ex", [prediction(PERFECT), prediction(NEAR)]), unscored]
    )
    before = path.read_bytes().splitlines(keepends=True)
    rc = main(["score", "--write-scores", str(path)])
    capsys.readouterr()
    assert rc == 0
    after = path.read_bytes().splitlines(keepends=True)
    assert after[1] == before[1]
    record = json.loads(after[0])
    assert list(record)[-3:] == ["predictions", "score", "zed_version"]
    assert [s["delta_chr_f"] for s in record["score"]] == [100.0, 48.73658]
    assert {k: v for k, v in record.items() if k != "score"} == json.loads(before[0])
    # Written again, nothing changes; a baseline read from the filled file pairs with the run.
    main(["score", "--write-scores", str(path)])
    capsys.readouterr()
    assert path.read_bytes().splitlines(keepends=True) == after
    rc, doc, _ = _score(capsys, "--baseline", str(path), str(path))
    assert doc["groups"]["all"]["baseline_difference"]["pairs"] == 2
    assert doc["groups"]["all"]["baseline_difference"]["avg_delta_chr_f"] == 0.0


@pytest.mark.parametrize("where", ["before a record", "inside a record"])
def test_write_scores_counts_lines_at_newlines_only(
    where: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # A lone "\r" is JSON whitespace: the reader keeps it inside the line, so the writer
    # must too, or the scores land in the record before (or the file is refused).
    unscored = json.dumps(UNSCORED)
    scored = json.dumps(example("b", [prediction(PERFECT)]))
    first = "\r" + unscored if where == "before a record" else unscored.replace(", ", ",\r", 1)
    path = tmp_path / "w.jsonl"
    path.write_bytes(f"{first}\n{scored}\n".encode())
    assert main(["score", "--write-scores", str(path)]) == 0
    capsys.readouterr()
    first_after, second_after, rest = path.read_bytes().split(b"\n")
    assert (first_after, rest) == (first.encode(), b"")
    assert [s["delta_chr_f"] for s in json.loads(second_after)["score"]] == [100.0]


def test_a_predictions_line_is_counted_at_newlines_only(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = CORPUS / "flask--add-import-statement.md"
    shutil.copy(source, tmp_path / source.name)
    predictions = tmp_path / "p.jsonl"
    predictions.write_bytes(
        b'\r{"name": "flask--add-import-statement", "patch": null}\n{"name": 5}\n'
    )
    rc, _, err = _score(capsys, str(tmp_path / source.name), "--predictions", str(predictions))
    assert rc == 1
    assert "p.jsonl:2:1: SC005" in err and "p.jsonl:3" not in err


def test_write_scores_into_a_pretty_json_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "one.json"
    path.write_text(
        json.dumps(example("one", [prediction(PERFECT)]), indent=2) + "\n", encoding="utf-8"
    )
    assert main(["score", "--write-scores", str(path)]) == 0
    capsys.readouterr()
    text = path.read_text(encoding="utf-8")
    assert text.endswith("}\n") and '\n  "score": [\n' in text
    assert json.loads(text)["score"][0]["delta_chr_f"] == 100.0


def test_groups_baseline_and_formats(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    records = [
        example(
            f"ex{i}", [prediction(PERFECT if i % 2 else NEAR)], tags=["a"] if i < 4 else ["b", "a"]
        )
        for i in range(8)
    ]
    base = write_jsonl(tmp_path / "base.jsonl", records)
    rc, doc, _ = _score(capsys, "--by", "tag", str(base))
    assert rc == 0
    assert set(doc["groups"]) == {"a", "b"}
    assert doc["groups"]["a"]["summary"]["total_examples"] == 8
    assert doc["groups"]["b"]["summary"]["total_examples"] == 4
    baseline = tmp_path / "baseline.json"
    baseline.write_text(json.dumps(doc), encoding="utf-8")
    better = [
        example(f"ex{i}", [prediction(PERFECT)], tags=["a"] if i < 4 else ["b", "a"])
        for i in range(8)
    ]
    run = write_jsonl(tmp_path / "run.jsonl", better)
    _, doc, _ = _score(capsys, "--by", "tag", "--baseline", str(baseline), str(run))
    diff = doc["groups"]["a"]["baseline_difference"]
    assert diff["pairs"] == 8
    assert diff["avg_delta_chr_f"] == pytest.approx((100 - 48.73658) / 2, abs=1e-4)
    assert (
        0.0
        <= diff["ci95_low"]
        <= diff["avg_delta_chr_f"]
        <= diff["ci95_high"]
        <= 100 - 48.73658 + 1e-4
    )
    _, again, _ = _score(capsys, "--by", "tag", "--baseline", str(baseline), str(run))
    assert again["groups"] == doc["groups"]  # the bootstrap is seeded
    assert (
        main(
            [
                "score",
                "--by",
                "provider",
                "--baseline",
                str(baseline),
                "--format",
                "markdown",
                str(run),
            ]
        )
        == 0
    )
    markdown = capsys.readouterr().out
    assert markdown.startswith("### Prediction scores (metric `v6`)")
    assert "| zeta2 | 8 | 100.00 | 100.0% | +25.63 (" in markdown
    assert main(["score", "--by", "repo", str(run)]) == 0
    text = capsys.readouterr().out
    assert "TOTAL / AVERAGE" in text and "Delta chrF (\u03b2=0.5): TP=480" in text
    assert "https://github.com/o/r" in text


def test_bad_baseline_and_missing_paths_are_usage_errors(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    run = write_jsonl(tmp_path / "run.jsonl", [example("ex", [prediction(PERFECT)])])
    (tmp_path / "empty.json").write_text("{}", encoding="utf-8")
    assert main(["score", "--baseline", str(tmp_path / "empty.json"), str(run)]) == 2
    assert "holds no scores" in capsys.readouterr().err
    assert main(["score", str(tmp_path / "missing.jsonl")]) == 2
    os.mkfifo(tmp_path / "fifo")  # refused by the input policy, never waited on
    assert main(["score", "--baseline", str(tmp_path / "fifo"), str(run)]) == 2
    assert "--baseline" in capsys.readouterr().err
    assert main(["score", "--baseline", str(tmp_path), str(run)]) == 2
    assert "is a directory: give the baseline's JSON file" in capsys.readouterr().err
    assert main(["score", "--metric", "v9", str(run)]) == 2


def test_a_baseline_jsonl_keeps_a_raw_line_separator_inside_its_strings(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # JSON needs no escape for U+2028 or U+0085; a line of JSONL ends at "\n" only.
    run = write_jsonl(tmp_path / "run.jsonl", [example("ex", [prediction(PERFECT)])])
    scored = [
        {"name": "ex", "note": "a\u2028b\u0085c", "score": [{"delta_chr_f": 40.0}]},
        {"name": "other", "score": [{"delta_chr_f": 10.0}]},
    ]
    baseline = tmp_path / "baseline.jsonl"
    # ... and a lone "\r" between members is JSON whitespace, not a line's end.
    lines = [json.dumps(r, ensure_ascii=False).replace(", ", ",\r", 1) for r in scored]
    baseline.write_bytes("".join(line + "\n" for line in lines).encode())
    rc, doc, _ = _score(capsys, "--baseline", str(baseline), str(run))
    assert rc == 0
    assert doc["groups"]["all"]["baseline_difference"]["pairs"] == 1
    assert doc["groups"]["all"]["baseline_difference"]["avg_delta_chr_f"] == 60.0


def test_the_cli_choices_are_the_definitions() -> None:
    assert set(METRICS) == set(NAMES)


def test_cursor_excerpt_is_the_base_text() -> None:
    assert EXCERPT.startswith("fn main()")


def test_worker_processes_give_the_same_output(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    records = [
        example(f"ex{i}", [prediction(PERFECT), prediction(NEAR), prediction(None)])
        for i in range(6)
    ]
    broken = example("broken", [prediction(PERFECT)])
    del broken["prompt_inputs"]
    path = write_jsonl(tmp_path / "many.jsonl", [*records[:3], broken, *records[3:]])
    one = _score(capsys, "--jobs", "1", str(path))
    two = _score(capsys, "--jobs", "2", str(path))
    assert one == two
    assert one[0] == 1 and len(one[1]["scores"]) == 18


@pytest.mark.parametrize("change", ["inserted above", "none"])
def test_write_scores_refuses_a_file_whose_scored_record_moved(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, change: str
) -> None:
    # Scores are placed by record index on the file read again: a record inserted above the
    # scored one while it was scored would shift every score onto its neighbour.
    from evaltools.score import write

    path = write_jsonl(tmp_path / "w.jsonl", [example("a", [prediction(PERFECT)])])
    real = write.write_scores

    def meanwhile(*args: object, **kwargs: object) -> object:
        if change == "inserted above":
            path.write_bytes(b'{"name": "new"}\n' + path.read_bytes())
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(write, "write_scores", meanwhile)
    before = path.read_bytes() if change == "none" else None
    rc = main(["score", "--write-scores", str(path)])
    out = "".join(capsys.readouterr())
    if change == "none":
        assert rc == 0 and path.read_bytes() != before
        assert json.loads(path.read_bytes())["score"][0]["delta_chr_f"] == 100.0
    else:
        assert rc == 1
        assert "IO020" in out and "record 1 is no longer 'a': the file changed meanwhile" in out
        assert path.read_bytes().startswith(b'{"name": "new"}\n{"name": "a"')
        assert b'"score"' not in path.read_bytes()
