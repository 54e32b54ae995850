"""Where a patch's context disagrees with the excerpt, and which side holds the mistake.

Every expected patch is read against the same excerpt. When several patches agree with each
other on a line and the excerpt says something else, the excerpt line is the mistake: one
finding there, not one per patch. With a single witness, only an invisible difference can be
placed: stray trailing whitespace, a carriage return or an odd tab sits on the side that has it.
"""

from __future__ import annotations

from typing import NamedTuple

from evaltools.example.lint.context import FieldSource, LintContext, cursor_source
from evaltools.example.lint.diffs.cursor_checks import cursor_of
from evaltools.example.lint.diffs.rules import PATCH_DOES_NOT_APPLY


class Mismatch(NamedTuple):
    """A hunk line (0-based in its field) that contradicts excerpt line `excerpt_index`."""

    source: FieldSource
    hunk_line: int
    excerpt_index: int
    text: str


def report_mismatches(ctx: LintContext, mismatches: list[Mismatch], window: list[str]) -> None:
    by_line: dict[int, list[Mismatch]] = {}
    for found in mismatches:
        by_line.setdefault(found.excerpt_index, []).append(found)
    for index, group in sorted(by_line.items()):
        excerpt_line = window[index]
        witnesses = {(m.source.pointer, m.source.first_line) for m in group}
        agreeing = len(witnesses) >= 2 and len({m.text for m in group}) == 1
        if agreeing or (len(group) == 1 and _odd_in_excerpt(group[0].text, index, window)):
            _report_in_excerpt(ctx, index, group[0].text, excerpt_line, len(witnesses))
            continue
        for found in group:
            ctx.at_field(
                PATCH_DOES_NOT_APPLY,
                found.source,
                found.hunk_line,
                1,
                _mismatch_message(found.text, excerpt_line, index + 1),
            )


def _report_in_excerpt(
    ctx: LintContext, index: int, hunk_text: str, excerpt_line: str, witnesses: int
) -> None:
    source, cursor = cursor_source(ctx), cursor_of(ctx)
    if source is None or cursor is None:
        return
    # The excerpt lacks the marker line of a `^`/`<` cursor: lines below it sit one further.
    below_marker = cursor.kind != "inline" and index >= cursor.marker_line
    shown, wanted = _shown_pair(excerpt_line, hunk_text)
    readers = f"all {witnesses} patches read" if witnesses > 1 else "the patch reads"
    head = f"excerpt line {shown!r} differs from what {readers} there ({wanted!r})"
    ctx.at_field(
        PATCH_DOES_NOT_APPLY,
        source,
        index + (1 if below_marker else 0),
        1,
        f"{head}: {_DIFFERENCE[_difference(excerpt_line, hunk_text)]}; correct the excerpt line",
    )


def _odd_in_excerpt(hunk_line: str, index: int, window: list[str]) -> bool:
    """Whether an invisible difference is the excerpt's: the side with the stray character.

    Trailing whitespace is stray where the code has none elsewhere; where it has some (a
    Markdown hard break, say), the side an editor stripped is the odd one.
    """
    excerpt_line = window[index]
    others = window[:index] + window[index + 1 :]
    kind = _difference(hunk_line, excerpt_line)
    if kind == "trailing":
        elsewhere = any(line != line.rstrip(" \t") for line in others)
        return (len(excerpt_line) > len(hunk_line)) != elsewhere
    if kind == "unicode":
        return _odd_space(excerpt_line) and not _odd_space(hunk_line)  # nobody types those
    if kind == "tabs":
        # The excerpt line is the odd one when its indentation is unlike the rest of the
        # excerpt's (spaces among tab-indented lines, or a tab among space-indented ones).
        indented = [line for line in others if line[:1] in (" ", "\t")]
        if not indented:
            return False
        return _indent_has_tab(excerpt_line) != any(_indent_has_tab(line) for line in indented)
    return False


def _odd_space(line: str) -> bool:
    return any(ch.isspace() and ch not in " \t\r" for ch in line)


def _indent_has_tab(line: str) -> bool:
    return "\t" in line[: len(line) - len(line.lstrip(" \t"))]


def _same_words(a: str, b: str) -> bool:
    return a.replace("\t", " ").split() == b.replace("\t", " ").split()


def _difference(a: str, b: str) -> str:
    """`trailing`, `tabs` or `spaces` when two lines differ only in whitespace, else `text`."""
    if a.rstrip(" \t\r") == b.rstrip(" \t\r"):
        return "trailing"
    if _same_words(a, b):
        if any(ch.isspace() and ch not in " \t" for ch in a + b):
            return "unicode"
        return "tabs" if "\t" in a or "\t" in b else "spaces"
    return "text"


_DIFFERENCE = {
    "trailing": "they differ only in trailing whitespace",
    "tabs": "they differ only in tabs against spaces",
    "spaces": "they differ only in the number of spaces",
    "unicode": "they differ in a space that is not a plain one (a non-breaking space, say)",
    "text": "the text differs",
}
_HUNK_ADVICE = {
    "trailing": f"{_DIFFERENCE['trailing']}; make the ends match",
    "tabs": f"{_DIFFERENCE['tabs']}; copy the indentation exactly",
    "spaces": f"{_DIFFERENCE['spaces']}; copy the indentation exactly",
    "unicode": f"{_DIFFERENCE['unicode']}; retype it as a plain space",
    "text": "copy the context exactly (whitespace counts)",
}


def _mismatch_message(hunk_line: str, excerpt_line: str, number: int) -> str:
    """Name the difference when it is invisible: trailing blanks, tabs, carriage returns."""
    shown, wanted = _shown_pair(hunk_line, excerpt_line)
    head = f"hunk line {shown!r} does not match excerpt line {number} ({wanted!r})"
    return f"{head}: {_HUNK_ADVICE[_difference(hunk_line, excerpt_line)]}"


_WIDTH = 60


def _shown_pair(a: str, b: str) -> tuple[str, str]:
    """Both lines, cut to where they differ when long, so the two never print the same."""
    if len(a) <= _WIDTH and len(b) <= _WIDTH:
        return _visible(a), _visible(b)
    first = next((i for i, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), None)
    if first is None:
        first = min(len(a), len(b))
    start = max(0, first - _WIDTH // 2)
    lead = "…" if start else ""
    return lead + _visible(a[start : start + _WIDTH]), lead + _visible(b[start : start + _WIDTH])


def _visible(text: str) -> str:
    """Tabs as `→`, a carriage return as `␍`, trailing spaces as `·` (the text itself if none)."""
    if not any(c in text for c in "\t\r") and not text.endswith(" "):
        return text.strip()
    body = text.rstrip(" ")
    shown = body.replace("\t", "→").replace("\r", "␍") + "·" * (len(text) - len(body))
    return shown.strip(" ")
