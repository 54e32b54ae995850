"""A JSONL record pretty-printed over several lines: the first line is "ends before it is
closed"; the lines after it were "more text after the end of the JSON value" at the `:` of a
key, or "expecting value" at a lone `}`. They say what they are now, at their first
character (found by the b3 new-user trial)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from evaltools import jsonio
from evaltools.__main__ import main
from tests.conftest import CORPUS
from tests.retrieval.gitrepo import GitRepo

CODE = "def kill_session(user):\n    return user\n"
GOLD = {"src/auth.py:1-2:kill_session": 3}
INSIDE = (
    "IO008 [error] the text starts inside an object (no `{` opens it): in a JSONL file, is "
    "this the rest of a record split over several lines? put each record on one line"
)
UNCLOSED = (
    "IO008 [error] the JSON value ends before it is closed (expecting property name enclosed "
    "in double quotes): was it cut short, or pretty-printed over several lines of a JSONL file?"
)


def _project(tmp_path: Path, set_text: str) -> GitRepo:
    repo = GitRepo(tmp_path / "proj")
    repo.write("src/auth.py", CODE)
    repo.write("evals/set.jsonl", set_text)
    repo.write(
        "pyproject.toml",
        '[tool.evaltools]\npaths = ["evals"]\n[tool.evaltools.retrieval]\n'
        'sets = ["evals/set.jsonl"]\nroot = "."\n',
    )
    repo.commit()
    return repo


def test_a_set_record_over_three_lines(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    good = {"qid": "q2", "query": "end a session", "type": "intent", "gold": GOLD}
    text = (
        '{"qid": "q1", "query": "log out", "type": "intent",\n'
        f'  "gold": {json.dumps(GOLD)}\n'
        "}\n"
        f"{json.dumps(good)}\n"
    )
    repo = _project(tmp_path, text)
    monkeypatch.chdir(repo.path)
    assert main(["check", "--fix"]) == 1
    assert capsys.readouterr().out.splitlines() == [
        f"evals/set.jsonl:1:52: {UNCLOSED}",
        f"evals/set.jsonl:2:3: {INSIDE}",
        f"evals/set.jsonl:3:1: {INSIDE}",
        "Found 3 errors in 1 file.",
    ]
    assert (repo.path / "evals" / "set.jsonl").read_text(encoding="utf-8") == text


def test_an_example_record_over_two_lines(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = _project(
        tmp_path, json.dumps({"qid": "q", "query": "q", "type": "intent", "gold": GOLD}) + "\n"
    )
    monkeypatch.chdir(repo.path)
    assert (
        main(
            [
                "convert",
                str(CORPUS / "flask--add-import-statement.md"),
                "--to",
                "jsonl",
                "-o",
                "one.jsonl",
            ]
        )
        == 0
    )
    record = (repo.path / "one.jsonl").read_text(encoding="utf-8")
    split = record.index(',"')
    text = record[: split + 1] + "\n" + record[split + 1 :]
    repo.write("evals/two.jsonl", text)
    capsys.readouterr()
    assert main(["check", "evals/two.jsonl"]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[1] == f"evals/two.jsonl:2:1: {INSIDE}"
    assert out[0].startswith(f"evals/two.jsonl:1:{split + 2}: IO008 [error] the JSON value ends")
    assert (repo.path / "evals" / "two.jsonl").read_text(encoding="utf-8") == text


@pytest.mark.parametrize("line", ['"a", "b"', "[1, 2] 3", "x}", '{"a": 1} "b": 2'])
def test_other_extra_text_keeps_its_words(line: str) -> None:
    with pytest.raises(jsonio.JsonError) as caught:
        jsonio.loads(line)
    assert "starts inside an object" not in caught.value.message
