"""The exit code survives a closed output pipe and Ctrl-C (issue 11 point 1, issue 12
point 5)."""

from __future__ import annotations

import io
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from evaltools.__main__ import main
from evaltools.cli.arguments import Arguments
from evaltools.cli.params import Command
from evaltools.cli.run import invoke

EVALTOOLS = f"{sys.executable} -m evaltools"


@pytest.fixture
def failing_set(tmp_path: Path) -> Path:
    """A project whose retrieval set has thousands of error findings: far more output
    than a pipe holds, so that the reader's going away breaks the writes."""
    (tmp_path / "pyproject.toml").write_text(
        '[tool.evaltools]\npaths = []\n[tool.evaltools.retrieval]\nsets = ["set.jsonl"]\n'
        'root = "."\n'
    )
    (tmp_path / "set.jsonl").write_text("".join(f'{{"qid": "q{i}"}}\n' for i in range(3000)))
    return tmp_path


@pytest.mark.parametrize("reader", ["head -1", "true"])
def test_a_closed_pipe_does_not_hide_error_findings(failing_set: Path, reader: str) -> None:
    pipeline = f"{EVALTOOLS} check --format github | {reader}"
    done = subprocess.run(
        ["bash", "-o", "pipefail", "-c", pipeline],
        cwd=failing_set,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 1
    # Nor a second BrokenPipeError at interpreter exit.
    assert done.stderr == ""


class _GoneReader(io.StringIO):
    def write(self, text: str) -> int:
        raise BrokenPipeError(32, "Broken pipe")

    def flush(self) -> None:
        raise BrokenPipeError(32, "Broken pipe")


@pytest.mark.parametrize("code", [0, 1])
def test_a_closed_pipe_keeps_the_commands_own_exit_code(
    monkeypatch: pytest.MonkeyPatch, code: int
) -> None:
    def target(_: Arguments) -> int:
        for _line in range(3):
            print("finding")
        return code

    monkeypatch.setattr(sys, "stdout", _GoneReader())
    assert invoke(Command(("x",), "", target, ()), Arguments({})) == code


def test_ctrl_c_in_a_command_is_one_line_and_130(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    from evaltools.commands import lint

    def interrupted(**_: object) -> int:
        raise KeyboardInterrupt

    monkeypatch.setattr(lint, "run", interrupted)
    assert main(["lint", str(tmp_path)]) == 130
    captured = capsys.readouterr()
    assert captured.err == "evaltools: interrupted\n"
    assert captured.out == ""


def test_ctrl_c_before_the_command_runs_is_one_line_and_130(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from evaltools.cli import parser

    def interrupted(*_: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(parser, "parse", interrupted)
    assert main(["lint", "x.md"]) == 130
    assert capsys.readouterr().err == "evaltools: interrupted\n"


def _waiting_on_stdin(pid: int) -> bool:
    return "pipe_read" in Path(f"/proc/{pid}/wchan").read_text()


def test_ctrl_c_while_reading_stdin_exits_130_without_a_traceback() -> None:
    process = subprocess.Popen(
        [sys.executable, "-m", "evaltools", "validate", "-"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        deadline = time.monotonic() + 120
        while not _waiting_on_stdin(process.pid):
            assert process.poll() is None, process.communicate()
            assert time.monotonic() < deadline, "the command never waited on its input"
            time.sleep(0.01)  # not to take a core from the process being waited for
        os.kill(process.pid, signal.SIGINT)
        out, err = process.communicate(timeout=120)
    finally:
        process.kill()
    assert process.returncode == 130
    assert err == "evaltools: interrupted\n"
    assert out == ""
