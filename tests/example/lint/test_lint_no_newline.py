"""EP310 and `\\ No newline at end of file`: git's own output is clean, in Edit History and in
Expected Patch; a marker is reported only where the reference joins two lines because of it."""

from __future__ import annotations

from pathlib import Path

import pytest

from evaltools.example.diffs.patch_cursor import extract_patch_cursor
from evaltools.example.diffs.udiff import apply_diff_to_string, parse_diff
from evaltools.example.lint.linter import lint_markdown
from tests.conftest import CORPUS
from tests.retrieval.gitrepo import GitRepo

SOURCE = CORPUS / "flask--add-import-statement.md"
NAME = "flask--no-newline.md"
PATH = "src/flask/logging.py"


def git_diff(tmp: Path, before: str, after: str) -> str:
    """What `git diff` writes for `before` -> `after` in a file of a fresh repository."""
    repo = GitRepo(tmp)
    repo.write(PATH, before)
    repo.commit()
    repo.write(PATH, after)
    return repo.git("diff")


def excerpt() -> str:
    """The corpus example's cursor file, without its marker and without a final newline."""
    text = SOURCE.read_text().split(f"```{PATH}\n")[1].split("```")[0]
    return text.replace("# ^[CURSOR_POSITION]\n", "").removesuffix("\n")


def example(history: str, patch: str, now: str) -> str:
    head = SOURCE.read_text().split("## Edit History")[0]
    lines = patch.split("\n")
    added = next(i for i, line in enumerate(lines) if line.startswith("+    from"))
    lines.insert(added + 1, "#                      ^[CURSOR_POSITION]")
    return (
        f"{head}## Edit History\n\n```diff\n{history}```\n\n"
        f"## Cursor Position\n\n```{PATH}\n{now}\n#                  ^[CURSOR_POSITION]\n```\n\n"
        "## Expected Patch\n\n```diff\n" + "\n".join(lines) + "```\n"
    )


@pytest.mark.parametrize(
    ("last_before", "last_after"),
    [
        ("import App", "import Flask"),  # both sides end without a newline: two markers
        ("import App", "import Flask\n"),  # the old side only
        ("import App\n", "import Flask"),  # the new side only
        ("import App", "import App\n    from .x import Flask"),  # a line added after it
    ],
)
def test_git_s_own_no_newline_markers_are_not_reported(
    tmp_path: Path, last_before: str, last_after: str
) -> None:
    now = excerpt()
    assert now.endswith("import App")
    before, after = now.replace("import App", last_before), now.replace("import App", last_after)
    history = git_diff(tmp_path / "history", now.replace("import App", "import Ap"), before)
    patch = git_diff(tmp_path / "patch", before, after)
    assert "\\ No newline at end of file\n" in history
    assert "\\ No newline at end of file\n" in patch
    text = example(history, patch, before.removesuffix("\n"))
    found = [(d.code, d.line, d.message) for d in lint_markdown(text, NAME, NAME[:-3])]
    assert [f for f in found if f[0] == "EP310"] == []


@pytest.mark.parametrize(
    ("body", "joined"),
    [
        (" a\n\\ No newline at end of file\n b\n", True),  # context to context
        (" a\n\\ No newline at end of file\n+b\n", True),  # the added line joins `a`
        ("-a\n\\ No newline at end of file\n-b\n", True),  # two deleted lines joined
        ("-a\n\\ No newline at end of file\n+b\n c\n", True),  # the old side goes on
        ("+a\n\\ No newline at end of file\n+b\n", True),  # two added lines joined
        ("-a\n\\ No newline at end of file\n+b\n", False),  # git: the old last line changed
        ("-a\n\\ No newline at end of file\n+b\n+c\n", False),
        ("-a\n+b\n\\ No newline at end of file\n", False),
        (" a\n\\ No newline at end of file\n", False),
        # Only a hunk's first marker counts: the second one changes nothing.
        ("-a\n\\ No newline at end of file\n+b\n\\ No newline at end of file\n", False),
    ],
)
def test_a_marker_is_joining_only_where_a_later_line_of_its_side_follows(
    body: str, joined: bool
) -> None:
    parsed = parse_diff(f"--- a/f\n+++ b/f\n@@ -1 +1 @@\n{body}")
    assert parsed.joining_lines == ((4,) if joined else ())


def test_the_advice_to_delete_a_joining_marker_is_right() -> None:
    # The reference joins `a` and `b`: deleting the marker keeps them two lines.
    diff = "--- a/f\n+++ b/f\n@@ -1,2 +1,2 @@\n a\n\\ No newline at end of file\n-b\n+c\n"
    with pytest.raises(ValueError, match="couldn't resolve hunk"):
        apply_diff_to_string(diff, "a\nb\n")
    fixed = diff.replace("\\ No newline at end of file\n", "")
    assert apply_diff_to_string(fixed, "a\nb\n") == "a\nc\n"


def test_a_joining_marker_is_reported_at_its_line_with_advice() -> None:
    text = SOURCE.read_text().replace(
        " import typing as t\n-\n", " import typing as t\n\\ No newline at end of file\n-\n"
    )
    found = [(d.line, d.column, d.message) for d in lint_markdown(text, NAME) if d.code == "EP310"]
    marker = text.split("\n").index("\\ No newline at end of file") + 1
    assert [(line, column) for line, column, _ in found] == [(marker, 1)]
    assert "joins that line to the next line on its side of the hunk: delete it" in found[0][2]


def test_a_patch_cursor_below_git_s_no_newline_line_is_on_the_added_line(tmp_path: Path) -> None:
    # Reference 7.1: the offset counts from the last added or context line above the marker,
    # so a `\ No newline` line between the two changes nothing.
    repo = GitRepo(tmp_path)
    repo.write("src/app.py", 'def main():\n    print("hello")\n    return 0')
    repo.commit()
    repo.write("src/app.py", 'def main():\n    print("hello")\n    return 1')
    patch = repo.git("diff")
    assert patch.endswith("+    return 1\n\\ No newline at end of file\n")
    marker = "#          ^[CURSOR_POSITION]\n"
    text = (
        '+++\nrepository_url = "https://github.com/o/r"\n'
        'revision = "0123456789abcdef0123456789abcdef01234567"\n+++\n\n'
        "## Edit History\n\n(No edit history)\n\n"
        '## Cursor Position\n\n```src/app.py\ndef main():\n    print("hello")\n'
        "#         ^[CURSOR_POSITION]\n    return 0\n```\n\n"
        f"## Expected Patch\n\n```diff\n{patch}{marker}```\n"
    )
    new = 'def main():\n    print("hello")\n    return 1'
    offset = extract_patch_cursor(patch + marker).offset
    assert offset is not None and new[offset:] == " 1"  # column 10 of `    return 1`
    found = [(d.code, d.line) for d in lint_markdown(text, "repo--change-return.md")]
    assert found == []
    # Below a deleted line's `\ No newline`, the cursor still counts from a line above it.
    deleted = patch.replace("+    return 1\n\\ No newline at end of file\n", "")
    text = text.replace(patch, deleted)
    assert ("EP307", text.split("\n").index(marker[:-1]) + 1) in [
        (d.code, d.line) for d in lint_markdown(text, "repo--change-return.md")
    ]
