"""`evaltools gold check` on inputs that are not a plain set file: stdin, a FIFO, a metas
file that cannot be read, strings no UTF-8 writer can print."""

from __future__ import annotations

import io
import json
import os
from pathlib import Path

import pytest

from evaltools.__main__ import main
from tests.commands.gold.test_gold_check import record, workspace, write_set
from tests.retrieval.gitrepo import GitRepo

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
        "evals/pipe.jsonl:1:1: IO007 [error] is not a regular file (a device, socket or FIFO)",
        "1 gold IDs in 1 file: 1 ok; 1 other error.",
    ]


@pytest.mark.parametrize("cache", [(), ("--no-cache",)], ids=["cache", "no cache"])
def test_a_fifo_in_the_code_tree_is_read_as_no_file_never_waited_on(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], cache: tuple[str, ...]
) -> None:
    # Not an input of the command's, but a file its gold names: opened as inputs are.
    (tmp_path / "src").mkdir()
    os.mkfifo(tmp_path / "src" / "a.py")
    eval_set = tmp_path / "set.jsonl"
    eval_set.write_text(json.dumps(record("q1", "src/a.py:1-2:f")) + "\n")
    assert main(["gold", "check", str(eval_set), "--root", str(tmp_path), *cache]) == 1
    out = capsys.readouterr().out
    assert "RG003" in out and "is not a regular file (a device, socket or FIFO)" in out


def test_a_lone_surrogate_in_a_record_is_a_finding(
    workspace: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = workspace / "evals" / "set.jsonl"
    line = json.dumps(record("q1", KILL)).replace('"q1"', '"q\\ud800"', 1)
    path.write_text(line + "\n")
    assert main(["gold", "check", "evals", "--root", ".", "--fix"]) == 1
    out = capsys.readouterr().out
    assert out.startswith("evals/set.jsonl:1:11: IO008 [error] string holds a lone UTF-16")
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
        "metas.jsonl:2:1: IO008 [error] the JSON value is nested too deeply to read: flatten it",
        "metas.jsonl:3:24: IO008 [error] string holds a lone UTF-16 surrogate escape "
        "(\\ud800-\\udfff without its pair): it is no character, and no tool can write it "
        "back as UTF-8; fix the escape",
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


# Gold keys that name no file below the root: each is an RG006 where it is written, and the
# rest of the set is still checked, whether the code is read from the work tree or from git.
BAD_IDS = [
    "../x.py:1-2",
    "/abs.py:1-2",
    "demo_repo//auth/session.py:4-6:kill_session",
    "demo_repo/auth/session.py/:4-6",
    "demo_repo/./auth/session.py:4-6:kill_session",
    "demo_repo/auth/session\x00.py:4-6:kill_session",
    "demo_repo/auth/session\n.py:4-6:kill_session",
    "demo_repo\\auth\\session.py:4-6:kill_session",
]


@pytest.mark.parametrize("rev", [[], ["--rev", "HEAD"]], ids=["work-tree", "rev"])
def test_every_bad_id_is_a_located_finding_and_the_rest_is_checked(
    workspace: Path, capsys: pytest.CaptureFixture[str], rev: list[str]
) -> None:
    write_set(workspace, record("q1", *BAD_IDS, KILL), record("q2", STALE))
    assert main(["gold", "check", "evals", "--root", ".", *rev]) == 1
    out = capsys.readouterr().out.splitlines()
    line = (workspace / "evals" / "set.jsonl").read_text().splitlines()[0]
    found = [entry.split(" [error] ") for entry in out[:-1]]
    expected = [f"evals/set.jsonl:1:{line.index(json.dumps(i)) + 1}: RG006" for i in BAD_IDS]
    assert [where for where, _ in found[: len(BAD_IDS)]] == expected
    assert all("relative to the root" in message for _, message in found[: len(BAD_IDS)])
    assert found[len(BAD_IDS)][0].startswith("evals/set.jsonl:2:")
    assert found[len(BAD_IDS)][1].startswith(f"gold `{STALE}` of q2 is stale")
    assert out[-1] == f"2 gold IDs in 1 file: 1 ok, 1 moved; {len(BAD_IDS)} other errors."


def test_a_revision_git_cannot_take_is_ignored_not_a_crash(
    workspace: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # `revision` narrows the search for renames of a missing file; one that names no
    # commit (here: one no git argument can hold) is not trusted.
    gone = "demo_repo/auth/gone.py:1-2:f"
    write_set(workspace, record("q1", gone, revision="abc\u0000def"), record("q2", KILL))
    assert main(["gold", "check", "evals", "--root", "."]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith(f"evals/set.jsonl:1:63: RG004 [error] gold `{gone}` of q1")
    assert out[-1] == "2 gold IDs in 1 file: 1 ok, 1 missing_file."


def test_a_missing_file_whose_name_holds_spaces_at_a_revision(
    workspace: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write_set(workspace, record("q1", "demo_repo/odd name here.py:1-2:f", KILL))
    assert main(["gold", "check", "evals", "--root", ".", "--rev", "HEAD"]) == 1
    out = capsys.readouterr().out.splitlines()
    assert " RG004 [error] gold `demo_repo/odd name here.py:1-2:f` of q1 does not resolve" in out[0]
    assert out[-1] == "2 gold IDs in 1 file: 1 ok, 1 missing_file."


def test_inside_a_git_hook_the_code_is_read_from_the_root_repository(
    workspace: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A hook's GIT_DIR / GIT_OBJECT_DIRECTORY / GIT_INDEX_FILE name the hook's repository."""
    other = GitRepo(workspace / "other")
    other.write("x.py", "x = 1\n")
    other.commit()
    git_dir = other.path / ".git"
    monkeypatch.setenv("GIT_DIR", str(git_dir))
    monkeypatch.setenv("GIT_OBJECT_DIRECTORY", str(git_dir / "objects"))
    monkeypatch.setenv("GIT_INDEX_FILE", str(git_dir / "index"))
    write_set(workspace, record("q1", KILL))
    assert main(["gold", "check", "evals", "--root", ".", "--rev", "HEAD"]) == 0
    assert capsys.readouterr().out == "1 gold IDs in 1 file: 1 ok.\n"


@pytest.mark.parametrize("jobs", ["0", "1", "2"])
def test_jobs_zero_is_every_core(
    workspace: Path, capsys: pytest.CaptureFixture[str], jobs: str
) -> None:
    write_set(workspace, record("q1", KILL))
    assert main(["gold", "check", "evals", "--root", ".", "--jobs", jobs]) == 0
    assert capsys.readouterr().out == "1 gold IDs in 1 file: 1 ok.\n"


@pytest.mark.parametrize("rev", [[], ["--rev", "HEAD"]], ids=["work-tree", "rev"])
def test_a_path_too_long_for_the_file_system_is_a_finding(
    workspace: Path, capsys: pytest.CaptureFixture[str], rev: list[str]
) -> None:
    long = f"demo_repo/{'d' * 300}/{'f' * 300}.py:1-2:f"
    write_set(workspace, record("q1", long, KILL))
    assert main(["gold", "check", "evals", "--root", ".", *rev]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("evals/set.jsonl:1:63: RG00")
    assert out[-1].startswith("2 gold IDs in 1 file: 1 ok, 1 missing_")
