"""Applying patches as the current upstream does (`apply_diff_to_string_with_hunk_offset`,
reference section 2): the lenient grammar and context search of `example.udiff`, plus the
per-file `line_delta` that upstream added for choosing among several matches of a later hunk.
Also the inline cursor marker of expected patches (`<|user_cursor|>`, reference 1.2)."""

from __future__ import annotations

from evaltools.example.diffs._difflines import from_bytes, to_bytes
from evaltools.example.diffs.udiff import (
    ApplyError,
    LineKind,
    classify_line,
    find_context_candidates,
    parse_diff,
    rust_lines,
)

INLINE_CURSOR = "<|user_cursor|>"


def _choose(text: bytes, candidates: tuple[int, ...], start_line: int | None, delta: int) -> int:
    if len(candidates) == 1:
        return candidates[0]
    if candidates and start_line is not None:
        wanted = start_line + delta
        for at in candidates:
            if text.count(b"\n", 0, at) == wanted:
                return at
    if not candidates:
        raise ApplyError("couldn't resolve hunk", 0, reason="not-found")
    raise ApplyError("couldn't resolve hunk", 0, reason="ambiguous")


def apply_with_hunk_offset(diff: str, text: str) -> tuple[str, int | None]:
    """The patched text and the byte offset where the first hunk matched; `ApplyError` for a
    hunk that cannot be placed. File paths are ignored: every hunk edits the same text."""
    buf = bytearray(to_bytes(text))
    first: int | None = None
    for file in parse_diff(diff).files:
        delta = 0
        for hunk in file.hunks:
            current = bytes(buf)
            match = find_context_candidates(current, hunk)
            at = _choose(current, match.candidates, hunk.start_line, delta)
            if first is None:
                first = at
            for edit in reversed(match.edits):
                new = to_bytes(edit.text)
                delta += new.count(b"\n") - match.context.count(b"\n", edit.start, edit.end)
                buf[at + edit.start : at + edit.end] = new
    return from_bytes(bytes(buf)), first


def apply_diff(diff: str, text: str) -> str:
    return apply_with_hunk_offset(diff, text)[0]


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
