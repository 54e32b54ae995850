"""Rules over the diffs: the lenient grammar's traps, patch cursors, and fit to the excerpt."""

from __future__ import annotations

from evaltools.example.cursor import ExtractedPatch, parse_patch
from evaltools.example.diffs.align import Fit, fit_hunks
from evaltools.example.diffs.udiff import (
    Hunk,
    LineKind,
    ParsedDiff,
    classify_line,
    header_count_checks,
    parse_diff,
    rust_lines,
)
from evaltools.example.lint import catalogue as r
from evaltools.example.lint.context import FieldSource, LintContext, field_sources
from evaltools.example.lint.cursor_checks import cursor_of
from evaltools.example.lint.mismatches import Mismatch, report_mismatches

PATCH_FIELDS = ("expected_patch", "rejected_patch")
# A tuple, not a set: `in` then compares by identity, where a set calls Enum's Python `__hash__`.
_CHECKED = (LineKind.GARBAGE, LineKind.OLD_PATH, LineKind.NEW_PATH)


def _parsed(ctx: LintContext, source: FieldSource) -> tuple[ParsedDiff, ExtractedPatch | None]:
    key = f"diff:{source.pointer}:{source.first_line}"
    if key not in ctx.cache:
        if source.name in PATCH_FIELDS:
            ctx.cache[key] = parse_patch(source.text)
        else:
            ctx.cache[key] = (parse_diff(source.text), None)
    cached: tuple[ParsedDiff, ExtractedPatch | None] = ctx.cache[key]
    return cached


def check_diffs(ctx: LintContext) -> None:
    for source in field_sources(ctx):
        parsed, extracted = _parsed(ctx, source)
        lines = rust_lines(source.text)
        _check_lines(ctx, source, parsed, lines)
        for hunk in parsed.hunks:
            if not hunk.has_header:
                ctx.at_field(
                    r.HUNK_WITHOUT_HEADER,
                    source,
                    hunk.line,
                    1,
                    "hunk has no `@@ -start,count +start,count @@` header: the reference then "
                    "matches it anywhere in the file; add the header",
                )
        for count in header_count_checks(parsed):
            if not count.matches:
                ctx.at_field(
                    r.HUNK_COUNT_MISMATCH,
                    source,
                    count.line,
                    1,
                    f"header says -{count.declared_old}/+{count.declared_new} lines, body has "
                    f"-{count.counted_old}/+{count.counted_new} (the reference ignores counts)",
                )
        if extracted is not None:
            _check_patch_cursors(ctx, source, extracted, lines)
            if source.name == "expected_patch" and not source.text.strip():
                ctx.at_field(
                    r.EMPTY_PATCH,
                    source,
                    -1,
                    1,
                    "expected patch is empty: fill it in or delete the block",
                )


def _check_lines(
    ctx: LintContext, source: FieldSource, parsed: ParsedDiff, lines: list[str]
) -> None:
    kinds = dict(zip(parsed.line_numbers, [line.kind for line in parsed.lines], strict=True))
    ignored = set(parsed.ignored_lines)
    headless = False
    # Only garbage and file headers can be findings here; body lines are most of a diff.
    checked = [
        (n, line)
        for n, line in zip(parsed.line_numbers, parsed.lines, strict=True)
        if line.kind in _CHECKED
    ]
    for number, diff_line in checked:
        text = lines[number]
        if diff_line.kind is LineKind.GARBAGE and text.startswith("@@"):
            ctx.at_field(
                r.UNPARSABLE_HUNK_HEADER,
                source,
                number,
                1,
                f"`{text[:40]}` is not a hunk header the reference can read (`@@ -A,B +C,D @@`): "
                "it ignores the rest of this file's diff",
            )
        elif diff_line.kind is LineKind.GARBAGE and (number + 1) in ignored:
            ctx.at_field(
                r.GARBAGE_IN_HUNK,
                source,
                number,
                1,
                "this line is not a diff line (context lines start with a space): the "
                "reference ignores every hunk line after it until the next `---` header",
            )
        elif diff_line.kind is LineKind.OLD_PATH and kinds.get(number + 1) is not LineKind.NEW_PATH:
            if _real_header(lines, number):
                _half_header(ctx, source, number, "`+++ b/path` line after it", "below")
            else:
                _header_lookalike(ctx, source, number, "-- ", "a deleted")
        elif diff_line.kind is LineKind.NEW_PATH and number == 0 and text.startswith("+++ "):
            headless = True  # the `--- a/path` line is missing: one finding, not two
            _half_header(ctx, source, number, "`--- a/path` line before it", "above")
        elif diff_line.kind is LineKind.NEW_PATH and kinds.get(number - 1) is not LineKind.OLD_PATH:
            if _real_header(lines, number):
                _half_header(ctx, source, number, "`--- a/path` line before it", "above")
            else:
                _header_lookalike(ctx, source, number, "++ ", "an added")
    first_ignored = min(ignored, default=None)
    if first_ignored is not None and not parsed.files and not headless:
        ctx.at_field(
            r.GARBAGE_IN_HUNK,
            source,
            first_ignored,
            1,
            "diff lines before any `--- a/path` / `+++ b/path` header are ignored by the "
            "reference: add the file headers",
        )


def _real_header(lines: list[str], number: int) -> bool:
    """A file header (a path, then a hunk header), not a diff line that looks like one."""
    path = lines[number][4:].strip()
    following = lines[number + 1] if number + 1 < len(lines) else ""
    return bool(path) and " " not in path and following.startswith(("@@", "---", "+++"))


def _half_header(
    ctx: LintContext, source: FieldSource, number: int, missing: str, where: str
) -> None:
    ctx.at_field(
        r.DIFF_LINE_LOOKS_LIKE_HEADER,
        source,
        number,
        1,
        f"file header without the {missing}: the reference pairs the two to name the file; "
        f"add it {where}",
    )


def _header_lookalike(
    ctx: LintContext, source: FieldSource, number: int, prefix: str, what: str
) -> None:
    ctx.at_field(
        r.DIFF_LINE_LOOKS_LIKE_HEADER,
        source,
        number,
        1,
        f"{what} line whose text starts with `{prefix}` reads as a file header: the "
        "reference misparses this hunk",
    )


def _check_patch_cursors(
    ctx: LintContext, source: FieldSource, extracted: ExtractedPatch, lines: list[str]
) -> None:
    marker_lines = {m.line for m in extracted.markers}
    for marker in extracted.markers:
        if marker.column is None:
            ctx.at_field(
                r.PATCH_CURSOR_WITHOUT_CARET,
                source,
                marker.line,
                1,
                "patch cursor line has neither `^` nor `<`: the reference drops it silently",
            )
            continue
        previous = marker.line - 1
        while previous in marker_lines:
            previous -= 1
        kind = classify_line(lines[previous]).kind if previous >= 0 else None
        if kind not in (LineKind.ADDITION, LineKind.CONTEXT):
            ctx.at_field(
                r.PATCH_CURSOR_AFTER_DELETION,
                source,
                marker.line,
                1,
                "patch cursor line must follow an added or context line: the cursor offset "
                "counts only those, so here it points somewhere else",
            )


def _same_file(diff_path: str, cursor_path: str) -> bool:
    if not cursor_path:
        return True
    a, b = diff_path.strip("/"), cursor_path.strip("/")
    return a == b or a.endswith("/" + b) or b.endswith("/" + a)


def check_patches_apply(ctx: LintContext) -> None:
    cursor = cursor_of(ctx)
    if cursor is None:
        return
    window = cursor.excerpt.split("\n")
    mismatches: list[Mismatch] = []
    for source in field_sources(ctx):
        if source.name not in PATCH_FIELDS or not source.text.strip():
            continue
        parsed, _ = _parsed(ctx, source)
        hunks = [h for h in parsed.hunks if _same_file(h.path, ctx.spec.cursor_path)]
        if not hunks:
            continue
        fits = fit_hunks(hunks, cursor.excerpt)
        for fit in fits:
            if fit.fit is Fit.CONTRADICTS and fit.placement is not None:
                found = _first_mismatch(source, fit.hunk, fit.placement.start, window)
                if found is not None:
                    mismatches.append(found)
        gave_up = next((f for f in fits if f.fit is Fit.GAVE_UP), None)
        if gave_up is not None:
            ctx.at_field(
                r.TOO_COSTLY_TO_ALIGN,
                source,
                gave_up.hunk.line,
                1,
                "this hunk and the ones after it match the cursor excerpt at too many places "
                "to compare them all, so they were not checked against it: shorten the "
                "excerpt or the patch",
            )
        if all(f.fit in (Fit.OUTSIDE, Fit.UNCHECKED) for f in fits) and any(
            f.fit is Fit.OUTSIDE for f in fits
        ):
            ctx.at_field(
                r.PATCH_OUTSIDE_EXCERPT,
                source,
                hunks[0].line,
                1,
                "no hunk of this patch matches the cursor excerpt anywhere: check that it edits "
                "the excerpt's file and that its context lines are copied exactly",
            )
    report_mismatches(ctx, mismatches, window)


def _first_mismatch(
    source: FieldSource, hunk: Hunk, start: int, window: list[str]
) -> Mismatch | None:
    for index, line in enumerate(hunk.old_lines):
        at = start + index
        if 0 <= at < len(window) and line.text != window[at]:
            return Mismatch(source, line.line, at, line.text)
    return None
