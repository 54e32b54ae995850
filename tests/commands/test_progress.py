"""Every command that can run long shows a progress line on a terminal's stderr (issue 13,
point 8), through a plain callable its service calls: never on stdout, cleared at the end."""

from __future__ import annotations

import io
import json
import shutil
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from evaltools.__main__ import main
from evaltools.report.progress import Progress
from tests.conftest import corpus_files
from tests.retrieval.gitrepo import GitRepo
from tests.score import _examples


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def _examples_folder(tmp: Path) -> list[str]:
    (tmp / "ex").mkdir()
    for source in corpus_files()[:4]:
        shutil.copyfile(source, tmp / "ex" / source.name)
    return ["dupes", "ex"]


def _predictions(tmp: Path) -> list[str]:
    records = [
        _examples.example(f"e{n}", [_examples.prediction(_examples.PERFECT)]) for n in range(3)
    ]
    _examples.write_jsonl(tmp / "predicted.jsonl", records)
    return ["score", "predicted.jsonl"]


def _gold_set(tmp: Path) -> list[str]:
    repo = GitRepo(tmp / "repo")
    records = []
    for n in range(3):
        repo.write(f"m{n}.py", f"def f{n}():\n    return {n}\n")
        gold = {f"repo/m{n}.py:1-2:f{n}": 3}
        records.append({"qid": f"q{n}", "query": f"query {n}", "type": "intent", "gold": gold})
    repo.commit("initial")
    (tmp / "set.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records))
    run = [{"qid": r["qid"], "ids": list(r["gold"])} for r in records]
    (tmp / "run.jsonl").write_text("".join(json.dumps(r) + "\n" for r in run))
    return ["gold", "eval", "run.jsonl", "--set", "set.jsonl", "--root", "."]


def _check(tmp: Path) -> list[str]:
    return ["check", *_examples_folder(tmp)[1:]]


def _mine(tmp: Path) -> list[str]:
    repo = GitRepo(tmp / "repo")
    for n in range(3):
        repo.write("a.py", f"def f():\n    return {n}\n")
        repo.commit(f"Change what f returns to {n}")
    return ["gold", "mine", "--repo", "repo", "-o", "mined.jsonl"]


COMMANDS: dict[str, tuple[Callable[[Path], list[str]], str]] = {
    "dupes": (_examples_folder, "examples read"),
    "score": (_predictions, "examples checked"),
    "gold eval": (_gold_set, "source files checked"),
    "check": (_check, "files checked"),
    "gold mine": (_mine, "commits checked"),
}


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_a_progress_line_on_a_terminal_only(
    command: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("CI", raising=False)
    make, words = COMMANDS[command]
    argv = make(tmp_path)
    # Show a line from the first item on, as a long run would.
    monkeypatch.setattr(Progress, "AFTER_SECONDS", 0.0)
    monkeypatch.setattr(Progress, "EVERY_SECONDS", 0.0)
    screen = _Terminal()
    monkeypatch.setattr(sys, "stderr", screen)
    assert main(argv) in (0, 1)
    shown = screen.getvalue()
    assert words in shown, shown
    assert "\r\x1b[K" in shown  # cleared before anything else is written
    assert words not in capsys.readouterr().out
    piped = io.StringIO()  # not a terminal: nothing
    monkeypatch.setattr(sys, "stderr", piped)
    for leftover in ("mined.jsonl",):
        (tmp_path / leftover).unlink(missing_ok=True)
    assert main(argv) in (0, 1)
    assert words not in piped.getvalue()
