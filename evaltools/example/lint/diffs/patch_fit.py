"""Does each expected or rejected patch apply to the cursor excerpt, and where it does not,
which line is in error: the excerpt, the patch, or a line's diff mark."""

from __future__ import annotations

from evaltools.example.diffs.align import Fit, fit_hunks
from evaltools.example.diffs.udiff import Hunk, LineKind
from evaltools.example.lint.context import (
    PATCH_FIELDS,
    FieldSource,
    LintContext,
    cursor_source,
    field_sources,
    parsed_diff,
)
from evaltools.example.lint.diffs.cursor_checks import cursor_of
from evaltools.example.lint.diffs.mismatches import Mismatch, report_mismatches
from evaltools.example.lint.diffs.rules import (
    CURSOR_PATH_NOT_PATCHED,
    PATCH_DOES_NOT_APPLY,
    PATCH_OUTSIDE_EXCERPT,
    PATCH_TOO_COSTLY_TO_CHECK,
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
    _check_cursor_path(ctx)
    for source in field_sources(ctx):
        if source.name not in PATCH_FIELDS or not source.text.strip():
            continue
        parsed, _ = parsed_diff(ctx, source)
        hunks = [h for h in parsed.hunks if _same_file(h.path, ctx.spec.cursor_path)]
        if not hunks:
            continue
        fits = fit_hunks(hunks, cursor.excerpt)
        swapped = False
        for fit in fits:
            if fit.fit is Fit.CONTRADICTS and fit.placement is not None:
                found = _first_mismatch(source, fit.hunk, fit.placement.start, window)
                if found is not None and not _report_swapped_mark(ctx, found, fit.hunk, window):
                    mismatches.append(found)
            elif fit.fit is Fit.OUTSIDE:
                swapped |= _report_deletion_meant_added(
                    ctx, source, fit.hunk, window
                ) or _report_missing_hunk_header(ctx, source, fit.hunk, window)
        if swapped:
            continue
        gave_up = next((f for f in fits if f.fit is Fit.GAVE_UP), None)
        if gave_up is not None:
            ctx.at_field(
                PATCH_TOO_COSTLY_TO_CHECK,
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
                PATCH_OUTSIDE_EXCERPT,
                source,
                hunks[0].line,
                1,
                "no hunk of this patch matches the cursor excerpt anywhere: check that it edits "
                "the excerpt's file and that its context lines are copied exactly",
            )
    report_mismatches(ctx, mismatches, window)


def _check_cursor_path(ctx: LintContext) -> None:
    """The cursor block names a file that no expected patch edits (a language written as the
    info string, say): every patch then edits another file and none is checked."""
    cursor_path = ctx.spec.cursor_path
    paths: list[str] = []
    for source in field_sources(ctx):
        if source.name == "expected_patch" and source.text.strip():
            paths += [h.path for h in parsed_diff(ctx, source)[0].hunks if h.path]
    if not cursor_path or not paths or any(_same_file(p, cursor_path) for p in paths):
        return
    edited = max(dict.fromkeys(paths), key=paths.count)
    block = cursor_source(ctx)
    line = block.block_line if block is not None and block.block_line else ctx.record_line
    ctx.report(
        CURSOR_PATH_NOT_PATCHED,
        line,
        1,
        f"the cursor block's path `{cursor_path[:60]}` is not a file the expected patches edit "
        f"(`{edited[:60]}`), so no patch is checked against the excerpt: "
        f"{_path_fix(cursor_path, paths, edited)}",
        "/cursor_path",
    )


def _path_fix(cursor_path: str, paths: list[str], edited: str) -> str:
    """The fix for a cursor path that no patch edits. The whole info string is the path, and
    a path may hold spaces: only words without a `/` before a patched path are a language."""
    words = cursor_path.split()
    if len(words) > 1 and any(_same_file(p, words[0]) for p in paths):
        return (
            f'quote the path in the diff headers, as `--- "a/{cursor_path[:60]}"`, since the '
            "reference ends an unquoted path at its first space"
        )
    prefix = words[:-1]
    if (
        prefix
        and not any("/" in word for word in prefix)
        and any(_same_file(p, words[-1]) for p in paths)
    ):
        return f"the info string is the path alone: remove `{' '.join(prefix)[:60]}`"
    return f"write `{edited[:60]}`"


def _report_swapped_mark(ctx: LintContext, found: Mismatch, hunk: Hunk, window: list[str]) -> bool:
    """A line marked `+` that the excerpt already has where the hunk goes wrong: its mark
    was meant to be `-` (or a space). Reported at that line instead of the line after it."""
    before = [line for line in hunk.lines if line.line < found.hunk_line]
    added = []
    for line in reversed(before):
        if line.kind is not LineKind.ADDITION:
            break
        added.append(line)
    meant = next((line for line in added if line.text == window[found.excerpt_index]), None)
    if meant is None:
        return False
    ctx.at_field(
        PATCH_DOES_NOT_APPLY,
        found.source,
        meant.line,
        1,
        f"this added line is already excerpt line {found.excerpt_index + 1}, which the hunk "
        "then skips: mark it `-` to delete it, or ` ` to keep it",
    )
    return True


def _report_deletion_meant_added(
    ctx: LintContext, source: FieldSource, hunk: Hunk, window: list[str]
) -> bool:
    """A hunk that fits nowhere, and would fit without one of its `-` lines: that line is not
    in the excerpt, so it was meant to be added (`+`)."""
    old = hunk.old_lines
    texts = [line.text for line in old]
    found = []
    for index, line in enumerate(old):
        if line.kind is LineKind.DELETION and len(texts) > 2:
            rest = texts[:index] + texts[index + 1 :]
            if _find(window, rest) is not None:
                found.append(line)
    if len(found) != 1:
        return False
    ctx.at_field(
        PATCH_DOES_NOT_APPLY,
        source,
        found[0].line,
        1,
        "this deleted line is not in the excerpt, where the rest of the hunk is: if it is new "
        "text, mark it `+`",
    )
    return True


def _report_missing_hunk_header(
    ctx: LintContext, source: FieldSource, hunk: Hunk, window: list[str]
) -> bool:
    """A hunk that fits nowhere as a whole, whose first lines fit the excerpt at one place
    and whose other lines fit further down: an `@@` line that parted them is missing."""
    old = hunk.old_lines
    texts = [line.text for line in old]
    for cut in range(2, len(texts) - 1):
        head, tail = texts[:cut], texts[cut:]
        at = _find(window, head)
        if at is None:
            break
        later = _find(window, tail, at + cut + 1)
        if later is not None:
            ctx.at_field(
                PATCH_DOES_NOT_APPLY,
                source,
                old[cut].line,
                1,
                f"the hunk's lines above match excerpt lines {at + 1}-{at + cut} and those from "
                f"here match lines {later + 1}-{later + len(tail)}, with lines between them "
                "skipped: start a new hunk here with its own `@@` line",
            )
            return True
    return False


def _find(window: list[str], run: list[str], start: int = 0) -> int | None:
    width = len(run)
    return next(
        (at for at in range(start, len(window) - width + 1) if window[at : at + width] == run),
        None,
    )


def _first_mismatch(
    source: FieldSource, hunk: Hunk, start: int, window: list[str]
) -> Mismatch | None:
    for index, line in enumerate(hunk.old_lines):
        at = start + index
        if 0 <= at < len(window) and line.text != window[at]:
            return Mismatch(source, line.line, at, line.text)
    return None
