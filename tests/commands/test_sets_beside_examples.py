"""A folder holding a retrieval set and a `.jsonl` of example records beside it (as `evals/`
does): the retrieval commands read the set and leave the examples file to `lint` and
`convert`, as `check` sorts them; before, `validate evals` gave 4 RV005 per example and
`gold stats evals` counted the examples as queries (found by the b3 new-user trial)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from evaltools.__main__ import main
from tests.conftest import CORPUS
from tests.retrieval.gitrepo import GitRepo

CODE = "def kill_session(user):\n    return user\n"
RECORD = {
    "qid": "q1",
    "query": "end a session",
    "type": "intent",
    "gold": {"src/auth.py:1-2:kill_session": 3},
}


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> GitRepo:
    repo = GitRepo(tmp_path / "proj")
    repo.write("src/auth.py", CODE)
    repo.write("evals/retrieval.jsonl", json.dumps(RECORD) + "\n")
    monkeypatch.chdir(repo.path)
    example = str(CORPUS / "flask--add-import-statement.md")
    assert main(["convert", example, "--to", "jsonl", "-o", "evals/examples.jsonl"]) == 0
    repo.commit()
    return repo


@pytest.mark.parametrize(
    ("argv", "out"),
    [
        (["validate", "evals"], "All checks passed: 1 file.\n"),
        (["gold", "check", "evals", "--root", "."], "1 gold IDs in 1 file: 1 ok.\n"),
        (["gold", "check", "evals", "--root", ".", "--fix"], "1 gold IDs in 1 file: 1 ok.\n"),
    ],
)
def test_the_examples_file_beside_a_set_is_no_set(
    repo: GitRepo, capsys: pytest.CaptureFixture[str], argv: list[str], out: str
) -> None:
    before = {p: p.read_bytes() for p in (repo.path / "evals").iterdir()}
    capsys.readouterr()
    assert main(argv) == 0
    assert capsys.readouterr().out == out
    assert {p: p.read_bytes() for p in (repo.path / "evals").iterdir()} == before


def test_stats_count_only_the_sets_queries(
    repo: GitRepo, capsys: pytest.CaptureFixture[str]
) -> None:
    capsys.readouterr()
    assert main(["gold", "stats", "evals", "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["queries"] == 1


def test_an_examples_file_named_is_read_as_a_set(
    repo: GitRepo, capsys: pytest.CaptureFixture[str]
) -> None:
    capsys.readouterr()
    assert main(["validate", "evals/examples.jsonl"]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[0] == (
        "evals/examples.jsonl:1:1: RV005 [error] record has no `qid` field: add it (required: "
        "qid, query, type, gold) (at /qid)"
    )


def test_a_folder_of_examples_only_is_no_set(
    repo: GitRepo, capsys: pytest.CaptureFixture[str]
) -> None:
    (repo.path / "evals" / "retrieval.jsonl").unlink()
    capsys.readouterr()
    assert main(["gold", "check", "evals", "--root", "."]) == 2
    assert capsys.readouterr().err == (
        "evaltools gold check: error: no retrieval sets: evals/examples.jsonl holds example "
        "records (`lint` and `convert` read them); name a file to read it as a set\n"
    )
