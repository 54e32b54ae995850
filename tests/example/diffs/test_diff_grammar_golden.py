"""The bulk diff grammar gives exactly what it gave when recorded in
tests/data/golden/diff-grammar.json (then the same as the line-at-a-time grammar it replaced):
line classes, parsed diffs, hunks and patch cursors, over the corpus's diffs and a fixed sample
of generated diffs."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from evaltools.example.diffs._difflines import classify_bulk, select_lines
from evaltools.example.diffs.patch_cursor import parse_patch
from evaltools.example.diffs.udiff import (
    classify_line,
    header_count_checks,
    iter_hunks,
    parse_diff,
    rust_lines,
)
from evaltools.example.markdown.reader import read_markdown
from tests import golden
from tests.conftest import all_corpus_files

NAME = "diff-grammar"


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


def parsed(p: Any) -> dict[str, Any]:
    return {
        "counts": [
            (c.line, c.declared_old, c.counted_old, c.declared_new, c.counted_new, c.matches)
            for c in header_count_checks(p)
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


def grammar(diff: str) -> dict[str, Any]:
    """What each part of the grammar gives; where two parts agree, the second records only
    that (the golden file is a third the size)."""
    patch, extracted = parse_patch(diff)
    whole = golden.plain(parsed(parse_diff(diff)))
    lines = golden.plain([line(classify_line(x)) for x in rust_lines(diff)])
    cursor = golden.plain(extracted)
    if cursor["clean"] == diff:
        cursor["clean"] = "the diff"
    if cursor["line_map"] == list(range(len(cursor["line_map"]))):
        cursor["line_map"] = "each line to itself"
    hunks = golden.plain([hunk(h) for h in iter_hunks(diff)])
    parsed_hunks = [h for f in whole["files"] for h in f[-1]]
    return {
        "parsed": whole,
        "lines": "the parsed lines" if lines == whole["lines"] else lines,
        "hunks": "the parsed files' hunks" if hunks == parsed_hunks else hunks,
        "patch cursor": cursor,
        "patch": golden.changes(golden.plain(parsed(patch)), whole),
    }


def corpus_diffs() -> list[str]:
    out = []
    for path in all_corpus_files():
        spec = read_markdown(path.read_text(encoding="utf-8"), path.stem).spec
        out += [spec.edit_history, spec.uncommitted_diff, *spec.expected_patches]
        out += [spec.rejected_patch or ""]
    return out


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
TAIL = list(' \t\r\x0b\x0ca/b"\\é\u2003,-+@0123456789^<#')
TAILS = st.text(alphabet=st.sampled_from(TAIL), max_size=8)
LINES = st.builds(lambda p, t: p + t, st.sampled_from(PREFIXES), TAILS)


def generated_diff(rng: random.Random) -> str:
    """Up to 40 generated lines, joined and ended by any line break."""
    lines = [rng.choice(PREFIXES) + tail(rng) for _ in range(rng.randint(0, 40))]
    return rng.choice(["\n", "\r\n"]).join(lines) + rng.choice(["", "\n", "\r\n", "\r"])


def bare_prefixes(rng: random.Random) -> str:
    return "\n".join(golden.pieces(rng, PREFIXES, 12))


def tail(rng: random.Random) -> str:
    return "".join(rng.choice(TAIL) for _ in range(rng.randint(0, 8)))


GENERATED = {"diff": (5, 400, generated_diff), "bare prefixes": (6, 200, bare_prefixes)}


def record() -> dict[str, Any]:
    corpus = {f"corpus diff {i}": grammar(diff) for i, diff in enumerate(corpus_diffs())}
    generated = [
        {"diff": diff, "grammar": grammar(diff)}
        for seed, count, draw in GENERATED.values()
        for diff in golden.sample(seed, count, draw)
    ]
    lines = [
        {"line": text, "class": golden.plain(line(classify_line(text)))}
        for text in golden.sample(7, 300, lambda rng: rng.choice(PREFIXES) + tail(rng))
    ]
    return corpus | golden.numbered(generated) | {"lines": lines}


def test_the_corpus_diffs_parse_as_recorded() -> None:
    recorded = golden.load(NAME)
    diffs = corpus_diffs()
    assert sum(len(d) for d in diffs) > 10_000
    for i, diff in enumerate(diffs):
        assert grammar(diff) == recorded[f"corpus diff {i}"], (diff, golden.meant(NAME))


def test_generated_diffs_parse_as_recorded() -> None:
    cases = [case for key, case in golden.load(NAME).items() if key.startswith("generated ")]
    assert len(cases) == sum(count for _, count, _ in GENERATED.values())
    for case in cases:
        assert grammar(case["diff"]) == case["grammar"], (case["diff"], golden.meant(NAME))


def test_each_generated_line_classifies_as_recorded() -> None:
    cases = golden.load(NAME)["lines"]
    assert len(cases) == 300
    for case in cases:
        assert golden.plain(line(classify_line(case["line"]))) == case["class"], (
            case["line"],
            golden.meant(NAME),
        )


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
