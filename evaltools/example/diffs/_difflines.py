"""Line level of the lenient diff grammar (reference section 8.1), and Rust-compatible text helpers.

The reference is Rust: it splits with `str::lines`, trims *ASCII* whitespace after `---`/`+++`/`@@`
but splits hunk-header tokens on *Unicode* whitespace, and parses numbers as `u32`. Python's
`str.splitlines`, `str.split()` and `int()` each differ from those in small ways, so the exact
rules are spelled out here once and shared by `udiff` and `cursor`.
"""

from __future__ import annotations

import enum
import re
from collections.abc import Sequence
from itertools import repeat
from operator import itemgetter
from typing import NamedTuple

# Rust `char::is_whitespace` (the Unicode White_Space property). Python's `str.isspace` also
# accepts U+001C..U+001F, which Rust does not.
RUST_WHITESPACE = frozenset(
    "\t\n\x0b\x0c\r \x85\xa0\u1680"
    + "".join(chr(c) for c in range(0x2000, 0x200B))
    + "\u2028\u2029\u202f\u205f\u3000"
)
# Rust `u8::is_ascii_whitespace`: no vertical tab.
ASCII_WHITESPACE = " \t\n\x0c\r"

_RUST_WS_RUN = re.compile("[" + re.escape("".join(sorted(RUST_WHITESPACE))) + "]+")
_ASCII_WS_RUN = re.compile("[" + re.escape(ASCII_WHITESPACE) + "]+")
_U32_MAX = 0xFFFFFFFF

CURSOR_POSITION_MARKER = "[CURSOR_POSITION]"


def to_bytes(text: str) -> bytes:
    # surrogatepass: a lone surrogate from JSON must not turn into a traceback here.
    return text.encode("utf-8", "surrogatepass")


def from_bytes(data: bytes) -> str:
    return data.decode("utf-8", "surrogatepass")


def byte_len(text: str) -> int:
    return len(to_bytes(text))


def rust_lines(text: str) -> list[str]:
    """Rust `str::lines`: split on `\\n`, drop one `\\r` before it, no empty last line."""
    if not text:
        return []
    parts = text.split("\n")
    terminated = len(parts) - 1
    if parts[-1] == "":
        parts.pop()
    if "\r" not in text:
        return parts
    return [p[:-1] if i < terminated and p.endswith("\r") else p for i, p in enumerate(parts)]


def rust_trim_start(text: str) -> str:
    """Rust `str::trim_start` (Unicode whitespace)."""
    i = 0
    while i < len(text) and text[i] in RUST_WHITESPACE:
        i += 1
    return text[i:]


def parse_u32(text: str) -> int | None:
    """Rust `u32::from_str`: optional `+`, ASCII digits only, no overflow."""
    digits = text[1:] if text.startswith("+") else text
    if not digits or not all("0" <= c <= "9" for c in digits):
        return None
    # Past ten significant digits it overflows anyway; int() on thousands of digits raises.
    if len(digits.lstrip("0")) > 10:
        return None
    value = int(digits)
    return value if value <= _U32_MAX else None


class LineKind(enum.Enum):
    NO_NEWLINE = "no-newline"
    OLD_PATH = "old-path"
    NEW_PATH = "new-path"
    HUNK_HEADER = "hunk-header"
    DELETION = "deletion"
    CONTEXT = "context"
    ADDITION = "addition"
    GARBAGE = "garbage"


class HunkLocation(NamedTuple):
    """Parsed `@@ -A,B +C,D @@`: starts are 0-based (saturating), counts as written (default 1)."""

    # A named tuple, not a frozen dataclass: it is built for every `@@` line, four times cheaper.

    old_start: int
    old_count: int
    new_start: int
    new_count: int


class DiffLine(NamedTuple):
    """One classified line. `text` is the body content for context/deletion/addition lines, the
    parsed path for `---`/`+++` headers, the whole line for garbage, "" otherwise. `location` is
    set for hunk headers with numbers (None for `@@ ... @@`)."""

    # A named tuple, not a dataclass: a diff has one per line, and tuples are built in bulk.
    kind: LineKind
    text: str = ""
    location: HunkLocation | None = None


def _eat_required_whitespace(rest: str) -> str | None:
    trimmed = rest.lstrip(ASCII_WHITESPACE)
    return None if len(trimmed) == len(rest) else trimmed


def parse_header_path(strip_prefix: str, header: str) -> str:
    """Path of a `---`/`+++` header (text after the whitespace), minus one `a/` or `b/`."""
    if '"' not in header and "\\" not in header:
        tokens = _ASCII_WS_RUN.split(header)
        path = next((t for t in tokens if t), header)
        return path[len(strip_prefix) :] if path.startswith(strip_prefix) else path
    out: list[str] = []
    in_quote = False
    prefix_pending = True
    chars = iter(header)
    for char in chars:
        if char == '"':
            in_quote = not in_quote
        elif char == "\\":
            escaped = next(chars, None)
            if escaped is None:
                break
            out.append(escaped)
        elif char in ASCII_WHITESPACE and not in_quote:
            break
        else:
            out.append(char)
        # The prefix is dropped only when the path accumulated so far is exactly the prefix.
        if prefix_pending and "".join(out) == strip_prefix:
            prefix_pending = False
            out.clear()
    return "".join(out)


def _parse_range(token: str) -> tuple[int, int] | None:
    start_text, _, count_text = token.partition(",")
    if "," not in token:
        count_text = "1"
    start, count = parse_u32(start_text), parse_u32(count_text)
    if start is None or count is None:
        return None
    return max(start - 1, 0), count


def _parse_hunk_header(rest: str) -> DiffLine | None:
    if rest.startswith("..."):
        return DiffLine(LineKind.HUNK_HEADER)
    tokens = [t for t in _RUST_WS_RUN.split(rest) if t]
    if len(tokens) < 2 or not tokens[0].startswith("-") or not tokens[1].startswith("+"):
        return None
    old, new = _parse_range(tokens[0][1:]), _parse_range(tokens[1][1:])
    if old is None or new is None:
        return None
    return DiffLine(LineKind.HUNK_HEADER, "", HunkLocation(old[0], old[1], new[0], new[1]))


# `tuple.__new__(DiffLine, fields)` builds a named tuple without its Python-level `__new__`.
_new_line = tuple.__new__
_HUNK_HEADER = LineKind.HUNK_HEADER

# `--- a/path` with no quote or backslash in it: what `parse_header_path` would make of it.
_SIMPLE_FILE_HEADER = re.compile(r'(?:---|\+\+\+)[ \t\n\x0c\r]+([^ \t\n\x0c\r"\\]+)[^"\\]*')
_FILE_HEADERS = {"---": (LineKind.OLD_PATH, "a/"), "+++": (LineKind.NEW_PATH, "b/")}

# `@@ -A,B +C,D @@` as diff tools write it, numbers too short to overflow a u32: what
# `_parse_hunk_header` would make of it, without its token-by-token work.
_COMMON_HUNK_HEADER = re.compile(
    r"@@ -([0-9]{1,9})(?:,([0-9]{1,9}))? \+([0-9]{1,9})(?:,([0-9]{1,9}))?(?: |$)"
)


def classify_line(line: str) -> DiffLine:
    """Classify one line (no line terminator); the first matching rule wins.

    The rules in order: `\\ No newline`; `---` and `+++` then whitespace (file headers); `@@`
    then whitespace (a hunk header, garbage if unreadable); `-`; empty or ` `; `+`; else
    garbage. The first character decides which of them can match."""
    first = line[:1]
    if first in "-+" and first:
        if line.startswith("---" if first == "-" else "+++"):
            simple = _SIMPLE_FILE_HEADER.fullmatch(line)
            kind, prefix = _FILE_HEADERS[line[:3]]
            if simple is not None:
                path = simple[1]
                path = path[len(prefix) :] if path.startswith(prefix) else path
                return _new_line(DiffLine, (kind, path, None))
            header = _eat_required_whitespace(line[3:])
            if header is not None:
                return DiffLine(kind, parse_header_path(prefix, header))
        return DiffLine(LineKind.DELETION if first == "-" else LineKind.ADDITION, line[1:])
    if first in " ":  # a space, or an empty line
        return DiffLine(LineKind.CONTEXT, line[1:])
    if line.startswith("@@"):
        common = _COMMON_HUNK_HEADER.match(line)
        if common is not None:
            a, b, c, d = common.groups()
            numbers = (
                max(int(a) - 1, 0),
                1 if b is None else int(b),
                max(int(c) - 1, 0),
                1 if d is None else int(d),
            )
            return _new_line(DiffLine, (_HUNK_HEADER, "", _new_line(HunkLocation, numbers)))
        rest = _eat_required_whitespace(line[2:])
        if rest is not None:
            return _parse_hunk_header(rest) or DiffLine(LineKind.GARBAGE, line)
    elif line.startswith("\\ No newline"):
        return DiffLine(LineKind.NO_NEWLINE)
    return DiffLine(LineKind.GARBAGE, line)


def is_cursor_marker_line(line: str, classified: DiffLine | None = None) -> bool:
    """A patch line that carries the expected cursor: garbage, starts with `#`, has the marker."""
    kind = (classified or classify_line(line)).kind
    return kind is LineKind.GARBAGE and line.startswith("#") and CURSOR_POSITION_MARKER in line


# What the first character alone decides; `---`, `+++`, `@@`, `\\` and garbage need the rules.
_BY_FIRST = {"": LineKind.CONTEXT, " ": LineKind.CONTEXT, "+": LineKind.ADDITION}
_MARK_BY_FIRST = {"": " ", " ": " ", "+": "+"}
_FIRST_CHAR = itemgetter(slice(None, 1))
_REST = itemgetter(slice(1, None))
# The lines that need the rules, in the block with a `\n` put before each line (a pattern that
# starts with a literal is scanned for much faster than `^`): `---`/`+++` file headers with a
# plain path (group 1, 2) and hunk headers as diff tools write them (groups 3-6), read here as
# `classify_line` would; any other `---`/`+++` line or first character other than ` `, `+`, `-`
# (an empty line is context) goes through `classify_line`.
_SPECIAL = re.compile(
    r'\n(?:---[ \t\x0c\r]+([^ \t\n\x0c\r"\\]+)[^"\\\n]*(?![^\n])'
    r'|\+\+\+[ \t\x0c\r]+([^ \t\n\x0c\r"\\]+)[^"\\\n]*(?![^\n])'
    r"|@@ -([0-9]{1,9})(?:,([0-9]{1,9}))? \+([0-9]{1,9})(?:,([0-9]{1,9}))?(?![^ \n])"
    r"|---|\+\+\+|[^ +\-\n])"
)
_CONTEXT, _DELETION, _ADDITION = LineKind.CONTEXT, LineKind.DELETION, LineKind.ADDITION
_OLD_PATH, _NEW_PATH = LineKind.OLD_PATH, LineKind.NEW_PATH


class ClassifiedLines(NamedTuple):
    """Every line classified, in columns: `lines[i]` is `classify_line` of line `i`, with its
    kind and text also in `kinds[i]` and `texts[i]`; `marks[i]` is ` `, `-` or `+` for a
    context, deletion or addition line and `x` for any other; `others` lists the `x` lines."""

    lines: list[DiffLine]
    kinds: list[LineKind]
    texts: list[str]
    marks: str
    others: list[int]


def classify_bulk(lines: list[str]) -> ClassifiedLines:
    """Classify every line at once: body lines are told apart by their first character in C
    loops, and the rare others are found, and the common ones read, by one search over the
    block."""
    firsts = list(map(_FIRST_CHAR, lines))
    kinds = list(map(_BY_FIRST.get, firsts, repeat(_DELETION)))
    texts = list(map(_REST, lines))
    out: list[DiffLine] = list(map(_new_line, repeat(DiffLine), zip(kinds, texts, repeat(None))))
    marks = list(map(_MARK_BY_FIRST.get, firsts, repeat("-")))
    others: list[int] = []
    block = "\n" + "\n".join(lines)
    index = previous = 0
    for found in _SPECIAL.finditer(block):
        at = found.start()
        index += block.count("\n", previous, at)
        previous = at
        group = found.lastindex
        if group is None:
            line = classify_line(lines[index])
            kind = line.kind
            if kind is _DELETION or kind is _ADDITION or kind is _CONTEXT:
                marks[index] = "-" if kind is _DELETION else "+" if kind is _ADDITION else " "
            else:
                marks[index] = "x"
                others.append(index)
        elif group <= 2:
            path = found[group]
            if group == 1:
                kind, path = _OLD_PATH, path[2:] if path.startswith("a/") else path
            else:
                kind, path = _NEW_PATH, path[2:] if path.startswith("b/") else path
            line = _new_line(DiffLine, (kind, path, None))
            marks[index] = "x"
            others.append(index)
        else:
            a, b, c, d = found.group(3, 4, 5, 6)
            numbers = (
                max(int(a) - 1, 0),
                1 if b is None else int(b),
                max(int(c) - 1, 0),
                1 if d is None else int(d),
            )
            kind = _HUNK_HEADER
            line = _new_line(DiffLine, (kind, "", _new_line(HunkLocation, numbers)))
            marks[index] = "x"
            others.append(index)
        out[index], kinds[index], texts[index] = line, kind, line.text
    return ClassifiedLines(out, kinds, texts, "".join(marks), others)


def select_lines(classified: ClassifiedLines, indices: Sequence[int]) -> ClassifiedLines:
    """`classify_bulk([lines[i] for i in indices])`, taken from `classify_bulk(lines)`: each
    line is classified on its own, so a subset needs no second pass."""
    marks = "".join([classified.marks[i] for i in indices])
    return ClassifiedLines(
        [classified.lines[i] for i in indices],
        [classified.kinds[i] for i in indices],
        [classified.texts[i] for i in indices],
        marks,
        [k for k, mark in enumerate(marks) if mark == "x"],
    )
