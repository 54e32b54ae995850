"""The reader gives exactly what it gave when its output was recorded in
tests/data/golden/markdown-reader.json (then the same as before its per-event rework), over
the corpus, their canonical forms, and a fixed sample of generated Markdown."""

from __future__ import annotations

import random
from typing import Any

from evaltools.example.markdown.reader import read_markdown
from evaltools.example.markdown.roundtrip import check_roundtrip
from tests import golden
from tests.conftest import all_corpus_files

NAME = "markdown-reader"


def everything(parsed: Any) -> Any:
    return golden.plain(
        {
            "spec": parsed.spec,
            "front_matter": parsed.front_matter,
            "hints": parsed.hints,
            "blocks": parsed.blocks,
            "headings": parsed.headings,
            "dropped": parsed.dropped,
            "errors": [(type(e).__name__, str(e), e.line) for e in parsed.errors],
            "body_line": parsed.body_line,
        }
    )


def read(text: str, stem: str | None) -> Any:
    return everything(read_markdown(text, stem))


def corpus_reads(path_stem: str, text: str) -> dict[str, Any]:
    """The file read with its stem; what differs read without it, and what differs in its
    canonical form read, if it has one."""
    rendered = check_roundtrip(text, path_stem).rendered
    with_stem = read(text, path_stem)
    canonical = None if rendered is None else golden.changes(read(rendered, path_stem), with_stem)
    return {
        "stem": with_stem,
        "no stem": golden.changes(read(text, None), with_stem),
        "rendered": canonical,
    }


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
PIECES = HEADINGS + BLOCKS


def generated_markdown(rng: random.Random) -> list[Any]:
    """(text, stem): front matter, then up to 14 headings and blocks."""
    front = rng.choice(FRONT)
    pieces = golden.pieces(rng, PIECES, 14)
    return [front + rng.choice(["\n", "\n\n", "\r\n"]).join(pieces), rng.choice([None, "stem"])]


def record() -> dict[str, Any]:
    files = all_corpus_files()
    corpus = {p.name: corpus_reads(p.stem, p.read_text(encoding="utf-8")) for p in files}
    generated = [
        {"text": text, "stem": stem, "read": read(text, stem)}
        for text, stem in golden.sample(1, 300, generated_markdown)
    ]
    return corpus | golden.numbered(generated)


def test_the_corpus_reads_as_recorded() -> None:
    recorded = golden.load(NAME)
    files = all_corpus_files()
    assert len(files) > 10
    for path in files:
        assert corpus_reads(path.stem, path.read_text(encoding="utf-8")) == recorded[path.name], (
            golden.meant(NAME)
        )


def test_generated_markdown_reads_as_recorded() -> None:
    cases = [case for key, case in golden.load(NAME).items() if key.startswith("generated ")]
    assert len(cases) == 300
    for case in cases:
        assert read(case["text"], case["stem"]) == case["read"], (case["text"], golden.meant(NAME))
