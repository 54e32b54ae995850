"""Oracle for the differential tests: the line-at-a-time diff grammar before the bulk
rewrite, a verbatim copy of `evaltools/example/diffs/_difflines.py`. Not used by evaltools."""

# mypy: ignore-errors
# ruff: noqa

from __future__ import annotations

import enum
import re
from dataclasses import dataclass

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


@dataclass(frozen=True)
class HunkLocation:
    """Parsed `@@ -A,B +C,D @@`: starts are 0-based (saturating), counts as written (default 1)."""

    old_start: int
    old_count: int
    new_start: int
    new_count: int


@dataclass(frozen=True)
class DiffLine:
    """One classified line. `text` is the body content for context/deletion/addition lines, the
    parsed path for `---`/`+++` headers, the whole line for garbage, "" otherwise. `location` is
    set for hunk headers with numbers (None for `@@ ... @@`)."""

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


def classify_line(line: str) -> DiffLine:
    """Classify one line (no line terminator); the first matching rule wins."""
    if line.startswith("\\ No newline"):
        return DiffLine(LineKind.NO_NEWLINE)
    for marker, kind, prefix in (
        ("---", LineKind.OLD_PATH, "a/"),
        ("+++", LineKind.NEW_PATH, "b/"),
    ):
        if line.startswith(marker):
            header = _eat_required_whitespace(line[3:])
            if header is not None:
                return DiffLine(kind, parse_header_path(prefix, header))
    if line.startswith("@@"):
        rest = _eat_required_whitespace(line[2:])
        if rest is not None:
            return _parse_hunk_header(rest) or DiffLine(LineKind.GARBAGE, line)
    if line.startswith("-"):
        return DiffLine(LineKind.DELETION, line[1:])
    if not line:
        return DiffLine(LineKind.CONTEXT, "")
    if line.startswith(" "):
        return DiffLine(LineKind.CONTEXT, line[1:])
    if line.startswith("+"):
        return DiffLine(LineKind.ADDITION, line[1:])
    return DiffLine(LineKind.GARBAGE, line)


def is_cursor_marker_line(line: str, classified: DiffLine | None = None) -> bool:
    """A patch line that carries the expected cursor: garbage, starts with `#`, has the marker."""
    kind = (classified or classify_line(line)).kind
    return kind is LineKind.GARBAGE and line.startswith("#") and CURSOR_POSITION_MARKER in line
