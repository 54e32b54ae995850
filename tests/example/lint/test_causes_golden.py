"""The runaway-fence scan (one regular-expression pass over a block) reports exactly what it
reported when recorded in tests/data/golden/lint-causes.json (then the same as the line-by-line
scan it replaced), over the corpus and a fixed sample of generated Markdown full of fences and
headings."""

from __future__ import annotations

import random
from typing import Any

from evaltools.example.lint.context import LintContext
from evaltools.example.lint.document import causes
from evaltools.example.lint.linter import lint_markdown
from evaltools.example.markdown.reader import read_markdown
from tests import golden
from tests.conftest import all_corpus_files

NAME = "lint-causes"
# The line scans, by name (a candidate scan by its fence character).
SCANS = ["_DEEP_FENCE", "_SHORT_FENCE", "_UNSPACED_HEADING", "candidate`", "candidate~"]


def line_scans(text: str) -> list[object]:
    """Each line scan's matches, as (line offset, whole match, groups)."""
    found: list[object] = []
    for name in SCANS:
        scan = (
            causes._candidate(name[-1]) if name.startswith("candidate") else getattr(causes, name)
        )
        found.append([(m.start(), m[0][1:], m.groups()) for m in causes.line_starts(scan, text)])
    return found


def swallowed(text: str) -> list[object]:
    """Each fenced block's swallowed lines."""
    parsed = read_markdown(text, "x")
    ctx = LintContext(path="x.md", spec=parsed.spec, parsed=parsed, source=text, stem="x")
    return [causes._swallowed(ctx, b) for b in parsed.blocks if b.fenced]


def reports(text: str) -> Any:
    return golden.plain(
        {
            "swallowed": swallowed(text),
            "findings": lint_markdown(text, "x.md", "x"),
            "line scans": line_scans(text),
        }
    )


LINES = [
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


def generated_markdown(rng: random.Random) -> str:
    """Up to 40 of the lines above, with or without a last line break."""
    return "\n".join(golden.pieces(rng, LINES, 40)) + rng.choice(["\n", ""])


def record() -> dict[str, Any]:
    corpus = {p.name: reports(p.read_text(encoding="utf-8")) for p in all_corpus_files()}
    generated = [
        {"text": text, "reports": reports(text)}
        for text in golden.sample(4, 300, generated_markdown)
    ]
    return corpus | golden.numbered(generated)


def test_corpus_files_report_as_recorded() -> None:
    recorded = golden.load(NAME)
    for path in all_corpus_files():
        assert reports(path.read_text(encoding="utf-8")) == recorded[path.name], (
            path,
            golden.meant(NAME),
        )


def test_a_runaway_fence_is_found() -> None:
    text = "## Edit History\n\n```diff\n-a\n  ## Cursor Position\n```rust\n"
    assert swallowed(text)[0] == [(5, "## Cursor Position"), (6, "```rust")]


def test_generated_markdown_reports_as_recorded() -> None:
    cases = [case for key, case in golden.load(NAME).items() if key.startswith("generated ")]
    assert len(cases) == 300
    for case in cases:
        assert reports(case["text"]) == case["reports"], (case["text"], golden.meant(NAME))
