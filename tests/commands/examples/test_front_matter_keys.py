"""A misspelt optional front-matter key (`tag`, `Tags`, the rollback flag) is EP005 with the
key it looks like (found by the b3 new-user trial: the message said "remove it, or record it
as an entry of `tags`" to a user who had typed `tag`)."""

from __future__ import annotations

from pathlib import Path

import pytest

from evaltools.__main__ import main
from evaltools.example.lint.linter import lint_markdown
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


@pytest.mark.parametrize(
    ("line", "at", "message"),
    [
        # a hand-editor's TOML array of tables, or a table, for the tags
        ('[[tags]]\nname = "imports"', 4, "front matter `tags` is not an array of strings"),
        ("[tags]\na = 1", 4, "front matter `tags` is not an array of strings"),
        ('tags = "imports"', 4, "front matter `tags` is not an array of strings"),
        (f'{ROLLBACK} = "yes"', 4, f"front matter `{ROLLBACK}` is not true or false"),
    ],
)
def test_a_value_of_the_wrong_type_says_how_to_write_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], line: str, at: int, message: str
) -> None:
    repo = GitRepo(tmp_path / "proj")
    path = repo.write("evals/flask--typed.md", _with_key(line))
    repo.commit()
    before = path.read_bytes()
    assert main(["check", str(path)]) == 1
    fix = (
        'write `tags = ["…"]`'
        if "tags" in message
        else f"write `{ROLLBACK} = true` (or `false`), without quotes"
    )
    assert capsys.readouterr().out.splitlines()[0] == (
        f"{path}:{at}:1: EP003 [error] {message}, so the reference ignores all of it (every "
        f"field blank): {fix}"
    )
    assert path.read_bytes() == before


def test_a_revision_that_is_no_string_or_missing_says_how_to_write_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    repo = GitRepo(tmp_path / "proj")
    lines = CLEAN.splitlines(keepends=True)
    number = repo.write(
        "evals/flask--number.md", "".join([*lines[:2], "revision = 2024\n", *lines[3:]])
    )
    gone = repo.write("evals/flask--gone.md", "".join(lines[:2] + lines[3:]))
    assert main(["check", str(number), str(gone)]) == 1
    out = capsys.readouterr().out.splitlines()
    blank = "so the reference ignores all of it (every field blank)"
    assert (
        f"{gone}:1:1: EP004 [error] front matter has no `revision`, {blank}: "
        'add `revision = "…"` below the opening `+++`'
    ) in out
    assert (
        f"{number}:3:1: EP003 [error] front matter `revision` is not a string, {blank}: "
        'write `revision = "…"`'
    ) in out
