"""Streaming hunks out of a lenient diff (reference section 8.2); public names live in `udiff`."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from itertools import groupby, repeat
from typing import Literal, NamedTuple

from evaltools.example.diffs._difflines import (
    DiffLine,
    HunkLocation,
    LineKind,
    classify_lines,
    from_bytes,
    rust_lines,
    to_bytes,
)

DEV_NULL = "/dev/null"
_BODY = (LineKind.CONTEXT, LineKind.DELETION, LineKind.ADDITION)


# Value types here are named tuples, not frozen dataclasses: each dataclass costs about a
# millisecond at import, on the path of the lint hook.
class Edit(NamedTuple):
    """Replace bytes `start:end` of the hunk's context with `text`."""

    start: int
    end: int
    text: str


class HunkLine(NamedTuple):
    # A named tuple, not a dataclass: a diff has one per body line, built in bulk.
    kind: LineKind  # CONTEXT, DELETION or ADDITION
    text: str
    line: int


@dataclass(frozen=True)
class Hunk:
    """One hunk as the reference sees it.

    `start_line` is the 0-based old start the reference uses to choose among several matches (it
    is carried over from an earlier `@@` line that opened no hunk, as the reference does).
    `header`/`header_line` describe the `@@` line that opened this hunk within its file, if any
    (`header` is None for `@@ ... @@`). `context` is the old text (context and deleted lines, each
    with `\\n`, less a newline removed by `\\ No newline`)."""

    path: str
    context: str
    edits: tuple[Edit, ...]
    start_line: int | None
    header: HunkLocation | None
    header_line: int | None
    lines: tuple[HunkLine, ...]

    @property
    def has_header(self) -> bool:
        return self.header_line is not None

    @property
    def line(self) -> int:
        """Where the hunk starts: its `@@` line, else its first body line."""
        return self.header_line if self.header_line is not None else self.lines[0].line

    @property
    def old_lines(self) -> tuple[HunkLine, ...]:
        """Context and deleted lines in order: the text the hunk expects to find."""
        return tuple(ln for ln in self.lines if ln.kind is not LineKind.ADDITION)

    @property
    def new_lines(self) -> tuple[HunkLine, ...]:
        return tuple(ln for ln in self.lines if ln.kind is not LineKind.DELETION)


class FilePatch(NamedTuple):
    """A `---` header and what followed it, up to the line that ended it (`ended_at`, None at
    end of input): the next `---` header or a garbage line (`ended_by_garbage`)."""

    old_path: str
    new_path: str
    line: int
    hunks: tuple[Hunk, ...]
    ended_at: int | None
    ended_by_garbage: bool

    @property
    def status(self) -> Literal["created", "deleted", "modified"]:
        if self.old_path == DEV_NULL:
            return "created"
        return "deleted" if self.new_path == DEV_NULL else "modified"

    @property
    def renamed_to(self) -> str | None:
        moved = self.old_path not in (self.new_path, DEV_NULL)
        return self.new_path if moved else None


class ParsedDiff(NamedTuple):
    """`lines[i]` classifies diff line `line_numbers[i]`. `ignored_lines` are body lines (context,
    ±, `\\ No newline`) that belong to no file: before the first `---` or after garbage."""

    lines: tuple[DiffLine, ...]
    line_numbers: tuple[int, ...]
    files: tuple[FilePatch, ...]
    ignored_lines: tuple[int, ...]

    @property
    def hunks(self) -> tuple[Hunk, ...]:
        return tuple(h for f in self.files for h in f.hunks)


class _EditBuf:
    __slots__ = ("end", "parts", "start")

    def __init__(self, start: int, end: int, parts: list[str]) -> None:
        self.start = start
        self.end = end
        self.parts = parts  # joined once when the hunk is emitted: `+=` on a str is quadratic


class _OpenFile:
    __slots__ = ("hunks", "line", "new_path", "old_path")

    def __init__(self, old_path: str, line: int) -> None:
        self.old_path = old_path
        self.line = line
        self.new_path = ""
        self.hunks: list[Hunk] = []


class _Parser:
    """The reference's DiffParser state machine, fed whole runs of body lines at a time (a run
    is consecutive context, deletion and addition lines) and the rare other lines one by one."""

    def __init__(self, lines: list[DiffLine], numbers: list[int]) -> None:
        self.lines = lines
        self.numbers = numbers
        self.files: list[FilePatch] = []
        self.ignored: list[int] = []
        self.file: _OpenFile | None = None
        self.context = bytearray()
        self.edits: list[_EditBuf] = []
        self.body: list[HunkLine] = []
        self.pending_start: int | None = None
        self.processed_no_newline = False
        self.last_op: LineKind | None = None
        self.header_line: int | None = None
        self.header: HunkLocation | None = None

    def run(self) -> None:
        lines = self.lines
        others = [i for i, dl in enumerate(lines) if dl.kind not in _BODY]
        start = 0
        for index in others:
            if start < index:
                self._body_run(start, index)
            self._other(index, lines[index])
            start = index + 1
        if start < len(lines):
            self._body_run(start, len(lines))
        self._flush()
        self._end_file(None, False)

    def _other(self, index: int, dl: DiffLine) -> None:
        kind, number = dl.kind, self.numbers[index]
        if kind is LineKind.OLD_PATH or kind is LineKind.GARBAGE:
            self._flush()
            self._end_file(number, kind is LineKind.GARBAGE)
            if kind is LineKind.OLD_PATH:
                self.file = _OpenFile(dl.text, number)
                self.header_line = self.header = None
        elif kind is LineKind.HUNK_HEADER:
            self._flush()
            if dl.location is not None:
                self.pending_start = dl.location.old_start
            if self.file is not None:
                self.header_line, self.header = number, dl.location
        elif kind is LineKind.NEW_PATH:
            if self.file is not None:
                self.file.new_path = dl.text
        else:  # NO_NEWLINE
            if self.file is None:
                self.ignored.append(number)
            self._no_newline()

    def _flush(self) -> None:
        if self.file is not None and (self.context or self.edits):
            path = self.file.new_path if self.file.old_path == DEV_NULL else self.file.old_path
            hunk = Hunk(
                path=path,
                context=from_bytes(bytes(self.context)),
                edits=tuple(Edit(e.start, e.end, "".join(e.parts)) for e in self.edits),
                start_line=self.pending_start,
                header=self.header,
                header_line=self.header_line,
                lines=tuple(self.body),
            )
            self.file.hunks.append(hunk)
            self.context, self.edits = bytearray(), []
            self.pending_start = None
            self.processed_no_newline = False
            self.last_op = None
            self.header_line = self.header = None
        # An empty hunk is not emitted and the reference keeps its state; only our own record of
        # body lines (which left nothing in the context) starts again.
        self.body = []

    def _end_file(self, at: int | None, by_garbage: bool) -> None:
        f = self.file
        if f is not None:
            self.files.append(
                FilePatch(f.old_path, f.new_path, f.line, tuple(f.hunks), at, by_garbage)
            )
            self.file = None
            self.header_line = self.header = None

    def _body_run(self, start: int, stop: int) -> None:
        numbers = self.numbers[start:stop]
        if self.file is None:
            self.ignored.extend(numbers)
            return
        run = self.lines[start:stop]
        kinds = [dl.kind for dl in run]
        texts = [dl.text for dl in run]
        self.body.extend(map(_new_tuple, repeat(HunkLine), zip(kinds, texts, numbers, strict=True)))
        at = 0
        for kind, group in groupby(kinds):
            size = len(list(group))
            self._same_kind(kind, texts[at : at + size])
            at += size
        self.last_op = kinds[-1]

    def _same_kind(self, kind: LineKind, texts: list[str]) -> None:
        """Consecutive lines of one kind: what `_body_line` did line by line, for all at once."""
        here = len(self.context)
        last = self.edits[-1] if self.edits else None
        joined = "\n".join(texts) + "\n"
        if kind is LineKind.ADDITION:
            if last is not None and last.end == here:
                last.parts.append(joined)
            else:
                self.edits.append(_EditBuf(here, here, [joined]))
            return
        data = to_bytes(joined)
        if kind is LineKind.DELETION:
            end = here + len(data)
            if last is not None and last.end == here:
                last.end = end
            else:
                self.edits.append(_EditBuf(here, end, []))
        self.context += data

    def _no_newline(self) -> None:
        # Only the first marker of a hunk counts; the flag is reset only when a hunk is emitted.
        if self.processed_no_newline:
            return
        self.processed_no_newline = True
        # What is popped is always a `\n` (or nothing): the context and the edit texts only grow
        # by whole lines, and this runs once per hunk. An addition or deletion always left an edit.
        if self.last_op is LineKind.ADDITION:
            parts = self.edits[-1].parts
            parts[-1] = parts[-1][:-1]
        elif self.last_op is LineKind.DELETION:
            del self.context[-1:]
            self.edits[-1].end -= 1
        else:
            del self.context[-1:]


# `tuple.__new__(HunkLine, fields)` builds a named tuple without a Python-level call.
_new_tuple = tuple.__new__


def _parse(diff: str, line_map: Sequence[int] | None) -> _Parser:
    lines = classify_lines(rust_lines(diff))
    count = len(lines)
    numbers = list(range(count)) if line_map is None else [line_map[i] for i in range(count)]
    parser = _Parser(lines, numbers)
    parser.run()
    return parser


def iter_hunks(diff: str, line_map: Sequence[int] | None = None) -> Iterator[Hunk]:
    """The hunks the reference would apply, in order (file paths are ignored when applying)."""
    for file in _parse(diff, line_map).files:
        yield from file.hunks


def parse_diff(diff: str, line_map: Sequence[int] | None = None) -> ParsedDiff:
    """Parse a whole diff. `line_map[i]`, when given, is the line number to report for line `i`
    (used to parse a patch with its cursor-marker lines removed, in the patch's own numbering)."""
    parser = _parse(diff, line_map)
    return ParsedDiff(
        tuple(parser.lines), tuple(parser.numbers), tuple(parser.files), tuple(parser.ignored)
    )


class HeaderCountCheck(NamedTuple):
    """Counts an `@@ -A,B +C,D @@` header declares against the lines its hunk holds."""

    line: int
    declared_old: int
    counted_old: int
    declared_new: int
    counted_new: int

    @property
    def matches(self) -> bool:
        return (self.declared_old, self.declared_new) == (self.counted_old, self.counted_new)


def header_count_checks(parsed: ParsedDiff) -> tuple[HeaderCountCheck, ...]:
    """One check per hunk opened by a header with numbers (the reference never uses counts)."""
    return tuple(
        HeaderCountCheck(
            h.header_line,
            h.header.old_count,
            len(h.old_lines),
            h.header.new_count,
            len(h.new_lines),
        )
        for h in parsed.hunks
        if h.header is not None and h.header_line is not None
    )
