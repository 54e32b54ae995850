"""Rules over the Markdown document: front matter, headings, blocks, dropped content."""

from __future__ import annotations

from evaltools.example.lint import catalogue as r
from evaltools.example.lint.causes import section_heading
from evaltools.example.lint.context import LintContext
from evaltools.example.markdown.reader import (
    ACCEPTED_PREDICTION_MARKER,
    OTHER,
    SECTIONS,
    START,
    CodeBlock,
    DropKind,
    Dropped,
)

KNOWN_HEADINGS = [*SECTIONS.values(), "Reasoning"]


def check_front_matter(ctx: LintContext) -> None:
    assert ctx.parsed is not None
    front = ctx.parsed.front_matter
    if not front.present:
        stripped = ctx.source.lstrip()
        if stripped.startswith("+++"):
            line = ctx.source[: len(ctx.source) - len(stripped)].count("\n") + 1
            message = "front matter must start at the first byte: remove what comes before `+++`"
            if ctx.source.startswith("+++") and not stripped.startswith("+++\n"):
                message = "the opening `+++` must be alone on its line, with no trailing spaces"
            ctx.report(r.MISSING_FRONT_MATTER, line, 1, message)
        else:
            ctx.report(
                r.MISSING_FRONT_MATTER,
                1,
                1,
                'no front matter: start the file with `+++`, `repository_url = "…"`, '
                '`revision = "…"`, `+++`',
            )
        return
    if not front.closed:
        ctx.report_cause(
            r.UNCLOSED_FRONT_MATTER, 1, 1, "front matter is never closed: add a `+++` line after it"
        )
        return
    if front.error is not None:
        rule = r.MISSING_FRONT_MATTER_KEY if "has no `" in front.error else r.INVALID_FRONT_MATTER
        message = (
            f"{front.error}, so the reference ignores all of it (every field blank): "
            f"{front.error_fix}"
        )
        ctx.report(rule, front.error_line, 1, message)
    for key in front.unknown_keys:
        line = front.key_lines.get(key, 2)
        ctx.report(
            r.UNKNOWN_FRONT_MATTER_KEY,
            line,
            1,
            f"front matter key `{key}` is not part of the format and is lost on any rewrite: "
            "remove it, or record it as an entry of `tags`",
        )
    if front.comment_line:
        ctx.report(
            r.FRONT_MATTER_COMMENT,
            front.comment_line,
            1,
            "front matter comment is lost on any rewrite: move the note into `## Reasoning` "
            "(right after the front matter)",
        )


def check_reference_failures(ctx: LintContext) -> None:
    """What makes the reference's parser fail outright."""
    assert ctx.parsed is not None
    for error in ctx.parsed.errors:
        message = str(error)
        if message.startswith("Unexpected heading level"):
            title = section_heading(ctx.source_line(error.line))
            fix = f"write `## {title}`" if title else "use H3 or H4"
            level = message[-2:].upper()
            # A section's heading at H5 moves what follows; another heading moves nothing.
            report = ctx.report_cause if title else ctx.report
            report(
                r.HEADING_TOO_DEEP,
                error.line,
                1,
                f"{level} heading makes the reference fail: {fix}",
            )
        elif message.startswith("Unexpected indented codeblock"):
            ctx.report_cause(
                r.INDENTED_CODE_BLOCK,
                error.line,
                1,
                "indented code block makes the reference fail: fence it with ``` lines, or "
                "remove the indentation",
            )
    spec = ctx.spec
    block = ctx.parsed.cursor_block()
    if block is None:
        ctx.report(
            r.MISSING_CURSOR_POSITION,
            ctx.parsed.body_line,
            1,
            "no `## Cursor Position` code block: add one with the file path as its info string",
        )
    elif not spec.cursor_path:
        ctx.report(
            r.MISSING_CURSOR_POSITION,
            block.line,
            1,
            "cursor block has no path: write the file path after the opening fence",
        )
    elif not spec.cursor_position:
        ctx.report(
            r.MISSING_CURSOR_POSITION, block.line, 1, "cursor block is empty: paste the excerpt"
        )


def check_blocks(ctx: LintContext) -> None:
    assert ctx.parsed is not None
    for block in ctx.parsed.blocks:
        if block.fenced and block.closed:  # unclosed: see causes.check_runaway_fences
            _check_closed_early(ctx, block)
        if block.section == START:
            ctx.report(
                r.UNKNOWN_SECTION,
                block.line,
                1,
                "code block before any section heading is ignored: put it under a section",
            )
    _check_unknown_headings(ctx)
    if not ctx.spec.expected_patches:
        line = next(
            (h.line for h in ctx.parsed.headings if h.section == "Expected Patch"),
            ctx.parsed.body_line,
        )
        ctx.report(
            r.NO_EXPECTED_PATCH,
            line,
            1,
            "no expected patch: add a fenced ```diff block under `## Expected Patch`",
        )


def _check_unknown_headings(ctx: LintContext) -> None:
    """One finding per unknown `## heading` that holds code, at the heading."""
    assert ctx.parsed is not None
    headings = [h for h in ctx.parsed.headings if h.level == 2]
    for heading in headings:
        if heading.section != OTHER:
            continue
        later = [h.line for h in headings if h.line > heading.line]
        end = min(later, default=ctx.source.count("\n") + 2)
        blocks = [b for b in ctx.parsed.blocks if heading.line < b.line < end]
        if not blocks:
            continue  # prose only: reported as text outside the sections
        count = f"its {len(blocks)} code blocks are" if len(blocks) > 1 else "its code block is"
        meant = _close_section(heading.title)
        hint = f"did you mean `## {meant}`?" if meant else "use a known section heading"
        message = f"unknown heading `## {heading.title}`: {count} dropped; {hint}"
        if meant is not None and not any(b.section == meant for b in ctx.parsed.blocks):
            # The misspelt section is missing: that is what its own rule would report.
            ctx.report_cause(r.UNKNOWN_SECTION, heading.line, 1, message)
        else:
            ctx.report(r.UNKNOWN_SECTION, heading.line, 1, message)


def _check_closed_early(ctx: LintContext, block: CodeBlock) -> None:
    following = ctx.source_line(block.end_line + 1)
    if not following.strip() or following.lstrip().startswith(("#", "```", "~~~")):
        return
    if following.strip() == ACCEPTED_PREDICTION_MARKER:
        return
    ctx.report(
        r.FENCE_CLOSED_EARLY,
        block.end_line,
        1,
        "text follows this closing fence directly: if the content holds a ``` line, "
        "fence the block with ```` (four backticks) instead",
    )


def _close_section(title: str) -> str | None:
    import difflib  # only for this message, so not on every lint run's start-up

    close = difflib.get_close_matches(title, KNOWN_HEADINGS, n=1, cutoff=0.6)
    return close[0] if close else None


def check_dropped(ctx: LintContext) -> None:
    assert ctx.parsed is not None
    for dropped in ctx.parsed.dropped:
        _report_dropped(ctx, dropped)


def _report_dropped(ctx: LintContext, dropped: Dropped) -> None:
    kind = dropped.kind
    if kind in (DropKind.STRAY_CODE, DropKind.UNKNOWN_HEADING, DropKind.FRONT_MATTER):
        return  # reported where the loss is: at the block, or by the front matter rules
    if kind is DropKind.OVERRIDDEN:
        ctx.report(
            r.REPEATED_BLOCK,
            dropped.line,
            1,
            f"`{dropped.detail}` holds one block but has several; the reference keeps only the "
            "last: delete this one or merge them",
        )
    elif kind in (DropKind.MINOR_HEADING, DropKind.HEADING_MARKUP, DropKind.TITLE_OVERRIDDEN):
        ctx.report(r.DROPPED_HEADING, dropped.line, 1, _heading_message(dropped))
    elif dropped.excerpt.startswith(ACCEPTED_PREDICTION_MARKER):
        ctx.report(
            r.ACCEPTED_MARKER_MISPLACED,
            dropped.line,
            1,
            "accepted-prediction marker is ignored here: it must be a paragraph of its own "
            "directly before an Edit History ```diff block",
        )
    else:
        where = "" if dropped.line == dropped.end_line else f" (to line {dropped.end_line})"
        ctx.report(
            r.PROSE_OUTSIDE_SECTIONS,
            dropped.line,
            1,
            f"{dropped.describe()}{where} never reaches the example and is lost on any "
            "rewrite: move it into `## Reasoning` (right after the front matter)",
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
