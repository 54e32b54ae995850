"""Mistakes that make the reader misplace everything after them, and what follows from them.

An unclosed fence, an indented fence or a section heading at the wrong level changes which
section every later block lands in. Each later rule would then report a true but
misleading finding; ruff's bar is one mistake, one finding, at its line. So these rules
name the cause, and `lint/fold.py` folds what follows from it into the cause.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from evaltools.example.lint.context import LintContext
from evaltools.example.lint.document.rules import (
    DROPPED_HEADING,
    INDENTED_FENCE,
    REPEATED_BLOCK,
    UNCLOSED_FENCE,
)
from evaltools.example.markdown.reader import SECTIONS, CodeBlock
from evaltools.example.markdown.roundtrip import fence_indent_change

_SECTION_TITLES = {*SECTIONS, "reasoning"}
_HEADING = re.compile(r" {0,3}(#{1,6})[ \t]+(.*?)[ \t#]*$")
# The rules below, whose findings make every later difference a consequence.
MISPLACING_CODES = (UNCLOSED_FENCE.code, INDENTED_FENCE.code, DROPPED_HEADING.code)


# The line scans here are `\n`-anchored and run by `line_starts`: a pattern that starts with
# a literal is searched for several times faster than `^` in multiline mode (`$` is written
# `(?![^\n])`, `.` is `[^\n]`).
def line_starts(pattern: re.Pattern[str], text: str) -> Iterator[re.Match[str]]:
    """The matches of a `\n`-anchored `pattern` at every line start of `text`, the first line
    included: each match's `start()` is its line's offset in `text` (group offsets are one
    more)."""
    return pattern.finditer("\n" + text)


def section_heading(line: str) -> str | None:
    """The title of a line that is a heading naming a known section, else None."""
    match = _HEADING.fullmatch(line.rstrip("\r"))
    if match is None or match.group(2).lower() not in _SECTION_TITLES:
        return None
    return match.group(2)


def check_runaway_fences(ctx: LintContext) -> None:
    """A fence that is never closed, or closed only after it swallowed a section or a block."""
    assert ctx.parsed is not None
    previous: CodeBlock | None = None
    for block in ctx.parsed.blocks:
        if not block.fenced:
            continue
        before, previous = previous, block
        swallowed = _swallowed(ctx, block)
        if block.closed and not swallowed:
            continue
        if before is not None and _closed_by_its_content(ctx, before, block):
            _report_early_close(ctx, before, block)
            continue
        where = f"the block opened at {block.line}:1"
        if block.closed:
            where += f" is closed only at line {block.end_line}"
        else:
            where += " runs to the end of the file"
        meant = _meant_to_close(ctx, block, swallowed)
        if meant is not None:
            ctx.report_cause(UNCLOSED_FENCE, meant[0], 1, meant[1])
            continue
        if swallowed:
            names = " and ".join(f"'{text}' ({line})" for line, text in swallowed[:3])
            more = f" and {len(swallowed) - 3} more" if len(swallowed) > 3 else ""
            last = _last_text(ctx, swallowed)
            fix = f"close it with a {block.fence} line after line {last}"
            if last == block.line and not block.info.strip():
                fix = "delete this line if it is a stray (doubled) closing fence"
            elif (
                block.closed
                and not any(section_heading(text) for _, text in swallowed)
                and _next_text(ctx, block.end_line).strip()
                and not section_heading(_next_text(ctx, block.end_line))
            ):
                # The code goes on after the line that closed the block: it holds fences.
                longer = block.fence[0] * (len(block.fence) + 1)
                fix = (
                    f"its code holds {block.fence} lines, so open and close the block with "
                    f"{longer} instead"
                )
            message = f"{where} and swallows {names}{more}: {fix}"
        else:
            message = f"{where}: close it with a {block.fence} line"
        ctx.report_cause(UNCLOSED_FENCE, block.line, 1, message)


_FENCE_LIKE = re.compile(r"( *)(`{2,}|~{2,})(.*)")


def _meant_to_close(
    ctx: LintContext, block: CodeBlock, swallowed: list[tuple[int, str]]
) -> tuple[int, str] | None:
    """The line that was meant to close a runaway block, and why it does not: the last line
    before what the block swallowed (or before the end of the file) is a fence line that
    cannot close this one."""
    if swallowed:
        number = _last_text(ctx, swallowed)
        first, text = swallowed[0]
        following = _next_text(ctx, first)
        if section_heading(text) is None and (
            section_heading(following) is not None or not following.strip()
        ):
            number = first  # an opening fence (````diff`) written where the closing one goes
    elif not block.closed:
        number = _last_text(ctx, [(ctx.source.count("\n") + 2, "")])
    else:
        return None
    if number == block.line or _closes_inner_fence(ctx, block, number):
        return None
    line = ctx.source_line(number).rstrip("\r")
    if block.fence[0] == "~" and line.strip() == "`" * len(line.strip()) and len(line) >= 3:
        # Backticks are the usual fence: the odd one is the tilde that opened the block.
        return block.line, (
            f"this block opens with {block.fence} but line {number} closes it with "
            f"{line.strip()}, which cannot: open it with {line.strip()}{block.info} instead"
        )
    why = _why_not_closing(line, block.fence)
    if why is None:
        return None
    return number, (
        f"this line does not close the block opened at {block.line}:1, which then runs on: {why}"
    )


def _why_not_closing(line: str, fence: str) -> str | None:
    match = _FENCE_LIKE.fullmatch(line)
    if match is None:
        stripped = line.rstrip()
        if stripped.endswith(fence[0] * 3) and stripped.strip(fence[0] + " "):
            return f"a closing fence stands on a line of its own: move the {fence} to the next line"
        return None
    indent, marks, info = len(match.group(1)), match.group(2), match.group(3).strip()
    if indent > 3:
        return f"it is indented by {indent} spaces, so it is code: remove the indentation"
    if marks[0] != fence[0]:
        return f"{marks} cannot close a block opened with {fence}: write {fence}"
    if len(marks) < len(fence):
        return f"it is shorter than the {fence} that opened it: write {fence}"
    if info:
        return f"a closing fence takes no info string: write {marks} alone"
    return None


def _next_text(ctx: LintContext, number: int) -> str:
    for following in range(number + 1, number + 4):
        if ctx.source_line(following).strip():
            return ctx.source_line(following)
    return ""


def _closes_inner_fence(ctx: LintContext, block: CodeBlock, number: int) -> bool:
    """Whether line `number` closes a shorter fence opened inside the block's own code (an
    excerpt of Markdown holds such pairs inside a longer fence)."""
    inner_open = False
    for line in range(block.line + 1, number + 1):
        match = _FENCE_LIKE.fullmatch(ctx.source_line(line).rstrip("\r"))
        if match is None or len(match.group(1)) > 3 or match.group(2)[0] != block.fence[0]:
            continue
        if len(match.group(2)) < 3:
            continue
        if inner_open and not match.group(3).strip():
            if line == number:
                return True
            inner_open = False
        else:
            inner_open = True  # any fence opens when none is open, as in CommonMark
    return False


def _last_text(ctx: LintContext, swallowed: list[tuple[int, str]]) -> int:
    """The last non-blank line before the first swallowed heading or fence."""
    number = swallowed[0][0] - 1
    while number > 1 and not ctx.source_line(number).strip():
        number -= 1
    return number


def _closed_by_its_content(ctx: LintContext, before: CodeBlock, block: CodeBlock) -> bool:
    """A bare fence line inside code closes its block early: the code after it reads as prose
    and the real closing fence opens a block that runs on (it has no info string)."""
    if block.info.strip() or not before.closed or before.fence[0] != block.fence[0]:
        return False
    between = [ctx.source_line(n) for n in range(before.end_line + 1, block.line)]
    texts = [line for line in between if line.strip()]
    fence_like = before.fence[0] * 3
    return bool(texts) and not any(
        section_heading(line) or line.strip().startswith(fence_like) for line in texts
    )


def _report_early_close(ctx: LintContext, before: CodeBlock, block: CodeBlock) -> None:
    longer = before.fence[0] * (len(before.fence) + 1)
    ctx.report_cause(
        UNCLOSED_FENCE,
        before.end_line,
        1,
        f"this {before.fence} line closes the block opened at {before.line}:1 early, so lines "
        f"{before.end_line + 1}-{block.line - 1} read as prose and the fence at line "
        f"{block.line} opens a new block: if the code holds a {before.fence} line, fence the "
        f"block with {longer}",
    )


def _swallowed(ctx: LintContext, block: CodeBlock) -> list[tuple[int, str]]:
    """Section headings and opening fences with an info string inside the block's content."""
    out: list[tuple[int, str]] = []
    last = block.end_line if not block.closed else block.end_line - 1
    if last <= block.line:
        return out
    if "lines" not in ctx.cache:
        ctx.source_line(1)
    lines: list[str] = ctx.cache["lines"]
    # Only a line that starts (after at most three spaces) with `#` or the fence's character
    # can be either: one regular-expression scan over the block finds those, and each is
    # then checked line by line as before.
    chunk = "\n".join(lines[block.line : last])
    number, offset = block.line + 1, 0
    for match in line_starts(_candidate(block.fence[0]), chunk):
        number += chunk.count("\n", offset, match.start())
        offset = match.start()
        text = lines[number - 1].rstrip("\r")
        if section_heading(text) is not None or _opens_block(text, block.fence):
            out.append((number, text.strip()))
    return out


_CANDIDATES: dict[str, re.Pattern[str]] = {}


def _candidate(fence_char: str) -> re.Pattern[str]:
    pattern = _CANDIDATES.get(fence_char)
    if pattern is None:
        pattern = _CANDIDATES[fence_char] = re.compile(f"\n {{0,3}}[#{re.escape(fence_char)}]")
    return pattern


def _opens_block(text: str, fence: str) -> bool:
    stripped = text.lstrip(" ")
    if len(text) - len(stripped) > 3 or not stripped.startswith(fence):
        return False
    info = stripped.lstrip(fence[0]).strip()
    return bool(info) and not (fence[0] == "`" and "`" in info)


def check_indented_fences(ctx: LintContext) -> None:
    """A fence indented by 1-3 spaces: the reader strips as much from every content line."""
    assert ctx.parsed is not None
    if "lines" not in ctx.cache:
        ctx.source_line(1)
    lines: list[str] = ctx.cache["lines"]
    for block in ctx.parsed.blocks:
        change = fence_indent_change(lines, block)
        if change is None:
            continue  # nothing reads differently: the round trip reports the layout
        indent, number, text = change
        before = len(text) - len(text.lstrip(" "))
        after = max(0, before - indent)
        ctx.report_cause(
            INDENTED_FENCE,
            block.line,
            1,
            f"fence indented by {indent} space{'s' if indent > 1 else ''}: the reader strips "
            f"as many from every line of the block, so line {number} reads "
            f"{text.strip()[:50]!r} with {after} leading space{'s' if after != 1 else ''}, "
            f"not {before}: remove the indentation before the fence",
        )


def _line_at(ctx: LintContext, offset: int) -> int:
    return ctx.source.count("\n", 0, offset) + 1


_DEEP_FENCE = re.compile(r"\n {4,}(`{3,}|~{3,})")


_SHORT_FENCE = re.compile(r"\n {0,3}(``|~~)(?![`~])([^`\s]*)[ \t]*(?![^\n])")


def _check_short_fences(ctx: LintContext, inside: list[tuple[int, int]]) -> None:
    """Two backticks (or tildes) before an info string open no block: its lines read as
    prose and lists, and its closing fence opens a block that runs on."""
    for match in line_starts(_SHORT_FENCE, ctx.source):
        number = _line_at(ctx, match.start())
        if any(start <= number <= end for start, end in inside):
            continue
        marks = match.group(1)
        fence, name = marks[0] * 3, "backticks" if marks[0] == "`" else "tildes"
        ctx.report_cause(
            UNCLOSED_FENCE,
            number,
            1,
            f"{marks} is not a fence (it takes three {name}), so no block opens or closes "
            f"here: write {fence}{match.group(2)}",
        )
        return


def check_fences_read_as_text(ctx: LintContext) -> None:
    """A fence indented by 4 or more spaces right under a line of text continues that
    paragraph (an indented block cannot interrupt one): the block never opens, and its lines
    read as prose and lists."""
    assert ctx.parsed is not None
    inside = [(b.line, b.end_line) for b in ctx.parsed.blocks if b.fenced]
    _check_short_fences(ctx, inside)
    for match in line_starts(_DEEP_FENCE, ctx.source):
        number = _line_at(ctx, match.start())
        above = ctx.source_line(number - 1).strip()
        if not above or above.startswith(("#", "`", "~")):
            continue
        if any(start <= number <= end for start, end in inside):
            continue
        indent = match.start(1) - match.start() - 1
        ctx.report_cause(
            INDENTED_FENCE,
            number,
            1,
            f"fence indented by {indent} spaces right under a line of text reads as more of "
            "that text, so no block opens here: remove the indentation before the fence",
        )
        return


def check_headless_patches(ctx: LintContext) -> None:
    """A ```diff block after the excerpt in `## Cursor Position`: its heading is missing."""
    assert ctx.parsed is not None
    in_cursor = [b for b in ctx.parsed.blocks if b.section == "Cursor Position"]
    for block in in_cursor[1:]:
        if block.info.strip() == "diff":
            ctx.report_cause(
                REPEATED_BLOCK,
                block.line,
                1,
                "this ```diff block lands in `## Cursor Position`, whose one block is the "
                f"excerpt: add the `## Expected Patch` heading above line {block.line}",
            )
            return


_UNSPACED_HEADING = re.compile(r"\n {0,3}(#{1,6})(?=[^#\s])([^\n]*?)[ \t#]*(?![^\n])")


def check_section_levels(ctx: LintContext) -> None:
    """`### Cursor Position`, `# Expected Patch`: a section name at a level that is not a
    section; `##Cursor Position`: a section name that is not a heading at all."""
    assert ctx.parsed is not None
    for heading in ctx.parsed.headings:
        if heading.level == 2 or heading.level > 4:
            continue
        if heading.title.lower() not in _SECTION_TITLES:
            continue
        marks = "#" * heading.level
        what = "the example's title" if heading.level == 1 else "not a section"
        ctx.report_cause(
            DROPPED_HEADING,
            heading.line,
            1,
            f"`{marks} {heading.title}` is {what}: sections are H2 headings, so what "
            f"follows lands in the section before it; write `## {heading.title}`",
        )
        return
    for match in line_starts(_UNSPACED_HEADING, ctx.source):
        title = match.group(2).strip()
        if title.lower() not in _SECTION_TITLES:
            continue
        number = _line_at(ctx, match.start())
        if any(b.line < number < b.end_line for b in ctx.parsed.blocks):
            continue  # a comment line in code
        ctx.report_cause(
            DROPPED_HEADING,
            number,
            1,
            f"`{match.group(0).strip()}` is not a heading (a space must follow the `#` "
            f"marks), so what follows lands in the section before it; write `## {title}`",
        )
        return
