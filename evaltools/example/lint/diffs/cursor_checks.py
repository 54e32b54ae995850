"""Rules over cursor markers: the Cursor Position block's (reference section 6), and the marker
lines of expected patches (section 7: `check_patch_cursors`, which `patch_checks` runs on each
patch it parses)."""

from __future__ import annotations

import re

from evaltools.diagnostics import Fix
from evaltools.example.cursor import (
    CURSOR_POSITION_MARKER,
    INLINE_CURSOR_MARKER,
    CursorError,
    CursorLocation,
    locate_cursor,
)
from evaltools.example.diffs._difflines import byte_len
from evaltools.example.diffs.patch_cursor import ExtractedPatch
from evaltools.example.diffs.udiff import LineKind, classify_line
from evaltools.example.lint.context import (
    FieldSource,
    LintContext,
    cursor_source,
    field_sources,
    parsed_diff,
)
from evaltools.example.lint.diffs.rules import (
    CURSOR_INSIDE_CHARACTER,
    CURSOR_PAST_END_OF_LINE,
    MARKER_TABS_MISALIGNED,
    MARKER_WITHOUT_CARET,
    MISSING_CURSOR_MARKER,
    NON_ASCII_BEFORE_CURSOR,
    NON_CANONICAL_ANGLE_MARKER,
    PATCH_CURSOR_AFTER_DELETION,
    PATCH_CURSOR_PAST_END_OF_LINE,
    PATCH_CURSOR_WITHOUT_CARET,
    SEVERAL_CURSOR_MARKERS,
)
from evaltools.example.lint.document.rules import MISSING_CURSOR_POSITION


def cursor_of(ctx: LintContext) -> CursorLocation | None:
    """The cursor as the reference reads it, computed once per example."""
    if "cursor" not in ctx.cache:
        source = cursor_source(ctx)
        try:
            ctx.cache["cursor"] = None if source is None else locate_cursor(source.text)
        except CursorError:
            ctx.cache["cursor"] = None
    found: CursorLocation | None = ctx.cache["cursor"]
    return found


def check_cursor(ctx: LintContext) -> None:
    source = cursor_source(ctx)
    if source is None:
        if ctx.parsed is None:
            ctx.report(
                MISSING_CURSOR_POSITION,
                ctx.record_line,
                1,
                "cursor_position is empty: it must hold the excerpt with a cursor marker",
                "/cursor_position",
            )
        return
    try:
        location = locate_cursor(source.text)
    except CursorError as error:
        if error.line == 1 and "missing" in error.message:
            misspelt = _misspelt_marker(source.text)
            if misspelt is not None:
                index, column, found = misspelt
                meant = INLINE_CURSOR_MARKER if "<" in found else CURSOR_POSITION_MARKER
                ctx.at_field(
                    MISSING_CURSOR_MARKER,
                    source,
                    index,
                    column,
                    f"`{found}` is not the cursor marker, so the excerpt has none: "
                    f"write `{meant}` exactly",
                    fix=Fix(found, meant),
                )
            # A marker missing from the block is the block's fault: at its opening fence.
            elif source.block_line is not None:
                ctx.report(MISSING_CURSOR_MARKER, source.block_line, 1, error.message)
            else:
                ctx.at_field(MISSING_CURSOR_MARKER, source, 0, 1, error.message)
        else:
            ctx.at_field(MARKER_WITHOUT_CARET, source, error.line - 1, 1, error.message)
        return
    ctx.cache["cursor"] = location
    _check_location(ctx, source, location)
    _check_several_markers(ctx, source)


_NEAR_MARKER = re.compile(
    r"\[\s*cursor[\s_-]*pos(?:ition)?\s*\]|<\|\s*user[\s_-]*cursor\s*\|>", re.IGNORECASE
)
# What a mistyped `[CURSOR_POSITION]` on a marker line looks like: capitals in brackets (one
# may be missing or another kind), or alone after a comment mark or caret, after nothing but
# comment marks, spaces and a caret. Code lines start with a word, so they hardly ever match.
_MARKER_LIKE = re.compile(
    r"^[^\w\n\[\](){}]*?"
    r"(?:(?P<found>[\[({][A-Z_ -]{10,20}[\])}]?|[A-Z][A-Z_ -]{9,19}[\])}])"
    r"|[^\w\s\[\](){}][ \t]*(?P<bare>[A-Z][A-Z_-]{9,19})[ \t]*$)",
    re.MULTILINE,
)
_NEAR_MARKER_RATIO = 0.8  # `[CUSROR_POSITION]`, `{CURSOR_POSITION}` pass; `[CURSOR_POS]` not


def _misspelt_marker(text: str) -> tuple[int, int, str] | None:
    """(0-based line, 1-based byte column as the marker rules count them, text) of a near
    miss of a cursor marker: a marker line with `[CURSOR_POSITON]`, `[CURSOR_POSITION`,
    `{CURSOR_POSITION}`, `^CURSOR_POSITION`, or anywhere `[CURSOR POSITION]`,
    `[cursor_position]`, `<| user_cursor |>`."""
    found = _mistyped_marker_line(text)
    if found is None:
        match = _NEAR_MARKER.search(text)
        if match is None:
            return None
        found = match.start(), match.group(0)
    start, marker = found
    line_start = text.rfind("\n", 0, start) + 1
    column = len(text[line_start:start].encode("utf-8")) + 1
    return text.count("\n", 0, start), column, marker


def _mistyped_marker_line(text: str) -> tuple[int, str] | None:
    """(offset, text) of the first `[CURSOR_POSITION]` typed a few characters wrong on a
    line of its own."""
    import difflib  # only when the excerpt has no marker, so not on every lint run's start-up

    for match in _MARKER_LIKE.finditer(text):
        group = "found" if match["found"] else "bare"
        marker = match[group].rstrip()
        similar = difflib.SequenceMatcher(None, marker, CURSOR_POSITION_MARKER, autojunk=False)
        if similar.ratio() >= _NEAR_MARKER_RATIO:
            return match.start(group), marker
    return None


def _check_location(ctx: LintContext, source: FieldSource, loc: CursorLocation) -> None:
    line, column = loc.marker_line, loc.marker_column + 1
    if loc.inside_multibyte:
        ctx.at_field(
            CURSOR_INSIDE_CHARACTER,
            source,
            line,
            column,
            f"cursor offset {loc.offset} falls inside a multi-byte character: columns count "
            "UTF-8 bytes, so move the marker to the first byte of a character",
        )
    if loc.past_end_of_line:
        ctx.at_field(
            CURSOR_PAST_END_OF_LINE,
            source,
            line,
            column,
            f"marker column {loc.column} is past the end of the cursor line, so the cursor "
            "lands on a later line: move the marker left, or mark the line below",
        )
    if loc.kind == "<" and loc.lt_canonical is False and loc.canonical_marker is not None:
        ctx.at_field(
            NON_CANONICAL_ANGLE_MARKER,
            source,
            line,
            column,
            f"the reference would write this cursor as `{loc.canonical_marker}`: use that, "
            "so the file does not change when it is regenerated",
        )
    if loc.non_ascii_before_cursor:
        ctx.at_field(
            NON_ASCII_BEFORE_CURSOR,
            source,
            line,
            column,
            "non-ASCII text before the cursor on its line: the marker column counts bytes, "
            "not characters, so check that it points where you mean",
        )
    # A caret past the line's end is EP204's already, whatever moved it there.
    if loc.kind == "^" and loc.has_line_above and not loc.past_end_of_line:
        lines = source.text.split("\n")
        cursor_line = lines[loc.marker_line - 1]
        where = _tab_mismatch(cursor_line, lines[loc.marker_line], loc.column)
        if where is not None and not _reindented(ctx, cursor_line):
            ctx.at_field(MARKER_TABS_MISALIGNED, source, line, column, where)


def _reindented(ctx: LintContext, text: str) -> bool:
    """Whether the patches hold `text` with other leading whitespace only: then the cursor
    line is what was re-indented (EP301 says so at it), not its marker."""
    from evaltools.example.diffs.udiff import LineKind

    body = text.lstrip(" \t")
    for patch in (f for f in field_sources(ctx) if f.name == "expected_patch"):
        for hunk in parsed_diff(ctx, patch)[0].hunks:
            for old in hunk.lines:
                same = old.text != text and old.text.lstrip(" \t") == body
                if same and old.kind is not LineKind.ADDITION:
                    return True
    return False


def _tab_mismatch(cursor_line: str, marker_line: str, column: int) -> str | None:
    """What differs between the tabs left of the caret (byte `column`) in the marker line
    and in the cursor line above it, if anything."""
    cursor, marker = cursor_line.encode(), marker_line.encode()[:column]
    if b"\t" not in cursor[:column] and b"\t" not in marker:
        return None  # the common line: no tab on either
    for at, byte in enumerate(marker):
        under = cursor[at : at + 1]
        if byte == 9 and under != b"\t":
            what = f"a tab at byte {at + 1} where the cursor line has none"
        elif byte == 32 and under == b"\t":
            what = f"a space at byte {at + 1} under a tab of the cursor line"
        else:
            continue
        shown = cursor[column : column + 1].decode("utf-8", "replace") or "the line's end"
        return (
            f"the marker line has {what}: the caret's column counts a tab as one byte, so "
            f"the cursor is at byte {column + 1} of its line (`{shown}`), not where it shows; "
            "copy the cursor line's tabs into the marker line and pad the rest with spaces"
        )
    return None


# Every marker in the excerpt, in reading order, from the `^`/`<` of a marker line (where
# the other cursor rules point); markers cannot overlap.
_ANY_MARKER = re.compile(
    rf"[\^<]?{re.escape(CURSOR_POSITION_MARKER)}|{re.escape(INLINE_CURSOR_MARKER)}"
)
# (0-based line, 0-based character index in the line) of one marker.
Marker = tuple[int, int]


def _edited_lines(ctx: LintContext) -> set[str]:
    """The lines the expected patches delete, or add after: where the cursor should be."""
    from evaltools.example.diffs.udiff import LineKind

    edited: set[str] = set()
    for patch in (f for f in field_sources(ctx) if f.name == "expected_patch"):
        for hunk in parsed_diff(ctx, patch)[0].hunks:
            previous = ""
            for line in hunk.lines:
                if line.kind is LineKind.DELETION:
                    edited.add(line.text)
                elif line.kind is LineKind.ADDITION and previous:
                    edited.add(previous)
                previous = line.text if line.kind is LineKind.CONTEXT else ""
    return edited


def _stray_marker(
    ctx: LintContext, lines: list[str], markers: list[Marker], taken: Marker
) -> Marker:
    """The marker to report: the one farther from what the expected patches edit.

    The cursor sits where the edit happens, so the marker nearest the lines the patches
    delete (or add after) is the real one; without that evidence, the first marker the
    reference does not take (`taken`).
    """
    extra = next(m for m in markers if m != taken)
    rows = sorted({line for line, _ in markers})
    if len(rows) != 2:
        return extra
    edited = _edited_lines(ctx)
    where = [i for i, text in enumerate(lines) if text in edited and i not in rows]
    if not where:
        return extra
    nearness = [min(abs(m - i) for i in where) for m in rows]
    # Only a clear difference overrides the default: markers a line apart tell nothing.
    if nearness[1] + 3 <= nearness[0]:
        first_row = [m for m in markers if m[0] == rows[0]]
        return next((m for m in first_row if m != taken), first_row[0])
    return extra


def _check_several_markers(ctx: LintContext, source: FieldSource) -> None:
    text = source.text
    if text.count(CURSOR_POSITION_MARKER) + text.count(INLINE_CURSOR_MARKER) < 2:
        return  # the usual case, without a look at each line
    lines = text.split("\n")
    markers = [
        (index, found.start())
        for index, line in enumerate(lines)
        for found in _ANY_MARKER.finditer(line)
    ]
    # As `locate_cursor` reads the excerpt: the first inline marker, else the first marker.
    inline = [m for m in markers if lines[m[0]].startswith(INLINE_CURSOR_MARKER, m[1])]
    taken = (inline or markers)[0]
    line, at = _stray_marker(ctx, lines, markers, taken)
    base, unit = (source.first_line, "") if source.first_line else (1, " of the excerpt")

    def shown(marker: Marker) -> str:
        return f"{base + marker[0]}:{marker[1] + 1}"

    ctx.at_field(
        SEVERAL_CURSOR_MARKERS,
        source,
        line,
        len(lines[line][:at].encode("utf-8", "surrogatepass")) + 1,
        f"{len(markers)} cursor markers in the excerpt (at {', '.join(map(shown, markers))}"
        f"{unit}); the reference takes the one at {shown(taken)}: keep the one under the "
        "cursor and delete the others",
    )


# --- cursor marker lines of expected patches (reference section 7) --------------------------


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
