"""`line_opcodes` gives exactly difflib's opcodes (no junk), on generated line lists and on
each corpus file against its canonical rewrite."""

from __future__ import annotations

import difflib

from hypothesis import given, settings
from hypothesis import strategies as st

from evaltools.example.markdown.linematch import Opcode, line_opcodes
from evaltools.example.markdown.roundtrip import check_roundtrip
from tests.conftest import all_corpus_files


def difflib_opcodes(a: list[str], b: list[str]) -> list[Opcode]:
    return difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes()


# Few distinct lines, so that blocks tie and repeat, as blank and fence lines do.
LINES = st.lists(st.sampled_from(["", "```", "a", "b", "\ud7ff", "\ue000"]), max_size=40)


@settings(max_examples=2000, deadline=None)
@given(LINES, LINES)
def test_unrelated_lists(a: list[str], b: list[str]) -> None:
    assert line_opcodes(a, b) == difflib_opcodes(a, b)


@settings(max_examples=2000, deadline=None)
@given(LINES, st.lists(st.tuples(st.integers(0, 40), st.sampled_from(["", "a", "c", None]))))
def test_a_list_and_its_edits(a: list[str], edits: list[tuple[int, str | None]]) -> None:
    b = list(a)
    for at, line in edits:
        if line is None:
            if b:
                del b[at % len(b)]
        else:
            b.insert(at % (len(b) + 1), line)
    assert line_opcodes(a, b) == difflib_opcodes(a, b)


def test_the_corpus_and_its_rewrites() -> None:
    compared = 0
    for path in all_corpus_files():
        text = path.read_text(encoding="utf-8")
        rendered = check_roundtrip(text, path.stem).rendered
        if rendered is not None and rendered != text:
            a, b = text.split("\n"), rendered.split("\n")
            assert line_opcodes(a, b) == difflib_opcodes(a, b), path
            compared += 1
    assert compared >= 5
