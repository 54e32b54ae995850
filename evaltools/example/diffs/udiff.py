"""The reference's lenient unified-diff grammar: classification, streaming hunks, application.

A port of the behaviour of Zed's `zeta_prompt::udiff` (reference section 8): header counts are
never trusted, hunks may lack `@@` headers, blank lines are context, a garbage line ends the
current file, and each hunk is applied by searching the text for its old side. Offsets are UTF-8
byte offsets; line indices are 0-based positions in the diff text split on `\\n` only.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Literal, NamedTuple

from evaltools.example.diffs._difflines import (
    ASCII_WHITESPACE,
    RUST_WHITESPACE,
    DiffLine,
    HunkLocation,
    LineKind,
    classify_line,
    from_bytes,
    parse_header_path,
    rust_lines,
    to_bytes,
)
from evaltools.example.diffs._hunks import (
    Edit,
    FilePatch,
    HeaderCountCheck,
    Hunk,
    HunkLine,
    ParsedDiff,
    header_count_checks,
)
from evaltools.example.diffs._udiff_parse import iter_hunks, parse_diff

__all__ = [
    "ASCII_WHITESPACE",
    "RUST_WHITESPACE",
    "ApplyError",
    "ContextMatch",
    "DiffLine",
    "Edit",
    "FilePatch",
    "HeaderCountCheck",
    "Hunk",
    "HunkLine",
    "HunkLocation",
    "LineKind",
    "ParsedDiff",
    "apply_diff_to_string",
    "apply_diff_to_string_with_hunk_offset",
    "apply_diff_with_line_delta",
    "apply_hunks",
    "classify_line",
    "find_context_candidates",
    "header_count_checks",
    "iter_hunks",
    "parse_diff",
    "parse_header_path",
    "rust_lines",
]

ApplyFailure = Literal["not-found", "ambiguous"]


class ApplyError(ValueError):
    """A hunk the reference cannot place ("couldn't resolve hunk"). `hunk_line` is the hunk's
    0-based line in the diff (`Hunk.line`), `hunk_index` its position among the diff's hunks."""

    def __init__(
        self, message: str, hunk_line: int, *, hunk_index: int = 0, reason: ApplyFailure
    ) -> None:
        super().__init__(message)
        self.message = message
        self.hunk_line = hunk_line
        self.hunk_index = hunk_index
        self.reason: ApplyFailure = reason


# Value types here are named tuples, not frozen dataclasses: each dataclass costs about a
# millisecond at import, on the path of the lint hook.
class ContextMatch(NamedTuple):
    """Where a hunk's old text occurs. When only the retry without the final `\\n` matched,
    `trimmed` is set and `context`/`edits` are the shortened forms that will be applied."""

    candidates: tuple[int, ...]
    context: bytes
    edits: tuple[Edit, ...]
    trimmed: bool


def _occurrences(text: bytes, needle: bytes) -> list[int]:
    """Rust `str::match_indices`: non-overlapping, left to right; "" matches at every char."""
    if not needle:
        return [i for i in range(len(text) + 1) if i == len(text) or (text[i] & 0xC0) != 0x80]
    found: list[int] = []
    at = text.find(needle)
    while at >= 0:
        found.append(at)
        at = text.find(needle, at + len(needle))
    return found


def find_context_candidates(text: bytes, hunk: Hunk) -> ContextMatch:
    """Every non-overlapping occurrence of the hunk's old text; failing that, of the old text
    without its final `\\n`, but only as a match ending exactly at the end of `text`."""
    context = to_bytes(hunk.context)
    found = _occurrences(text, context)
    if found or not context.endswith(b"\n"):
        return ContextMatch(tuple(found), context, hunk.edits, False)
    short = context[:-1]
    size = len(short)
    if short:
        at_end = [at for at in _occurrences(text, short) if at + size == len(text)]
        if at_end:
            edits = tuple(
                Edit(
                    min(e.start, size),
                    min(e.end, size),
                    e.text[:-1] if e.end > size and e.text.endswith("\n") else e.text,
                )
                for e in hunk.edits
            )
            return ContextMatch(tuple(at_end), short, edits, True)
    return ContextMatch((), context, hunk.edits, False)


def _choose(text: bytes, match: ContextMatch, hunk: Hunk, index: int, delta: int) -> int:
    found = match.candidates
    if len(found) == 1:
        return found[0]
    if not found:
        raise ApplyError(
            "couldn't resolve hunk: its old text (context and deleted lines) is not in the text",
            hunk.line,
            hunk_index=index,
            reason="not-found",
        )
    if hunk.start_line is not None:
        wanted = hunk.start_line + delta
        for at in found:
            if text.count(b"\n", 0, at) == wanted:
                return at
        detail = f"none of them at line {wanted + 1} named by its header"
    else:
        detail = "and it has no header line number to choose one"
    raise ApplyError(
        f"couldn't resolve hunk: its old text occurs {len(found)} times, {detail}",
        hunk.line,
        hunk_index=index,
        reason="ambiguous",
    )


def apply_hunks(hunks: Iterable[Hunk], text: str) -> tuple[str, int | None]:
    """Apply hunks in order to the progressively edited text (paths ignored). Returns the new
    text and the byte offset where the first hunk matched (None without hunks)."""
    return _apply([hunks], text, line_delta=False)


def apply_diff_with_line_delta(diff: str, text: str) -> tuple[str, int | None]:
    """As `apply_diff_to_string_with_hunk_offset`, but as upstream's scorer applies patches
    since 2026-05 (scoring reference, section 2): a later hunk of a file whose old text occurs
    more than once is placed at its header's line moved by the lines earlier hunks of the
    same file added or removed."""
    return _apply((file.hunks for file in parse_diff(diff).files), text, line_delta=True)


def _apply(
    files: Iterable[Iterable[Hunk]], text: str, *, line_delta: bool
) -> tuple[str, int | None]:
    buf = bytearray(to_bytes(text))
    first: int | None = None
    index = 0
    for hunks in files:
        delta = 0
        for hunk in hunks:
            current = bytes(buf)
            match = find_context_candidates(current, hunk)
            at = _choose(current, match, hunk, index, delta if line_delta else 0)
            if first is None:
                first = at
            for edit in reversed(match.edits):
                new = to_bytes(edit.text)
                delta += new.count(b"\n") - match.context.count(b"\n", edit.start, edit.end)
                buf[at + edit.start : at + edit.end] = new
            index += 1
    return from_bytes(bytes(buf)), first


def apply_diff_to_string_with_hunk_offset(diff: str, text: str) -> tuple[str, int | None]:
    """Apply every hunk of `diff` to `text`; raises `ApplyError` for a hunk it cannot place."""
    return apply_hunks(iter_hunks(diff), text)


def apply_diff_to_string(diff: str, text: str) -> str:
    return apply_diff_to_string_with_hunk_offset(diff, text)[0]
