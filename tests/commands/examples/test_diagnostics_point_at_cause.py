"""Issue 13: each hand-made mistake gives one finding, at its line, with advice that works."""

from __future__ import annotations

import json
import shlex
from pathlib import Path

import pytest

from evaltools.__main__ import main
from evaltools.example.lint.diffs.mismatches import _mismatch_message
from tests.example.markdown._fences import CORPUS

FLASK = CORPUS / "zed-evals" / "flask--add-import-statement.md"
NAME = FLASK.name


def _write(directory: Path, edit: dict[int, str | None]) -> Path:
    """The flask example with 1-based lines replaced (None deletes the line)."""
    lines = FLASK.read_text(encoding="utf-8").split("\n")
    for number in sorted(edit, reverse=True):
        new = edit[number]
        if new is None:
            del lines[number - 1]
        else:
            lines[number - 1] = new
    target = directory / NAME
    target.write_text("\n".join(lines), encoding="utf-8", newline="")
    return target


def _run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> list[dict[str, object]]:
    main([*argv, "--format", "json"])
    found: list[dict[str, object]] = json.loads(capsys.readouterr().out)
    return found


def _only(found: list[dict[str, object]]) -> dict[str, object]:
    assert len(found) == 1, found
    return found[0]


@pytest.mark.parametrize("command", ["lint", "check"])
def test_unclosed_cursor_fence_is_one_ep110_naming_what_it_swallows(
    command: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _write(tmp_path, {38: None})  # the ``` closing `## Cursor Position`
    found = _only(_run([command, str(path)], capsys))
    assert (found["code"], found["line"], found["column"]) == ("EP110", 24, 1)
    assert "the block opened at 24:1 is closed only at line" in str(found["message"])
    assert "swallows '## Expected Patch' (39)" in str(found["message"])


@pytest.mark.parametrize("command", ["lint", "check"])
def test_unclosed_history_fence_is_one_ep110_at_its_opening(
    command: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _write(tmp_path, {20: None})  # the ``` closing `## Edit History`
    found = _only(_run([command, str(path)], capsys))
    assert (found["code"], found["line"]) == ("EP110", 8)
    assert "swallows '## Cursor Position' (21)" in str(found["message"])
    assert "close it with a ``` line after line 18" in str(found["message"])


def test_fence_open_to_the_end_of_the_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _write(tmp_path, {76: None})
    found = _only(_run(["check", str(path)], capsys))
    assert (found["code"], found["line"]) == ("EP110", 60)
    assert "the block opened at 60:1 runs to the end of the file" in str(found["message"])


def test_fence_indented_by_two_is_a_warning_saying_what_the_reader_sees(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _write(tmp_path, {24: "  ```src/flask/logging.py"})
    found = _only(_run(["check", str(path)], capsys))
    assert (found["code"], found["line"], found["severity"]) == ("EP113", 24, "warning")
    assert "line 37 reads 'from .sansio.app import App' with 2 leading spaces, not 4" in str(
        found["message"]
    )
    before = path.read_bytes()
    assert main(["roundtrip", "--fix", str(path)]) == 1
    out = capsys.readouterr().out
    assert "cannot be trusted" in out and "fix the indentation by hand" in out
    assert path.read_bytes() == before  # a layout fix never changes a visible code line


def test_fence_indented_by_four_is_one_finding(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _write(tmp_path, {24: "    ```src/flask/logging.py"})
    found = _only(_run(["check", str(path)], capsys))
    assert (found["code"], found["line"]) == ("EP102", 24)


@pytest.mark.parametrize(
    ("line", "shown", "why"),
    [
        (" import logging  ", "'import logging··'", "differ only in trailing whitespace"),
        (" import logging\t", "'import logging→'", "differ only in trailing whitespace"),
    ],
)
def test_invisible_differences_are_shown(
    line: str, shown: str, why: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _write(tmp_path, {48: line})  # ` import logging` in the first expected patch
    found = _only(_run(["lint", str(path)], capsys))
    assert (found["code"], found["line"]) == ("EP301", 48)
    assert f"hunk line {shown} does not match excerpt line 3 ('import logging')" in str(
        found["message"]
    )
    assert why in str(found["message"])


@pytest.mark.parametrize(
    ("line", "difference"),
    [
        ("import logging  ", "they differ only in trailing whitespace"),
        ("import logging\t", "they differ only in trailing whitespace"),
        ("import logging  # edited", "the text differs"),
    ],
)
def test_an_excerpt_line_every_patch_contradicts_is_one_finding_at_the_excerpt(
    line: str, difference: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _write(tmp_path, {27: line})  # `import logging` in the cursor excerpt
    found = _only(_run(["lint", str(path)], capsys))
    assert (found["code"], found["line"]) == ("EP301", 27)
    message = str(found["message"])
    assert "differs from what all 2 patches read there ('import logging')" in message
    assert f"{difference}; correct the excerpt line" in message


def test_one_patch_against_the_excerpt_and_the_other_patch_is_the_patchs_mistake(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _write(tmp_path, {48: " import logging  # edited"})
    found = _only(_run(["lint", str(path)], capsys))
    assert (found["code"], found["line"]) == ("EP301", 48)
    assert "copy the context exactly" in str(found["message"])


def test_tabs_against_spaces_and_carriage_returns_are_named() -> None:
    tabs = _mismatch_message("\tx = 1", "    x = 1", 4)
    assert tabs.startswith("hunk line '→x = 1' does not match excerpt line 4 ('x = 1')")
    assert "differ only in tabs against spaces" in tabs
    cr = _mismatch_message("x = 1\r", "x = 1", 2)
    assert cr.startswith("hunk line 'x = 1␍'") and "trailing whitespace" in cr


def test_unknown_key_gets_one_piece_of_advice(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    revision = 'revision = "2fec0b206c6e83ea813ab26597e15c96fab08be7"'
    path = _write(tmp_path, {3: f'{revision}\nauthor = "me"'})
    found = _only(_run(["check", str(path)], capsys))
    assert (found["code"], found["line"]) == ("EP005", 4)
    assert "record it as an entry of `tags`" in str(found["message"])
    main(["roundtrip", str(path)])
    assert "record it as an entry of `tags`" in capsys.readouterr().out


def test_following_the_prose_advice_leaves_a_clean_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _write(tmp_path, {5: "\nA note for reviewers.\n"})
    found = _only(_run(["check", str(path)], capsys))
    assert (found["code"], found["line"]) == ("EP108", 6)
    assert "move it into `## Reasoning` (right after the front matter)" in str(found["message"])
    _write(tmp_path, {5: "\n## Reasoning\n\nA note for reviewers.\n"})
    assert _run(["check", str(path)], capsys) == []


def test_strict_reference_hint_names_the_command_that_fixes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _write(tmp_path, {})
    main(["roundtrip", "--strict-reference", str(path)])
    assert f"run `evaltools roundtrip --strict-reference --fix {path}`" in capsys.readouterr().out
    main(["roundtrip", "--strict-reference", "--fix", str(path)])
    assert "fixed" in capsys.readouterr().out
    assert main(["roundtrip", "--strict-reference", str(path)]) == 0


def test_check_names_a_roundtrip_fix_that_works_as_printed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # `check` finds the files from the configuration; `roundtrip` takes none, so its hint
    # must name the file (a bare `evaltools roundtrip --fix` is a usage error).
    (tmp_path / "pyproject.toml").write_text('[tool.evaltools]\npaths = ["evals"]\n')
    (tmp_path / "evals").mkdir()
    path = _write(tmp_path / "evals", {5: "\n"})  # an extra blank line
    monkeypatch.chdir(tmp_path)
    assert main(["check"]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"evals/{NAME}:6:1: RT001 [warning] extra blank line here: run `")
    command = out.split("`")[1]
    assert command == f"evaltools roundtrip --fix evals/{NAME}"
    assert main(shlex.split(command)[1:]) == 0
    assert path.read_bytes() == FLASK.read_bytes()
    capsys.readouterr()
    assert main(["check"]) == 0
    assert capsys.readouterr().out == "All checks passed: 1 file.\n"


def test_paths_are_relative_to_the_working_directory_in_every_format(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "pyproject.toml").write_text("")  # the project the subdirectory is in
    (tmp_path / "evals").mkdir()
    (tmp_path / "sub").mkdir()
    _write(tmp_path / "evals", {5: "\nstray\n"})
    monkeypatch.chdir(tmp_path / "sub")
    for target in [str(tmp_path / "evals"), "../evals"]:
        main(["lint", target])
        assert capsys.readouterr().out.startswith(f"../evals/{NAME}:6:1: EP108")
        assert _run(["lint", target], capsys)[0]["path"] == f"../evals/{NAME}"
        main(["lint", target, "--format", "github"])
        assert f"file=../evals/{NAME}," in capsys.readouterr().out


def test_a_clean_batch_under_pre_commit_prints_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    clean = _write(tmp_path, {})
    monkeypatch.setenv("PRE_COMMIT", "1")
    for command in (["check"], ["lint"], ["roundtrip"]):
        assert main([*command, str(clean)]) == 0
        assert capsys.readouterr().out == ""
    (tmp_path / "b").mkdir()
    broken = _write(tmp_path / "b", {38: None})
    assert main(["check", str(broken)]) == 1
    out = capsys.readouterr().out.splitlines()
    assert len(out) == 2 and out[-1] == "Found 1 error in 1 file."
    monkeypatch.delenv("PRE_COMMIT")
    main(["check", str(clean)])
    assert capsys.readouterr().out == "All checks passed: 1 file.\n"
