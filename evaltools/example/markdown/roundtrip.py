"""The round-trip check: is `to_markdown(from_markdown(x)) == x`, and if not, what differs."""

from __future__ import annotations

import enum
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import NamedTuple

from evaltools.example.markdown.fencediff import fence_changes, fence_keys, fenced_blocks
from evaltools.example.markdown.frontmatter import shown_key
from evaltools.example.markdown.linematch import common_run, line_opcodes
from evaltools.example.markdown.reader import (
    CodeBlock,
    DropKind,
    Dropped,
    Heading,
    LayoutHints,
    MarkdownError,
    ParsedMarkdown,
    read_markdown,
)
from evaltools.example.markdown.render import to_markdown
from evaltools.example.spec import FIELD_NAMES, ExampleSpec


class Verdict(str, enum.Enum):
    EXACT = "exact"
    REFORMAT = "reformat"
    LOSSY = "lossy"
    INVALID = "invalid"  # the reference cannot read it at all


class LayoutChange(NamedTuple):
    line: int  # 1-based, in the original
    what: str  # what a rewrite changes there, for a person


@dataclass
class RoundTrip:
    verdict: Verdict
    original: str
    rendered: str | None
    first_difference: int | None = None  # 1-based line
    dropped: list[Dropped] = field(default_factory=list)
    errors: list[MarkdownError] = field(default_factory=list)
    # Where the layout differs, apart from what is lost.
    layout_changes: list[LayoutChange] = field(default_factory=list)
    # What finds `unsafe`, until it is asked for: only a file that would be rewritten needs
    # it (a lossy file is not), and it reads and renders the canonical form once more.
    find_unsafe: Callable[[], str | None] | None = field(default=None, repr=False, compare=False)
    _unsafe: str | None = field(default=None, repr=False, compare=False)

    @property
    def unsafe(self) -> str | None:
        """Why the canonical form cannot be trusted (unstable, or parses to another spec)."""
        if self.find_unsafe is not None:
            self._unsafe, self.find_unsafe = self.find_unsafe(), None
        return self._unsafe


def first_differing_line(a: str, b: str) -> int | None:
    """The first line (1-based) where `a.split("\n")` and `b.split("\n")` differ, or the line
    past the shorter; found from the first differing character, without splitting."""
    if a == b:
        return None
    at = common_run(a, 0, b, 0, min(len(a), len(b)))
    line = a.count("\n", 0, at) + 1
    if at < len(a) and at < len(b):
        return line
    # One text ends where the other goes on: on the same line, unless with a line break.
    longer = b if at < len(b) else a
    return line + 1 if longer[at] == "\n" else line


def layout_differences(text: str, rendered: str, dropped: list[Dropped]) -> list[LayoutChange]:
    """Each place a rewrite changes for a reason other than lost content, at its first line.

    A line the rewrite only moves is reported where it stands, not where it goes. In a lossy
    file a move follows from the loss (a second title, say), so it is not reported at all:
    the loss's finding comes first, the layout's once the loss is mended.
    """
    old, lost = kept_lines(text, dropped)
    new = rendered.split("\n")
    blocks = fenced_blocks(old)  # the keys' and the fence changes'
    opcodes = line_opcodes(fence_keys(old, blocks), fence_keys(new))
    changes = [op for op in opcodes if op[0] != "equal"]
    removed = {old[n] for _, i1, i2, _, _ in changes for n in range(i1, i2) if n not in lost}
    added = {line for _, _, _, j1, j2 in changes for line in new[j1:j2]}
    out: list[LayoutChange] = []
    for _, i1, i2, j1, j2 in changes:
        gone = [old[n] for n in range(i1, i2) if n not in lost and old[n].strip()]
        came = [line for line in new[j1:j2] if line.strip()]
        moved_in = bool(came) and not gone and all(line in removed for line in came)
        if dropped:
            beside_loss = any(n in lost for n in range(i1 - 1, i2 + 1))
            moves = all(line in added for line in gone) and all(line in removed for line in came)
            if moves and (beside_loss or gone or came):
                continue
        elif moved_in:
            continue
        out.append(_described(old, new, (i1, i2, j1, j2)))
    fences = [LayoutChange(*change) for change in fence_changes(old, new, opcodes, blocks)]
    return named_once(out + fences)


def kept_lines(text: str, dropped: list[Dropped]) -> tuple[list[str], set[int]]:
    """The text's lines as a rewrite would keep them, and the (0-based) ones it loses whole.

    A loss that starts after other text on its line (a front matter comment after a value,
    the text after a recent file's tab) takes the line's end only: the rest is compared with
    the canonical line as layout, so a line that differs by that loss alone is no layout
    change (the loss's finding tells it).
    """
    old = text.split("\n")
    lost: set[int] = set()
    for d in dropped:
        before = old[d.line - 1][: d.column - 1] if d.column > 1 and d.line == d.end_line else ""
        if before.strip():
            old[d.line - 1] = before.rstrip()
        else:
            lost.update(range(d.line - 1, d.end_line))
    return old, lost


def named_once(changes: list[LayoutChange]) -> list[LayoutChange]:
    """`changes` in line order, each told once: two changes can end at the same place (both
    ends of a run of blank lines at the end of the file, say), and one line is one finding."""
    return sorted(dict.fromkeys(changes), key=lambda change: change.line)


def _described(old: list[str], new: list[str], change: tuple[int, int, int, int]) -> LayoutChange:
    """Blank lines, the usual layout mistake, are named: an extra one at itself (slid to the
    second of a doubled run), a missing one at the heading it should set apart."""
    i1, i2, j1, j2 = change
    # `old` ends with "" after a final newline: that is no line of the file.
    last = len(old) - 1 if len(old) > 1 and old[-1] == "" else len(old)
    at = min(_slid(old, i1, i2, j1 == j2) + 1, last)
    if _blank_from(old, i1) and _blank_from(new, j1):
        ending = _ending_change(old, new)
        if ending is not None:
            return ending
    if i1 == i2 and not any(line.strip() for line in new[j1:j2]):
        count = j2 - j1
        blank = "a blank line is" if count == 1 else f"{count} blank lines are"
        if i1 < len(old) and _is_heading(old[i1]):
            return LayoutChange(i1 + 1, f"{blank} missing before this heading")
        if i1 > 0 and _is_heading(old[i1 - 1]):
            return LayoutChange(i1, f"{blank} missing after this heading")
        return LayoutChange(at, f"{blank} missing above this line")
    if j1 == j2 and not any(line.strip() for line in old[i1:i2]):
        extra = "blank line" if i2 - i1 == 1 else f"{i2 - i1} blank lines"
        return LayoutChange(at, f"extra {extra} here")
    if i2 - i1 == 1 and j2 - j1 == 1:
        was, canonical = old[i1], new[j1]
        if was.rstrip() == canonical:
            return LayoutChange(at, "trailing whitespace here")
        return LayoutChange(at, f"the canonical form writes this line as '{canonical[:80]}'")
    return LayoutChange(at, "layout differs from the canonical form here")


def _blank_from(lines: list[str], start: int) -> bool:
    return not any(lines[k].strip() for k in range(start, len(lines)))


def _ending_change(old: list[str], new: list[str]) -> LayoutChange | None:
    """How the file's end differs, in blank lines and the final newline. The writer checked
    against decides what is missing: the reference writer ends with a blank line."""
    old_newline, old_blank, text_end = _ending(old)
    new_newline, new_blank, _ = _ending(new)
    if old_blank > new_blank:
        extra = old_blank - new_blank
        what = "an extra blank line" if extra == 1 else f"{extra} extra blank lines"
        # The blank lines the writer keeps come first: the extra ones are after them.
        return LayoutChange(text_end + new_blank + 1, f"{what} at the end of the file")
    last = text_end + old_blank
    missing = new_blank - old_blank
    blank = "a blank line" if missing == 1 else f"{missing} blank lines"
    # A blank line the writer keeps may hold blanks: the one place is then that line (the
    # diff sees a line deleted and one added there, each seemingly a change of its own).
    spaced = next((n for n in range(text_end, last) if old[n]), None)
    if not old_newline and new_newline:
        also = f", and the reference writer ends it with {blank}" if missing else ""
        if spaced is not None:
            return LayoutChange(
                spaced + 1,
                f"trailing whitespace on this blank line, and the file does not "
                f"end with a newline{also}",
            )
        return LayoutChange(last, f"the file does not end with a newline{also}")
    if missing:
        return LayoutChange(last, f"the reference writer ends the file with {blank}")
    if spaced is not None:
        return LayoutChange(spaced + 1, "trailing whitespace on this blank line")
    return None


def _ending(lines: list[str]) -> tuple[bool, int, int]:
    """(ends with a newline, blank lines at the end, lines up to the last non-blank one)."""
    newline = len(lines) > 1 and lines[-1] == ""
    body = len(lines) - 1 if newline else len(lines)
    text_end = body
    while text_end and not lines[text_end - 1].strip():
        text_end -= 1
    return newline, body - text_end, text_end


def _is_heading(line: str) -> bool:
    return line.lstrip(" ").startswith("#")


def _slid(old: list[str], start: int, end: int, deletion: bool) -> int:
    """Where a deleted run sits once slid past copies of itself: the extra of a doubled line
    is the second one, as a reader sees it."""
    while deletion and end < len(old) and old[start] == old[end]:
        start, end = start + 1, end + 1
    return start


def losses_under_headings(dropped: list[Dropped], headings: list[Heading]) -> list[Dropped]:
    """`dropped` (in line order), with each unknown heading and the text and blocks lost under
    it, up to the next H1 or H2, as one loss at the heading: lint and the round trip then
    name that mistake once, where it is."""
    out: list[Dropped] = []
    for item in dropped:
        last = out[-1] if out else None
        if (
            last is not None
            and last.kind is DropKind.UNKNOWN_HEADING
            and item.kind in (DropKind.TEXT, DropKind.BLOCK)
            and not any(last.line < h.line < item.line and h.level <= 2 for h in headings)
        ):
            out[-1] = last._replace(end_line=max(last.end_line, item.end_line))
            continue
        out.append(item)
    return out


def differing_fields(a: ExampleSpec, b: ExampleSpec) -> list[str]:
    return [name for name in FIELD_NAMES if getattr(a, name) != getattr(b, name)]


def front_matter_losses(parsed: ParsedMarkdown) -> list[Dropped]:
    front = parsed.front_matter
    out = []
    if front.present and not front.closed:
        out.append(_front(1, "front matter without a closing `+++` line"))
    if front.error is not None:
        reason = front.error.removeprefix("front matter ")
        out.append(_front(front.error_line, f"front matter the reference cannot read ({reason})"))
    if front.unknown_keys:
        keys = ", ".join(shown_key(k) for k in front.unknown_keys)
        line, column = min(front.key_position(k) or (2, 1) for k in front.unknown_keys)
        out.append(_front(line, f"unknown front matter keys ({keys})", column))
    for line, column in front.comments:
        out.append(_front(line, "front matter comment", column))
    return out


def _front(line: int, detail: str, column: int = 1) -> Dropped:
    return Dropped(DropKind.FRONT_MATTER, line, line, "", detail, column)


def check_roundtrip(
    text: str,
    stem: str | None = None,
    *,
    strict_reference: bool = False,
    parsed: ParsedMarkdown | None = None,
) -> RoundTrip:
    """The verdict for one file (`parsed`: `read_markdown(text, stem)` if already done)."""
    parsed = parsed if parsed is not None else read_markdown(text, stem)
    if parsed.errors:
        return RoundTrip(Verdict.INVALID, text, None, 1, errors=parsed.errors)
    rendered = to_markdown(
        parsed.spec,
        stem=None if strict_reference else stem,
        hints=None if strict_reference else parsed.hints,
        strict_reference=strict_reference,
    )
    if rendered == text:
        return RoundTrip(Verdict.EXACT, text, rendered)
    dropped = losses_under_headings(
        sorted(parsed.dropped + front_matter_losses(parsed), key=lambda d: (d.line, d.column)),
        parsed.headings,
    )
    verdict = Verdict.LOSSY if dropped else Verdict.REFORMAT
    result = RoundTrip(verdict, text, rendered, first_differing_line(text, rendered), dropped)
    result.layout_changes = layout_differences(text, rendered, dropped)
    result.find_unsafe = lambda: (
        indented_fence_problem(parsed, text)
        or stability_problem(parsed.spec, rendered, stem, strict_reference, parsed.hints)
    )
    return result


def fence_indent_change(lines: list[str], block: CodeBlock) -> tuple[int, int, str] | None:
    """(fence indentation, file line, text) of the first line of a block that the fence's
    indentation makes read differently from how it looks; None if none does.

    `lines` are the file's lines; CommonMark strips the opening fence's indentation (up to
    three spaces) from every content line.
    """
    opening = lines[block.line - 1] if block.line <= len(lines) else ""
    indent = len(opening) - len(opening.lstrip(" "))
    if not block.fenced or not 0 < indent < 4:
        return None
    last = min(block.end_line - 1 if block.closed else block.end_line, len(lines))
    for number in range(block.line + 1, last + 1):
        text = lines[number - 1]
        if text.startswith(" ") and text.strip():
            return indent, number, text
    return None


# An opening fence indented by 1-3 spaces; without one, no block needs locating. Anchored on
# `\n` (scanned for far faster than `^` in multiline mode), plus the first line on its own.
_INDENTED_FENCE = re.compile(r"\n {1,3}(?:```|~~~)")
_INDENTED_FENCE_FIRST = re.compile(r" {1,3}(?:```|~~~)")


def indented_fence_problem(parsed: ParsedMarkdown, text: str) -> str | None:
    """An indented fence: un-indenting it would change code lines a person can see."""
    if _INDENTED_FENCE.search(text) is None and _INDENTED_FENCE_FIRST.match(text) is None:
        return None
    lines = text.split("\n")
    for block in parsed.blocks:
        change = fence_indent_change(lines, block)
        if change is not None:
            return (
                f"the fence at line {block.line} is indented, so its lines read with "
                f"{change[0]} fewer leading spaces than they show (line {change[1]}): "
                "fix the indentation by hand"
            )
    return None


def stability_problem(
    spec: ExampleSpec,
    rendered: str,
    stem: str | None,
    strict_reference: bool,
    hints: LayoutHints,
) -> str | None:
    """Black's safety check: the new text must mean the same and be a fixpoint (`hints`: the
    layout hints `rendered` was written with, unless `strict_reference`)."""
    again = read_markdown(rendered, stem)
    if again.errors:
        return f"the rewritten file does not parse: {again.errors[0]}"
    changed = differing_fields(spec, again.spec)
    if changed:
        return f"the rewritten file would change {', '.join(changed)}"
    if strict_reference or again.hints == hints:
        return None  # the writer is a function of the spec and the hints: same text again
    second = to_markdown(
        again.spec,
        stem=None if strict_reference else stem,
        hints=None if strict_reference else again.hints,
        strict_reference=strict_reference,
    )
    if second != rendered:
        return "the rewritten file is not stable on a second pass"
    return None
