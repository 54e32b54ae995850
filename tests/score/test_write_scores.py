"""`--write-scores`: what it writes (upstream's field order, `reversal_ratio` where it is
known), that it keeps every byte it does not own, that it is idempotent, and that it refuses
a file it cannot write faithfully."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from evaltools.__main__ import main
from evaltools.score.write import with_scores
from tests.score._examples import EXCERPT, NEAR, PERFECT, example, prediction

# Upstream's `PredictionScore` fields, in its order (reference section 1.5), that are written
# here; the optional ones it skips when None are left out as it leaves them out.
UPSTREAM_ORDER = [
    "delta_chr_f",
    "delta_chr_f_true_positives",
    "delta_chr_f_false_positives",
    "delta_chr_f_false_negatives",
    "delta_chr_f_precision",
    "delta_chr_f_recall",
    "delta_chr_f_beta",
    "braces_disbalance",
    "exact_lines_tp",
    "exact_lines_fp",
    "exact_lines_fn",
    "reversal_ratio",
    "cursor_distance",
    "cursor_exact_match",
    "wrong_editable_region",
    "has_isolated_whitespace_changes",
    "inserted_tokens",
    "deleted_tokens",
    "kept_rate",
    "recall_rate",
    "kept_chars",
    "correctly_deleted_chars",
    "discarded_chars",
    "cumulative_logprob",
    "avg_logprob",
    "editable_context_coverage",
    "jump_location",
]
USER_EDIT = {
    "event": "BufferChange",
    "path": "project/src/main.rs",
    "old_path": "project/src/main.rs",
    "diff": "@@ -12,1 +12,1 @@\n-    let x = 4;\n+    let x = 42;\n",
    "predicted": False,
    "in_open_source_repo": False,
}


def _with_events(record: dict[str, Any], events: list[dict[str, Any]]) -> dict[str, Any]:
    record["prompt_inputs"]["events"] = events
    return record


def _without_score(text: str) -> str:
    """`text` with its `score` member and one separator cut out."""
    if '"score"' not in text:
        return text
    start = text.index('"score"')
    value = text.index(":", start) + 1
    value += len(text[value:]) - len(text[value:].lstrip())
    _, end = json.JSONDecoder().raw_decode(text, value)
    rest = text[end:].lstrip()
    if rest.startswith(","):  # a member follows: cut through the separator
        follows = rest[1:].lstrip()
        return text[:start] + follows
    head = text[:start].rstrip()
    assert head.endswith(",")
    return head[:-1] + text[end:]


def _run(capsys: pytest.CaptureFixture[str], *paths: Path) -> tuple[int, str]:
    rc = main(["score", "--write-scores", *map(str, paths)])
    return rc, capsys.readouterr().err


def test_entries_follow_upstream_field_order(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "run.jsonl"
    logged = {**prediction(NEAR, cursor=3), "cumulative_logprob": -3.5, "avg_logprob": -0.25}
    path.write_text(json.dumps(example("ex", [logged, prediction(None)])))
    rc, _ = _run(capsys, path)
    assert rc == 0
    near, missing = json.loads(path.read_text())["score"]
    assert list(near) == UPSTREAM_ORDER
    assert (near["cumulative_logprob"], near["avg_logprob"]) == (-3.5, -0.25)
    # An expected cursor and none predicted: no distance, not an exact match. No logprobs.
    left_out = ("cursor_distance", "cumulative_logprob", "avg_logprob")
    assert list(missing) == [k for k in UPSTREAM_ORDER if k not in left_out]
    assert missing["cursor_exact_match"] is False
    # No user edit of the cursor file among the events: upstream's ratio is 0.
    assert near["reversal_ratio"] == 0.0
    # `99` for `42`: one token deleted, one inserted; no patch counts nothing.
    assert (near["inserted_tokens"], near["deleted_tokens"]) == (1, 1)
    assert (missing["inserted_tokens"], missing["deleted_tokens"]) == (0, 0)


def test_other_bytes_are_kept_and_a_second_run_changes_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    scored = example("ex", [prediction(PERFECT), prediction(NEAR)])
    scored["tags"] = ["caf\u00e9"]
    scored["prompt_inputs"]["excerpt_ranges"] = {"editable_150": {"start": 0, "end": 1.0}}
    spaced = json.dumps(scored)  # ", " and ": ", \u00e9 escaped, 1.0 as written
    unscored = '{ "name" : "spec", "expected_patches" : [ ] }'
    compact = json.dumps(example("cmp", [prediction(NEAR)]), separators=(",", ":"))
    qa = example("qa", [prediction(PERFECT)])
    qa["qa"] = [None]
    qa["zed_version"] = "0.1"
    data = f"{spaced}\r\n{unscored}\n\n{compact}\n{json.dumps(qa, ensure_ascii=False)}"
    path = tmp_path / "mixed.jsonl"
    path.write_bytes(data.encode())
    rc, err = _run(capsys, path)
    # The bad and blank lines are findings, and kept as they are; the others are written.
    assert rc == 1 and "CV002" in err and "CV004" in err
    once = path.read_bytes()
    before, after = data.encode().split(b"\n"), once.split(b"\n")
    assert [b'"score"' in line for line in after] == [True, False, False, True, True]
    for old, new in zip(before, after, strict=True):
        assert _without_score(new.decode()) == old.decode()
        if new != old:
            record = json.loads(new)
            assert len(record["score"]) == len(record["predictions"])
    assert after[0].endswith(b"\r")
    assert b'"tags": ["caf\\u00e9"]' in after[0] and b'"end": 1.0}' in after[0]
    assert b'"predictions": [' in after[0] and b', "score": [{"delta_chr_f": 100.0, ' in after[0]
    assert b'],"score":[{"delta_chr_f":48.73658,' in after[3]
    # Before the first of upstream's later keys (zed_version, then qa, here).
    assert after[4].index(b'], "score": [') < after[4].index(b'"zed_version"')
    rc, _ = _run(capsys, path)
    assert path.read_bytes() == once


def test_splicing_leaves_every_other_byte() -> None:
    scores: list[dict[str, Any]] = [{"delta_chr_f": 1.5}]
    for text, expected in [
        (
            '{"a" :1 , "zed_version":null}',
            '{"a" :1 , "score" :[{"delta_chr_f":1.5}] , "zed_version":null}',
        ),
        ('{"a":1}', '{"a":1, "score":[{"delta_chr_f":1.5}]}'),
        ('{"a": 1, "b": 2}', '{"a": 1, "b": 2, "score": [{"delta_chr_f": 1.5}]}'),
        ('{"a:b": 1, "score": [3]}', '{"a:b": 1, "score": [{"delta_chr_f": 1.5}]}'),
        ("{ }", '{ "score": [{"delta_chr_f": 1.5}]}'),
    ]:
        assert with_scores(text, scores) == expected
        assert with_scores(expected, scores) == expected


def test_pretty_json_keeps_its_layout(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "one.json"
    record = example("one", [prediction(PERFECT)])
    path.write_text(json.dumps(record, indent=2) + "\n")
    rc, _ = _run(capsys, path)
    assert rc == 0
    text = path.read_text()
    scores = json.loads(text)["score"]
    zed = record.pop("zed_version")
    assert text == json.dumps({**record, "score": scores, "zed_version": zed}, indent=2) + "\n"
    _run(capsys, path)
    assert path.read_text() == text


REPETITIVE = "A\n" + "x\n" * 64 + "B\n"
HEAD = "--- a/src/main.rs\n+++ b/src/main.rs\n"
A_TO_C = "@@ -1,2 +1,2 @@\n-A\n+C\n x\n"
B_TO_D = "@@ -65,2 +65,2 @@\n x\n-B\n+D\n"


def test_a_reversal_ratio_after_a_user_edit_is_written(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # The user typed the `2` of `42`; the prediction replaces `42` by `99`: 1 of its 4 changed
    # characters removes what the user added.
    path = tmp_path / "edited.jsonl"
    path.write_text(json.dumps(_with_events(example("edited", [prediction(NEAR)]), [USER_EDIT])))
    rc, err = _run(capsys, path)
    assert rc == 0, err
    assert json.loads(path.read_text())["score"][0]["reversal_ratio"] == 0.25
    rc = main(["score", "--format", "json", str(path)])
    doc = json.loads(capsys.readouterr().out)
    assert doc["scores"][0]["reversal_ratio"] == 0.25
    assert doc["summary"]["avg_reversal_ratio"] == 0.25


def test_an_unknown_reversal_ratio_leaves_the_file_unchanged(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Every line the prediction keeps occurs 64 times: upstream's histogram diff hands over
    # to its Myers diff, which is not reproduced, so the ratio is unknown.
    edit = {**USER_EDIT, "diff": "@@ -1,1 +1,1 @@\n-Z\n+A\n"}
    record = example(
        "repetitive",
        [prediction(HEAD + A_TO_C + B_TO_D)],
        expected=[HEAD + A_TO_C],
        excerpt=REPETITIVE,
        start_row=0,
    )
    changed = _with_events(record, [edit])
    fine = example("fine", [prediction(PERFECT)])
    refused = tmp_path / "refused.jsonl"
    refused.write_text(json.dumps(fine) + "\n" + json.dumps(changed) + "\n")
    written = tmp_path / "written.jsonl"
    written.write_text(json.dumps(fine) + "\n")
    before = refused.read_bytes()
    rc, err = _run(capsys, refused, written)
    assert rc == 1
    assert refused.read_bytes() == before
    assert "refused.jsonl:2:1: SC006" in err and "reversal_ratio" in err
    assert "written.jsonl" not in err
    assert json.loads(written.read_text())["score"][0]["reversal_ratio"] == 0.0
    # The JSON report leaves the unknown ratio out, and the mean it would enter.
    rc = main(["score", "--format", "json", str(refused)])
    doc = json.loads(capsys.readouterr().out)
    assert rc == 0
    assert [("reversal_ratio" in s) for s in doc["scores"]] == [True, False]
    assert "avg_reversal_ratio" not in doc["summary"]
    # Under an earlier definition the ratio after a user edit is not reproduced either.
    plain = tmp_path / "v5.jsonl"
    plain.write_text(json.dumps(_with_events(example("v5", [prediction(NEAR)]), [USER_EDIT])))
    rc = main(["score", "--write-scores", "--metric", "v5", str(plain)])
    assert rc == 1 and "SC006" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("events", "patch"),
    [
        ([{**USER_EDIT, "predicted": True}], NEAR),  # the last edit was a prediction
        ([USER_EDIT, {**USER_EDIT, "predicted": True}], NEAR),
        ([{**USER_EDIT, "diff": ""}], NEAR),
        ([{**USER_EDIT, "path": "other/src/lib.rs"}], NEAR),  # another file's edit
        ([USER_EDIT], ""),  # the prediction leaves the cursor file as it is
        ([USER_EDIT], None),
    ],
)
def test_a_reversal_ratio_without_a_user_edit_is_zero(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    events: list[dict[str, Any]],
    patch: str | None,
) -> None:
    path = tmp_path / "r.jsonl"
    path.write_text(json.dumps(_with_events(example("r", [prediction(patch)]), events)))
    rc, err = _run(capsys, path)
    assert rc == 0, err
    assert json.loads(path.read_text())["score"][0]["reversal_ratio"] == 0.0
    assert EXCERPT in path.read_text().replace("\\n", "\n").replace('\\"', '"')
