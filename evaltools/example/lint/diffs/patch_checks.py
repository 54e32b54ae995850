"""Rules over the diffs as the reference reads them: the lenient grammar's traps, headers and
hunk lines (patch cursors are in `cursor_checks`, the fit to the excerpt in `patch_fit`)."""

from __future__ import annotations

from evaltools.example.diffs.udiff import (
    LineKind,
    ParsedDiff,
    classify_line,
    header_count_checks,
    rust_lines,
)
from evaltools.example.lint.context import (
    FieldSource,
    LintContext,
    field_sources,
    parsed_diff,
)
from evaltools.example.lint.diffs.cursor_checks import check_patch_cursors
from evaltools.example.lint.diffs.rules import (
    DIFF_LINE_LOOKS_LIKE_HEADER,
    EMPTY_PATCH,
    GARBAGE_IN_HUNK,
    HUNK_COUNT_MISMATCH,
    HUNK_WITHOUT_HEADER,
    RENAMED_FILE,
    UNPARSABLE_HUNK_HEADER,
)

# A tuple, not a set: `in` then compares by identity, where a set calls Enum's Python `__hash__`.
_CHECKED = (LineKind.GARBAGE, LineKind.OLD_PATH, LineKind.NEW_PATH, LineKind.NO_NEWLINE)


def check_diffs(ctx: LintContext) -> None:
    for source in field_sources(ctx):
        parsed, extracted = parsed_diff(ctx, source)
        lines = rust_lines(source.text)
        _check_lines(ctx, source, parsed, lines)
        _check_renames(ctx, source, parsed, lines)
        _check_hunk_headers(ctx, source, parsed)
        if extracted is not None:
            check_patch_cursors(ctx, source, extracted, lines)
            if source.name == "expected_patch":
                _check_empty_patch(ctx, source, parsed)


def _check_hunk_headers(ctx: LintContext, source: FieldSource, parsed: ParsedDiff) -> None:
    for hunk in parsed.hunks:
        if not hunk.has_header:
            ctx.at_field(
                HUNK_WITHOUT_HEADER,
                source,
                hunk.line,
                1,
                "hunk has no `@@ -start,count +start,count @@` header: the reference then "
                "matches it anywhere in the file; add the header",
            )
    for count in header_count_checks(parsed):
        if not count.matches:
            ctx.at_field(
                HUNK_COUNT_MISMATCH,
                source,
                count.line,
                1,
                f"header says -{count.declared_old}/+{count.declared_new} lines, body has "
                f"-{count.counted_old}/+{count.counted_new} (the reference ignores counts)",
            )


def _check_empty_patch(ctx: LintContext, source: FieldSource, parsed: ParsedDiff) -> None:
    if not source.text.strip():
        ctx.at_field(
            EMPTY_PATCH,
            source,
            -1,
            1,
            "expected patch is empty: fill it in or delete the block",
        )
    elif (
        parsed.hunks
        and not parsed.ignored_lines
        and not any(
            line.kind is not LineKind.CONTEXT for hunk in parsed.hunks for line in hunk.lines
        )
    ):
        ctx.at_field(
            EMPTY_PATCH,
            source,
            parsed.hunks[0].line,
            1,
            "expected patch changes nothing (no `+` or `-` line): mark the lines it "
            "adds with `+` and the lines it deletes with `-`",
        )


def _check_renames(
    ctx: LintContext, source: FieldSource, parsed: ParsedDiff, lines: list[str]
) -> None:
    """A `+++` right under a `---` that names another file: the patch renames the file,
    which an edit-prediction example hardly means (a path typed twice, differently). A
    `+++` further down was paired by mistake, which the header rules report."""
    for patch in parsed.files:
        below = lines[patch.line + 1] if patch.line + 1 < len(lines) else ""
        plain = below.startswith("+++ ") and '"' not in below and "\\" not in below
        words = below[4:].split() if plain else []  # quoted paths: left to the parser
        old, new = patch.old_path, words[0].removeprefix("b/") if words else ""
        if old and new and old != new and "/dev/null" not in (old, new):
            ctx.at_field(
                RENAMED_FILE,
                source,
                patch.line + 1,
                1,
                f"`+++` names `{new[:60]}` but `---` names `{old[:60]}`: the patch renames "
                "the file; if it edits one file, write the same path in both",
            )


def _check_lines(
    ctx: LintContext, source: FieldSource, parsed: ParsedDiff, lines: list[str]
) -> None:
    kinds = dict(zip(parsed.line_numbers, [line.kind for line in parsed.lines], strict=True))
    ignored = set(parsed.ignored_lines)
    joining = parsed.joining_lines
    headless = False
    # Only garbage and file headers can be findings here; body lines are most of a diff.
    checked = [
        (n, line)
        for n, line in zip(parsed.line_numbers, parsed.lines, strict=True)
        if line.kind in _CHECKED
    ]
    dropped = _DroppedAfter(parsed, ignored)
    for number, diff_line in checked:
        if diff_line.kind is LineKind.GARBAGE or diff_line.kind is LineKind.NO_NEWLINE:
            _check_dropped_line(
                ctx,
                source,
                number,
                kind=diff_line.kind,
                lines=lines,
                kinds=kinds,
                dropped=dropped,
                joining=joining,
            )
        elif _check_file_header(ctx, source, number, kind=diff_line.kind, lines=lines, kinds=kinds):
            headless = True  # the `--- a/path` line is missing: one finding, not two
    first_ignored = min(ignored, default=None)
    if first_ignored is not None and not parsed.files and not headless:
        ctx.at_field(
            GARBAGE_IN_HUNK,
            source,
            first_ignored,
            1,
            f"diff lines before any `--- a/path` / `+++ b/path` header: "
            f"{_lines_dropped(len(ignored) - 1)}; add the file headers above them",
        )


def _check_dropped_line(
    ctx: LintContext,
    source: FieldSource,
    number: int,
    *,
    kind: LineKind,
    lines: list[str],
    kinds: dict[int, LineKind],
    dropped: _DroppedAfter,
    joining: tuple[int, ...],
) -> None:
    """A garbage line, or a `\\ No newline` line, that makes the reference drop lines."""
    text = lines[number]
    if kind is LineKind.GARBAGE and text.startswith("@@"):
        ctx.at_field(
            UNPARSABLE_HUNK_HEADER,
            source,
            number,
            1,
            f"`{text[:40]}` is not a hunk header the reference can read (`@@ -A,B +C,D @@`): "
            f"{dropped.words(number)}",
        )
    elif kind is LineKind.GARBAGE and (number + 1) in dropped.ignored:
        ctx.at_field(GARBAGE_IN_HUNK, source, number, 1, _garbage(text, dropped.words(number)))
    elif kind is LineKind.NO_NEWLINE and number in joining:
        ctx.at_field(
            GARBAGE_IN_HUNK,
            source,
            number,
            1,
            "`\\ No newline at end of file` drops the newline of the line above it, so the "
            "reference joins that line to the next line on its side of the hunk: delete it "
            "(it belongs only after the last line of a file's old or new text)",
        )
    elif kind is LineKind.GARBAGE and _lost_hunk_line(text, kinds.get(number - 1)):
        ctx.at_field(
            GARBAGE_IN_HUNK,
            source,
            number,
            1,
            "this line is not a diff line (context lines start with a space), so the "
            "reference drops it from the hunk: start it with a space, `+` or `-`",
        )


def _check_file_header(
    ctx: LintContext,
    source: FieldSource,
    number: int,
    *,
    kind: LineKind,
    lines: list[str],
    kinds: dict[int, LineKind],
) -> bool:
    """A `---` or `+++` line without its pair; True when it is a `+++` on the first line
    (the patch has no `---` line at all)."""
    text = lines[number]
    if kind is LineKind.OLD_PATH and kinds.get(number + 1) is not LineKind.NEW_PATH:
        if _real_header(lines, number):
            # Reported where the missing line should stand, as a missing `---` is.
            following = lines[number + 1]
            message = (
                f"the `+++ b/path` line that pairs with `{lines[number][:60]}` is missing "
                "here: the reference needs both to name the file; add it above this line"
            )
            if following.startswith("+++") and not following[3:4].isspace():
                message = _missing_space(following, "+++", "an added")
            ctx.at_field(DIFF_LINE_LOOKS_LIKE_HEADER, source, number + 1, 1, message)
        else:
            _header_lookalike(ctx, source, number, "-- ", "a deleted")
    elif kind is LineKind.NEW_PATH and number == 0 and text.startswith("+++ "):
        _half_header(ctx, source, number, "`--- a/path` line before it", "above")
        return True
    elif kind is LineKind.NEW_PATH and kinds.get(number - 1) is not LineKind.OLD_PATH:
        if _real_header(lines, number) and (half := _half_old_header(lines[number - 1])):
            ctx.at_field(DIFF_LINE_LOOKS_LIKE_HEADER, source, number - 1, 1, half)
        elif _real_header(lines, number):
            _half_header(ctx, source, number, "`--- a/path` line before it", "above")
        else:
            _header_lookalike(ctx, source, number, "++ ", "an added")
    return False


class _DroppedAfter:
    """How many diff lines the reference drops after a garbage line: the body lines that
    follow it up to the next line it reads (a `---` header, or another garbage line)."""

    def __init__(self, parsed: ParsedDiff, ignored: set[int]) -> None:
        self.numbers = parsed.line_numbers
        self.index = {n: i for i, n in enumerate(self.numbers)}
        self.ignored = ignored

    def count(self, number: int) -> int:
        found = 0
        for following in self.numbers[self.index[number] + 1 :]:
            if following not in self.ignored:
                break
            found += 1
        return found

    def words(self, number: int) -> str:
        return _lines_dropped(self.count(number))


def _lines_dropped(after: int) -> str:
    if after == 0:
        return "this line is dropped from the patch"
    others = "the line" if after == 1 else f"the {after} lines"
    return f"this line and {others} after it are dropped from the patch"


def _garbage(text: str, dropped: str) -> str:
    """A hunk header typed with one `@`, or any other line that is no diff line."""
    if text.startswith("@") and classify_line("@" + text).kind is LineKind.HUNK_HEADER:
        header = text[:40]
        return (
            f"`{header}` is not a hunk header (it starts with `@@`): {dropped}; write `@{header}`"
        )
    return f"this line is not a diff line (context lines start with a space): {dropped}"


_HUNK_BODY = (LineKind.CONTEXT, LineKind.ADDITION, LineKind.DELETION)


def _lost_hunk_line(text: str, before: LineKind | None) -> bool:
    """A tab-indented line of code written without its diff mark at the end of a hunk
    (mid-hunk, the lines it makes the reference ignore are reported instead). Unindented
    text there is common in real evals and harmless to them, so it is left alone."""
    return before in _HUNK_BODY and text.startswith("\t") and bool(text.strip())


def _real_header(lines: list[str], number: int) -> bool:
    """A file header (a path, then a hunk header), not a diff line that looks like one."""
    path = lines[number][4:].strip()
    following = lines[number + 1] if number + 1 < len(lines) else ""
    return bool(path) and " " not in path and following.startswith(("@@", "---", "+++"))


def _missing_space(line: str, marks: str, what: str) -> str:
    fixed = f"{marks} {line[len(marks) :].lstrip()}"
    return (
        f"`{line[:60]}` needs a space after `{marks}`: without it the line reads as {what} "
        f"line, not a file header; write `{fixed[:60]}`"
    )


def _half_old_header(line: str) -> str | None:
    """The advice for the line above a lone `+++` header when it is the `---` header with its
    space or its marks missing (`---a/x`, `a/x`), else None."""
    if line.startswith("---") and not line[3:4].isspace():
        return _missing_space(line, "---", "a deleted")
    path = line.strip()
    if path and " " not in path and "/" in path and not line.startswith(("-", "+", " ", "@")):
        return (
            f"`{path[:60]}` reads as the `--- a/path` header without its `--- `: the reference "
            f"ignores it and cannot name the file; write `--- {path[:60]}`"
        )
    return None


def _half_header(
    ctx: LintContext, source: FieldSource, number: int, missing: str, where: str
) -> None:
    ctx.at_field(
        DIFF_LINE_LOOKS_LIKE_HEADER,
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
        DIFF_LINE_LOOKS_LIKE_HEADER,
        source,
        number,
        1,
        f"{what} line whose text starts with `{prefix}` reads as a file header: the "
        "reference misparses this hunk",
    )
