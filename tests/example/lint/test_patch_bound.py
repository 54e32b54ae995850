"""EP313: an example with more expected patches than lint checks (1,000) is one finding at
the first patch past the limit, reported before any patch is parsed; a million of them no
longer hold `lint` and `check` for minutes (issue 33.8)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from evaltools import jsonlocate
from evaltools.__main__ import main
from evaltools.example.diffs import patch_cursor
from tests.conftest import CORPUS

LIMIT = 1_000
MESSAGE = "over the 1,000 lint checks: keep the distinct acceptable edits"


def record(folder: Path, patches: int) -> dict[str, object]:
    shutil.copyfile(CORPUS / "flask--add-import-statement.md", folder / "o--x.md")
    assert main(["convert", "o--x.md", "--to", "json", "-o", "x.json"]) == 0
    value: dict[str, object] = json.loads((folder / "x.json").read_text())
    value["expected_patches"] = [""] * patches
    return value


@pytest.mark.parametrize("command", ["lint", "check"])
def test_a_json_example_past_the_limit_is_ep313_at_the_first_patch_past_it(
    in_tmp: Path, capsys: pytest.CaptureFixture[str], command: str
) -> None:
    text = json.dumps(record(in_tmp, LIMIT + 1), indent=1)
    Path("x.json").write_text(text)
    capsys.readouterr()
    assert main([command, "x.json"]) == 1
    out = capsys.readouterr().out
    # The 1,001st `""` item of the pretty-printed list (one a line), at its quote.
    first = text.split("\n").index(' "expected_patches": [') + 2
    assert (
        f"x.json:{first + LIMIT}:3: EP313 [error] the example has 1,001 expected patches, "
        f"{MESSAGE}" in out
    )
    assert "EP309" not in out  # nothing else of the example is checked
    assert Path("x.json").read_text() == text


def test_a_jsonl_record_and_a_markdown_example_past_the_limit(
    in_tmp: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    value = record(in_tmp, LIMIT + 5)
    Path("x.jsonl").write_text('{"bad": 1}\n' + json.dumps(value) + "\n")
    Path("o--many.json").write_text(json.dumps(value))
    assert main(["convert", "o--many.json", "--to", "md", "-o", "o--many.md"]) == 0
    markdown = (in_tmp / "o--many.md").read_text().split("\n")
    capsys.readouterr()
    assert main(["lint", "x.jsonl", "o--many.md"]) == 1
    out = capsys.readouterr().out
    assert "x.jsonl:2:" in out and f"the example has 1,005 expected patches, {MESSAGE}" in out
    heading = markdown.index("## Expected Patch")
    fences = [n for n, text in enumerate(markdown, 1) if text == "```diff" and n > heading]
    assert f"o--many.md:{fences[LIMIT]}:1: EP313 [error] the example has 1,005" in out


def test_no_patch_is_parsed_past_the_limit(
    in_tmp: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The bound comes before the work that grows with the patches: a million placeholders
    (which took lint past a minute) cost no patch parse at all."""
    Path("x.json").write_text(json.dumps(record(in_tmp, 1_000_000)))
    parsed: list[str] = []
    real = patch_cursor.parse_patch

    def counted(text: str) -> object:
        parsed.append(text)
        return real(text)

    monkeypatch.setattr(patch_cursor, "parse_patch", counted)
    monkeypatch.setattr("evaltools.example.lint.context.parse_patch", counted)
    capsys.readouterr()
    assert main(["lint", "x.json", "--jobs", "1"]) == 1
    assert "the example has 1,000,000 expected patches" in capsys.readouterr().out
    assert parsed == []


def test_locating_one_pointer_walks_only_to_it() -> None:
    """`locate(text, wanted)` finds what the full walk finds for the pointers asked, and
    passes over the rest whole: a million items before one finding are not walked."""
    text = json.dumps({"a": [1, {"b": [2, 3]}, "x"], "c": {"d": None}, "e": [[]] * 10})
    full = jsonlocate.locate(text)
    for wanted in (["/a/1/b/1"], ["/c/d", "/e/9"], ["/a/2"], ["/missing"], ["/a/7"]):
        some = jsonlocate.locate(text, wanted)
        assert [some.nearest(p) for p in wanted] == [full.nearest(p) for p in wanted]
    big = json.dumps({"items": [""] * 1_000_000, "after": {"x": 1}})
    located = jsonlocate.locate(big, ["/items/3", "/after/x"])
    assert located.nearest("/after/x") == big.index("1}")
    assert len(located.values) < 10  # the root, "items" and its first four, "after", "x"
