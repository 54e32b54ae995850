"""Cursor markers of the Cursor Position block (reference section 6); those in expected
patches (section 7) are `diffs.patch_cursor`'s.

A port of the reference behaviour. Offsets and columns are UTF-8 byte counts and lines are
split on `\\n` only, as in the reference.
"""

from __future__ import annotations

from typing import Literal, NamedTuple

from evaltools.example.diffs._difflines import (
    CURSOR_POSITION_MARKER,
    RUST_WHITESPACE,
    byte_len,
    from_bytes,
    rust_trim_start,
    to_bytes,
)

__all__ = [
    "CURSOR_POSITION_MARKER",
    "INLINE_CURSOR_MARKER",
    "CursorError",
    "CursorLocation",
    "cursor_excerpt",
    "format_cursor_excerpt",
    "locate_cursor",
]

INLINE_CURSOR_MARKER = "<|user_cursor|>"
MarkerKind = Literal["^", "<", "inline"]

_INLINE = to_bytes(INLINE_CURSOR_MARKER)
_MARKER = to_bytes(CURSOR_POSITION_MARKER)


class CursorError(ValueError):
    """A Cursor Position block the reference rejects; `line` is 1-based within the block."""

    def __init__(self, message: str, line: int) -> None:
        super().__init__(message)
        self.message = message
        self.line = line


# Value types here are named tuples, not frozen dataclasses: each dataclass costs about a
# millisecond at import, on the path of the lint hook.
class CursorLocation(NamedTuple):
    """Everything about a cursor marker a linter may want.

    `marker_line` is the 0-based line of the marker in the block and `marker_column` the byte
    column of its `^`, `<` or inline marker. The cursor is `column` bytes after the start of
    excerpt line `cursor_line` (the line above the marker, or excerpt line 0 when the marker is
    the block's first line: `has_line_above` is then False). For a `<` marker,
    `canonical_marker` is the marker line `format_cursor_excerpt` would write for this cursor
    with the same comment prefix, placed after excerpt line `canonical_after_line`;
    `lt_canonical` says whether the block already has exactly that.
    """

    kind: MarkerKind
    excerpt: str
    offset: int
    marker_line: int
    marker_column: int
    column: int
    cursor_line: int
    has_line_above: bool
    past_end_of_line: bool
    past_end_of_excerpt: bool
    inside_multibyte: bool
    non_ascii_before_cursor: bool
    canonical_marker: str | None = None
    canonical_after_line: int | None = None
    lt_canonical: bool | None = None


def _line_bounds(data: bytes, start: int) -> tuple[int, int]:
    """(start, end) of the line starting at `start`, end excluding its `\\n`."""
    end = data.find(b"\n", start)
    return start, len(data) if end < 0 else end


def _first_non_whitespace(line: bytes) -> int:
    text = from_bytes(line)
    rest = rust_trim_start(text)
    return len(line) - byte_len(rest)


def _locate_inline(data: bytes, at: int) -> CursorLocation:
    excerpt = data[:at] + data[at + len(_INLINE) :]
    line_start = data.rfind(b"\n", 0, at) + 1
    line_index = data.count(b"\n", 0, at)
    return CursorLocation(
        kind="inline",
        excerpt=from_bytes(excerpt),
        offset=at,
        marker_line=line_index,
        marker_column=at - line_start,
        column=at - line_start,
        cursor_line=line_index,
        has_line_above=True,
        past_end_of_line=False,
        past_end_of_excerpt=False,
        inside_multibyte=False,
        non_ascii_before_cursor=any(b >= 0x80 for b in data[line_start:at]),
    )


def _marker_column(marker: bytes, line_number: int) -> tuple[MarkerKind, int, int]:
    """(kind, cursor column, column of the `^`/`<` character) for a marker line."""
    caret = marker.find(b"^")
    if caret >= 0:
        return "^", caret, caret
    less = marker.find(b"<")
    if less >= 0:
        return "<", _first_non_whitespace(marker), less
    raise CursorError(
        "cursor position marker line must contain '^' or '<' before [CURSOR_POSITION]: "
        "put '^' under the cursor column",
        line_number,
    )


def locate_cursor(cursor_position: str) -> CursorLocation:
    """Find the cursor exactly as the reference's `cursor_excerpt` does, with diagnostics."""
    data = to_bytes(cursor_position)
    inline_at = data.find(_INLINE)
    if inline_at >= 0:
        return _locate_inline(data, inline_at)
    found = data.find(_MARKER)
    if found < 0:
        raise CursorError(
            "missing [CURSOR_POSITION] marker: add a comment line with '^[CURSOR_POSITION]' "
            "under the cursor line",
            1,
        )
    marker_start = data.rfind(b"\n", 0, found) + 1
    marker_end = data.find(b"\n", marker_start)
    marker_end = len(data) if marker_end < 0 else marker_end + 1
    marker_index = data.count(b"\n", 0, marker_start)
    marker = data[marker_start:marker_end].rstrip(b"\n")
    kind, column, marker_column = _marker_column(marker, marker_index + 1)
    excerpt = (data[:marker_start] + data[marker_end:]).rstrip(b"\n")
    cursor_end = max(marker_start - 1, 0)
    if cursor_end > len(excerpt):
        # The reference slices past the end of the trimmed excerpt here and panics.
        raise CursorError(
            "the marker sits under an empty last line of the excerpt, which crashes the "
            "reference implementation: point at a line with text or keep a line after the marker",
            marker_index + 1,
        )
    cursor_start = excerpt.rfind(b"\n", 0, cursor_end) + 1
    line_start, line_end = _line_bounds(excerpt, cursor_start)
    offset = cursor_start + column
    location = CursorLocation(
        kind=kind,
        excerpt=from_bytes(excerpt),
        offset=offset,
        marker_line=marker_index,
        marker_column=marker_column,
        column=column,
        cursor_line=excerpt.count(b"\n", 0, cursor_start),
        has_line_above=marker_start > 0,
        past_end_of_line=column > line_end - line_start,
        past_end_of_excerpt=offset > len(excerpt),
        inside_multibyte=offset < len(excerpt) and (excerpt[offset] & 0xC0) == 0x80,
        non_ascii_before_cursor=any(b >= 0x80 for b in excerpt[line_start : min(offset, line_end)]),
    )
    return _with_canonical(location, excerpt, marker) if kind == "<" else location


def _with_canonical(loc: CursorLocation, excerpt: bytes, marker: bytes) -> CursorLocation:
    # The prefix is what stands between the indentation and the `<` of `<[CURSOR_POSITION]`;
    # comment prefixes do not end in whitespace, so a wider gap is not part of it.
    start = _first_non_whitespace(marker)
    less = marker.find(b"<" + _MARKER)
    less = marker.find(b"<") if less < 0 else less
    prefix = from_bytes(marker[start:less]).rstrip("".join(RUST_WHITESPACE))
    if loc.past_end_of_excerpt or loc.inside_multibyte:
        return loc._replace(lt_canonical=False)
    line_start = excerpt.rfind(b"\n", 0, loc.offset) + 1
    _, line_end = _line_bounds(excerpt, line_start)
    expected = _marker_for(excerpt[line_start : line_end + 1], loc.offset - line_start, prefix)
    after = excerpt.count(b"\n", 0, line_start)
    canonical = after == loc.cursor_line and loc.has_line_above and expected == marker
    return loc._replace(
        canonical_marker=from_bytes(expected),
        canonical_after_line=after,
        lt_canonical=canonical,
    )


def cursor_excerpt(cursor_position: str) -> tuple[str, int]:
    """(excerpt, byte offset) as the reference reads a Cursor Position block."""
    location = locate_cursor(cursor_position)
    return location.excerpt, location.offset


def _marker_for(cursor_line: bytes, column: int, comment_prefix: str) -> bytes:
    """The marker line `format_cursor_excerpt` writes; `cursor_line` keeps its `\\n`, if any."""
    prefix = to_bytes(comment_prefix)
    if column < len(prefix):
        return b" " * column + prefix + b" <" + _MARKER
    rest = to_bytes(rust_trim_start(from_bytes(cursor_line)))
    indent = cursor_line[: len(cursor_line) - len(rest)]
    line = (indent if column >= len(indent) + len(prefix) else b"") + prefix
    return line + b" " * max(column - len(line), 0) + b"^" + _MARKER


def format_cursor_excerpt(excerpt: str, offset: int, comment_prefix: str) -> str:
    """Write the Cursor Position block for `excerpt` with the cursor at byte `offset`.

    Raises ValueError when `offset` is past the end or inside a character (the reference
    panics there)."""
    data = to_bytes(excerpt)
    if not 0 <= offset <= len(data) or (offset < len(data) and (data[offset] & 0xC0) == 0x80):
        raise ValueError(f"cursor offset {offset} is not a character boundary of the excerpt")
    line_start = data.rfind(b"\n", 0, offset) + 1
    newline = data.find(b"\n", line_start)
    line_end = len(data) if newline < 0 else newline + 1
    marker = _marker_for(data[line_start:line_end], offset - line_start, comment_prefix)
    head = data[:line_end]
    out = head if head.endswith(b"\n") else head + b"\n"
    out += marker
    if line_end < len(data):
        out += b"\n" + data[line_end:]
    return from_bytes(out)
