"""The round trip gives exactly what it gave before its rework (kept as the oracle in
`_old_roundtrip.py`): verdict, rendered text, first difference, losses, errors, layout
changes and why the canonical form cannot be trusted, over the corpus and generated
Markdown, in both writer modes."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from evaltools.example.markdown.roundtrip import RoundTrip, check_roundtrip, first_differing_line
from tests.conftest import all_corpus_files
from tests.example.markdown import _old_roundtrip
from tests.example.markdown.test_reader_differential import FRONT, PIECES


def everything(result: RoundTrip | _old_roundtrip.RoundTrip) -> dict[str, Any]:
    return {
        "verdict": result.verdict.value,
        "original": result.original,
        "rendered": result.rendered,
        "first_difference": result.first_difference,
        "dropped": result.dropped,
        "errors": [(str(e), e.line) for e in result.errors],
        "unsafe": result.unsafe,
        "layout_changes": [tuple(c) for c in result.layout_changes],
    }


def assert_same(text: str, stem: str | None) -> None:
    for strict in (False, True):
        new = check_roundtrip(text, stem, strict_reference=strict)
        old = _old_roundtrip.check_roundtrip(text, stem, strict_reference=strict)
        assert everything(new) == everything(old)


def test_the_corpus_checks_as_before() -> None:
    files = all_corpus_files()
    assert len(files) > 10
    for path in files:
        text = path.read_text(encoding="utf-8")
        assert_same(text, path.stem)
        assert_same(text, None)


@settings(max_examples=300, deadline=None)
@given(
    st.sampled_from(FRONT),
    st.lists(PIECES, max_size=14),
    st.sampled_from(["\n", "\n\n", "\r\n", "\n  \n"]),
    st.sampled_from([None, "stem"]),
)
def test_generated_markdown_checks_as_before(
    front: str, pieces: list[str], separator: str, stem: str | None
) -> None:
    assert_same(front + separator.join(pieces), stem)


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


@settings(max_examples=500, deadline=None)
@given(
    st.sampled_from([VALID_FRONT, VALID_FRONT + "\n", VALID_FRONT + "# c\n", ""]),
    st.lists(st.sampled_from(SECTIONS), max_size=8),
    st.tuples(
        st.integers(0, 8),  # where the cursor block goes
        st.lists(st.sampled_from(["\n\n", "\n\n\n", "\n", "  \n\n"]), min_size=9, max_size=9),
        st.sampled_from(["", "\n", "\n\n"]),  # after the last block
    ),
    st.sampled_from([None, "stem"]),
)
def test_generated_examples_check_as_before(
    front: str, sections: list[str], layout: tuple[int, list[str], str], stem: str | None
) -> None:
    at, separators, end = layout
    pieces = [*sections[:at], CURSOR, *sections[at:]]
    body = "".join(p + sep for p, sep in zip(pieces, separators, strict=False))
    assert_same(front + body.rstrip("\n") + "\n" + end, stem)


TEXTS = st.text(alphabet="ab\n", max_size=10)


@settings(max_examples=2000, deadline=None)
@given(TEXTS, TEXTS, st.booleans())
def test_first_differing_line_as_before(a: str, b: str, extend: bool) -> None:
    if extend:
        b = a + b  # one text going on past the other: the edge cases
    assert first_differing_line(a, b) == _old_roundtrip.first_differing_line(a, b)
    assert first_differing_line(b, a) == _old_roundtrip.first_differing_line(b, a)
