"""What a parsed diff is (reference section 8.2): files, hunks, edits and lines, and the
header counts a hunk can be checked against; `_udiff_parse` builds them, `udiff` names them."""

from __future__ import annotations

from itertools import compress, repeat
from operator import is_not, itemgetter
from typing import Literal, NamedTuple

from evaltools.example.diffs._difflines import DiffLine, HunkLocation, LineKind

DEV_NULL = "/dev/null"
_KIND = itemgetter(0)
_ADDITION, _DELETION = LineKind.ADDITION, LineKind.DELETION


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


class Hunk(NamedTuple):
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
        lines = self.lines
        return tuple(compress(lines, map(is_not, map(_KIND, lines), repeat(LineKind.ADDITION))))

    @property
    def new_lines(self) -> tuple[HunkLine, ...]:
        lines = self.lines
        return tuple(compress(lines, map(is_not, map(_KIND, lines), repeat(LineKind.DELETION))))


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
    ±, `\\ No newline`) that belong to no file: before the first `---` or after garbage.
    `joining_lines`: `\\ No newline` lines whose cut newline joins two lines of one side of a
    hunk (git writes the marker only after a side's last line, so never those)."""

    lines: tuple[DiffLine, ...]
    line_numbers: tuple[int, ...]
    files: tuple[FilePatch, ...]
    ignored_lines: tuple[int, ...]
    joining_lines: tuple[int, ...] = ()

    @property
    def hunks(self) -> tuple[Hunk, ...]:
        return tuple(h for f in self.files for h in f.hunks)


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
    checks = []
    for h in parsed.hunks:
        if h.header is not None and h.header_line is not None:
            kinds = list(map(_KIND, h.lines))
            added, deleted = kinds.count(_ADDITION), kinds.count(_DELETION)
            checks.append(
                HeaderCountCheck(
                    h.header_line,
                    h.header.old_count,
                    len(kinds) - added,
                    h.header.new_count,
                    len(kinds) - deleted,
                )
            )
    return tuple(checks)
