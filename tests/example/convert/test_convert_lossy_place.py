"""CV007/CV008 on a field Markdown cannot hold point at that field in a JSON source, as
every finding on a JSON field does, not at the record's first line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from evaltools.__main__ import main

EXAMPLE = """{
  "name": "x",
  "repository_url": "https://github.com/a/b",
  "revision": "abc",
  "uncommitted_diff": "",
  "cursor_path": "a.py",
  "cursor_position": "x<|user_cursor|>\\n",
  "edit_history": "",
  "expected_patches": [],
  "recently_opened_files": [{"path": "a.py", "bogus": 1}]
}
"""


def _found(capsys: pytest.CaptureFixture[str], argv: list[str]) -> list[dict[str, object]]:
    main(["convert", *argv, "--format", "json"])
    found: list[dict[str, object]] = json.loads(capsys.readouterr().out)["findings"]
    return found


@pytest.mark.parametrize(("allow", "code"), [([], "CV007"), (["--allow-lossy"], "CV008")])
def test_an_unknown_nested_key_is_placed_at_its_value(
    in_tmp: Path, capsys: pytest.CaptureFixture[str], allow: list[str], code: str
) -> None:
    (in_tmp / "j").mkdir()
    (in_tmp / "j" / "ex.json").write_text(EXAMPLE)
    found = _found(capsys, ["j/ex.json", "--to", "md", "-o", "out", *allow])
    assert [(d["code"], d["line"], d["column"]) for d in found] == [(code, 10, 55)]
    assert "`recently_opened_files/0/bogus`" in str(found[0]["message"])


def test_in_jsonl_the_line_is_the_records_and_the_column_the_fields(
    in_tmp: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = {**json.loads(EXAMPLE), "recently_opened_files": []}
    first = json.dumps(data)
    second = json.dumps({**data, "name": "y", "rating": "Positive"})
    (in_tmp / "set.jsonl").write_text(f"{first}\n{second}\n")
    found = _found(capsys, ["set.jsonl", "--to", "md", "-o", "out"])
    column = second.index('"Positive"') + 1
    assert [(d["code"], d["line"], d["column"]) for d in found] == [("CV007", 2, column)]
