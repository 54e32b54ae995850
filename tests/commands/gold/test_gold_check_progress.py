"""`gold check` shows a progress line while it parses the code: on a terminal's stderr only,
never on stdout (so never inside --format json), and cleared before the results."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path

import pytest

from evaltools.__main__ import main
from evaltools.report.progress import Progress
from evaltools.retrieval.gold.gold_check import check_gold
from tests.retrieval.gitrepo import GitRepo

FILES = 12


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.fixture
def workspace(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A repository of FILES Python files, each with one function, and a set naming each."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("CI", raising=False)
    repo = GitRepo(tmp_path / "repo")
    records = []
    for n in range(FILES):
        repo.write(f"m{n}.py", f"def f{n}():\n    return {n}\n")
        gold = {f"repo/m{n}.py:1-2:f{n}": 3}
        records.append({"qid": f"q{n}", "query": f"query {n}", "type": "intent", "gold": gold})
    repo.commit("initial")
    (tmp_path / "set.jsonl").write_text(
        "".join(json.dumps(r) + "\n" for r in records), encoding="utf-8"
    )
    return tmp_path


def test_the_service_reports_each_parsed_file(workspace: Path) -> None:
    counts: list[int] = []
    found = check_gold(
        [workspace / "set.jsonl"],
        root=workspace,
        rev=None,
        metas=None,
        fix=False,
        jobs=1,
        on_parsed=counts.append,
    )
    assert not found.diagnostics
    assert counts == list(range(1, FILES + 1))


@pytest.mark.parametrize("output_format", ["text", "json"])
def test_progress_on_a_terminal_stays_off_stdout(
    workspace: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    output_format: str,
) -> None:
    # Show a line from the first file on, as a long run would.
    monkeypatch.setattr(Progress, "AFTER_SECONDS", 0.0)
    monkeypatch.setattr(Progress, "EVERY_SECONDS", 0.0)
    screen = _Terminal()
    monkeypatch.setattr(sys, "stderr", screen)
    args = ["gold", "check", "set.jsonl", "--root", ".", "--no-cache", "--jobs", "1"]
    assert main([*args, "--format", output_format]) == 0
    shown = screen.getvalue()
    assert f"\r{FILES} source files parsed (" in shown
    assert shown.endswith("\r\x1b[K")  # cleared before the results
    out = capsys.readouterr().out
    assert "parsed" not in out and "\x1b" not in out
    if output_format == "json":
        assert len(json.loads(out)) == FILES


def test_no_progress_in_a_pipe_or_in_ci(
    workspace: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(Progress, "AFTER_SECONDS", 0.0)
    args = ["gold", "check", "set.jsonl", "--root", ".", "--no-cache", "--jobs", "1"]
    assert main(args) == 0
    assert capsys.readouterr().err == ""  # stderr is not a terminal here
    monkeypatch.setenv("CI", "true")
    screen = _Terminal()
    monkeypatch.setattr(sys, "stderr", screen)
    assert main(args) == 0
    assert screen.getvalue() == ""
