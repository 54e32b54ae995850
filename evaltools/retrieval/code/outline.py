"""What is known about one file version's definitions, carried from a newer version to an older.

Mining walks history newest first. Parsing every touched file at every commit costs far more
than `git log -p` itself (a whole-file parse per touched file, against a diff of a few
lines), so for Python the outline of the older version is derived from the newer one through
the commit's hunks, and only the stretches a change made unknown are parsed again, from the
older text rebuilt out of the newer text and the lines the diff removed.

Why the derivation is exact for Python. First, every hunk must have the same effect on
strings and brackets on both sides (`spans.same_effect`): then each unchanged line is inside
a string or an expression in the older version exactly when it is in the newer one. (Without
that check, removing `DOC = '''` above a function and the closing quote below it would turn
the function into text, and keeping its definition would be wrong; nothing carries over
then.) Take a top-level definition T whose first line (decorator or `def`/`class`) starts at
column 0, and its guard: from the previous code line before T (0: start of file) to the next
code line after T (end of file + 1), where a code line is neither blank nor a comment. The
next code line must start at column 0 and the previous one must not be a decorator or end in
a backslash. If the older version holds T's lines unchanged and these conditions hold there
too (certain when no hunk touches the guard, checked in the older text otherwise), T is
top-level in it with the same name, nothing attaches to it from outside, and its body ends
where it ended: T and everything nested in it parse to the same definitions, shifted. When
hunks change only lines inside a body, `spans.body_edit` moves the spans without parsing.
For the same reason the stretch between two such blocks holds whole top-level statements:
it parses on its own, and it parses the same in the older version when neither its lines
nor the line on each side of it changed. tests/retrieval/code/test_outline.py checks all of this
against parsing each older version, on random modules and random edits.
"""

from __future__ import annotations

import bisect
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from evaltools.retrieval.code.spans import (
    DefinitionLike,
    Hunk,
    Span,
    body_edit,
    same_effect,
    touched_definitions,
)

Parse = Callable[[bytes], Iterable[DefinitionLike]]


@dataclass(frozen=True)
class Segment:
    """Lines start..end whose definitions are known.

    A block (``guard`` set) is one column-0 top-level definition with everything nested in
    it, and can survive derivation; any other segment (a stretch between blocks) is known
    only in this version. ``spans`` and ``blank`` are relative to ``start`` (line 0 is
    ``start``), so shifting a segment touches nothing but its own position.
    """

    start: int
    end: int
    spans: tuple[Span, ...]
    blank: frozenset[int]
    guard: tuple[int, int] | None = None

    def definitions(self) -> list[Span]:
        base = self.start
        return [Span(s.name, s.start + base, s.end + base) for s in self.spans]

    def shifted(self, delta: int) -> Segment:
        guard = None if self.guard is None else (self.guard[0] + delta, self.guard[1] + delta)
        return Segment(self.start + delta, self.end + delta, self.spans, self.blank, guard)


class Outline:
    """The known segments of one file version, sorted and disjoint, and its text if known.

    ``text`` is ``content.split(b"\\n")``; with it, unknown stretches are parsed without
    reading the file from git.
    """

    def __init__(self, segments: list[Segment], text: list[bytes] | None = None) -> None:
        self.segments = segments
        self.text = text
        self._starts = [s.start for s in segments]

    @property
    def line_count(self) -> int | None:
        return None if self.text is None else _Text(self.text).line_count

    def definitions(self) -> list[Span]:
        """Every known definition, in document order."""
        return _sorted(d for segment in self.segments for d in segment.definitions())

    @classmethod
    def parsed(
        cls, definitions: Iterable[DefinitionLike], content: bytes, *, derivable: bool = True
    ) -> Outline:
        """The complete outline of a parsed file; blocks only where derivation is sound."""
        text = _Text(content.split(b"\n"))
        spans = _sorted(Span(d.name, d.start, d.end) for d in definitions)
        return cls(_segments(spans, text, 1, text.line_count, derivable), text.lines)

    def touched(self, hunks: Iterable[Hunk]) -> list[Span] | None:
        """The definitions the hunks touch in this version; None if that is unknown here.

        Changed lines count unless blank; a hunk that only removes lines (or replaces them
        by blank ones) is a deletion gap at its place.
        """
        changes = self._changes(hunks)
        if changes is None:
            return None
        lines, gaps = changes
        per_segment: dict[int, tuple[list[int], list[int]]] = {}
        for line in lines:
            index = self._segment_at(line)
            if index is not None:
                per_segment.setdefault(index, ([], []))[0].append(line)
            elif not self._in_guard(line):
                return None
        for gap in gaps:
            before, after = self._segment_at(gap), self._segment_at(gap + 1)
            if before is not None and before == after:
                per_segment.setdefault(before, ([], []))[1].append(gap)
            elif before is None and after is None and not self._in_guard(gap, gap + 1):
                return None
            # Otherwise the gap is at a segment's edge: no definition holds both sides.
        found: list[Span] = []
        for index in sorted(per_segment):
            seg_lines, seg_gaps = per_segment[index]
            definitions = self.segments[index].definitions()
            found += touched_definitions(definitions, seg_lines, seg_gaps)
        return found

    def repaired(
        self, parse: Parse, hunks: Iterable[Hunk] | None = None, content: bytes | None = None
    ) -> Outline:
        """This outline plus unknown stretches parsed from its text (or `content`): those
        the hunks fall in, or all of them.

        A stretch runs between two segments, so (see the module doc) it holds whole
        top-level statements and parses on its own.
        """
        lines = content.split(b"\n") if content is not None else self.text
        if lines is None:
            raise ValueError("an outline without text needs the file's content to repair")
        text = _Text(lines)
        wanted = None
        if hunks is not None:
            wanted = {n for h in hunks for n in _places(h) if 0 < n <= text.line_count}
        segments: list[Segment] = []
        first = 1
        for segment in [*self.segments, None]:
            last = text.line_count if segment is None else segment.start - 1
            if first <= last and (wanted is None or any(first <= n <= last for n in wanted)):
                segments += _parse_stretch(parse, text, first, last)
            if segment is not None:
                segments.append(segment)
                first = segment.end + 1
        return Outline(segments, text.lines)

    def derive(self, hunks: Sequence[Hunk], older_text: list[bytes] | None) -> Outline:
        """What is known about the version before the change that `hunks` describe.

        Needs both versions' text: nothing carries over without them, nor when a hunk could
        move unchanged lines into or out of a string or brackets (see `same_effect`).
        """
        if older_text is None or self.text is None:
            return Outline([], older_text)
        older, newer = _Text(older_text), _Text(self.text)
        for source_start, source_length, target_start, target_length in hunks:
            removed = older.lines[source_start - 1 : source_start - 1 + source_length]
            added = newer.lines[target_start - 1 : target_start - 1 + target_length]
            if not same_effect(removed, added):
                return Outline([], older_text)
        if not hunks:
            return Outline(list(self.segments), older_text)
        kept: list[Segment] = []
        # Segments wholly before the first hunk stay; those wholly after it all move alike.
        first_line = hunks[0][2]
        last_line = max(h[2] + h[3] - 1 if h[3] else h[2] for h in hunks)
        total = sum(h[1] - h[3] for h in hunks)
        for segment in self.segments:
            low, high = segment.guard or (segment.start - 1, segment.end + 1)
            if first_line > high:
                kept.append(segment)
            elif last_line < low:
                kept.append(segment.shifted(total) if total else segment)
            else:
                carried = _carry(segment, hunks, older, newer)
                if carried is not None:
                    kept.append(carried)
        return Outline(kept, older_text)

    def _changes(self, hunks: Iterable[Hunk]) -> tuple[list[int], list[int]] | None:
        lines: list[int] = []
        gaps: list[int] = []
        for _, source_length, target_start, target_length in hunks:
            changed = 0
            for line in range(target_start, target_start + target_length):
                index = self._segment_at(line)
                if index is None:
                    if not self._in_guard(line):
                        return None
                    blank = False  # between a block and its guard: a comment or blank
                else:
                    segment = self.segments[index]
                    blank = line - segment.start in segment.blank
                if not blank:
                    lines.append(line)
                    changed += 1
            if source_length and not changed:
                gaps.append(target_start - 1 if target_length else target_start)
        return lines, gaps

    def _segment_at(self, line: int) -> int | None:
        index = bisect.bisect_right(self._starts, line) - 1
        if index >= 0 and line <= self.segments[index].end:
            return index
        return None

    def _in_guard(self, *lines: int) -> bool:
        """Whether a line lies between a block and one of its guard lines (no code there)."""
        for line in lines:
            index = bisect.bisect_right(self._starts, line) - 1
            for candidate in (index, index + 1):
                if 0 <= candidate < len(self.segments):
                    guard = self.segments[candidate].guard
                    if guard is not None and guard[0] < line < guard[1]:
                        return True
        return False


class _Text:
    """A file's lines with what the outline needs to know about them."""

    def __init__(self, lines: list[bytes]) -> None:
        self.lines = lines
        self.line_count = len(lines) - (1 if lines[-1] == b"" else 0)

    def is_blank(self, line: int) -> bool:
        return not self.lines[line - 1].strip()

    def is_code(self, line: int) -> bool:
        stripped = self.lines[line - 1].strip()
        return bool(stripped) and not stripped.startswith(b"#")

    def at_column_0(self, line: int) -> bool:
        return self.lines[line - 1][:1] not in (b" ", b"\t", b"")

    def blank_between(self, first: int, last: int) -> frozenset[int]:
        return frozenset(n - first for n in range(first, last + 1) if self.is_blank(n))

    def join(self, first: int, last: int) -> bytes:
        return b"\n".join(self.lines[first - 1 : last]) + b"\n"


def _sorted(spans: Iterable[Span]) -> list[Span]:
    return sorted(spans, key=lambda s: (s.start, -s.end))


def _places(hunk: Hunk) -> range:
    """The lines a hunk asks about: its new lines, or the two around a deletion."""
    _, _, target_start, target_length = hunk
    if target_length:
        return range(target_start, target_start + target_length)
    return range(target_start, target_start + 2)


def _carry(segment: Segment, hunks: Sequence[Hunk], older: _Text, newer: _Text) -> Segment | None:
    """The segment in the older version, or None when it cannot be known to be the same."""
    if segment.guard is None:
        # A stretch between blocks: its lines and the lines around it unchanged, it still
        # holds the same whole top-level statements.
        margin = (segment.start - 1, segment.end + 1)
        if any(_touches(h[2], h[3], *margin) for h in hunks):
            return None
        delta = sum(h[1] - h[3] for h in hunks if _before(h[2], h[3], segment.start))
        return segment.shifted(delta) if delta else segment
    guard_start, guard_end = segment.guard
    delta = 0
    inside: list[Hunk] = []
    touched = False
    for hunk in hunks:
        _, source_length, target_start, target_length = hunk
        if _touches(target_start, target_length, guard_start, guard_end):
            touched = True
            if _touches(target_start, target_length, segment.start, segment.end):
                inside.append(hunk)
        if _before(target_start, target_length, segment.start):
            delta += source_length - target_length
    if not touched:
        return segment.shifted(delta) if delta else segment
    spans = segment.spans
    if inside:
        edited = body_edit(segment.definitions(), inside, older.lines, newer.lines)
        if edited is None:
            return None
        base = segment.start
        spans = tuple(Span(d.name, d.start - base, d.end - base) for d in edited)
    start = segment.start + delta
    return _block(start, start + max(s.end for s in spans), spans, older)


def _touches(target_start: int, target_length: int, first: int, last: int) -> bool:
    """Whether a hunk changes any line first..last (a deletion: strictly between two)."""
    if target_length:
        return target_start <= last and target_start + target_length - 1 >= first
    return first <= target_start < last


def _before(target_start: int, target_length: int, line: int) -> bool:
    if target_length:
        return target_start + target_length - 1 < line
    return target_start < line


def _parse_stretch(parse: Parse, text: _Text, first: int, last: int) -> list[Segment]:
    if not any(text.is_code(n) for n in range(first, last + 1)):
        return [Segment(first, last, (), text.blank_between(first, last))]
    found = parse(text.join(first, last))
    spans = _sorted(Span(d.name, d.start + first - 1, d.end + first - 1) for d in found)
    return _segments(spans, text, first, last, derivable=True)


def _segments(
    spans: list[Span], text: _Text, first: int, last: int, derivable: bool
) -> list[Segment]:
    """Lines first..last as blocks and the stretches between them; spans lie inside."""
    segments: list[Segment] = []
    cursor = first
    loose: list[Span] = []
    index = 0
    while index < len(spans):
        top = spans[index]
        nested = index + 1
        while nested < len(spans) and spans[nested].start <= top.end:
            nested += 1
        block = None
        if derivable:
            relative = tuple(
                Span(s.name, s.start - top.start, s.end - top.start) for s in spans[index:nested]
            )
            block = _block(top.start, top.end, relative, text)
        if block is None:
            loose += spans[index:nested]
        else:
            if cursor < block.start:
                segments.append(_loose(cursor, block.start - 1, loose, text))
            segments.append(block)
            cursor, loose = block.end + 1, []
        index = nested
    if cursor <= last:
        segments.append(_loose(cursor, last, loose, text))
    return segments


def _loose(first: int, last: int, spans: list[Span], text: _Text) -> Segment:
    relative = tuple(Span(s.name, s.start - first, s.end - first) for s in spans)
    return Segment(first, last, relative, text.blank_between(first, last))


def _block(start: int, end: int, spans: tuple[Span, ...], text: _Text) -> Segment | None:
    """A derivable block for the definition at start..end, if its surroundings allow one."""
    if end > text.line_count or not text.at_column_0(start):
        return None
    guard_start = start - 1
    while guard_start > 0 and not text.is_code(guard_start):
        guard_start -= 1
    if guard_start > 0:
        previous = text.lines[guard_start - 1].rstrip()
        if previous.startswith(b"@") or previous.endswith(b"\\"):
            return None
    guard_end = end + 1
    while guard_end <= text.line_count and not text.is_code(guard_end):
        guard_end += 1
    if guard_end <= text.line_count and not text.at_column_0(guard_end):
        return None
    blank = text.blank_between(start, end)
    return Segment(start, end, spans, blank, (guard_start, guard_end))
