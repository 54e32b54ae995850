"""Definition spans and what a change does to them, independent of how they were found.

`touched_definitions` says which definitions a set of changed lines touches;
`body_edit` says where the definitions of a block move when a change only edits code inside
a definition's body, so that it needs no parsing.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import NamedTuple, Protocol

# (source_start, source_length, target_start, target_length) as in `@@ -s,l +s,l @@`;
# a zero-length side's start is the line after which lines were inserted or deleted.
Hunk = tuple[int, int, int, int]


class Definition(NamedTuple):
    """One definition: `Outer.Inner.fn`, lines `start`..`end` (1-based, inclusive)."""

    name: str
    start: int
    end: int

    @property
    def leaf(self) -> str:
        return self.name.rpartition(".")[2]


class DefinitionLike(Protocol):
    @property
    def name(self) -> str: ...
    @property
    def start(self) -> int: ...
    @property
    def end(self) -> int: ...


class Span(NamedTuple):
    name: str
    start: int
    end: int


def same_effect(removed: Sequence[bytes], added: Sequence[bytes]) -> bool:
    """Whether replacing `removed` lines by `added` leaves every other line where it was
    with respect to strings and brackets.

    What an unchanged line means depends on the lines before it: a triple quote or an
    unclosed bracket on a changed line can pull the lines after it into a string or an
    expression. The two sides have the same effect when they toggle each kind of triple
    quote an equal number of times (mod 2) and open as many brackets; lines are counted as
    text, so a line holding a triple quote and any other quote, or ending in a backslash
    (a continued line), makes the answer no.
    """
    effect = _effect(removed)
    return effect is not None and effect == _effect(added)


def _effect(lines: Sequence[bytes]) -> tuple[int, int, int] | None:
    doubles = singles = depth = 0
    for line in lines:
        if line.rstrip().endswith(b"\\"):
            return None
        double, single = line.count(b'"""'), line.count(b"'''")
        if double or single:
            rest = line.replace(b'"""', b"").replace(b"'''", b"")
            if b'"' in rest or b"'" in rest:
                return None
            doubles, singles = doubles + double, singles + single
        depth += sum(line.count(c) for c in (b"(", b"[", b"{"))
        depth -= sum(line.count(c) for c in (b")", b"]", b"}"))
    if doubles and singles:
        return None
    return doubles % 2, singles % 2, depth


_STRUCTURAL = (b"def ", b"async ", b"class ", b"@")
_OPEN, _CLOSE = b"([{", b")]}"


def body_edit(
    definitions: list[Span], hunks: list[Hunk], older: list[bytes], newer: list[bytes]
) -> list[Span] | None:
    """A block's definitions after hunks that only edit code inside a definition's body.

    None unless each hunk lies strictly inside one definition D (not on its first or last
    line, not right after the end of a definition nested in D), and every code line it
    removes or adds is indented deeper than D's header, is not a `def`/`class`/decorator
    line, and holds no triple quote, no line continuation and balanced brackets. Such an
    edit moves no definition boundary: D and its ancestors grow or shrink by the difference
    in lines, the definitions after the change shift. Hunks are applied last first, so each
    one's own line numbers stay valid.
    """
    spans = list(definitions)
    for source_start, source_length, target_start, target_length in sorted(
        hunks, key=lambda h: h[2], reverse=True
    ):
        # The changed lines first..last of the newer version (a deletion: between them).
        first = target_start if target_length else target_start + 1
        last = target_start + target_length - 1 if target_length else target_start
        holder: Span | None = None
        for span in spans:
            if span.start < first and last < span.end:
                if holder is None or span.end - span.start < holder.end - holder.start:
                    holder = span
            elif not (span.end < first or span.start > last):
                return None  # a definition boundary among the changed lines
        if holder is None or _grows_nested(holder, first, spans, newer):
            return None
        indent = _indent(newer[holder.start - 1])
        old_lines = older[source_start - 1 : source_start - 1 + source_length]
        new_lines = newer[target_start - 1 : target_start - 1 + target_length]
        if indent is None or not all(_body_line(x, indent) for x in [*old_lines, *new_lines]):
            return None
        delta = source_length - target_length
        spans = [
            Span(d.name, d.start + delta, d.end + delta)
            if d.start > last
            else Span(d.name, d.start, d.end + delta)
            if d.end > last
            else d
            for d in spans
        ]
    return spans


def _grows_nested(holder: Span, first: int, spans: list[Span], newer: list[bytes]) -> bool:
    """Whether the code line just before the change ends a definition nested in `holder`
    (lines added after it could extend it)."""
    previous = first - 1
    while previous > holder.start and not _is_code(newer[previous - 1]):
        previous -= 1
    return any(d.end == previous and d.start > holder.start for d in spans)


def _indent(line: bytes) -> int | None:
    body = line.lstrip(b" ")
    return None if body.startswith(b"\t") else len(line) - len(body)


def _body_line(line: bytes, indent: int) -> bool:
    code = line.strip()
    if not code or code.startswith(b"#"):
        return True
    own = _indent(line)
    if own is None or own <= indent or code.startswith(_STRUCTURAL):
        return False
    if b'"""' in code or b"'''" in code or code.endswith(b"\\"):
        return False
    depth = 0
    for byte in code:
        if byte in _OPEN:
            depth += 1
        elif byte in _CLOSE:
            depth -= 1
    return depth == 0


def touched_definitions(
    definitions: Sequence[Span], lines: Iterable[int], gaps: Iterable[int]
) -> list[Span]:
    """Which definitions a change touched, each changed line counting for its innermost one.

    A changed line belongs to the smallest definition that contains it (a method, not its
    class). A pure deletion after line g touches the smallest definition that contains both
    g and g + 1, i.e. one the removed lines were strictly inside: deleting a whole function
    between two others touches neither neighbour.
    """
    found: set[int] = set()
    for first, last in [*((n, n) for n in lines), *((g, g + 1) for g in gaps)]:
        best: int | None = None
        for index, definition in enumerate(definitions):
            if definition.start > first:
                break
            if last <= definition.end and (
                best is None or definition.end - definition.start < _width(definitions[best])
            ):
                best = index
        if best is not None:
            found.add(best)
    return [definitions[i] for i in sorted(found)]


def _width(definition: Span) -> int:
    return definition.end - definition.start


def _is_code(line: bytes) -> bool:
    stripped = line.strip()
    return bool(stripped) and not stripped.startswith(b"#")
