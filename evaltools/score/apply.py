"""Applying patches as the current upstream does (`apply_diff_to_string_with_hunk_offset`,
reference section 2): `example.diffs.udiff` with the per-file `line_delta` that upstream
added for choosing among several matches of a later hunk.
Also the inline cursor marker of expected patches (`<|user_cursor|>`, reference 1.2)."""

from __future__ import annotations

from evaltools.example.diffs._difflines import to_bytes
from evaltools.example.diffs.udiff import (
    ApplyError,
    LineKind,
    apply_diff_with_line_delta,
    classify_line,
    rust_lines,
)

INLINE_CURSOR = "<|user_cursor|>"


def apply_with_hunk_offset(diff: str, text: str) -> tuple[str, int | None]:
    """The patched text and the byte offset where the first hunk matched; `ApplyError` for a
    hunk that cannot be placed. File paths are ignored: every hunk edits the same text."""
    return apply_diff_with_line_delta(diff, text)


def apply_diff(diff: str, text: str) -> str:
    return apply_diff_with_line_delta(diff, text)[0]


def try_apply(diff: str, text: str) -> str | None:
    try:
        return apply_diff(diff, text)
    except ApplyError:
        return None


def extract_inline_cursor(patch: str) -> tuple[str, int | None]:
    """The patch without `<|user_cursor|>` markers in its added lines, and the first marker's
    byte offset in the new text of the hunks (context and added lines from the first one)."""
    if INLINE_CURSOR not in patch:
        return patch, None
    out: list[str] = []
    offset = 0
    cursor: int | None = None
    for line in rust_lines(patch):
        kind = classify_line(line).kind
        if kind is LineKind.ADDITION:
            content = line[1:]
            at = content.find(INLINE_CURSOR)
            if at >= 0:
                if cursor is None:
                    cursor = offset + len(to_bytes(content[:at]))
                content = content.replace(INLINE_CURSOR, "")
            offset += len(to_bytes(content)) + 1
            out.append("+" + content)
            continue
        if kind is LineKind.CONTEXT:
            offset += len(to_bytes(line)) - (1 if line else 0) + 1
        out.append(line)
    text = "\n".join(out)
    return (text + "\n" if patch.endswith("\n") else text), cursor
