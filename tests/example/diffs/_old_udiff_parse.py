"""Oracle for the differential tests: the per-line diff state machine before the bulk
rewrite, a verbatim copy of `evaltools/example/diffs/_udiff_parse.py`. Not used by evaltools."""

# mypy: ignore-errors
# ruff: noqa

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Literal

from tests.example.diffs._old_difflines import (
    DiffLine,
    HunkLocation,
    LineKind,
    byte_len,
    classify_line,
    from_bytes,
    rust_lines,
    to_bytes,
)

DEV_NULL = "/dev/null"
_BODY = (LineKind.CONTEXT, LineKind.DELETION, LineKind.ADDITION)


@dataclass(frozen=True)
class Edit:
    """Replace bytes `start:end` of the hunk's context with `text`."""

    start: int
    end: int
    text: str


@dataclass(frozen=True)
class HunkLine:
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


@dataclass(frozen=True)
class FilePatch:
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


@dataclass(frozen=True)
class ParsedDiff:
    """`lines[i]` classifies diff line `line_numbers[i]`. `ignored_lines` are body lines (context,
    ±, `\\ No newline`) that belong to no file: before the first `---` or after garbage."""

    lines: tuple[DiffLine, ...]
    line_numbers: tuple[int, ...]
    files: tuple[FilePatch, ...]
    ignored_lines: tuple[int, ...]

    @property
    def hunks(self) -> tuple[Hunk, ...]:
        return tuple(h for f in self.files for h in f.hunks)


@dataclass
class _EditBuf:
    start: int
    end: int
    parts: list[str]  # joined once when the hunk is emitted: `+=` on a str is quadratic


@dataclass
class _OpenFile:
    old_path: str
    line: int
    new_path: str = ""
    hunks: list[Hunk] = field(default_factory=list)


@dataclass(frozen=True)
class _FileEnd:
    file: _OpenFile
    at: int | None
    by_garbage: bool


class _Parser:
    """The reference's DiffParser state machine, fed one classified line at a time."""

    def __init__(self) -> None:
        self.file: _OpenFile | None = None
        self.context = bytearray()
        self.edits: list[_EditBuf] = []
        self.body: list[HunkLine] = []
        self.pending_start: int | None = None
        self.processed_no_newline = False
        self.last_op: LineKind | None = None
        self.header_line: int | None = None
        self.header: HunkLocation | None = None

    def feed(self, index: int, dl: DiffLine) -> list[Hunk | _FileEnd]:
        out: list[Hunk | _FileEnd] = []
        if dl.kind in (LineKind.OLD_PATH, LineKind.GARBAGE):
            self._flush(out)
            self._end_file(out, index, dl.kind is LineKind.GARBAGE)
        elif dl.kind is LineKind.HUNK_HEADER:
            self._flush(out)
        self._process(index, dl)
        return out

    def finish(self) -> list[Hunk | _FileEnd]:
        out: list[Hunk | _FileEnd] = []
        self._flush(out)
        self._end_file(out, None, False)
        return out

    def _flush(self, out: list[Hunk | _FileEnd]) -> None:
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
            out.append(hunk)
            self.context, self.edits = bytearray(), []
            self.pending_start = None
            self.processed_no_newline = False
            self.last_op = None
            self.header_line = self.header = None
        # An empty hunk is not emitted and the reference keeps its state; only our own record of
        # body lines (which left nothing in the context) starts again.
        self.body = []

    def _end_file(self, out: list[Hunk | _FileEnd], at: int | None, by_garbage: bool) -> None:
        if self.file is not None:
            out.append(_FileEnd(self.file, at, by_garbage))
            self.file = None
            self.header_line = self.header = None

    def _process(self, index: int, dl: DiffLine) -> None:
        kind = dl.kind
        if kind is LineKind.OLD_PATH:
            self.file = _OpenFile(dl.text, index)
            self.header_line = self.header = None
        elif kind is LineKind.NEW_PATH:
            if self.file is not None:
                self.file.new_path = dl.text
        elif kind is LineKind.HUNK_HEADER:
            if dl.location is not None:
                self.pending_start = dl.location.old_start
            if self.file is not None:
                self.header_line, self.header = index, dl.location
        elif kind in _BODY:
            if self.file is not None:
                self._body_line(index, dl)
        elif kind is LineKind.NO_NEWLINE:
            self._no_newline()

    def _body_line(self, index: int, dl: DiffLine) -> None:
        here = len(self.context)
        last = self.edits[-1] if self.edits else None
        if dl.kind is LineKind.DELETION:
            end = here + byte_len(dl.text) + 1
            if last is not None and last.end == here:
                last.end = end
            else:
                self.edits.append(_EditBuf(here, end, []))
        elif dl.kind is LineKind.ADDITION:
            if last is not None and last.end == here:
                last.parts.append(dl.text + "\n")
            else:
                self.edits.append(_EditBuf(here, here, [dl.text + "\n"]))
        if dl.kind is not LineKind.ADDITION:
            self.context += to_bytes(dl.text) + b"\n"
        self.last_op = dl.kind
        self.body.append(HunkLine(dl.kind, dl.text, index))

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


def _numbered(diff: str, line_map: Sequence[int] | None) -> Iterator[tuple[int, DiffLine]]:
    for i, raw in enumerate(rust_lines(diff)):
        yield (line_map[i] if line_map is not None else i), classify_line(raw)


def iter_hunks(diff: str, line_map: Sequence[int] | None = None) -> Iterator[Hunk]:
    """The hunks the reference would apply, in order (file paths are ignored when applying)."""
    parser = _Parser()
    for number, dl in _numbered(diff, line_map):
        yield from (ev for ev in parser.feed(number, dl) if isinstance(ev, Hunk))
    yield from (ev for ev in parser.finish() if isinstance(ev, Hunk))


def parse_diff(diff: str, line_map: Sequence[int] | None = None) -> ParsedDiff:
    """Parse a whole diff. `line_map[i]`, when given, is the line number to report for line `i`
    (used to parse a patch with its cursor-marker lines removed, in the patch's own numbering)."""
    lines: list[DiffLine] = []
    numbers: list[int] = []
    files: list[FilePatch] = []
    ignored: list[int] = []

    def collect(events: list[Hunk | _FileEnd]) -> None:
        for ev in events:
            if isinstance(ev, _FileEnd):
                f = ev.file
                files.append(
                    FilePatch(f.old_path, f.new_path, f.line, tuple(f.hunks), ev.at, ev.by_garbage)
                )

    parser = _Parser()
    for number, dl in _numbered(diff, line_map):
        collect(parser.feed(number, dl))
        lines.append(dl)
        numbers.append(number)
        if parser.file is None and (dl.kind in _BODY or dl.kind is LineKind.NO_NEWLINE):
            ignored.append(number)
    collect(parser.finish())
    return ParsedDiff(tuple(lines), tuple(numbers), tuple(files), tuple(ignored))


@dataclass(frozen=True)
class HeaderCountCheck:
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
