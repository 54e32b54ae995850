"""The hint of a stale gold ID names a command that runs where the finding is printed,
and `gold check` with no PATH takes the configured sets, as `check` does."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from evaltools.__main__ import main
from tests.commands.test_check import CODE, PYPROJECT

STALE = {"qid": "q1", "query": "add one", "type": "intent", "gold": {"src/mod.py:1-2:target": 3}}


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A configured project whose one gold ID moved (target is at lines 5-6 now)."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "pyproject.toml").write_text(PYPROJECT)
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "mod.py").write_text(CODE)
    (tmp_path / "evals").mkdir()
    (tmp_path / "evals" / "retrieval.jsonl").write_text(json.dumps(STALE) + "\n")
    return tmp_path


def _hint(capsys: pytest.CaptureFixture[str], args: list[str]) -> list[str]:
    """The command the RG001 finding of `args` says to run, split into its words."""
    assert main([*args, "--no-cache", "--format", "json"]) == 1
    found = [d for d in json.loads(capsys.readouterr().out) if d["code"] == "RG001"]
    assert len(found) == 1
    command = re.search(r"run `([^`]*)` to rewrite", str(found[0]["message"]))
    assert command is not None, found[0]["message"]
    return command.group(1).split()


def _run_hint(words: list[str], capsys: pytest.CaptureFixture[str]) -> int:
    assert words[0] == "evaltools"
    code = main([*words[1:], "--no-cache"])
    capsys.readouterr()
    return code


def _gold(project: Path) -> dict[str, int]:
    text = (project / "evals" / "retrieval.jsonl").read_text()
    gold: dict[str, int] = json.loads(text)["gold"]
    return gold


@pytest.mark.parametrize(
    "args",
    [
        ["gold", "check"],
        ["gold", "check", "evals/retrieval.jsonl", "--root", "."],
        ["check"],
    ],
)
def test_the_hint_runs_as_printed_and_repairs_the_gold(
    project: Path, capsys: pytest.CaptureFixture[str], args: list[str]
) -> None:
    words = _hint(capsys, args)
    assert words[1] == args[0]  # inside `check`, `check --fix` (which also repairs gold)
    assert _run_hint(words, capsys) == 0
    assert _gold(project) == {"src/mod.py:5-6:target": 3}


def test_a_hint_keeps_the_paths_and_options_given(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["gold", "check", "evals/retrieval.jsonl", "--root", "."]
    assert _hint(capsys, args) == ["evaltools", *args, "--fix"]
    assert _hint(capsys, ["check"]) == ["evaltools", "check", "--fix"]


def test_gold_check_without_paths_or_sets_names_both_ways(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "pyproject.toml").write_text('[tool.evaltools]\npaths = ["evals"]\n')
    assert main(["gold", "check", "--root", "."]) == 2
    error = capsys.readouterr().err
    assert "PATH" in error and "`sets` in [tool.evaltools.retrieval]" in error
