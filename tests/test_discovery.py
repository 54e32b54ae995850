"""One file discovery for every command (issue 19) and nothing found is an error (issue 11)."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from evaltools.__main__ import main

# A Markdown example the round trip leaves alone, and one it would rewrite (`--fix`).
EXACT = (
    Path(__file__).parent / "data" / "corpus" / "zed-evals" / "flask--add-import-statement.md"
).read_bytes()
REFORMAT = EXACT.replace(b"\n## Edit History", b"\n\n\n## Edit History", 1)


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """`flask--a.md`, `.hidden.md`, `.drafts/`, `.svn/`: only the first is an example."""
    monkeypatch.chdir(tmp_path)
    root = tmp_path / "evals"
    (root / ".drafts").mkdir(parents=True)
    (root / ".svn").mkdir()
    (root / "flask--a.md").write_bytes(EXACT)
    for name in (".hidden.md", ".drafts/flask--b.md", ".svn/flask--c.md"):
        (root / name).write_bytes(REFORMAT)
    return root


def _seen(capsys: pytest.CaptureFixture[str], argv: list[str]) -> tuple[int, str]:
    code = main(argv)
    captured = capsys.readouterr()
    return code, captured.out + captured.err


def test_every_command_sees_the_same_files(
    folder: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert Path("evals/flask--a.md").read_bytes() == EXACT  # the fixture is what the test says
    code, out = _seen(capsys, ["lint", "evals", "--format", "json"])
    assert [d["path"] for d in json.loads(out)] == []
    assert code == 0
    code, out = _seen(capsys, ["lint", "evals"])
    assert (code, out) == (0, "All checks passed: 1 file.\n")
    code, out = _seen(capsys, ["roundtrip", "evals", "--format", "json"])
    assert (code, [r["path"] for r in json.loads(out)]) == (0, ["evals/flask--a.md"])
    code, out = _seen(capsys, ["check", "evals"])
    assert (code, out) == (0, "All checks passed: 1 file.\n")
    code, out = _seen(capsys, ["convert", "evals", "--to", "jsonl", "-o", "out.jsonl"])
    assert code == 0, out
    names = [json.loads(line)["name"] for line in Path("out.jsonl").read_text().splitlines()]
    assert names == ["flask--a"]


def test_roundtrip_fix_never_enters_vcs_or_hidden_folders(
    folder: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out = _seen(capsys, ["roundtrip", "--fix", "evals"])
    assert (code, out) == (0, "1 file: 1 exact.\n")
    for name in (".hidden.md", ".drafts/flask--b.md", ".svn/flask--c.md"):
        assert (folder / name).read_bytes() == REFORMAT
    # Named directly, a hidden file is seen (and fixed): explicit paths are always included.
    code, out = _seen(capsys, ["roundtrip", "--fix", "evals/.drafts/flask--b.md"])
    assert code == 0  # fixed: nothing is left to do
    assert out.endswith(
        "evals/.drafts/flask--b.md: fixed (rewritten in canonical form)\n"
        "1 file: 1 reformat (1 fixed).\n"
    )
    assert (folder / ".drafts/flask--b.md").read_bytes() == EXACT


def _git(cwd: Path, *args: str) -> None:
    subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True)


def test_gitignored_files_are_skipped_unless_named(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    _git(tmp_path, "init", "-q")
    (tmp_path / ".gitignore").write_text("scratch/\n*.tmp.md\n")
    (tmp_path / "evals" / "scratch").mkdir(parents=True)
    (tmp_path / "evals" / "flask--a.md").write_bytes(EXACT)
    (tmp_path / "evals" / "scratch" / "flask--b.md").write_bytes(REFORMAT)
    (tmp_path / "evals" / "flask--c.tmp.md").write_bytes(REFORMAT)
    code, out = _seen(capsys, ["roundtrip", "evals"])
    assert (code, out) == (0, "1 file: 1 exact.\n")
    code, out = _seen(capsys, ["lint", "evals"])
    assert (code, out) == (0, "All checks passed: 1 file.\n")
    # Named explicitly, an ignored file is checked.
    code, out = _seen(capsys, ["roundtrip", "evals/scratch/flask--b.md"])
    assert (code, out.splitlines()[-1]) == (1, "1 file: 1 reformat.")
    # And the ignore rules can be turned off.
    code, out = _seen(capsys, ["roundtrip", "--no-respect-gitignore", "evals"])
    assert (code, out.splitlines()[-1]) == (1, "3 files: 1 exact, 2 reformat.")
    code, out = _seen(capsys, ["lint", "--no-respect-gitignore", "evals"])
    assert out.endswith(" 3 files.\n")


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (
            ["lint", "js"],
            "evaltools lint: error: no example files (*.md) under js/ (2 files with other "
            "suffixes; name .json/.jsonl files directly)\n",
        ),
        (
            ["roundtrip", "js"],
            "evaltools roundtrip: error: no example files (*.md) under js/ (2 files with "
            "other suffixes)\n",
        ),
        (
            ["check", "js"],
            "evaltools check: error: no example files or retrieval sets under js/: 1 .json/.jsonl "
            "file holds neither (js/a.json); name a file to check it as its suffix says\n",
        ),
        (
            ["validate", "js"],
            "evaltools validate: error: no eval sets (*.jsonl) under js/ (2 files with other "
            "suffixes)\n",
        ),
        (
            ["convert", "empty", "--to", "jsonl", "-o", "out.jsonl"],
            "evaltools convert: error: no examples (*.md, *.json, *.jsonl) under empty/\n",
        ),
    ],
)
def test_nothing_to_check_is_an_error(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    argv: list[str],
    message: str,
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "js").mkdir()
    (tmp_path / "js" / "a.json").write_text("{}\n")
    (tmp_path / "js" / "b.txt").write_text("x\n")
    (tmp_path / "empty").mkdir()
    assert main(argv) == 2
    captured = capsys.readouterr()
    assert (captured.out, captured.err) == ("", message)
    assert not (tmp_path / "out.jsonl").exists()


def test_a_configured_path_without_files_is_said_by_check_and_an_error_for_lint(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "pyproject.toml").write_text('[tool.evaltools]\npaths = ["evals"]\n')
    (tmp_path / "evals").mkdir()
    # The gate of a fresh setup passes, saying why (as ruff does for a folder without
    # Python files); lint, asked for examples, has none to lint.
    assert main(["check"]) == 0
    assert capsys.readouterr().err == (
        "evaltools check: warning: no example files (*.md, *.json, *.jsonl) under evals/\n"
    )
    assert main(["lint"]) == 2
    assert capsys.readouterr().err == (
        "evaltools lint: error: no example files (*.md) under evals/ "
        "(name .json/.jsonl files directly)\n"
    )
