"""A section heading at the wrong level hides only what its misreading causes: the stretch up
to the next H2, the section that stretch lands in when it overrides its block, and the section
it empties; never a finding above it or in a section it does not reach."""

from __future__ import annotations

from pathlib import Path

import pytest

from evaltools.__main__ import main
from evaltools.example.lint.linter import lint_markdown

NAME = "repo--change-return.md"
FM = (
    '+++\nrepository_url = "https://github.com/o/r"\n'
    'revision = "0123456789abcdef0123456789abcdef01234567"\n+++\n'
)
CUR = (
    '## Cursor Position\n\n```src/app.py\ndef main():\n    print("hello")\n'
    "#         ^[CURSOR_POSITION]\n    return 0\n```\n"
)
HUNK = '@@ -1,3 +1,3 @@\n def main():\n     print("hello")\n-    return 0\n+    return 1\n'
PATCH = f"## Expected Patch\n\n```diff\n--- a/src/app.py\n+++ b/src/app.py\n{HUNK}```\n"
PROSE_ABOVE = f"{FM}\nSome prose.\n\n### Edit History\n\n(No edit history)\n\n{CUR}\n{PATCH}"
# The same H3, and a patch whose hunk matches nothing in the excerpt (EP302).
UNRELATED = PROSE_ABOVE.replace(HUNK, "@@ -90 +90 @@\n-    x = unrelated()\n+    y = other()\n")


def found(text: str) -> list[tuple[int, str]]:
    return sorted((d.line, d.code) for d in lint_markdown(text, NAME) if d.code != "EP403")


def test_prose_above_the_heading_is_still_reported() -> None:
    # The H3 at line 8 misreads lines 8-11 (its own copy and `(No edit history)` at 10).
    assert found(PROSE_ABOVE) == [(6, "EP108"), (8, "EP111")]


def test_a_patch_the_heading_cannot_reach_is_still_checked() -> None:
    assert found(UNRELATED) == [(6, "EP108"), (8, "EP111"), (26, "EP302")]


@pytest.mark.parametrize(
    ("heading", "hidden"),
    [
        # The excerpt moves out of Cursor Position: its absence, wherever it is reported,
        # and the edit history's diff, which drops the excerpt's lines (EP310).
        ("### Cursor Position", {"EP103", "EP310"}),
        # The patch lands in Cursor Position and overrides the excerpt above the heading.
        ("### Expected Patch", {"EP105", "EP107", "EP201"}),
    ],
)
def test_what_the_misreading_reaches_elsewhere_is_still_hidden(
    heading: str, hidden: set[str]
) -> None:
    text = PROSE_ABOVE.replace("### Edit History", "## Edit History")
    text = text.replace(f"## {heading[4:]}", heading)
    shown = lint_markdown(text, NAME)
    assert [(d.code, d.line) for d in shown if d.code not in ("EP403", "EP108")] == [
        ("EP111", text.split("\n").index(heading) + 1)
    ]
    cause = next(d for d in shown if d.code == "EP111")
    assert cause.severity.value == "error"
    assert cause.message.endswith(f"it causes {', '.join(sorted(hidden))})")


def test_check_folds_only_the_round_trip_losses_the_heading_causes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / NAME).write_text(PROSE_ABOVE)
    (tmp_path / "pyproject.toml").write_text("[tool.evaltools]\n")
    monkeypatch.chdir(tmp_path)
    assert main(["check", NAME]) == 1
    out = capsys.readouterr().out
    # The prose above the H3 is lost on a rewrite on its own: its RT002 makes it an error.
    assert f"{NAME}:6:1: EP108 [error]" in out
    assert "(an error here: it causes RT002)" in out
    assert f"{NAME}:8:1: EP111 [error]" in out
    assert "RT002 [" not in out
