"""Cursor markers inside expected patches (reference section 7): `#...[CURSOR_POSITION]` lines.

Where the cursor a patch's marker lines set is, the patch without them (with the line each
kept line came from), and writing the marker back. Offsets and columns are UTF-8 byte counts
and lines are split on `\\n` only, as in the reference. The Cursor Position block's markers
(section 6) are `example.cursor`'s.
"""

from __future__ import annotations

from bisect import bisect_left
from itertools import accumulate
from typing import NamedTuple

from evaltools.example.diffs._difflines import (
    CURSOR_POSITION_MARKER,
    ClassifiedLines,
    LineKind,
    byte_len,
    classify_bulk,
    classify_line,
    is_cursor_marker_line,
    rust_lines,
    select_lines,
    to_bytes,
)
from evaltools.example.diffs.udiff import ParsedDiff, parse_diff

__all__ = [
    "ExtractedPatch",
    "PatchCursorMarker",
    "encode_cursor_in_patch",
    "extract_cursor_from_patch",
    "extract_patch_cursor",
    "parse_patch",
    "patch_cursor_line",
]


class PatchCursorMarker(NamedTuple):
    """A `#...[CURSOR_POSITION]` line of a patch (0-based `line`). `column`/`offset` are what it
    sets; both None when it has neither `^` nor `<` (the reference drops it silently)."""

    line: int
    column: int | None
    offset: int | None


class ExtractedPatch(NamedTuple):
    """A patch without its marker lines. The cursor `offset` counts bytes of context and added
    lines from the first such line, across hunks; the last marker wins. Line `i` of `clean`
    (split as `rust_lines`) is line `line_map[i]` of the original patch."""

    clean: str
    offset: int | None
    markers: tuple[PatchCursorMarker, ...]
    line_map: tuple[int, ...]


class _Joiner:
    """The reference joins kept lines with `\n` only once something non-empty was written, so
    leading empty lines vanish."""

    def __init__(self) -> None:
        self.parts: list[str] = []

    def add(self, line: str) -> bool:
        """Append a line; False when it vanished."""
        if self.parts:
            self.parts.append("\n")
        elif not line:
            return False
        self.parts.append(line)
        return True

    def finish(self, source: str) -> str:
        text = "".join(self.parts)
        return text + "\n" if source.endswith("\n") and text else text


def extract_patch_cursor(patch: str) -> ExtractedPatch:
    """The reference's `extract_cursor_from_patch`, keeping where everything came from."""
    return _extract(patch)[0]


def _extract(patch: str) -> tuple[ExtractedPatch, ClassifiedLines | None]:
    """The extracted patch and, when marker lines made this classify the patch's lines, the
    classification of its clean lines (which `parse_patch` then need not compute again)."""
    lines = rust_lines(patch)
    # A marker line is garbage (so not indented) starting with `#`: `is_cursor_marker_line`.
    at = (
        [i for i, line in enumerate(lines) if line[:1] == "#" and CURSOR_POSITION_MARKER in line]
        if CURSOR_POSITION_MARKER in patch
        else []
    )
    classified = classify_bulk(lines) if at else None
    markers, offset = _patch_markers(lines, at, classified) if classified else ((), None)
    skip = set(at)
    kept = [i for i in range(len(lines)) if i not in skip] if skip else range(len(lines))
    # The reference joins kept lines once something non-empty was written: leading empty
    # lines vanish.
    first = next((k for k, i in enumerate(kept) if lines[i]), len(kept))
    kept = kept[first:]
    text = "\n".join([lines[i] for i in kept] if skip else lines[first:])
    clean = text + "\n" if patch.endswith("\n") and text else text
    # A last empty line without a final newline does not survive the join.
    line_map = tuple(kept[: len(rust_lines(clean))])
    extracted = ExtractedPatch(clean, offset, markers, line_map)
    # Splitting `clean` gives the kept lines again, but for a line that still ends in `\r`
    # (it had two): joined with `\n`, it loses that one too.
    if classified is None or "\r" in clean:
        return extracted, None
    return extracted, select_lines(classified, line_map)


def _patch_markers(
    lines: list[str], at: list[int], classified: ClassifiedLines
) -> tuple[tuple[PatchCursorMarker, ...], int | None]:
    """The markers at lines `at`; the offset counts added and context lines before each."""
    kinds, texts = classified.kinds, classified.texts
    counted = [
        i for i, kind in enumerate(kinds) if kind is LineKind.ADDITION or kind is LineKind.CONTEXT
    ]
    sizes = [len(to_bytes(texts[i])) + 1 for i in counted]
    starts = list(accumulate(sizes, initial=0))  # `starts[k]`: where line `counted[k]` starts
    markers: list[PatchCursorMarker] = []
    offset: int | None = None
    for index in at:
        raw = to_bytes(lines[index])
        caret = raw.find(b"^")
        if caret < 0 and b"<" in raw:
            caret = 0
        if caret < 0:
            markers.append(PatchCursorMarker(index, None, None))
            continue
        column = max(caret - 1, 0)  # the `#` stands in for the `+`/` ` column
        before = bisect_left(counted, index) - 1  # the last counted line above the marker
        offset = (starts[before] if before >= 0 else 0) + column
        markers.append(PatchCursorMarker(index, column, offset))
    return tuple(markers), offset


def extract_cursor_from_patch(patch: str) -> tuple[str, int | None]:
    """(patch without marker lines, cursor offset or None); CRLF becomes LF."""
    extracted = extract_patch_cursor(patch)
    return extracted.clean, extracted.offset


def _cursor_target(lines: list[str], offset: int) -> tuple[int, int] | None:
    """(line index, column) of the added line whose span, end included, holds `offset`."""
    line_start = 0
    for index, line in enumerate(lines):
        classified = classify_line(line)
        if is_cursor_marker_line(line, classified):
            continue
        size = byte_len(classified.text)
        if classified.kind is LineKind.ADDITION:
            if line_start <= offset <= line_start + size:
                return index, offset - line_start
            line_start += size + 1
        elif classified.kind is LineKind.CONTEXT:
            line_start += size + 1
    return None


def patch_cursor_line(patch: str, offset: int) -> int | None:
    """The patch line (0-based) after which `encode_cursor_in_patch` writes the marker; None
    when the offset is on a context line or past the end, where the reference drops it."""
    target = _cursor_target(rust_lines(patch), offset)
    return None if target is None else target[0]


def encode_cursor_in_patch(patch: str, offset: int | None) -> str:
    """Write `#`, `column` spaces, `^[CURSOR_POSITION]` after the added line holding `offset`,
    replacing any marker lines already there (so encoding is idempotent)."""
    if offset is None:
        return patch
    lines = rust_lines(patch)
    target = _cursor_target(lines, offset)
    out = _Joiner()
    for index, line in enumerate(lines):
        if is_cursor_marker_line(line):
            continue
        out.add(line)
        if target is not None and index == target[0]:
            out.parts.append("\n#" + " " * target[1] + "^" + CURSOR_POSITION_MARKER)
    return out.finish(patch)


def parse_patch(patch: str) -> tuple[ParsedDiff, ExtractedPatch]:
    """Parse an expected/rejected patch as the reference does once its marker lines are gone,
    with line numbers of `patch` itself."""
    extracted, classified = _extract(patch)
    return parse_diff(extracted.clean, extracted.line_map, classified), extracted
