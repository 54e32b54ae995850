"""Streaming hunks out of a lenient diff (reference section 8.2); public names live in `udiff`."""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from itertools import compress, repeat
from operator import eq, ne

from evaltools.example.diffs._difflines import (
    ClassifiedLines,
    HunkLocation,
    LineKind,
    classify_bulk,
    rust_lines,
    to_bytes,
)
from evaltools.example.diffs._hunks import DEV_NULL, Edit, FilePatch, Hunk, HunkLine, ParsedDiff

# An edit: deletions and additions with no context line between (in `ClassifiedLines.marks`).
_EDIT_RUN = re.compile(r"[-+]+")


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


_OLD_PATH, _NEW_PATH, _GARBAGE = LineKind.OLD_PATH, LineKind.NEW_PATH, LineKind.GARBAGE
_HUNK_HEADER, _ADDITION, _DELETION = LineKind.HUNK_HEADER, LineKind.ADDITION, LineKind.DELETION


class _Parser:
    """The reference's DiffParser state machine, fed whole runs of body lines at a time (a run
    is consecutive context, deletion and addition lines) and the rare other lines one by one.

    The old text of the open hunk is kept as pieces (`context`) and its size in UTF-8 bytes
    (`size`), the unit of edit offsets."""

    def __init__(self, classified: ClassifiedLines, numbers: list[int], ascii_only: bool) -> None:
        self.classified = classified
        self.numbers = numbers
        self.ascii_only = ascii_only
        self.body_lines = list(
            map(
                _new_tuple,
                repeat(HunkLine),
                zip(classified.kinds, classified.texts, numbers, strict=True),
            )
        )
        self.files: list[FilePatch] = []
        self.ignored: list[int] = []
        self.file: _OpenFile | None = None
        self.context: list[str] = []
        self.size = 0
        self.edits: list[_EditBuf] = []
        self.body: list[HunkLine] = []
        self.pending_start: int | None = None
        self.processed_no_newline = False
        self.last_op: LineKind | None = None
        # The `\\ No newline` that cut a newline in the open hunk, and the marks of the lines
        # of the side it cut (context is on both), which it joins if one follows.
        self.cut: tuple[int, str] | None = None
        self.joining: list[int] = []
        self.header_line: int | None = None
        self.header: HunkLocation | None = None

    def run(self) -> None:
        lines, numbers = self.classified.lines, self.numbers
        start = 0
        for index in self.classified.others:
            if start < index:
                self._body_run(start, index)
            start = index + 1
            kind, text, location = lines[index]
            if kind is _HUNK_HEADER:
                self._flush()
                if location is not None:
                    self.pending_start = location.old_start
                if self.file is not None:
                    self.header_line, self.header = numbers[index], location
            elif kind is _OLD_PATH or kind is _GARBAGE:
                self._flush()
                self._end_file(numbers[index], kind is _GARBAGE)
                if kind is _OLD_PATH:
                    self.file = _OpenFile(text, numbers[index])
                    self.header_line = self.header = None
            elif kind is _NEW_PATH:
                if self.file is not None:
                    self.file.new_path = text
            else:  # NO_NEWLINE
                if self.file is None:
                    self.ignored.append(numbers[index])
                self._no_newline(numbers[index])
        if start < len(lines):
            self._body_run(start, len(lines))
        self._flush()
        self._end_file(None, False)

    def _flush(self) -> None:
        self.cut = None
        file = self.file
        if file is not None and (self.size or self.edits):
            path = file.new_path if file.old_path == DEV_NULL else file.old_path
            edits = tuple([Edit(e.start, e.end, "".join(e.parts)) for e in self.edits])
            hunk = _new_tuple(
                Hunk,
                (
                    path,
                    "".join(self.context),
                    edits,
                    self.pending_start,
                    self.header,
                    self.header_line,
                    tuple(self.body),
                ),
            )
            file.hunks.append(hunk)
            self.context, self.size, self.edits = [], 0, []
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
        """Lines `start:stop`, all context, deletions and additions: what the reference does
        line by line, done for the whole run. An edit is a run of deletions and additions
        with no context line between; it continues the previous edit when no context was
        added since that one ended (a run that starts with an edit, after a `\\ No newline`
        that ended the previous run)."""
        if self.file is None:
            self.ignored.extend(self.numbers[start:stop])
            return
        self.body += self.body_lines[start:stop]
        texts = self.classified.texts[start:stop]
        marks = self.classified.marks[start:stop]
        if self.cut is not None and any(mark in marks for mark in self.cut[1]):
            self.joining.append(self.cut[0])
            self.cut = None
        self.last_op = self.classified.kinds[stop - 1]
        here = self.size
        if "+" in marks:
            old = "\n".join(compress(texts, map(ne, marks, repeat("+"))))
            if old or " " in marks or "-" in marks:
                self._grow(old + "\n")
            self._edits(marks, texts, here)
            return
        self._grow("\n".join(texts) + "\n")
        if "-" in marks:
            self._edits(marks, texts, here)

    def _grow(self, old: str) -> None:
        self.context.append(old)
        self.size += len(old) if self.ascii_only else len(to_bytes(old))

    def _bytes(self, texts: list[str]) -> int:
        """Bytes of `texts` as lines, each with its `\\n`."""
        if not texts:
            return 0
        joined = "\n".join(texts)
        return (len(joined) if self.ascii_only else len(to_bytes(joined))) + 1

    def _edits(self, marks: str, texts: list[str], here: int) -> None:
        edits = self.edits
        last = edits[-1] if edits else None
        done = 0
        for found in _EDIT_RUN.finditer(marks):
            start, stop = found.span()
            if start > done:
                here += self._bytes(texts[done:start])
            done = stop
            run = found.group()
            if "+" not in run:
                removed, added = self._bytes(texts[start:stop]), None
            elif "-" not in run:
                removed, added = 0, texts[start:stop]
            else:
                part = texts[start:stop]
                removed = self._bytes(list(compress(part, map(eq, run, repeat("-")))))
                added = list(compress(part, map(eq, run, repeat("+"))))
            if last is not None and last.end == here:
                last.end += removed
            else:
                last = _EditBuf(here, here + removed, [])
                edits.append(last)
            if added:
                last.parts.append("\n".join(added) + "\n")
            here += removed

    def _no_newline(self, number: int) -> None:
        # Only the first marker of a hunk counts; the flag is reset only when a hunk is emitted.
        if self.processed_no_newline:
            return
        self.processed_no_newline = True
        # What is dropped is always a `\\n` (or nothing): the context and the edit texts only
        # grow by whole lines, and this runs once per hunk. An addition or deletion always left
        # an edit.
        if self.last_op is _ADDITION:
            parts = self.edits[-1].parts
            parts[-1] = parts[-1][:-1]
            self.cut = (number, " +")
            return
        if self.size:
            self.context[-1] = self.context[-1][:-1]
            self.size -= 1
            self.cut = (number, " -" if self.last_op is _DELETION else " -+")
            if self.last_op is _DELETION:
                self.edits[-1].end -= 1


# `tuple.__new__(HunkLine, fields)` builds a named tuple without a Python-level call.
_new_tuple = tuple.__new__


def _parse(
    diff: str, line_map: Sequence[int] | None, classified: ClassifiedLines | None = None
) -> _Parser:
    if classified is None:
        classified = classify_bulk(rust_lines(diff))
    count = len(classified.lines)
    numbers = list(range(count)) if line_map is None else list(line_map[:count])
    parser = _Parser(classified, numbers, diff.isascii())
    parser.run()
    return parser


def iter_hunks(diff: str, line_map: Sequence[int] | None = None) -> Iterator[Hunk]:
    """The hunks the reference would apply, in order (file paths are ignored when applying)."""
    for file in _parse(diff, line_map).files:
        yield from file.hunks


def parse_diff(
    diff: str, line_map: Sequence[int] | None = None, classified: ClassifiedLines | None = None
) -> ParsedDiff:
    """Parse a whole diff. `line_map[i]`, when given, is the line number to report for line `i`
    (used to parse a patch with its cursor-marker lines removed, in the patch's own numbering);
    `classified`, when given, is `classify_bulk(rust_lines(diff))`, already done."""
    parser = _parse(diff, line_map, classified)
    return ParsedDiff(
        tuple(parser.classified.lines),
        tuple(parser.numbers),
        tuple(parser.files),
        tuple(parser.ignored),
        tuple(parser.joining),
    )
