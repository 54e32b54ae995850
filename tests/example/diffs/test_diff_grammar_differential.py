"""The bulk diff grammar gives exactly what the line-at-a-time one gave (kept as the oracle in
`_old_difflines.py`/`_old_udiff_parse.py`), over the corpus's diffs and over generated diffs."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from evaltools.example.cursor import parse_patch
from evaltools.example.diffs import udiff
from evaltools.example.diffs._difflines import classify_bulk, select_lines
from evaltools.example.diffs.udiff import classify_line, iter_hunks, parse_diff, rust_lines
from evaltools.example.markdown.reader import read_markdown
from tests.conftest import all_corpus_files
from tests.example.diffs import _old_difflines as old_lines
from tests.example.diffs import _old_udiff_parse as old_parse
from tests.example.diffs._old_cursor import old_extract_patch_cursor


def location(loc: Any) -> tuple[int, ...] | None:
    if loc is None:
        return None
    return (loc.old_start, loc.old_count, loc.new_start, loc.new_count)


def line(dl: Any) -> tuple[Any, ...]:
    return (dl.kind.value, dl.text, location(dl.location))


def hunk(h: Any) -> tuple[Any, ...]:
    old_new = [[(ln.kind.value, ln.line) for ln in side] for side in (h.old_lines, h.new_lines)]
    return (
        old_new,
        h.path,
        h.context,
        [(e.start, e.end, e.text) for e in h.edits],
        h.start_line,
        location(h.header),
        h.header_line,
        [(ln.kind.value, ln.text, ln.line) for ln in h.lines],
    )


def parsed(p: Any, module: Any) -> dict[str, Any]:
    return {
        "counts": [
            (c.line, c.declared_old, c.counted_old, c.declared_new, c.counted_new, c.matches)
            for c in module.header_count_checks(p)
        ],
        "lines": [line(dl) for dl in p.lines],
        "numbers": list(p.line_numbers),
        "ignored": list(p.ignored_lines),
        "files": [
            (
                f.old_path,
                f.new_path,
                f.line,
                f.ended_at,
                f.ended_by_garbage,
                [hunk(h) for h in f.hunks],
            )
            for f in p.files
        ],
    }


def assert_same(diff: str) -> None:
    assert [line(classify_line(x)) for x in rust_lines(diff)] == [
        line(old_lines.classify_line(x)) for x in old_lines.rust_lines(diff)
    ]
    assert parsed(parse_diff(diff), udiff) == parsed(old_parse.parse_diff(diff), old_parse)
    assert [hunk(h) for h in iter_hunks(diff)] == [hunk(h) for h in old_parse.iter_hunks(diff)]
    new_patch, new_extracted = parse_patch(diff)
    old_extracted = old_extract_patch_cursor(diff)
    assert new_extracted == old_extracted
    old_patch = old_parse.parse_diff(old_extracted.clean, old_extracted.line_map)
    assert parsed(new_patch, udiff) == parsed(old_patch, old_parse)


def corpus_diffs() -> list[str]:
    out = []
    for path in all_corpus_files():
        spec = read_markdown(path.read_text(encoding="utf-8"), path.stem).spec
        out += [spec.edit_history, spec.uncommitted_diff, *spec.expected_patches]
        out += [spec.rejected_patch or ""]
    return out


def test_the_corpus_diffs_parse_as_before() -> None:
    diffs = corpus_diffs()
    assert sum(len(d) for d in diffs) > 10_000
    for diff in diffs:
        assert_same(diff)


# Lines built from the pieces the grammar tells apart, with the near misses around each rule.
PREFIXES = [
    "--- ",
    "+++ ",
    "---",
    "+++",
    "---\t",
    "+++\x0b",
    "--- a/",
    "+++ b/",
    '--- "a/x y"',
    "@@ ",
    "@@",
    "@@  ",
    "@@ ... @@",
    "@@ -1,2 +3,4 @@",
    "@@ -1 +1 @@",
    "@@ -0,0 +1,5 @@ fn x",
    "@@ -+3,2 +4 @@",
    "@@ -99999999999 +1 @@",
    "@@ -1,2\t+3,4 @@",
    "@@ -1,2\u2003+3,4 @@",
    "@@ -1,2 +3,4\u2003",
    "@@ -١ +1 @@",
    "\\ No newline at end of file",
    "\\ no newline",
    "\\",
    " ",
    "",
    "+",
    "-",
    "-- ",
    "++ ",
    "#",
    "#   ^[CURSOR_POSITION]",
    "# <[CURSOR_POSITION]",
    "#[CURSOR_POSITION]",
    "// User accepted prediction:",
    "\t",
    "x",
]
TAILS = st.text(
    alphabet=st.sampled_from(list(' \t\r\x0b\x0ca/b"\\é\u2003,-+@0123456789^<#')), max_size=8
)
LINES = st.builds(lambda p, t: p + t, st.sampled_from(PREFIXES), TAILS)


@settings(max_examples=400, deadline=None)
@given(
    st.lists(LINES, max_size=40),
    st.sampled_from(["\n", "\r\n"]),
    st.sampled_from(["", "\n", "\r\n", "\r"]),
)
def test_generated_diffs_parse_as_before(lines: list[str], eol: str, end: str) -> None:
    assert_same(eol.join(lines) + end)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(PREFIXES), max_size=12).map("\n".join))
def test_generated_diffs_of_bare_prefixes_parse_as_before(diff: str) -> None:
    assert_same(diff)


@settings(max_examples=300, deadline=None)
@given(LINES)
def test_each_generated_line_classifies_as_before(text: str) -> None:
    assert line(classify_line(text)) == line(old_lines.classify_line(text))


@settings(deadline=None)
@given(st.lists(LINES, max_size=30), st.data())
def test_a_subset_of_classified_lines_is_their_classification(
    lines: list[str], data: st.DataObject
) -> None:
    # parse_patch hands the patch's classification, without its marker lines, to parse_diff.
    keep = sorted(
        data.draw(st.sets(st.integers(0, max(len(lines) - 1, 0)))) & set(range(len(lines)))
    )
    chosen = select_lines(classify_bulk(lines), keep)
    assert chosen == classify_bulk([lines[i] for i in keep])
