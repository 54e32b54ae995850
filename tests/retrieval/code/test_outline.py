"""Outlines derived through diffs must say exactly what parsing the older version says.

The property tests build random Python modules (decorators, classes, nested and async
functions, module-level `if` blocks, comments at any indent, triple-quoted strings holding
column-0 text that looks like code), change them item by item and line by line, and walk
the versions from newest to oldest the way `gold mine` does.
"""

from __future__ import annotations

import ast
import difflib
from collections.abc import Sequence

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from evaltools.retrieval.code.outline import Outline
from evaltools.retrieval.code.spans import Hunk, Span, body_edit, touched_definitions
from evaltools.retrieval.code.symbols import find_definitions


def parse(source: bytes) -> list[Span]:
    return [Span(d.name, d.start, d.end) for d in find_definitions("m.py", source)]


def full(source: bytes) -> Outline:
    return Outline.parsed(parse(source), source)


def hunks_between(older: list[str], newer: list[str]) -> list[Hunk]:
    """-U0 hunks from the older to the newer lines, as git numbers them."""
    matcher = difflib.SequenceMatcher(None, older, newer, autojunk=False)
    found: list[Hunk] = []
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag != "equal":
            source_length, target_length = i2 - i1, j2 - j1
            found.append(
                (
                    i1 + 1 if source_length else i1,
                    source_length,
                    j1 + 1 if target_length else j1,
                    target_length,
                )
            )
    return found


# --- random modules ------------------------------------------------------------------------

COLUMN_0 = "<col0>"
NAMES = st.sampled_from(["alpha", "beta", "gamma", "delta", "kill", "Session", "run_it"])
# Statements of a body, each whole (a compound one with its own body).
UNITS = st.sampled_from(
    [
        ["x = 1"],
        ["# a comment"],
        [""],
        ["value = [i for i in range(3)]"],
        ["if x:", "    x = 2"],
        ["total = call(1,", "    2)"],
        ["print('def not_a_def(): pass')"],
        ["for i in range(2):", "    x += i", "", "    # trailing comment"],
        ["def inner():", "    return 1"],
        ["@wraps(f)", "def inner2(b):", "    return b"],
        ['sql = """', "SELECT *", "def fake():", '"""'],
        ["x = '''", "class Fake:", "'''"],
        ["x = 1 + \\", "    2"],
        [COLUMN_0 + "# a comment at column 0"],
        ["class Local:", "    def method(self):", "        return 1"],
        ["@decorator", "", "def spaced():", "    pass"],
        ['"""A docstring."""'],
        ['"""A longer docstring.', "", "It says (more", '"""'],
    ]
)


def indented(unit: list[str], indent: str) -> list[str]:
    """The unit at an indent, except lines inside a triple-quoted string (and COLUMN_0)."""
    inside_string = False
    lines = []
    for line in unit:
        if line.startswith(COLUMN_0):
            lines.append(line.removeprefix(COLUMN_0))
            continue
        lines.append(line if inside_string or not line else indent + line)
        if line.count('"""') % 2 or line.count("'''") % 2:
            inside_string = not inside_string
    return lines


@st.composite
def body(draw: st.DrawFn, indent: str) -> list[str]:
    lines = [indent + "x = 0"]
    for unit in draw(st.lists(UNITS, max_size=4)):
        lines += indented(unit, indent)
    return [*lines, indent + "return x"]


@st.composite
def function(draw: st.DrawFn, indent: str = "") -> list[str]:
    name = draw(NAMES) + str(draw(st.integers(0, 9)))
    lines: list[str] = []
    if draw(st.booleans()):
        lines.append(indent + draw(st.sampled_from(["@decorator", "@cache(size=2)"])))
        if draw(st.booleans()):
            lines.append(indent + "# between decorator and def")
    prefix = draw(st.sampled_from(["def", "def", "async def"]))
    lines.append(f"{indent}{prefix} {name}(a):")
    return lines + draw(body(indent + "    "))


@st.composite
def klass(draw: st.DrawFn) -> list[str]:
    lines = [f"class {draw(NAMES).title()}{draw(st.integers(0, 9))}:"]
    if draw(st.booleans()):
        lines.append("    attribute = 1")
    for _ in range(draw(st.integers(1, 3))):
        lines += draw(function("    "))
        if draw(st.booleans()):
            lines.append("")
    return lines


ITEMS = st.one_of(
    function(),
    function(),
    klass(),
    st.sampled_from(
        [
            ["import os"],
            ["# a module comment"],
            [""],
            ["", ""],
            ["CONSTANT = 3"],
            ["if TYPE_CHECKING:", "    def typed(a):", "        return a"],
            ["try:", "    import fast", "except ImportError:", "    def fast():", "        pass"],
            ['DOC = """', "def looks_like_code():", "    pass", '"""'],
            ["data = {", "    'a': 1,", "}"],
            ['if __name__ == "__main__":', "    main()"],
            ['"""Module docstring', "def in_docstring():", '"""'],
            ["x = [", "    1,", "]", ""],
        ]
    ),
)


def source(items: Sequence[list[str]]) -> list[str]:
    return [line for item in items for line in item]


def valid(lines: list[str]) -> bool:
    try:
        ast.parse("\n".join(lines) + "\n")
    except SyntaxError:
        return False
    return True


@st.composite
def edit(draw: st.DrawFn, items: list[list[str]]) -> list[list[str]]:
    """One change of a module: add, remove, replace or move an item, or edit its lines."""
    items = [list(item) for item in items]
    kind = draw(st.sampled_from(["insert", "delete", "replace", "lines", "lines", "move"]))
    spot = draw(st.integers(0, max(len(items) - 1, 0)))
    if kind == "insert" or not items:
        items.insert(spot, draw(ITEMS))
    elif kind == "delete":
        del items[spot]
    elif kind == "replace":
        items[spot] = draw(ITEMS)
    elif kind == "move":
        items.append(items.pop(spot))
    elif not items[spot]:
        items[spot] = draw(ITEMS)
    else:
        item = items[spot]
        at = draw(st.integers(0, len(item) - 1))
        line = item[at]
        indent = line[: len(line) - len(line.lstrip())] or "    "
        if draw(st.booleans()):
            del item[at : at + draw(st.integers(1, 2))]
        else:
            item[at:at] = indented(draw(UNITS), indent)
    return items


@st.composite
def history(draw: st.DrawFn) -> list[list[str]]:
    """Valid versions of one module, oldest first (invalid ones are left out)."""
    items = draw(st.lists(ITEMS, min_size=2, max_size=8))
    versions = [source(items)]
    for _ in range(draw(st.integers(2, 5))):
        items = draw(edit(items))
        versions.append(source(items))
    return [v for v in versions if valid(v)]


def encode(lines: list[str]) -> bytes:
    return ("\n".join(lines) + "\n").encode()


def agrees(outline: Outline, truth: Outline) -> None:
    """Every definition the outline knows is one the parser finds, and none is missing."""
    expected = truth.definitions()
    for segment in outline.segments:
        inside = [d for d in expected if segment.start <= d.start <= segment.end]
        assert segment.definitions() == inside, (segment, inside)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(history(), st.data())
def test_derived_outlines_agree_with_parsing_the_older_version(
    versions: list[list[str]], data: st.DataObject
) -> None:
    assume(len(versions) >= 2)
    outline = full(encode(versions[-1]))
    for older, newer in zip(reversed(versions[:-1]), reversed(versions[1:]), strict=True):
        hunks = hunks_between(older, newer)
        older_bytes = encode(older)
        with_text = data.draw(st.booleans())
        derived = outline.derive(hunks, older_bytes.split(b"\n") if with_text else None)
        truth = full(older_bytes)
        agrees(derived, truth)
        if with_text:
            complete = derived.repaired(parse)
            assert complete.definitions() == truth.definitions()
            agrees(complete, truth)
        else:
            complete = derived.repaired(parse, content=older_bytes)
        query = hunks_between(data.draw(st.sampled_from(versions)), older)
        answer = derived.touched(query)
        assert answer is None or answer == truth.touched(query)
        repaired = derived.repaired(parse, query, content=older_bytes)
        assert repaired.touched(query) == truth.touched(query)
        agrees(repaired, truth)
        outline = data.draw(st.sampled_from([derived, complete, repaired]))


def test_touched_counts_innermost_definitions_and_gaps_strictly_inside() -> None:
    spans = [Span("C", 1, 10), Span("C.a", 2, 4), Span("C.b", 6, 9), Span("f", 12, 14)]
    assert touched_definitions(spans, [3], []) == [Span("C.a", 2, 4)]
    assert touched_definitions(spans, [5], []) == [Span("C", 1, 10)]
    assert touched_definitions(spans, [11], []) == []
    # deletion after line 7 (inside C.b), after line 4 (C.a ends there: C holds both sides)
    assert touched_definitions(spans, [], [7, 4]) == [Span("C", 1, 10), Span("C.b", 6, 9)]
    # deletion after line 10: between C and f, neither holds both sides
    assert touched_definitions(spans, [], [10, 11]) == []


def test_blank_lines_do_not_count_and_a_blank_replacement_is_a_deletion() -> None:
    source_text = (
        b"class C:\n    def a(self):\n        return 1\n\n    def b(self):\n        return 2\n"
    )
    outline = full(source_text)
    assert outline.touched([(3, 0, 4, 1)]) == []  # a blank line added between methods
    assert outline.touched([(3, 1, 3, 1)]) == [Span("C.a", 2, 3)]
    # line 5 replaced by a blank one: a deletion after line 4, inside C only
    assert outline.touched([(4, 1, 4, 1)]) == [Span("C", 1, 6)]


def test_body_edit_moves_spans_and_refuses_structural_lines() -> None:
    newer = [
        b"def f():",
        b"    x = 1",
        b"    y = 2",
        b"    return x",
        b"",
        b"def g():",
        b"    pass",
    ]
    spans = [Span("f", 1, 4), Span("g", 6, 7)]
    # older had one more body line in f: the newer replaced two lines by one
    older = [
        b"def f():",
        b"    x = 1",
        b"    z = 3",
        b"    y = 2",
        b"    return x",
        b"",
        b"def g():",
    ]
    moved = body_edit(spans, [(3, 2, 3, 1)], older, newer)
    assert moved == [Span("f", 1, 5), Span("g", 7, 8)]
    older_with_def = [b"def f():", b"    def h():", b"    y = 2"]
    assert body_edit(spans, [(2, 1, 2, 1)], older_with_def, newer) is None
    dedented = [b"def f():", b"    x = 1", b"y = 2"]
    assert body_edit(spans, [(3, 1, 3, 1)], dedented, newer) is None
    assert body_edit(spans, [(1, 1, 1, 1)], older, newer) is None  # the header line


def test_an_outline_without_text_cannot_repair_itself() -> None:
    outline = full(b"def f():\n    return 1\n").derive([(1, 0, 2, 1)], None)
    try:
        outline.repaired(parse)
    except ValueError as exc:
        assert "content" in str(exc)
    else:  # pragma: no cover
        raise AssertionError("repaired() without text must fail")
