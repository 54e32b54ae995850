"""Hand-made `ep predict` examples for the score command's tests."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

EXCERPT = 'fn main() {\n    let x = 42;\n    println!("{}", x);\n}\n'
EXPECTED = (
    "--- a/src/main.rs\n+++ b/src/main.rs\n@@ -11,3 +11,3 @@\n fn main() {\n"
    '-    let x = 42;\n+    let x = 100;<|user_cursor|>\n     println!("{}", x);\n'
)
PERFECT = EXPECTED.replace("<|user_cursor|>", "")
NEAR = PERFECT.replace("100;", "99;")
NOT_APPLYING = PERFECT.replace("42", "43")
LIB_EXPECTED = (
    "--- a/src/lib.rs\n+++ b/src/lib.rs\n@@ -11,3 +11,3 @@\n fn value() {\n-    1\n+    2\n }\n"
)


def prediction(
    patch: str | None, *, provider: str = "zeta2", cursor: int | None = None
) -> dict[str, Any]:
    out: dict[str, Any] = {"actual_output": "", "provider": provider}
    if patch is not None:
        out = {"actual_patch": patch, **out}
    if cursor is not None:
        out["actual_cursor"] = {
            "path": "src/main.rs",
            "row": 1,
            "column": 0,
            "offset": 0,
            "editable_region_offset": cursor,
        }
    return out


def example(
    name: str,
    predictions: list[dict[str, Any]],
    *,
    expected: list[str] | None = None,
    start_row: int | None = 10,
    related: list[dict[str, Any]] | None = None,
    tags: list[str] | None = None,
    excerpt: str = EXCERPT,
    repo: str = "https://github.com/o/r",
) -> dict[str, Any]:
    inputs: dict[str, Any] = {
        "cursor_path": "src/main.rs",
        "cursor_excerpt": excerpt,
        "cursor_offset_in_excerpt": 0,
        "events": [],
        "related_files": related,
        "excerpt_ranges": {},
    }
    if start_row is not None:
        inputs["excerpt_start_row"] = start_row
    return {
        "name": name,
        "repository_url": repo,
        "revision": "0" * 40,
        "tags": tags or [],
        "uncommitted_diff": "",
        "cursor_path": "src/main.rs",
        "cursor_position": excerpt,
        "edit_history": "",
        "expected_patches": [EXPECTED] if expected is None else expected,
        "prompt_inputs": inputs,
        "predictions": predictions,
        "zed_version": None,
    }


def write_jsonl(path: Path, records: list[Any]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return path
