"""The runaway-fence scan (one regular-expression pass over a block) reports exactly what
the line-by-line scan did (kept as the oracle in `_old_causes.py`), over the corpus and
over generated Markdown full of fences and headings."""

from __future__ import annotations

from unittest import mock

from hypothesis import given, settings
from hypothesis import strategies as st

from evaltools.example.lint import causes, lint_markdown
from evaltools.example.lint.context import LintContext
from evaltools.example.markdown.reader import read_markdown
from tests.conftest import all_corpus_files
from tests.example.lint._old_causes import old_swallowed


def both(text: str) -> tuple[list[object], list[object]]:
    """(new, old): each fenced block's swallowed lines, then the file's findings."""
    parsed = read_markdown(text, "x")
    ctx = LintContext(path="x.md", spec=parsed.spec, parsed=parsed, source=text, stem="x")
    fenced = [b for b in parsed.blocks if b.fenced]
    new: list[object] = [causes._swallowed(ctx, b) for b in fenced]
    old: list[object] = [old_swallowed(ctx, b) for b in fenced]
    new += lint_markdown(text, "x.md", "x")
    with mock.patch.object(causes, "_swallowed", old_swallowed):
        old += lint_markdown(text, "x.md", "x")
    return new, old


def test_corpus_files_report_the_same() -> None:
    for path in all_corpus_files():
        new, old = both(path.read_text(encoding="utf-8"))
        assert new == old, path


def test_a_runaway_fence_is_found_by_both() -> None:
    text = "## Edit History\n\n```diff\n-a\n  ## Cursor Position\n```rust\n"
    new, old = both(text)
    assert new == old
    assert new[0] == [(5, "## Cursor Position"), (6, "```rust")]


LINES = st.sampled_from(
    [
        "## Cursor Position",
        "## Edit History",
        "   ## Expected Patch",
        "    ## Expected Patch",
        "### Reasoning",
        "# Title",
        "## Notes",
        "```",
        "```diff",
        "```path/to/file.rs",
        "   ```rust",
        "    ```rust",
        "~~~",
        "~~~ text",
        "````",
        "````py",
        "``` a`b",
        "## Uncommitted Diff\r",
        "```go\r",
        "",
        "text",
        "@@ -1,2 +1,2 @@",
        "-old",
        "+new",
        " context",
        "#no space",
        "\t## tabbed",
    ]
)


@settings(max_examples=300, deadline=None)
@given(st.lists(LINES, max_size=40), st.booleans())
def test_generated_markdown_reports_the_same(lines: list[str], newline: bool) -> None:
    text = "\n".join(lines) + ("\n" if newline else "")
    new, old = both(text)
    assert new == old
