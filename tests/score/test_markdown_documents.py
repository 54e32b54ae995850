"""`score` on `.md` evals: the documents are the file lines the example holds (cursor block,
expected patches' old sides, edit history's new sides), so an example's own expected patch
scores 100, and a prediction that fits none of them is an error (SC007)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from evaltools.__main__ import main
from evaltools.example.cursor import cursor_excerpt
from evaltools.example.diffs.patch_cursor import extract_cursor_from_patch
from evaltools.example.markdown.reader import from_markdown
from evaltools.example.spec import spec_to_json_dict
from evaltools.score.apply import extract_inline_cursor
from evaltools.score.context.documents import Document
from evaltools.score.context.file_lines import file_documents
from tests.conftest import all_corpus_files, corpus_stem


def _score(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, dict[str, Any], str]:
    rc = main(["score", "--format", "json", *args])
    captured = capsys.readouterr()
    return rc, json.loads(captured.out), captured.err


def _predictions(path: Path, name: str, patches: list[str | None]) -> Path:
    lines = [{"name": name, "patch": patch} for patch in patches]
    path.write_text("".join(json.dumps(x) + "\n" for x in lines), encoding="utf-8")
    return path


def _own_patches(source: Path) -> tuple[str, list[str]]:
    """The example's expected patches with their cursor markers (old or inline) removed."""
    spec = from_markdown(source.read_text(encoding="utf-8"), corpus_stem(source))
    patches = [extract_cursor_from_patch(p)[0] for p in spec.expected_patches]
    return spec.name or corpus_stem(source), [extract_inline_cursor(p)[0] for p in patches]


@pytest.mark.parametrize("source", all_corpus_files(), ids=lambda p: p.stem)
def test_own_expected_patches_score_100_on_every_real_eval(
    source: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    md = tmp_path / f"{corpus_stem(source)}.md"
    shutil.copy(source, md)
    name, patches = _own_patches(md)
    predictions = _predictions(tmp_path / "p.jsonl", name, list(patches))
    rc, doc, err = _score(capsys, str(md), "--predictions", str(predictions))
    assert (rc, err) == (0, "")
    assert [s["delta_chr_f"] for s in doc["scores"]] == [100.0] * len(patches)
    assert doc["summary"]["avg_delta_chr_f"] == 100.0
    # The same example converted to JSON (spec only) scores the same, where it converts.
    converted = main(["convert", str(md), "--to", "json", "-o", str(tmp_path / "json")])
    capsys.readouterr()
    if converted == 0:
        rc, from_json, err = _score(
            capsys, str(tmp_path / "json" / f"{md.stem}.json"), "--predictions", str(predictions)
        )
        assert (rc, err) == (0, "")
        assert from_json["scores"] == doc["scores"]


# A file (rows 1-9) of which the example shows rows 4-6 in its cursor block; the edit
# history changed row 5; the expected patch's context runs from row 1 to row 6.
FILE = "import a\nimport b\n\ndef f():\n    x = 1\n    return x\n\ndef g():\n    pass\n"
EXAMPLE = """+++
repository_url = "https://github.com/o/r"
revision = "0000000000000000000000000000000000000000"
+++

## Edit History

```diff
--- a/m.py
+++ b/m.py
@@ -4,3 +4,3 @@
 def f():
-    x = 0
+    x = 1
     return x
```

## Cursor Position

```m.py
def f():
    x = 1
#   ^[CURSOR_POSITION]
    return x
```

## Expected Patch

```diff
--- a/m.py
+++ b/m.py
@@ -1,6 +1,7 @@
 import a
 import b
+import c

 def f():
     x = 1
```
"""
OWN = (
    "--- a/m.py\n+++ b/m.py\n@@ -1,6 +1,7 @@\n import a\n import b\n+import c\n\n def f():\n"
    "     x = 1\n"
)
NEAR = OWN.replace("+import c", "+import cc")
# What `ep predict` records for the example: its cursor excerpt holds rows 1-6 (0-based 0-5).
PROMPT_INPUTS = {
    "cursor_path": "m.py",
    "cursor_excerpt": "".join(FILE.splitlines(keepends=True)[:6]),
    "cursor_offset_in_excerpt": 0,
    "excerpt_start_row": 0,
    "events": [],
    "related_files": None,
    "excerpt_ranges": {},
}


def _example_json(md: Path, out: Path, patch: str) -> Path:
    assert main(["convert", str(md), "--to", "json", "-o", str(out)]) == 0
    path = out / f"{md.stem}.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    data["prompt_inputs"] = PROMPT_INPUTS
    data["predictions"] = [{"actual_patch": patch, "actual_output": "", "provider": "zeta2"}]
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def test_context_past_the_cursor_block_is_placed_and_a_near_miss_scores_as_ep_json(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    md = tmp_path / "m.md"
    md.write_text(EXAMPLE, encoding="utf-8")
    predictions = _predictions(tmp_path / "p.jsonl", "m", [OWN, NEAR])
    rc, doc, err = _score(capsys, str(md), "--predictions", str(predictions))
    assert (rc, err) == (0, "")
    own, near = doc["scores"]
    assert own["delta_chr_f"] == 100.0
    assert 0.0 < near["delta_chr_f"] < 100.0
    # Zed's Example JSON of the same example, with the cursor excerpt `ep predict` records.
    example_json = _example_json(md, tmp_path / "json", NEAR)
    capsys.readouterr()
    rc, upstream, err = _score(capsys, str(example_json))
    assert (rc, err) == (0, "")
    assert upstream["scores"] == [{**near, "prediction": 0}]


ORDERED = """+++
repository_url = "https://github.com/o/r"
revision = "0000000000000000000000000000000000000000"
+++

## Edit History

```diff
--- a/m.py
+++ b/m.py
@@ -4,3 +4,3 @@
 def f():
-    x = 0
+    x = 1
     return x
--- a/m.py
+++ b/m.py
@@ -1,2 +1,3 @@
 import a
+import z
 import b
```

## Cursor Position

```m.py
    return x

def g():
#   ^[CURSOR_POSITION]
```

## Expected Patch

```diff
--- a/m.py
+++ b/m.py
@@ -9,2 +9,2 @@
 def g():
-    pass
+    return 1
```
"""


def test_history_hunks_are_placed_in_the_order_they_applied(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # The first edit's rows 4-6 are rows 5-7 of the file the cursor block shows, since the
    # second edit added a line above them: so `x = 1` is known, next to the cursor block.
    md = tmp_path / "m.md"
    md.write_text(ORDERED, encoding="utf-8")
    spanning = (
        "--- a/m.py\n+++ b/m.py\n@@ -6,5 +6,5 @@\n     x = 1\n     return x\n\n def g():\n"
        "-    pass\n+    return 2\n"
    )
    unknown_row = spanning.replace("x = 1", "x = 0")  # the line the first edit replaced
    predictions = _predictions(tmp_path / "p.jsonl", "m", [spanning, unknown_row])
    rc, doc, err = _score(capsys, str(md), "--predictions", str(predictions))
    assert rc == 1
    assert [s["prediction"] for s in doc["scores"]] == [0]
    assert 0.0 < doc["scores"][0]["delta_chr_f"] < 100.0
    assert err.startswith(f"{md}:1:1: SC007 [error] prediction 1 (line 2 of {predictions})")
    assert doc["left_out"] == [{"name": "m", "prediction": 1, "code": "SC007"}]


def test_a_prediction_that_fits_no_known_line_is_an_error_at_the_example(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    md = tmp_path / "m.md"
    md.write_text(EXAMPLE, encoding="utf-8")
    elsewhere = "--- a/m.py\n+++ b/m.py\n@@ -8,2 +8,2 @@\n def g():\n-    pass\n+    return\n"
    predictions = _predictions(tmp_path / "p.jsonl", "m", [elsewhere, None])
    rc, doc, err = _score(capsys, str(md), "--predictions", str(predictions))
    assert rc == 1
    assert err.splitlines() == [
        f"{md}:1:1: SC007 [error] prediction 0 (line 1 of {predictions}): 1 hunk(s) fit none "
        "of the file lines the example holds (cursor block, expected patches' old sides, edit "
        "history), so it cannot be scored and is left out of the summary; check its path and "
        "old lines"
    ]
    assert [s["prediction"] for s in doc["scores"]] == [1]
    assert doc["summary"]["total_examples"] == 1


def _prompt_inputs(source: Path) -> dict[str, Any]:
    """What `ep predict` would record if its context were the file lines the example holds:
    the run holding the cursor block as the cursor excerpt, every other run as a related file
    (whose path upstream reads without its first component, the project's name)."""
    spec = from_markdown(source.read_text(encoding="utf-8"), corpus_stem(source))
    excerpt, _ = cursor_excerpt(spec.cursor_position)
    lines = file_documents(spec.cursor_path, excerpt, _own_patches(source)[1], spec.edit_history, 0)
    related = [
        {
            "path": f"project/{d.path}",
            "max_row": d.end_row,
            "excerpts": [
                {"row_range": {"start": d.start_row, "end": d.end_row}, "text": d.content}
            ],
        }
        for d in lines.documents
        if d != lines.base
    ]
    return {
        **PROMPT_INPUTS,
        "cursor_path": spec.cursor_path,
        "cursor_excerpt": lines.base.content,
        "excerpt_start_row": lines.base.start_row,
        "related_files": related,
    }


def _near_miss(patch: str) -> str:
    lines = patch.split("\n")
    at = next(i for i, line in enumerate(lines) if line.startswith("+") and line[:3] != "+++")
    lines[at] += " // near"
    return "\n".join(lines)


# The cursor: the example's JSON form keeps the old `^[CURSOR_POSITION]` lines, which the
# current upstream reads as garbage (SC102), so they are left out of its expected patches.
NOT_COMPARED = {"cursor_exact_match", "cursor_distance"}


@pytest.mark.parametrize("source", all_corpus_files(), ids=lambda p: p.stem)
def test_a_near_miss_on_a_real_eval_scores_as_on_its_ep_predict_json(
    source: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    md = tmp_path / f"{corpus_stem(source)}.md"
    shutil.copy(source, md)
    name, patches = _own_patches(md)
    near = _near_miss(patches[0])
    predictions = _predictions(tmp_path / "p.jsonl", name, [near])
    rc, doc, err = _score(capsys, str(md), "--predictions", str(predictions))
    assert (rc, err) == (0, "")
    # The example's JSON as `ep predict` writes it, its context the file lines the example
    # holds (the test above checks those by hand on a small example).
    spec = from_markdown(md.read_text(encoding="utf-8"), corpus_stem(md))
    data = spec_to_json_dict(spec)
    data["expected_patches"] = [extract_cursor_from_patch(p)[0] for p in spec.expected_patches]
    data["prompt_inputs"] = _prompt_inputs(md)
    data["predictions"] = [{"actual_patch": near, "actual_output": "", "provider": "zeta2"}]
    example_json = tmp_path / "example.json"
    example_json.write_text(json.dumps(data), encoding="utf-8")
    rc, upstream, err = _score(capsys, str(example_json))
    assert (rc, err) == (0, "")
    mine, theirs = doc["scores"][0], upstream["scores"][0]
    assert 0.0 < mine["delta_chr_f"] < 100.0
    assert {k: v for k, v in mine.items() if k not in NOT_COMPARED} == {
        k: v for k, v in theirs.items() if k not in NOT_COMPARED
    }


def test_the_file_lines_of_the_hand_made_examples() -> None:
    excerpt = "def f():\n    x = 1\n    return x\n"
    lines = file_documents("m.py", excerpt, [OWN], from_markdown(EXAMPLE, "m").edit_history, 0)
    assert lines.documents == (Document("m.py", 0, 6, "".join(FILE.splitlines(True)[:6])),)
    assert lines.base == lines.documents[0]
    # The cursor block meets no known line: a document of its own at the row given.
    alone = file_documents("m.py", "def g():\n", [OWN], "", 7)
    assert alone.base == Document("m.py", 7, 8, "def g():\n")
    old_side = "import a\nimport b\n\ndef f():\n    x = 1\n"  # the expected hunk's alone
    assert alone.documents == (alone.base, Document("m.py", 0, 5, old_side))


def test_a_hunk_numbered_by_another_state_of_the_file_joins_the_lines_it_repeats() -> None:
    # The history says `x = 1` is row 11; the expected patch, numbered by another state of
    # the file, says row 20. The file holds those lines once: one document, not two.
    history = (
        "--- a/m.py\n+++ b/m.py\n@@ -10,4 +10,4 @@\n def f():\n-    x = 0\n+    x = 1\n"
        "     return x\n \n"
    )
    expected = (
        "--- a/m.py\n+++ b/m.py\n@@ -20,2 +20,2 @@\n     x = 1\n-    return x\n+    return 2\n"
    )
    lines = file_documents("m.py", "def f():\n    x = 1\n", [expected], history, 0)
    text = "def f():\n    x = 1\n    return x\n\n"
    assert lines.documents == (Document("m.py", 18, 22, text),)
    # A block that disagrees with what is known where it would go adds nothing.
    clash = expected.replace("     x = 1", "     x = 2")
    lines = file_documents("m.py", "def f():\n    x = 1\n", [expected, clash], history, 0)
    assert lines.documents == (Document("m.py", 18, 22, text),)
