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
from tests.example.lint._old_causes import OLD_LINE_SCANS, old_swallowed


def line_scans(text: str) -> tuple[list[object], list[object]]:
    """(new, old): each line scan's matches, as (line offset, whole match, groups)."""
    new: list[object] = []
    old: list[object] = []
    for name, pattern in OLD_LINE_SCANS.items():
        scan = (
            causes._candidate(name[-1]) if name.startswith("candidate") else getattr(causes, name)
        )
        new.append([(m.start(), m[0][1:], m.groups()) for m in causes.line_starts(scan, text)])
        old.append([(m.start(), m[0], m.groups()) for m in pattern.finditer(text)])
    return new, old


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
        text = path.read_text(encoding="utf-8")
        new, old = both(text)
        assert new == old, path
        new, old = line_scans(text)
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
        "``py",
        "  ~~ ",
        "``",
        "`` x`",
        "##Expected Patch ##",
        "   ###Cursor Position\r",
        "     ~~~~",
    ]
)


@settings(max_examples=300, deadline=None)
@given(st.lists(LINES, max_size=40), st.booleans())
def test_generated_markdown_reports_the_same(lines: list[str], newline: bool) -> None:
    text = "\n".join(lines) + ("\n" if newline else "")
    new, old = both(text)
    assert new == old
    new, old = line_scans(text)
    assert new == old
