"""Which findings a misplacing mistake causes, so that its fold hides those and no others.

A section heading at the wrong level (`### Edit History`, `##Cursor Position`) changes no
section itself: the reference's section machine reads what follows it, up to the next H2,
in the section before it. So the misreading reaches that stretch of lines; the section
before it, when that one keeps only its last block (the stretch's block overrides it); and
the section the heading names, which loses the stretch's blocks. Findings before the
heading or in sections the stretch does not reach stand on their own.

Other misplacing mistakes (a runaway or indented fence) can move every later block, so
everything follows from them.
"""

from __future__ import annotations

from collections.abc import Callable

from evaltools.diagnostics import Diagnostic
from evaltools.example.lint.diffs.rules import (
    CURSOR_PATH_NOT_PATCHED,
    PATCH_DOES_NOT_APPLY,
    PATCH_OUTSIDE_EXCERPT,
    PATCH_TOO_COSTLY_TO_CHECK,
)
from evaltools.example.lint.document.rules import (
    DROPPED_HEADING,
    MISSING_CURSOR_POSITION,
    NO_EXPECTED_PATCH,
)
from evaltools.example.markdown.document import SECTIONS, SINGLETON_SECTIONS, START
from evaltools.example.markdown.reader import ParsedMarkdown
from evaltools.example.markdown.rules import UNREADABLE_EXAMPLE

Follows = Callable[[Diagnostic], bool]

# Findings that compare the patches with the excerpt: they change with the excerpt.
_AGAINST_EXCERPT = tuple(
    checked.code
    for checked in (
        CURSOR_PATH_NOT_PATCHED,
        PATCH_DOES_NOT_APPLY,
        PATCH_OUTSIDE_EXCERPT,
        PATCH_TOO_COSTLY_TO_CHECK,
    )
)
# What a section that lost its blocks is reported as, wherever that report stands.
_EMPTIED = {
    "Cursor Position": (
        MISSING_CURSOR_POSITION.code,
        UNREADABLE_EXAMPLE.code,  # the reference's own "Missing cursor position codeblock"
        *_AGAINST_EXCERPT,
    ),
    "Expected Patch": (NO_EXPECTED_PATCH.code,),
}


def _everything(found: Diagnostic) -> bool:
    return True


def follows_from(parsed: ParsedMarkdown | None, source: str, cause: Diagnostic) -> Follows:
    """Whether a finding follows from `cause` (a finding at another line of the same file)."""
    if parsed is None or cause.code != DROPPED_HEADING.code:
        return _everything
    start = cause.line
    h2 = [h for h in parsed.headings if h.level == 2]
    end = min((h.line - 1 for h in h2 if h.line > start), default=source.count("\n") + 1)
    before = [h for h in h2 if h.line < start]
    section = (before[-1].section or START) if before else START
    opened = before[-1].line if before else 1
    moved = any(start < b.line <= end for b in parsed.blocks)
    lines = source.split("\n", start)
    title = lines[start - 1].strip(" \t\r#") if len(lines) >= start else ""
    emptied = _EMPTIED.get(SECTIONS.get(title.lower(), ""), ()) if moved else ()
    # The stretch's block overrides the section's own: what was found there is moot.
    overridden = moved and section in SINGLETON_SECTIONS
    changed = _AGAINST_EXCERPT if overridden and section == "Cursor Position" else ()

    def follows(found: Diagnostic) -> bool:
        return (
            start <= found.line <= end
            or (overridden and opened <= found.line < start)
            or found.code in emptied
            or found.code in changed
        )

    return follows
