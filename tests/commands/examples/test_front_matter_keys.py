"""A misspelt optional front-matter key (`tag`, `Tags`, the rollback flag) is EP005 with the
key it looks like (found by the b3 new-user trial: the message said "remove it, or record it
as an entry of `tags`" to a user who had typed `tag`)."""

from __future__ import annotations

from pathlib import Path

import pytest

from evaltools.__main__ import main
from evaltools.example.lint import lint_markdown
from tests.conftest import CORPUS
from tests.retrieval.gitrepo import GitRepo

CLEAN = (CORPUS / "flask--add-import-statement.md").read_text(encoding="utf-8")
ROLLBACK = "uncommitted_diff_requires_edit_history_rollback"


def _with_key(line: str) -> str:
    return CLEAN.replace("+++\n\n", f"{line}\n+++\n\n", 1)


@pytest.mark.parametrize(
    ("line", "meant"),
    [
        ('tag = ["flask"]', "tags"),
        ('Tags = ["flask"]', "tags"),
        ('tgas = ["flask"]', "tags"),
        ("[tag]", "tags"),
        (f"{ROLLBACK[:-2]} = true", ROLLBACK),
    ],
)
def test_a_misspelt_key_is_named_with_the_key_it_looks_like(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], line: str, meant: str
) -> None:
    repo = GitRepo(tmp_path / "proj")
    path = repo.write("evals/flask--tagged.md", _with_key(line))
    repo.commit()
    before = path.read_bytes()
    key = line.strip("[]").split(" =")[0]
    assert main(["check", "--fix", str(path)]) == 1
    out = capsys.readouterr().out
    assert out.splitlines()[0] == (
        f"{path}:4:1: EP005 [error] front matter key `{key}` is not part of the format and is "
        f"lost with its value on any rewrite: did you mean `{meant}`? rename it (an error here: "
        "it causes RT002)"
    )
    assert path.read_bytes() == before  # a lossy rewrite is refused


@pytest.mark.parametrize(
    "line",
    [
        'owner = "me"',  # like no key of the format
        'revisions = "abc"',  # like `revision`, which is set: renaming would set it twice
    ],
)
def test_a_key_like_none_that_is_missing_keeps_the_plain_advice(line: str) -> None:
    found = [d for d in lint_markdown(_with_key(line), "flask--x.md") if d.code == "EP005"]
    assert [(d.line, d.fix) for d in found] == [(4, None)]
    assert found[0].message.endswith("remove it, or record it as an entry of `tags`")


def test_the_fix_renames_the_key() -> None:
    (found,) = [d for d in lint_markdown(_with_key("tag = []"), "flask--x.md") if d.code == "EP005"]
    assert found.fix is not None
    assert (found.fix.old, found.fix.new) == ("tag", "tags")
