"""Content the reference's reader drops (text under a heading that is no section, a block
it never reads, a heading it skips): each reported with where it went and how to keep it."""

from __future__ import annotations

from evaltools.example.lint.context import LintContext
from evaltools.example.lint.document.rules import (
    ACCEPTED_MARKER_MISPLACED,
    DROPPED_HEADING,
    PROSE_OUTSIDE_SECTIONS,
    REPEATED_BLOCK,
)
from evaltools.example.markdown.reader import (
    ACCEPTED_PREDICTION_MARKER,
    REASONING,
    CodeBlock,
    DropKind,
    Dropped,
)
from evaltools.example.markdown.roundtrip import losses_under_headings


def check_dropped(ctx: LintContext) -> None:
    assert ctx.parsed is not None
    alone = {d.line: d.end_line for d in ctx.parsed.dropped if d.kind is DropKind.UNKNOWN_HEADING}
    for dropped in losses_under_headings(ctx.parsed.dropped, ctx.parsed.headings):
        if dropped.kind is DropKind.UNKNOWN_HEADING and dropped.end_line > alone[dropped.line]:
            ctx.report(
                PROSE_OUTSIDE_SECTIONS,
                dropped.line,
                1,
                f"`{dropped.excerpt[:60]}` is not a section of the format, so the text under "
                "it never reaches the example and is lost on any rewrite: inside "
                "`## Reasoning` make it `###`, or move the text into a section",
            )
        else:
            _report_dropped(ctx, dropped)


def _later_copy(ctx: LintContext, dropped: Dropped) -> CodeBlock | None:
    """The block after `dropped` in its section that repeats it word for word: a pasted
    duplicate, whose extra copy is the later one."""
    assert ctx.parsed is not None
    blocks = [b for b in ctx.parsed.blocks if b.section == dropped.detail]
    first = next((b for b in blocks if b.line == dropped.line), None)
    if first is None:
        return None
    same = (first.info, first.text)
    return next((b for b in blocks if b.line > first.line and (b.info, b.text) == same), None)


def _report_dropped(ctx: LintContext, dropped: Dropped) -> None:
    kind = dropped.kind
    if kind in (
        DropKind.STRAY_CODE,
        DropKind.UNKNOWN_HEADING,
        DropKind.FRONT_MATTER,
        DropKind.FILE_POSITION,
    ):
        return  # reported where the loss is: at the block, or by the rules of its part
    if kind is DropKind.OVERRIDDEN:
        _report_overridden(ctx, dropped)
    elif kind in (DropKind.MINOR_HEADING, DropKind.HEADING_MARKUP, DropKind.TITLE_OVERRIDDEN):
        ctx.report(DROPPED_HEADING, dropped.line, 1, _heading_message(dropped))
    elif dropped.excerpt.startswith(ACCEPTED_PREDICTION_MARKER):
        ctx.report(
            ACCEPTED_MARKER_MISPLACED,
            dropped.line,
            1,
            "accepted-prediction marker is ignored here: it must be a paragraph of its own "
            "directly before an Edit History ```diff block",
        )
    else:
        where = "" if dropped.line == dropped.end_line else f" (to line {dropped.end_line})"
        ctx.report(
            PROSE_OUTSIDE_SECTIONS,
            dropped.line,
            1,
            f"{dropped.describe()}{where} never reaches the example and is lost on any "
            "rewrite: move it into `## Reasoning` (right after the front matter)",
        )


def _report_overridden(ctx: LintContext, dropped: Dropped) -> None:
    """A second `## Reasoning`, or a block its section holds one of, that the reference
    overrides with the later one."""
    if dropped.detail == REASONING:
        assert ctx.parsed is not None
        later = [h.line for h in ctx.parsed.headings if h.section == REASONING]
        at = next((n for n in later if n > dropped.line), dropped.line)
        ctx.report(
            REPEATED_BLOCK,
            at,
            1,
            f"a second `## Reasoning` section: the example holds one reasoning text, so lines "
            f"{dropped.line}-{dropped.end_line} are lost on a rewrite: merge the two sections",
        )
        return
    copy = _later_copy(ctx, dropped)
    if copy is not None:
        ctx.report(
            REPEATED_BLOCK,
            copy.line,
            1,
            f"this block repeats the `{dropped.detail}` block at line {dropped.line} "
            "exactly: delete this copy",
        )
        return
    ctx.report(
        REPEATED_BLOCK,
        dropped.line,
        1,
        f"`{dropped.detail}` holds one block but has several; the reference keeps only the "
        "last: delete this one or merge them",
    )


def _heading_message(dropped: Dropped) -> str:
    heading = dropped.excerpt.lstrip("#").strip()
    if dropped.kind is DropKind.TITLE_OVERRIDDEN:
        return "a later `# title` overrides this one, which is lost on any rewrite: keep one"
    if dropped.kind is DropKind.HEADING_MARKUP:
        return (
            f"inline markup in heading `{heading}` loses part of its text in the reference: "
            "write the heading as plain text"
        )
    return f"{dropped.detail} `{heading}` is dropped on any rewrite: use `## Reasoning` for notes"
