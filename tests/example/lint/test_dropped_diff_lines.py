"""A diff line the reference leaves out of the patch it builds is an error at that line, which
says how much is dropped (issue 28, point 4); headers the reference reads, whatever their
counts or closing `@@`, are not."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from evaltools.__main__ import main
from tests.retrieval.gitrepo import GitRepo

FRONT = (
    '+++\nrepository_url = "https://github.com/o/r"\n'
    'revision = "0123456789abcdef0123456789abcdef01234567"\n+++\n\n'
)
CURSOR = (
    "## Edit History\n\n(No edit history)\n\n## Cursor Position\n\n```src/app.py\ndef main():\n"
    '    print("hello")\n#         ^[CURSOR_POSITION]\n    return 0\n```\n\n'
)
BODY = ' def main():\n     print("hello")\n-    return 0\n+    return 1\n'
PATCH = "--- a/src/app.py\n+++ b/src/app.py\n@@ -1,3 +1,3 @@\n" + BODY
HEADER_LINE = 24  # the `@@` line of the expected patch below


def _example(header: str) -> str:
    patch = PATCH.replace("@@ -1,3 +1,3 @@", header)
    return FRONT + CURSOR + "## Expected Patch\n\n```diff\n" + patch + "```\n"


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> GitRepo:
    repo = GitRepo(tmp_path / "project")
    repo.write("pyproject.toml", '[tool.evaltools]\npaths = ["evals"]\n')
    repo.write("evals/app--return-one.md", _example("@@ -1,3 +1,3 @@"))
    repo.commit("first")
    monkeypatch.chdir(repo.path)
    return repo


def test_a_hunk_header_typed_with_one_at_sign_fails_the_gate_at_its_line(
    repo: GitRepo, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["check"]) == 0
    capsys.readouterr()
    written = _example("@ -1,3 +1,3 @@")
    repo.write("evals/app--return-one.md", written)
    assert written.splitlines()[HEADER_LINE - 1] == "@ -1,3 +1,3 @@"

    assert main(["check"]) == 1
    out = capsys.readouterr().out
    assert out.splitlines()[0] == (
        f"evals/app--return-one.md:{HEADER_LINE}:1: EP310 [error] `@ -1,3 +1,3 @@` is not a "
        "hunk header (it starts with `@@`): this line and the 4 lines after it are dropped "
        "from the patch; write `@@ -1,3 +1,3 @@`"
    )
    assert out.splitlines()[-1] == "Found 1 error in 1 file."
    assert (repo.path / "evals/app--return-one.md").read_text() == written  # read, not rewritten

    assert main(["lint", "--format", "json", "evals"]) == 1
    (found,) = json.loads(capsys.readouterr().out)
    assert (found["line"], found["column"], found["severity"]) == (HEADER_LINE, 1, "error")


def test_a_context_line_without_its_space_says_how_many_lines_go(
    repo: GitRepo, capsys: pytest.CaptureFixture[str]
) -> None:
    text = _example("@@ -1,3 +1,3 @@").replace('     print("hello")\n-', 'print("hello")\n-')
    repo.write("evals/app--return-one.md", text)
    assert main(["check"]) == 1
    out = capsys.readouterr().out
    assert (
        f"evals/app--return-one.md:{HEADER_LINE + 2}:1: EP310 [error] this line is not a diff "
        "line (context lines start with a space): this line and the 2 lines after it are "
        "dropped from the patch\n"
    ) in out


def test_diff_lines_before_any_file_header_are_an_error_counting_them(
    repo: GitRepo, capsys: pytest.CaptureFixture[str]
) -> None:
    text = _example("@@ -1,3 +1,3 @@").replace("--- a/src/app.py\n+++ b/src/app.py\n", "")
    repo.write("evals/app--return-one.md", text)
    assert main(["lint", "evals"]) == 1
    out = capsys.readouterr().out
    assert (
        f"evals/app--return-one.md:{HEADER_LINE - 1}:1: EP310 [error] diff lines before any "
        "`--- a/path` / `+++ b/path` header: this line and the 3 lines after it are dropped "
        "from the patch; add the file headers above them\n"
    ) in out


@pytest.mark.parametrize("header", ["@@ -1,3 +1,3", "@@ -1,3 +1 3 @@"])
def test_headers_the_reference_reads_stay_clean_and_score_in_full(
    repo: GitRepo, capsys: pytest.CaptureFixture[str], header: str
) -> None:
    """The reference reads the two numbers after `@@ ` and ignores the rest of the line (the
    closing `@@`, a stray count), so nothing of these hunks is dropped: the exact expected
    patch as the prediction scores 100, where the one-`@` header above scores 0."""
    repo.write("evals/app--return-one.md", _example(header))
    assert main(["check"]) == 0
    assert capsys.readouterr().out == "All checks passed: 1 file.\n"
    predictions = repo.write(
        "predictions.jsonl",
        json.dumps({"name": "app--return-one", "patch": PATCH, "cursor_offset": None}) + "\n",
    )
    for written, score in ((header, 100.0), ("@ -1,3 +1,3 @@", 0.0)):
        repo.write("evals/app--return-one.md", _example(written))
        main(["score", "evals", "--predictions", str(predictions), "--format", "json"])
        document = json.loads(capsys.readouterr().out)
        assert [row["delta_chr_f"] for row in document["scores"]] == [score]
