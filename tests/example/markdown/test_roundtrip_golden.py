"""The round trip gives exactly what it gave when its output was recorded in
tests/data/golden/markdown-roundtrip.json (then the same as before its rework): verdict,
rendered text, first difference, losses, errors, layout changes and why the canonical form
cannot be trusted, over the corpus and a fixed sample of generated Markdown, in both writer
modes."""

from __future__ import annotations

import itertools
import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from evaltools.example.markdown.roundtrip import RoundTrip, check_roundtrip, first_differing_line
from tests import golden
from tests.conftest import all_corpus_files
from tests.example.markdown.test_reader_golden import FRONT, PIECES

NAME = "markdown-roundtrip"


def everything(result: RoundTrip, text: str) -> Any:
    return golden.plain(
        {
            "verdict": result.verdict.value,
            "original is the text": result.original == text,
            "rendered": result.rendered,
            "first_difference": result.first_difference,
            "dropped": result.dropped,
            "errors": [(str(e), e.line) for e in result.errors],
            "unsafe": result.unsafe,
            "layout_changes": [tuple(c) for c in result.layout_changes],
        }
    )


def checks(text: str, stem: str | None) -> dict[str, Any]:
    """The lenient writer's result, and what differs in the strict one's."""
    lenient = everything(check_roundtrip(text, stem, strict_reference=False), text)
    strict = everything(check_roundtrip(text, stem, strict_reference=True), text)
    return {"lenient": lenient, "strict": golden.changes(strict, lenient)}


def corpus_checks(path_stem: str, text: str) -> dict[str, Any]:
    with_stem = checks(text, path_stem)
    return {"stem": with_stem, "no stem": golden.changes(checks(text, None), with_stem)}


def generated_layout(rng: random.Random) -> list[Any]:
    """(text, stem): front matter, then up to 14 headings and blocks, a blank line of spaces
    among the separators."""
    front = rng.choice(FRONT)
    pieces = golden.pieces(rng, PIECES, 14)
    separator = rng.choice(["\n", "\n\n", "\r\n", "\n  \n"])
    return [front + separator.join(pieces), rng.choice([None, "stem"])]


# Files the reference reads (a cursor block is always there), laid out nearly canonically,
# so that most come back exact, reformatted or lossy rather than unreadable.
CURSOR = "## Cursor Position\n\n```src/a.rs\nfn a() {}\n// ^[CURSOR_POSITION]\n```"
SECTIONS = [
    "# A title",
    "# stem",
    "# A `title`",
    "## Reasoning\n\nWhy.\n\n### Detail\n\nMore.",
    "## Uncommitted Diff\n\n```diff\n--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n```",
    "## Recently Opened Files\n\n```\nsrc/a.rs\t3\nsrc/b.rs\n```",
    "## Edit History\n\n```diff\n--- a/x\n+++ b/x\n```",
    "## Edit History\n\n// User accepted prediction:\n```diff\n--- a/y\n+++ b/y\n```",
    "## Edit History\n\n(No edit history)",
    "## Expected Patch\n\n```diff\n--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n```",
    "## Expected Patch\n\n````diff\n```\n````",
    "## Rejected Patch\n\n~~~diff\n-a\n~~~",
    "## Cursor Position\n\n  ```src/b.rs\n   indented\n  ```",
    "## Unknown\n\nlost text",
    "stray paragraph",
    "```\nstray code\n```",
]
VALID_FRONT = '+++\nrepository_url = "https://x"\nrevision = "abc"\n+++\n'


def generated_example(rng: random.Random) -> list[Any]:
    """(text, stem): up to 8 sections around the cursor block, nearly canonical spacing."""
    front = rng.choice([VALID_FRONT, VALID_FRONT + "\n", VALID_FRONT + "# c\n", ""])
    sections = golden.pieces(rng, SECTIONS, 8)
    at = rng.randint(0, 8)  # where the cursor block goes
    separators = [rng.choice(["\n\n", "\n\n\n", "\n", "  \n\n"]) for _ in range(9)]
    end = rng.choice(["", "\n", "\n\n"])  # after the last block
    pieces = [*sections[:at], CURSOR, *sections[at:]]
    body = "".join(p + sep for p, sep in zip(pieces, separators, strict=False))
    return [front + body.rstrip("\n") + "\n" + end, rng.choice([None, "stem"])]


GENERATED = {"markdown": (2, 300, generated_layout), "example": (3, 500, generated_example)}


def record() -> dict[str, Any]:
    files = all_corpus_files()
    corpus = {p.name: corpus_checks(p.stem, p.read_text(encoding="utf-8")) for p in files}
    generated = [
        {"kind": kind, "text": text, "stem": stem, "checks": checks(text, stem)}
        for kind, (seed, count, draw) in GENERATED.items()
        for text, stem in golden.sample(seed, count, draw)
    ]
    return corpus | golden.numbered(generated)


def test_the_corpus_checks_as_recorded() -> None:
    recorded = golden.load(NAME)
    files = all_corpus_files()
    assert len(files) > 10
    for path in files:
        assert corpus_checks(path.stem, path.read_text(encoding="utf-8")) == recorded[path.name], (
            golden.meant(NAME)
        )


def test_generated_markdown_and_examples_check_as_recorded() -> None:
    cases = [case for key, case in golden.load(NAME).items() if key.startswith("generated ")]
    assert len(cases) == sum(count for _, count, _ in GENERATED.values())
    for case in cases:
        assert checks(case["text"], case["stem"]) == case["checks"], (
            case["text"],
            golden.meant(NAME),
        )


def split_definition(a: str, b: str) -> int | None:
    """The first line (1-based) where the texts split at `\\n` differ, or the line past the
    shorter one: what `first_differing_line` says it finds without splitting."""
    pairs = itertools.zip_longest(a.split("\n"), b.split("\n"))
    return next((n for n, (x, y) in enumerate(pairs, 1) if x != y), None)


TEXTS = st.text(alphabet="ab\n", max_size=10)


@settings(max_examples=2000, deadline=None)
@given(TEXTS, TEXTS, st.booleans())
def test_first_differing_line_is_the_first_split_line_that_differs(
    a: str, b: str, extend: bool
) -> None:
    if extend:
        b = a + b  # one text going on past the other: the edge cases
    assert first_differing_line(a, b) == split_definition(a, b)
    assert first_differing_line(b, a) == split_definition(b, a)
