"""`convert` of a folder that holds a retrieval set beside the examples (as `evals/` does
once `init` has run): the set is left out with a note, as `check` sorts it, instead of two
CV002 errors per record and exit 1 (found by the b3 new-user trial)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from evaltools.__main__ import main
from tests.conftest import CORPUS
from tests.retrieval.gitrepo import GitRepo

EXAMPLE = CORPUS / "flask--add-import-statement.md"
RECORD = {"qid": "q1", "query": "q", "type": "intent", "gold": {"src/a.py:1-2:f": 3}}


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> GitRepo:
    repo = GitRepo(tmp_path / "proj")
    repo.write(f"evals/{EXAMPLE.name}", EXAMPLE.read_text(encoding="utf-8"))
    repo.write("evals/retrieval.jsonl", json.dumps(RECORD) + "\n")
    repo.commit()
    monkeypatch.chdir(repo.path)
    return repo


def test_a_set_beside_the_examples_is_left_out_with_a_note(
    repo: GitRepo, capsys: pytest.CaptureFixture[str]
) -> None:
    (repo.path / "out").mkdir()
    (repo.path / "out" / "notes.txt").write_bytes(b"keep\n")  # an existing folder
    before = (repo.path / "evals" / "retrieval.jsonl").read_bytes()
    assert main(["convert", "evals", "--to", "json", "-o", "out"]) == 0
    assert capsys.readouterr().out.splitlines() == [
        "note: evals/retrieval.jsonl is a retrieval set, not examples: left out (name it to "
        "convert it all the same)",
        "1 example to json (1 written): out",
    ]
    assert sorted(p.name for p in (repo.path / "out").iterdir()) == [
        "flask--add-import-statement.json",
        "notes.txt",
    ]
    assert (repo.path / "out" / "notes.txt").read_bytes() == b"keep\n"
    assert (repo.path / "evals" / "retrieval.jsonl").read_bytes() == before


def test_a_set_named_is_read_as_examples(repo: GitRepo, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["convert", "evals/retrieval.jsonl", "--to", "json", "-o", "out"]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("evals/retrieval.jsonl:1:1: CV002 [error] required field")
    assert out[-1] == "0 examples to json (0 written, 1 malformed): out"


def test_the_json_report_carries_the_note(
    repo: GitRepo, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["convert", "evals", "--to", "jsonl", "-o", "all.jsonl", "--format", "json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert (report["written"], report["malformed"], report["findings"]) == (1, 0, [])
    assert report["notes"][0].startswith("evals/retrieval.jsonl is a retrieval set")
