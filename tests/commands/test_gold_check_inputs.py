"""`evaltools gold check` on inputs that are not a plain set file: stdin, a FIFO, a metas
file that cannot be read, strings no UTF-8 writer can print."""

from __future__ import annotations

import io
import json
import os
from pathlib import Path

import pytest

from evaltools.__main__ import main
from tests.commands.test_gold_check import record, workspace, write_set

__all__ = ["workspace"]  # the fixture, shared with test_gold_check

KILL = "demo_repo/auth/session.py:4-6:kill_session"
STALE = "demo_repo/auth/session.py:1-2:kill_session"


def test_dash_reads_the_set_from_stdin(
    workspace: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    lines = [json.dumps(record("q1", KILL)), json.dumps(record("q2", STALE))]
    stdin = io.TextIOWrapper(io.BytesIO("\n".join(lines).encode() + b"\n"))
    monkeypatch.setattr("sys.stdin", stdin)
    assert main(["gold", "check", "-", "--root", "."]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith(f"<stdin>:2:63: RG001 [error] gold `{STALE}` of q2 is stale")
    assert out[1] == "2 gold IDs in 1 file: 1 ok, 1 moved."


def test_fix_cannot_rewrite_stdin(workspace: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["gold", "check", "-", "--root", ".", "--fix"]) == 2
    assert capsys.readouterr().err == (
        "evaltools gold check: error: --fix rewrites files in place: it cannot take - (stdin)\n"
    )


def test_a_fifo_is_a_finding_not_a_hang(
    workspace: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write_set(workspace, record("q1", KILL))
    os.mkfifo(workspace / "evals" / "pipe.jsonl")
    assert main(["gold", "check", "evals", "--root", "."]) == 1
    assert capsys.readouterr().out.splitlines() == [
        "evals/pipe.jsonl:1:1: IO007 [error] is not a regular file: pass .jsonl files",
        "1 gold IDs in 1 file: 1 ok; 1 other error.",
    ]


def test_a_lone_surrogate_in_a_record_is_a_finding(
    workspace: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = workspace / "evals" / "set.jsonl"
    line = json.dumps(record("q1", KILL)).replace('"q1"', '"q\\ud800"', 1)
    path.write_text(line + "\n")
    assert main(["gold", "check", "evals", "--root", ".", "--fix"]) == 1
    out = capsys.readouterr().out
    assert out.startswith("evals/set.jsonl:1:11: RG008 [error] string holds a lone UTF-16")
    assert path.read_text() == line + "\n"


def test_metas_lines_that_cannot_be_read_are_findings(
    workspace: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write_set(workspace, record("q1", KILL))
    (workspace / "metas.jsonl").write_text(
        json.dumps({"chunk_id": KILL})
        + "\n"
        + "[" * 100_000
        + "\n"
        + '{"chunk_id": "x.py:1-2:\\ud800"}\n'
    )
    assert main(["gold", "check", "evals", "--metas", "metas.jsonl"]) == 1
    assert capsys.readouterr().out.splitlines() == [
        "metas.jsonl:2:1: RG007 [error] line is nested too deeply to read: write one flat "
        "chunk object per line",
        "metas.jsonl:3:1: RG007 [error] line holds a lone UTF-16 surrogate escape "
        "(\\ud800-\\udfff): fix the escape",
        "1 gold IDs in 1 file: 1 ok; 2 other errors.",
    ]


def test_an_id_missing_from_the_metas_is_not_said_to_be_a_missing_file(
    workspace: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # The file exists in the work tree: it is the index that lacks it.
    write_set(workspace, record("q1", KILL))
    (workspace / "metas.jsonl").write_text('{"chunk_id": "other.py:1-2:x"}\n')
    assert main(["gold", "check", "evals", "--metas", "metas.jsonl"]) == 1
    out = capsys.readouterr().out
    assert "(the index has no chunk of demo_repo/auth/session.py)" in out
    assert main(["gold", "check", "evals", "--metas", "metas.jsonl", "--root", "."]) == 1
    out = capsys.readouterr().out
    assert "(the index has no chunk of demo_repo/auth/session.py and git records no rename" in out
    assert "does not exist" not in out
