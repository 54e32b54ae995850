"""Rules over the cursor marker lines of expected patches (reference section 7): several
markers, one without a caret, one that does not follow an added or context line, one past the
end of its line. The Cursor Position block's are `cursor_checks`'."""

from __future__ import annotations

from evaltools.catalogue.ep.diffs import (
    PATCH_CURSOR_AFTER_DELETION,
    PATCH_CURSOR_PAST_END_OF_LINE,
    PATCH_CURSOR_WITHOUT_CARET,
    SEVERAL_CURSOR_MARKERS,
)
from evaltools.example.diffs._difflines import byte_len
from evaltools.example.diffs.patch_cursor import ExtractedPatch
from evaltools.example.diffs.udiff import LineKind, classify_line
from evaltools.example.lint.context import FieldSource, LintContext


def check_patch_cursors(
    ctx: LintContext, source: FieldSource, extracted: ExtractedPatch, lines: list[str]
) -> None:
    marker_lines = {m.line for m in extracted.markers}
    placed = [m for m in extracted.markers if m.column is not None]
    if len(placed) > 1:
        where = ", ".join(
            str(source.first_line + m.line) if source.first_line else str(m.line + 1)
            for m in placed
        )
        ctx.at_field(
            SEVERAL_CURSOR_MARKERS,
            source,
            placed[-1].line,
            1,
            f"{len(placed)} cursor markers in this patch (lines {where}); the reference takes "
            "this last one: keep the one under the cursor and delete the other",
        )
    for marker in extracted.markers:
        if marker.column is None:
            ctx.at_field(
                PATCH_CURSOR_WITHOUT_CARET,
                source,
                marker.line,
                1,
                "patch cursor line has neither `^` nor `<`: the reference drops it silently",
            )
            continue
        kind, text = _line_above(marker.line, marker_lines, lines)
        if kind not in (LineKind.ADDITION, LineKind.CONTEXT):
            ctx.at_field(
                PATCH_CURSOR_AFTER_DELETION,
                source,
                marker.line,
                1,
                "patch cursor line must follow an added or context line: the cursor offset "
                "counts only those, so here it points somewhere else",
            )
        # One past the end is the next line's start, as a reference file (flask's) marks it.
        elif marker.column > byte_len(text) + 1:
            ctx.at_field(
                PATCH_CURSOR_PAST_END_OF_LINE,
                source,
                marker.line,
                lines[marker.line].find("^") + 1,
                f"patch cursor column {marker.column} is past the end of the line above "
                f"({byte_len(text)} bytes), so the cursor lands inside a later line: move the "
                "caret left, or put back the line's trailing spaces if an editor stripped them",
            )


def _line_above(line: int, marker_lines: set[int], lines: list[str]) -> tuple[LineKind | None, str]:
    """The kind and text of the diff line the reference counts a marker from. It counts from
    the last added or context line above the marker, so other markers and git's
    `\\ No newline` lines between the two do not matter."""
    previous = line - 1
    kind: LineKind | None = None
    text = ""
    while previous >= 0 and kind is None:
        if previous not in marker_lines:
            above = classify_line(lines[previous])
            kind = None if above.kind is LineKind.NO_NEWLINE else above.kind
            text = above.text
        previous -= 1
    return kind, text
