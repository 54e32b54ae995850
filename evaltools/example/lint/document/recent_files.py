"""Rules over `## Recently Opened Files` / `## Recently Viewed Files` blocks."""

from __future__ import annotations

from evaltools.example.lint.context import LintContext
from evaltools.example.lint.document.rules import BAD_FILE_POSITION
from evaltools.example.markdown.document import WHITESPACE
from evaltools.example.markdown.pathlist import parse_position, path_lines

RECENT_SECTIONS = ("Recently Opened Files", "Recently Viewed Files")


def check_recent_files(ctx: LintContext) -> None:
    assert ctx.parsed is not None
    for block in ctx.parsed.blocks:
        if block.section not in RECENT_SECTIONS or not block.used:
            continue
        lines = block.text.split("\n")
        for index, _, unread in path_lines(block.text):
            if unread is None:
                if "\t" not in lines[index].strip(WHITESPACE):
                    _check_space_before_position(ctx, block.line + 1 + index, lines[index])
                continue
            ctx.report(
                BAD_FILE_POSITION,
                block.line + 1 + index,
                unread.column,
                f"`{unread.text[:20]}` after the tab is not a line position the reference can "
                "read (an unsigned integer below 2^64): it drops that text, and a rewrite or a "
                "conversion would lose it; fix the number or remove the tab",
            )


def _check_space_before_position(ctx: LintContext, number: int, raw: str) -> None:
    """`path 96`: a position after a space is read as part of the path."""
    path, space, position = raw.rstrip(WHITESPACE).rpartition(" ")
    if not space or not path.strip() or parse_position(position) is None:
        return
    ctx.report(
        BAD_FILE_POSITION,
        number,
        len(path) + 1,
        f"`{position}` follows a space, so the reference reads `{path.strip()} {position}` as "
        "the path: separate the position with a tab",
    )
