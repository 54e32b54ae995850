"""The round-trip check as it was before the line matcher and the deferred stability check
(0ae939a), kept as the oracle of `test_roundtrip_differential.py`.

How one layout change is described (`_described`) was not part of that rework: the
oracle uses the current description, so that fixes to its wording apply to both; and the
same fence keys, fence changes and one finding per place (`fencediff`, `named_once`), added
after it, so that both diff the same lines; and the same front matter losses (where each
comment and unknown key is) and lines they leave (`kept_lines`), which it did not touch."""

from __future__ import annotations

import enum
from dataclasses import dataclass, field

from evaltools.example.markdown.fencediff import fence_changes, fence_keys
from evaltools.example.markdown.reader import (
    CodeBlock,
    DropKind,
    Dropped,
    Heading,
    MarkdownError,
    ParsedMarkdown,
    read_markdown,
)
from evaltools.example.markdown.render import to_markdown
from evaltools.example.markdown.roundtrip import (
    LayoutChange,
    _described,
    front_matter_losses,
    kept_lines,
    named_once,
)
from evaltools.example.spec import FIELD_NAMES, ExampleSpec


class Verdict(str, enum.Enum):
    EXACT = "exact"
    REFORMAT = "reformat"
    LOSSY = "lossy"
    INVALID = "invalid"  # the reference cannot read it at all


@dataclass
class RoundTrip:
    verdict: Verdict
    original: str
    rendered: str | None
    first_difference: int | None = None  # 1-based line
    dropped: list[Dropped] = field(default_factory=list)
    errors: list[MarkdownError] = field(default_factory=list)
    # Why the canonical form cannot be trusted (unstable, or parses to another spec).
    unsafe: str | None = None
    # Where the layout differs, apart from what is lost.
    layout_changes: list[LayoutChange] = field(default_factory=list)


def first_differing_line(a: str, b: str) -> int | None:
    if a == b:
        return None
    a_lines, b_lines = a.split("\n"), b.split("\n")
    for index, (x, y) in enumerate(zip(a_lines, b_lines, strict=False)):
        if x != y:
            return index + 1
    return min(len(a_lines), len(b_lines)) + (0 if len(a_lines) == len(b_lines) else 1)


def layout_differences(text: str, rendered: str, dropped: list[Dropped]) -> list[LayoutChange]:
    """Each place a rewrite changes for a reason other than lost content, at its first line.

    A line the rewrite only moves is reported where it stands, not where it goes. In a lossy
    file a move follows from the loss (a second title, say), so it is not reported at all:
    the loss's finding comes first, the layout's once the loss is mended.
    """
    import difflib  # only files that are not exact get here

    old, lost = kept_lines(text, dropped)
    new = rendered.split("\n")
    opcodes = difflib.SequenceMatcher(
        None, fence_keys(old), fence_keys(new), autojunk=False
    ).get_opcodes()
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
    fences = [LayoutChange(*change) for change in fence_changes(old, new, opcodes)]
    return named_once(out + fences)


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
    result.unsafe = indented_fence_problem(parsed, text) or stability_problem(
        parsed.spec, rendered, stem, strict_reference
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


def indented_fence_problem(parsed: ParsedMarkdown, text: str) -> str | None:
    """An indented fence: un-indenting it would change code lines a person can see."""
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
    spec: ExampleSpec, rendered: str, stem: str | None, strict_reference: bool
) -> str | None:
    """Black's safety check: the new text must mean the same and be a fixpoint."""
    again = read_markdown(rendered, stem)
    if again.errors:
        return f"the rewritten file does not parse: {again.errors[0]}"
    changed = differing_fields(spec, again.spec)
    if changed:
        return f"the rewritten file would change {', '.join(changed)}"
    second = to_markdown(
        again.spec,
        stem=None if strict_reference else stem,
        hints=None if strict_reference else again.hints,
        strict_reference=strict_reference,
    )
    if second != rendered:
        return "the rewritten file is not stable on a second pass"
    return None
