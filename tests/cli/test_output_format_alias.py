"""`--output-format`, ruff's name for `--format`, is accepted by every command that has one
(found by the b3 new-user trial: ruff users type it, and got exit 2)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from evaltools.__main__ import main
from evaltools.cli.table import all_commands
from tests.conftest import CORPUS
from tests.retrieval.gitrepo import GitRepo

TAGGED = (
    (CORPUS / "flask--add-import-statement.md")
    .read_text(encoding="utf-8")
    .replace("+++\n\n", 'tag = ["flask"]\n+++\n\n', 1)
)


def test_every_format_option_also_answers_to_output_format() -> None:
    for command in all_commands():
        flags = {flag for param in command.params for flag in param.flags}
        if "--format" in flags:
            assert "--output-format" in flags, command.name


@pytest.mark.parametrize("written", [["--output-format", "json"], ["--output-format=json"]])
def test_check_output_format_json_is_format_json(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], written: list[str]
) -> None:
    repo = GitRepo(tmp_path / "proj")
    repo.write("evals/flask--tagged.md", TAGGED)
    repo.commit()
    path = str(repo.path / "evals" / "flask--tagged.md")
    assert main(["check", "--format", "json", path]) == 1
    expected = capsys.readouterr().out
    assert main(["check", *written, path]) == 1
    out = capsys.readouterr().out
    assert out == expected
    assert [(d["line"], d["column"], d["code"]) for d in json.loads(out)] == [(4, 1, "EP005")]


def test_rule_output_format(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rule", "EP005", "--output-format", "json"]) == 0
    assert [r["code"] for r in json.loads(capsys.readouterr().out)] == ["EP005"]
