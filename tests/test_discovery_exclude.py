"""`exclude` of [tool.evaltools]: prose in an examples folder is left out of every walk,
but a file named on the command line is still taken (as ruff without --force-exclude)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from evaltools.__main__ import main

EXACT = (
    Path(__file__).parent / "data" / "corpus" / "zed-evals" / "flask--add-import-statement.md"
).read_bytes()
PROSE = "# Evals\n\nThese examples come from the team's sessions.\n\n## Notes\n\nMore prose.\n"
RECORD = {"qid": "q1", "query": "add one", "type": "intent", "gold": {"mod.py:1-2:f": 3}}


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """evals/ holds an example, a README and a drafts folder below a sub-folder."""
    monkeypatch.chdir(tmp_path)
    evals = tmp_path / "evals"
    (evals / "team" / "drafts").mkdir(parents=True)
    (evals / "flask--a.md").write_bytes(EXACT)
    (evals / "README.md").write_text(PROSE)
    (evals / "team" / "drafts" / "half.md").write_text("## Cursor Position\n")
    (evals / "team" / "drafts" / "half.jsonl").write_text("not json\n")
    return tmp_path


def _configure(project: Path, exclude: str) -> None:
    (project / "pyproject.toml").write_text(
        f'[tool.evaltools]\npaths = ["evals"]\nexclude = {exclude}\n'
    )


def _run(capsys: pytest.CaptureFixture[str], argv: list[str]) -> tuple[int, str]:
    code = main(argv)
    captured = capsys.readouterr()
    return code, captured.out + captured.err


@pytest.mark.parametrize(
    "argv",
    [
        ["check"],
        ["lint"],
        ["lint", "evals"],
        ["roundtrip", "evals"],
        ["dupes", "evals"],
        ["validate", "evals"],
        ["gold", "check", "evals", "--root", ".", "--no-cache"],
    ],
)
def test_every_command_leaves_out_what_exclude_names(
    project: Path, capsys: pytest.CaptureFixture[str], argv: list[str]
) -> None:
    _configure(project, '["evals/README.md", "**/drafts/*"]')
    if argv[0] in {"validate", "gold"}:  # beside the broken draft, one good set
        (project / "evals" / "set.jsonl").write_text(json.dumps(RECORD) + "\n")
        (project / "mod.py").write_text("def f():\n    pass\n")
    code, out = _run(capsys, argv)
    assert (code, "README" in out, "half" in out) == (0, False, False), out


def test_without_exclude_the_prose_fails(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _configure(project, "[]")
    code, out = _run(capsys, ["lint", "evals"])
    assert code == 1
    assert "evals/README.md:1:1: EP001" in out


def test_a_file_named_on_the_command_line_is_taken(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _configure(project, '["evals/README.md"]')
    code, out = _run(capsys, ["lint", "evals/README.md"])
    assert code == 1
    assert "evals/README.md:1:1: EP001" in out


def test_a_walk_that_exclude_empties_says_so(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _configure(project, '["*.md"]')
    code, out = _run(capsys, ["roundtrip", "evals"])
    assert code == 2
    assert "3 files left out by `exclude`" in out


def test_ep001_on_prose_says_how_to_exclude_it(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _configure(project, "[]")
    main(["lint", "evals/README.md", "evals/team/drafts/half.md", "--format", "json"])
    found = {
        Path(d["path"]).name: d["message"]
        for d in json.loads(capsys.readouterr().out)
        if d["code"] == "EP001"
    }
    assert 'exclude it: `exclude = ["evals/README.md"]` in [tool.evaltools]' in found["README.md"]
    # A file with an example section is an example missing its front matter.
    assert "exclude" not in found["half.md"]


def test_exclude_must_be_a_list_of_strings(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _configure(project, '"evals/README.md"')
    code, out = _run(capsys, ["check"])
    assert code == 2
    assert "pyproject.toml:3:11: [tool.evaltools] exclude must be a list" in out


@pytest.mark.parametrize(
    "folder", ["evals/team/drafts", "evals/team/drafts/", "drafts", "evals/team"]
)
@pytest.mark.parametrize("argv", [["check"], ["lint", "evals"], ["validate", "evals"]])
def test_a_folder_in_exclude_leaves_out_everything_below_it(
    project: Path, capsys: pytest.CaptureFixture[str], folder: str, argv: list[str]
) -> None:
    # As ruff's `extend-exclude = ["evals/drafts"]`: a folder, not only a glob of its files.
    _configure(project, json.dumps(["evals/README.md", folder]))
    if argv[0] == "validate":  # beside the broken draft, one good set
        (project / "evals" / "set.jsonl").write_text(json.dumps(RECORD) + "\n")
    code, out = _run(capsys, argv)
    assert (code, "half" in out) == (0, False), out


def test_a_folder_in_exclude_is_not_reported_as_unchecked(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # IO030 names a file git tracks outside `paths`, unless `exclude` leaves it out.
    import subprocess

    (project / "notes" / "old").mkdir(parents=True)
    (project / "notes" / "old" / "flask--b.md").write_bytes(EXACT)
    _configure(project, '["evals/README.md", "**/drafts/*", "notes/old"]')
    subprocess.run(["git", "init", "-q"], cwd=project, check=True)
    subprocess.run(["git", "add", "-A"], cwd=project, check=True)
    code, out = _run(capsys, ["check"])
    assert (code, "IO030" in out) == (0, False), out
