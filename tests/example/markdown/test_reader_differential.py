"""The reader gives exactly what it gave before its per-event rework (kept as the oracle in
`_old_markdown.py`), over the corpus and over generated Markdown."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from evaltools.example.markdown.reader import read_markdown
from evaltools.example.markdown.roundtrip import check_roundtrip
from tests.conftest import all_corpus_files
from tests.example.markdown import _old_markdown


def everything(parsed: Any) -> dict[str, Any]:
    return {
        "spec": parsed.spec,
        "front_matter": parsed.front_matter,
        "hints": parsed.hints,
        "blocks": parsed.blocks,
        "headings": parsed.headings,
        "dropped": parsed.dropped,
        "errors": [(type(e).__name__, str(e), e.line) for e in parsed.errors],
        "body_line": parsed.body_line,
    }


def assert_same(text: str, stem: str | None = "stem") -> None:
    assert everything(read_markdown(text, stem)) == everything(
        _old_markdown.read_markdown(text, stem)
    )


def test_the_corpus_reads_as_before() -> None:
    files = all_corpus_files()
    assert len(files) > 10
    for path in files:
        text = path.read_text(encoding="utf-8")
        assert_same(text, path.stem)
        assert_same(text, None)
        rendered = check_roundtrip(text, path.stem).rendered
        if rendered is not None:
            assert_same(rendered, path.stem)


HEADINGS = [
    "# Title",
    "# Other *title*",
    "## Edit History",
    "## edit history",
    "## Cursor Position",
    "## Expected Patch",
    "## Rejected Patch",
    "## Uncommitted Diff",
    "## Recently Opened Files",
    "## Recently Viewed Files",
    "## Reasoning",
    "## Unknown",
    "## Cursor `Position`",
    "### Minor",
    "##### Five",
    "Setext\n---",
]
BLOCKS = [
    "```diff\n--- a/f\n+++ b/f\n@@ -1 +1 @@\n-a\n+b\n```",
    "```src/main.rs\nfn main() {\n    // ^[CURSOR_POSITION]\n}\n```",
    "~~~~\n```\ninner\n~~~~",
    "```\nunclosed\n",
    "    indented code",
    "// User accepted prediction:",
    "(No edit history)",
    "a paragraph\nover two lines",
    "- a list\n- of items",
    "> quoted",
    "<div>html</div>",
    "[ref]: https://example.com",
    "***",
    "| a | b |\n|---|---|\n| 1 | 2 |",
    "src/a.rs\t12\nsrc/b.rs",
    "text with `code` and *emphasis*",
    "  \t",
    "é ü 😀",
]
FRONT = ["", "+++\nrepository_url = 'x'\nrevision = 'y'\n+++\n", "+++\ntags = [1\n", "---\n"]
PIECES = st.sampled_from(HEADINGS + BLOCKS)


@settings(max_examples=300, deadline=None)
@given(
    st.sampled_from(FRONT),
    st.lists(PIECES, max_size=14),
    st.sampled_from(["\n", "\n\n", "\r\n"]),
    st.sampled_from([None, "stem"]),
)
def test_generated_markdown_reads_as_before(
    front: str, pieces: list[str], separator: str, stem: str | None
) -> None:
    assert_same(front + separator.join(pieces), stem)
