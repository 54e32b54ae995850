"""Lint for edit-prediction examples: every finding that can be found, each at its own line."""

from __future__ import annotations

from collections.abc import Callable

from evaltools.diagnostics import Diagnostic
from evaltools.example.lint.context import LintContext
from evaltools.example.lint.diffs.cursor_checks import check_cursor
from evaltools.example.lint.diffs.metadata import check_file_name, check_metadata
from evaltools.example.lint.diffs.patch_checks import check_diffs
from evaltools.example.lint.diffs.patch_fit import check_patches_apply
from evaltools.example.lint.diffs.rules import TOO_MANY_EXPECTED_PATCHES
from evaltools.example.lint.document.causes import (
    check_fences_read_as_text,
    check_headless_patches,
    check_indented_fences,
    check_runaway_fences,
    check_section_levels,
)
from evaltools.example.lint.document.dropped import check_dropped
from evaltools.example.lint.document.recent_files import check_recent_files
from evaltools.example.lint.document.rules import NO_EXPECTED_PATCH
from evaltools.example.lint.document.structure import (
    check_blocks,
    check_front_matter,
    check_reference_failures,
)
from evaltools.example.lint.fold import keep_causes
from evaltools.example.markdown.reader import ParsedMarkdown, read_markdown
from evaltools.example.spec import ExampleSpec

Check = Callable[[LintContext], None]

# Every expected patch is checked against the excerpt, at a cost per patch: past this many,
# lint reports the example (EP313) and checks nothing of it (a handful is common).
MAX_EXPECTED_PATCHES = 1_000

MARKDOWN_CHECKS: tuple[Check, ...] = (
    check_front_matter,
    check_reference_failures,
    check_runaway_fences,
    check_indented_fences,
    check_fences_read_as_text,
    check_section_levels,
    check_headless_patches,
    check_blocks,
    check_dropped,
    check_recent_files,
)
SPEC_CHECKS: tuple[Check, ...] = (
    check_metadata,
    check_file_name,
    check_cursor,
    check_diffs,
    check_patches_apply,
)


def lint_markdown(
    text: str,
    path: str,
    stem: str | None = None,
    parsed: ParsedMarkdown | None = None,
    enabled: Callable[[Diagnostic], bool] | None = None,
) -> list[Diagnostic]:
    """Every (`enabled`) finding of one Markdown example (`parsed`: `read_markdown(text,
    stem)` if done). Selection comes before what a cause hides, so it is applied here."""
    parsed = parsed if parsed is not None else read_markdown(text, stem)
    ctx = LintContext(path=path, spec=parsed.spec, parsed=parsed, source=text, stem=stem)
    if _too_many_patches(ctx):
        return ctx.diagnostics
    for check in MARKDOWN_CHECKS + SPEC_CHECKS:
        check(ctx)
    return keep_causes(ctx, enabled)


def lint_spec(spec: ExampleSpec, path: str, line: int) -> list[Diagnostic]:
    """Lint a spec read from JSON: findings at the record's line, with the field's pointer."""
    ctx = LintContext(path=path, spec=spec, record_line=line)
    if _too_many_patches(ctx):
        return ctx.diagnostics
    if not spec.expected_patches:
        ctx.report(NO_EXPECTED_PATCH, line, 1, "no expected patch", "/expected_patches")
    for check in SPEC_CHECKS:
        check(ctx)
    return ctx.diagnostics


def _too_many_patches(ctx: LintContext) -> bool:
    """EP313 at the first expected patch past the limit, when there is one."""
    count = len(ctx.spec.expected_patches)
    if count <= MAX_EXPECTED_PATCHES:
        return False
    line = ctx.record_line
    if ctx.parsed is not None:
        blocks = [b for b in ctx.parsed.blocks if b.used and b.section == "Expected Patch"]
        line = blocks[MAX_EXPECTED_PATCHES].line if len(blocks) > MAX_EXPECTED_PATCHES else 1
    ctx.report(
        TOO_MANY_EXPECTED_PATCHES,
        line,
        1,
        f"the example has {count:,} expected patches, over the {MAX_EXPECTED_PATCHES:,} lint "
        "checks: keep the distinct acceptable edits (split the rest into examples of their own)",
        f"/expected_patches/{MAX_EXPECTED_PATCHES}",
    )
    return True
