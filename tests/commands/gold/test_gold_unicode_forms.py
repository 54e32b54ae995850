"""A gold ID whose path is the file's name in another Unicode normal form (`café` with `é`
as `e` and a combining accent, as macOS writes names; the file has it as one code point):
the two print alike, so RG004's "does not exist" needs saying why (found by the b3 new-user
trial)."""

from __future__ import annotations

import json
import unicodedata
from pathlib import Path
from typing import Literal

import pytest

from evaltools.__main__ import main
from tests.retrieval.gitrepo import GitRepo

Form = Literal["NFC", "NFD"]
CODE = "class Store:\n    def revoke(self, token):\n        return token\n"


@pytest.mark.parametrize(
    ("forms", "command"),
    [
        (("NFC", "NFD"), ["check"]),
        (("NFC", "NFD"), ["check", "--fix"]),
        (("NFC", "NFD"), ["gold", "check"]),
        (("NFD", "NFC"), ["check"]),
    ],
)
def test_a_path_in_another_unicode_form_is_said_so(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    forms: tuple[Form, Form],
    command: list[str],
) -> None:
    on_disk, in_id = forms
    repo = GitRepo(tmp_path / "proj")
    repo.write(unicodedata.normalize(on_disk, "src/données/café.py"), CODE)
    repo.write("src/other.py", CODE)  # a namesake: no one place to relocate the ID to
    written = unicodedata.normalize(in_id, "src/données/café.py")
    record = {
        "qid": "q1",
        "query": "revoke",
        "type": "mixed",
        "gold": {f"{written}:2-3:Store.revoke": 3},
    }
    set_path = repo.write("evals/set.jsonl", json.dumps(record, ensure_ascii=False) + "\n")
    repo.write(
        "pyproject.toml",
        '[tool.evaltools]\npaths = []\n[tool.evaltools.retrieval]\nsets = ["evals/set.jsonl"]\n'
        'root = "."\n',
    )
    repo.commit()
    before = set_path.read_bytes()
    monkeypatch.chdir(repo.path)
    assert main(command) == 1
    first = capsys.readouterr().out.splitlines()[0]
    column = set_path.read_text(encoding="utf-8").index(written)
    assert first.startswith(
        f"evals/set.jsonl:1:{column}: RG004 [error] gold `{written}:2-3:Store.revoke` of q1 "
        f"does not resolve ({written} does not exist; a file of that name does, its accents "
        "written in another Unicode form): replace it with one of "
    )
    assert set_path.read_bytes() == before


def test_a_missing_file_with_no_other_form_keeps_its_words(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = GitRepo(tmp_path / "proj")
    repo.write("src/other.py", CODE)
    repo.write("src/more.py", CODE)
    record = {
        "qid": "q1",
        "query": "revoke",
        "type": "mixed",
        "gold": {"src/café.py:2-3:Store.revoke": 3},
    }
    repo.write("evals/set.jsonl", json.dumps(record, ensure_ascii=False) + "\n")
    repo.commit()
    monkeypatch.chdir(repo.path)
    assert main(["gold", "check", "evals/set.jsonl", "--root", "."]) == 1
    assert "(src/café.py does not exist and git records no rename of it)" in capsys.readouterr().out
