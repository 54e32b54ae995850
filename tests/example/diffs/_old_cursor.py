"""Oracle for the differential tests: `extract_patch_cursor` as it was before the bulk
rewrite, line by line over the old grammar (a verbatim copy). Not used by evaltools."""

# mypy: ignore-errors
# ruff: noqa

from __future__ import annotations

from evaltools.example.cursor import ExtractedPatch, PatchCursorMarker
from tests.example.diffs._old_difflines import (
    LineKind,
    byte_len,
    classify_line,
    is_cursor_marker_line,
    rust_lines,
    to_bytes,
)


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


def old_extract_patch_cursor(patch: str) -> ExtractedPatch:
    """The reference's `extract_cursor_from_patch`, keeping where everything came from."""
    out = _Joiner()
    kept: list[int] = []
    markers: list[PatchCursorMarker] = []
    offset: int | None = None
    line_start = prev_start = 0
    for index, line in enumerate(rust_lines(patch)):
        classified = classify_line(line)
        if is_cursor_marker_line(line, classified):
            raw = to_bytes(line)
            caret = raw.find(b"^")
            if caret < 0 and b"<" in raw:
                caret = 0
            if caret < 0:
                markers.append(PatchCursorMarker(index, None, None))
                continue
            column = max(caret - 1, 0)  # the `#` stands in for the `+`/` ` column
            offset = prev_start + column
            markers.append(PatchCursorMarker(index, column, offset))
            continue
        if out.add(line):
            kept.append(index)
        if classified.kind in (LineKind.ADDITION, LineKind.CONTEXT):
            prev_start = line_start
            line_start += byte_len(classified.text) + 1
    clean = out.finish(patch)
    # A last empty line without a final newline does not survive the join.
    line_map = tuple(kept[: len(rust_lines(clean))])
    return ExtractedPatch(clean, offset, tuple(markers), line_map)
