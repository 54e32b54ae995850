"""Rules over the Markdown document: front matter, headings, blocks, dropped content."""

from __future__ import annotations

import json

from evaltools.diagnostics import Fix
from evaltools.example.lint.context import LintContext
from evaltools.example.lint.document.causes import section_heading
from evaltools.example.lint.document.rules import (
    DUPLICATE_BLOCK,
    FENCE_CLOSED_EARLY,
    FRONT_MATTER_COMMENT,
    HEADING_TOO_DEEP,
    INDENTED_CODE_BLOCK,
    INVALID_FRONT_MATTER,
    MISSING_CURSOR_POSITION,
    MISSING_FRONT_MATTER,
    MISSING_FRONT_MATTER_KEY,
    NO_EXPECTED_PATCH,
    UNCLOSED_FRONT_MATTER,
    UNKNOWN_FRONT_MATTER_KEY,
    UNKNOWN_SECTION,
)
from evaltools.example.markdown.frontmatter import FrontMatter, shown_key
from evaltools.example.markdown.reader import (
    ACCEPTED_PREDICTION_MARKER,
    OTHER,
    SECTIONS,
    START,
    CodeBlock,
    DropKind,
)
from evaltools.example.markdown.roundtrip import losses_under_headings
from evaltools.positions import line_column

KNOWN_HEADINGS = [*SECTIONS.values(), "Reasoning"]
EXAMPLE_SECTIONS = frozenset(SECTIONS.values())


def check_front_matter(ctx: LintContext) -> None:
    assert ctx.parsed is not None
    front = ctx.parsed.front_matter
    if not front.present:
        _missing_front_matter(ctx)
    elif not front.closed:
        _unclosed_front_matter(ctx)
    else:
        _front_matter_content(ctx, front)


def _missing_front_matter(ctx: LintContext) -> None:
    """No front matter: one that starts late or with trailing spaces, else none at all."""
    assert ctx.parsed is not None
    stripped = ctx.source.lstrip()
    if stripped.startswith("+++"):
        line = line_column(ctx.source, len(ctx.source) - len(stripped))[0]
        message = "front matter must start at the first byte: remove what comes before `+++`"
        if ctx.source.startswith("+++") and not stripped.startswith("+++\n"):
            message = "the opening `+++` must be alone on its line, with no trailing spaces"
        # The front matter then reads as prose: what follows from that is this mistake.
        ctx.report_cause(MISSING_FRONT_MATTER, line, 1, message)
        return
    message = (
        'no front matter: start the file with `+++`, `repository_url = "…"`, '
        '`revision = "…"`, `+++`'
    )
    if not any(h.section in EXAMPLE_SECTIONS for h in ctx.parsed.headings):
        # Prose in an examples folder (a README) is not a broken example: say how
        # to leave it out, or every commit fails on it with no way forward shown.
        shown = json.dumps(ctx.path)
        message += (
            f"; or, if this file is not an example, exclude it: `exclude = [{shown}]` "
            "in [tool.evaltools]"
        )
    ctx.report(MISSING_FRONT_MATTER, 1, 1, message)


def _unclosed_front_matter(ctx: LintContext) -> None:
    near = _near_closing_line(ctx)
    if near is not None:
        ctx.report_cause(
            UNCLOSED_FRONT_MATTER,
            near,
            1,
            f"`{ctx.source_line(near).strip()}` does not close the front matter (only a "
            "`+++` line does), so it never ends: write `+++`",
        )
    else:
        ctx.report_cause(
            UNCLOSED_FRONT_MATTER, 1, 1, "front matter is never closed: add a `+++` line after it"
        )


def _front_matter_content(ctx: LintContext, front: FrontMatter) -> None:
    """A closed front matter: its TOML, its keys and its comments."""
    if front.error is not None:
        rule = MISSING_FRONT_MATTER_KEY if "has no `" in front.error else INVALID_FRONT_MATTER
        message = (
            f"{front.error}, so the reference ignores all of it (every field blank): "
            f"{front.error_fix}"
        )
        fix = None if front.rename is None else Fix(*front.rename)
        ctx.report(rule, front.error_line, front.error_column, message, fix=fix)
    for key in front.unknown_keys:
        line, column = front.key_position(key) or (2, 1)
        message = f"front matter key `{shown_key(key)}` is not part of the format and is lost"
        meant = front.meant_key(key)
        if meant is None:
            message += " on any rewrite: remove it, or record it as an entry of `tags`"
            ctx.report(UNKNOWN_FRONT_MATTER_KEY, line, column, message)
            continue
        message += f" with its value on any rewrite: did you mean `{meant}`? rename it"
        fix = Fix(shown_key(key), meant)
        ctx.report(UNKNOWN_FRONT_MATTER_KEY, line, column, message, fix=fix)
    for line, column in front.comments:
        ctx.report(
            FRONT_MATTER_COMMENT,
            line,
            column,
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
                HEADING_TOO_DEEP,
                error.line,
                1,
                f"{level} heading makes the reference fail: {fix}",
            )
        elif message.startswith("Unexpected indented codeblock"):
            ctx.report_cause(
                INDENTED_CODE_BLOCK,
                error.line,
                1,
                "indented code block makes the reference fail: fence it with ``` lines, or "
                "remove the indentation",
            )
    spec = ctx.spec
    block = ctx.parsed.cursor_block()
    if block is None:
        ctx.report(
            MISSING_CURSOR_POSITION,
            ctx.parsed.body_line,
            1,
            "no `## Cursor Position` code block: add one with the file path as its info string",
        )
    elif not spec.cursor_path:
        ctx.report(
            MISSING_CURSOR_POSITION,
            block.line,
            1,
            "cursor block has no path: write the file path after the opening fence",
        )
    elif not spec.cursor_position:
        ctx.report(
            MISSING_CURSOR_POSITION, block.line, 1, "cursor block is empty: paste the excerpt"
        )


def check_blocks(ctx: LintContext) -> None:
    assert ctx.parsed is not None
    for block in ctx.parsed.blocks:
        if block.fenced and block.closed:  # unclosed: see causes.check_runaway_fences
            _check_closed_early(ctx, block)
        if block.section == START:
            ctx.report(
                UNKNOWN_SECTION,
                block.line,
                1,
                "code block before any section heading is ignored: put it under a section",
            )
    _check_unknown_headings(ctx)
    _check_repeated_blocks(ctx)
    if not ctx.spec.expected_patches:
        line = next(
            (h.line for h in ctx.parsed.headings if h.section == "Expected Patch"),
            ctx.parsed.body_line,
        )
        ctx.report(
            NO_EXPECTED_PATCH,
            line,
            1,
            "no expected patch: add a fenced ```diff block under `## Expected Patch`",
        )


def _check_repeated_blocks(ctx: LintContext) -> None:
    """A block pasted twice in a section that holds several (Edit History, Expected Patch),
    or a rejected patch that is one of the expected ones."""
    assert ctx.parsed is not None
    seen: dict[tuple[str, str], int] = {}
    for block in ctx.parsed.blocks:
        if not block.used or not block.text.strip():
            continue
        if block.section in ("Edit History", "Expected Patch"):
            first = seen.setdefault((block.section, block.text), block.line)
            if first != block.line:
                ctx.report(
                    DUPLICATE_BLOCK,
                    block.line,
                    1,
                    f"this block repeats the `{block.section}` block at line {first} word for "
                    "word: delete this copy",
                )
        elif block.section == "Rejected Patch":
            first = seen.get(("Expected Patch", block.text), 0)
            if first:
                ctx.report(
                    DUPLICATE_BLOCK,
                    block.line,
                    1,
                    f"the rejected patch is the expected patch at line {first}: a prediction "
                    "would count as both right and rejected; fix one of them",
                )


def _check_unknown_headings(ctx: LintContext) -> None:
    """One finding per unknown `## heading` that holds code or nothing, at the heading."""
    assert ctx.parsed is not None
    headings = [h for h in ctx.parsed.headings if h.level == 2]
    for heading in headings:
        if heading.section != OTHER:
            continue
        later = [h.line for h in headings if h.line > heading.line]
        end = min(later, default=ctx.source.count("\n") + 2)
        blocks = [b for b in ctx.parsed.blocks if heading.line < b.line < end]
        meant = _close_section(heading.title)
        if not blocks:
            if _prose_under(ctx, heading.line):
                continue  # reported with its prose, as text outside the sections
            hint = f", or write `## {meant}` if you meant it" if meant else ""
            ctx.report(
                UNKNOWN_SECTION,
                heading.line,
                1,
                f"unknown heading `## {heading.title}` is not a section of the format and is "
                f"lost on any rewrite: delete it{hint}",
            )
            continue
        count = f"its {len(blocks)} code blocks are" if len(blocks) > 1 else "its code block is"
        hint = f"did you mean `## {meant}`?" if meant else "use a known section heading"
        message = f"unknown heading `## {heading.title}`: {count} dropped; {hint}"
        fix = None if meant is None else Fix(f"## {heading.title}", f"## {meant}")
        if meant is not None and not any(b.section == meant for b in ctx.parsed.blocks):
            # The misspelt section is missing: that is what its own rule would report.
            ctx.report_cause(UNKNOWN_SECTION, heading.line, 1, message, fix=fix)
        else:
            ctx.report(UNKNOWN_SECTION, heading.line, 1, message, fix=fix)


def _prose_under(ctx: LintContext, line: int) -> bool:
    """Whether text under the unknown heading at `line` is lost with it (one loss at the
    heading, as `check_dropped` reports it)."""
    assert ctx.parsed is not None
    unknown = DropKind.UNKNOWN_HEADING
    alone = (d.end_line for d in ctx.parsed.dropped if d.line == line and d.kind is unknown)
    own = next(alone, line)
    losses = losses_under_headings(ctx.parsed.dropped, ctx.parsed.headings)
    return any(d.line == line and d.end_line > own for d in losses)


def _check_closed_early(ctx: LintContext, block: CodeBlock) -> None:
    following = ctx.source_line(block.end_line + 1)
    if not following.strip() or following.lstrip().startswith(("#", "```", "~~~")):
        return
    if following.strip() == ACCEPTED_PREDICTION_MARKER:
        return
    ctx.report(
        FENCE_CLOSED_EARLY,
        block.end_line,
        1,
        "text follows this closing fence directly: if the content holds a ``` line, "
        "fence the block with ```` (four backticks) instead",
    )


def _close_section(title: str) -> str | None:
    import difflib  # only for this message, so not on every lint run's start-up

    close = difflib.get_close_matches(title, KNOWN_HEADINGS, n=1, cutoff=0.6)
    return close[0] if close else None


def _near_closing_line(ctx: LintContext) -> int | None:
    """The line meant to close the front matter (`++`, `++++`, `---`) before the first
    heading, if one is there."""
    for number in range(2, 60):
        text = ctx.source_line(number).strip()
        if text.startswith("#"):
            return None
        if text in ("++", "---", "+ ++", "++ +") or (text.startswith("+++") and text != "+++"):
            return number
    return None
