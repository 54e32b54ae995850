"""Findings on a corpus example edited as reviewers did: an unknown heading with nothing
under it (EP104), a cursor path with spaces (EP114)."""

from __future__ import annotations

import pytest

from evaltools.example.lint.linter import lint_markdown
from evaltools.example.markdown.roundtrip import check_roundtrip
from tests.conftest import CORPUS

SOURCE = CORPUS / "flask--add-import-statement.md"
NAME = "flask--add-import-statement.md"


@pytest.mark.parametrize(
    "notes",
    [
        "## Notes\n\n",  # empty
        "## Notes\n\n### details\n\n",  # a minor heading only, reported on its own (EP111)
        "Notes\n-----\n\n",  # setext
        "## Rejected Patchs\n\n",  # a misspelt section that holds nothing yet
    ],
)
def test_an_unknown_heading_that_holds_no_code_or_prose_is_reported(notes: str) -> None:
    """The round trip loses such a heading (RT002): lint says so at the heading."""
    source = SOURCE.read_text()
    text = source.replace("## Expected Patch", notes + "## Expected Patch")
    heading = source[: source.index("## Expected Patch")].count("\n") + 1
    assert [d.line for d in check_roundtrip(text, NAME.removesuffix(".md")).dropped][:1] == [
        heading
    ]
    found = [(d.line, d.message) for d in lint_markdown(text, NAME) if d.code == "EP104"]
    assert [line for line, _ in found] == [heading]
    assert "is not a section of the format and is lost on any rewrite: delete it" in found[0][1]
    if "Patchs" in notes:
        assert found[0][1].endswith("or write `## Rejected Patch` if you meant it")


def test_an_unknown_heading_over_prose_is_reported_once_with_its_prose() -> None:
    source = SOURCE.read_text()
    text = source.replace("## Expected Patch", "## Notes\n\nsome words\n\n## Expected Patch")
    heading = source[: source.index("## Expected Patch")].count("\n") + 1
    assert [d.code for d in lint_markdown(text, NAME) if d.line == heading] == ["EP108"]


SPACED = "src/flask/my logging.py"


HEADERS = "--- a/src/flask/logging.py\n+++ b/src/flask/logging.py"


@pytest.mark.parametrize(
    ("headers", "fix"),
    [
        # The diff names another file: the path with a space is compared whole.
        (HEADERS, "write `src/flask/logging.py`"),
        # git's header for a path with a space: the reference reads `src/flask/my`.
        (
            f"--- a/{SPACED}\t\n+++ b/{SPACED}\t",
            f'quote the path in the diff headers, as `--- "a/{SPACED}"`',
        ),
        # Quoted headers name the file with its space: nothing to report.
        (f'--- "a/{SPACED}"\n+++ "b/{SPACED}"', None),
    ],
    ids=["another-file", "git-header", "quoted-header"],
)
def test_a_cursor_path_with_spaces_is_compared_whole(headers: str, fix: str | None) -> None:
    source = SOURCE.read_text()
    text = source.replace("```src/flask/logging.py", f"```{SPACED}").replace(HEADERS, headers)
    found = [d.message for d in lint_markdown(text, NAME) if d.code == "EP114"]
    if fix is None:
        assert found == []
    else:
        assert len(found) == 1 and fix in found[0], found
        assert "remove" not in found[0]
