"""Oracle for the differential tests: the Markdown reader before the per-event rework,
a verbatim copy of `evaltools/example/markdown/reader.py`. Not used by evaltools."""

# mypy: ignore-errors
# ruff: noqa

from __future__ import annotations

from typing import Any

from evaltools.example.markdown.document import (
    ACCEPTED_PREDICTION_MARKER,
    NO_EDIT_HISTORY,
    OTHER,
    REASONING,
    SECTIONS,
    SINGLETON_SECTIONS,
    START,
    WHITESPACE,
    CodeBlock,
    DropKind,
    Dropped,
    Heading,
    LayoutHints,
    MarkdownError,
    ParsedMarkdown,
)
from evaltools.example.markdown.frontmatter import split_front_matter

# What a blank line is changed apart from the rework: both readers share it.
from evaltools.example.markdown.reader import trim_blank_lines
from evaltools.example.spec import ExampleSpec, RecentFile

__all__ = [
    "ACCEPTED_PREDICTION_MARKER",
    "NO_EDIT_HISTORY",
    "OTHER",
    "REASONING",
    "SECTIONS",
    "SINGLETON_SECTIONS",
    "START",
    "WHITESPACE",
    "CodeBlock",
    "DropKind",
    "Dropped",
    "Heading",
    "LayoutHints",
    "MarkdownError",
    "ParsedMarkdown",
    "from_markdown",
    "parse_path_list",
    "read_markdown",
    "trim_blank_lines",
]


class _LineIndex:
    """Byte offset to 1-based line, counting forward from the last answer (events come in order)."""

    def __init__(self, data: bytes, first_line: int) -> None:
        self._data = data
        self._offset = 0
        self._line = first_line

    def line(self, offset: int) -> int:
        if offset < self._offset:
            self._offset, self._line = 0, self._line - self._data.count(b"\n", 0, self._offset)
        self._line += self._data.count(b"\n", self._offset, offset)
        self._offset = offset
        return self._line


def read_markdown(text: str, stem: str | None = None) -> ParsedMarkdown:
    front = split_front_matter(text)
    body_start = front.end if front.closed else 0
    body = text[body_start:].lstrip(WHITESPACE) if front.closed else text
    skipped = text[body_start : len(text) - len(body)]
    body_line = text.count("\n", 0, body_start) + skipped.count("\n") + 1
    spec = ExampleSpec(
        repository_url=front.repository_url,
        revision=front.revision,
        tags=list(front.tags),
        uncommitted_diff_contains_edit_history=front.rollback,
    )
    machine = _SectionMachine(spec, body, _LineIndex(body.encode("utf-8"), body_line))
    machine.run()
    if not spec.cursor_path or not spec.cursor_position:
        # As the reader now places it: on the file's last line, not one past it.
        machine.last_line = text.count("\n", 0, max(len(text) - 1, 0)) + 1
        machine.errors.append(
            MarkdownError("Missing cursor position codeblock", _cursor_line(machine))
        )
    if not spec.name and stem is not None:
        spec.name = stem
    return ParsedMarkdown(
        spec=spec,
        front_matter=front,
        hints=machine.hints,
        code_blocks=machine.blocks,
        headings=machine.headings,
        dropped=machine.dropped,
        errors=machine.errors,
        body_line=body_line,
    )


def _cursor_line(machine: _SectionMachine) -> int:
    """Where a missing cursor is best shown: the block that has no path or text, else the
    section's heading, else the end of the file."""
    blocks = [b.line for b in machine.blocks if b.section == "Cursor Position"]
    headings = [h.line for h in machine.headings if h.section == "Cursor Position"]
    return (blocks or headings or [machine.last_line])[-1]


def from_markdown(text: str, stem: str | None = None) -> ExampleSpec:
    """The spec of a Markdown example; raises `MarkdownError` where the reference fails."""
    parsed = read_markdown(text, stem)
    if parsed.errors:
        raise parsed.errors[0]
    return parsed.spec


def parse_path_list(text: str) -> list[RecentFile]:
    out = []
    for raw in text.split("\n"):
        line = raw.strip(WHITESPACE)
        if not line:
            continue
        path, tab, tail = line.rpartition("\t")
        if not tab:
            out.append(RecentFile(line))
            continue
        out.append(RecentFile(path, parse_position(tail)))
    return out


_USIZE_MAX = 2**64 - 1


def parse_position(text: str) -> int | None:
    """A Rust `usize` as the reference reads a recent file's position; None if it cannot."""
    if not (text.isascii() and text.isdigit()) or len(text.lstrip("0")) > 20:
        return None  # int() of thousands of digits raises; past 20 digits it overflows anyway
    value = int(text)
    return value if value <= _USIZE_MAX else None


class _SectionMachine:
    """One pass over the events, keeping the reference's buffer semantics exactly."""

    def __init__(self, spec: ExampleSpec, body: str, lines: _LineIndex) -> None:
        self.spec = spec
        self.body = body
        self.body_bytes = body.encode("utf-8")
        self.lines = lines
        self.buffer: list[str] = []
        self.section = START
        self.accepted = False
        self.depth = 0
        self.block_info = ""
        self.block_start = 0
        self.plain = True
        self.top: tuple[str, int] | None = None  # kind and start of the open top-level block
        self.last_paragraph: Dropped | None = None
        self.reasoning_start: int | None = None
        self.reasoning_spans: list[tuple[int, int]] = []
        self.hints = LayoutHints()
        self.blocks: list[CodeBlock] = []
        self.headings: list[Heading] = []
        self.dropped: list[Dropped] = []
        self.errors: list[MarkdownError] = []
        self.last_line = lines.line(len(self.body_bytes))

    def run(self) -> None:
        import pyromark

        for event, span in pyromark.events_with_range(self.body, merge_text=True):
            self.event(event, span["start"], span["end"])
        self.close_reasoning(len(self.body_bytes))
        if "]:" in self.body:
            self.drop_reference_definitions(pyromark.reference_definitions(self.body))

    def drop_reference_definitions(self, definitions: dict[str, Any]) -> None:
        """Link reference definitions produce no event: the reader never sees them."""
        for definition in definitions.values():
            start, end = definition["span"]["start"], definition["span"]["end"]
            if not any(lo <= start < hi for lo, hi in self.reasoning_spans):
                self.drop(DropKind.LINK_DEFINITION, start, end)

    def event(self, event: Any, start: int, end: int) -> None:
        if type(event) is str:
            if event == "Rule" and self.depth == 0:
                self.drop(DropKind.BLOCK, start, end, "thematic break outside a code block")
            else:
                self.plain = False  # a line break inside a heading joins its lines
            return
        text = event.get("Text")
        if text is not None:
            self.buffer.append(text)
        elif "Start" in event:
            self.start(event["Start"], start, end)
        elif "End" in event:
            self.end(event["End"], start, end)
        else:
            self.plain = False
            if "Html" in event and self.depth == 0:
                self.drop(DropKind.BLOCK, start, end, "HTML outside a code block")

    def start(self, tag: Any, start: int, end: int) -> None:
        is_code = isinstance(tag, dict) and "CodeBlock" in tag
        if self.depth == 0:
            self.top = ("code" if is_code else _tag_name(tag), start)
            self.plain = True
        elif not is_code:
            self.plain = False
        self.depth += 1
        if not is_code:
            self.buffer.clear()
            self.block_info = ""
            return
        if self.section == "Edit History" and self.text().strip(WHITESPACE) == (
            ACCEPTED_PREDICTION_MARKER
        ):
            self.accepted = True
        self.buffer.clear()
        kind = tag["CodeBlock"]
        if kind == "Indented":
            self.errors.append(
                MarkdownError("Unexpected indented codeblock", self.lines.line(start))
            )
            self.block_info = ""
        else:
            self.block_info = kind["Fenced"].strip(WHITESPACE)
        self.block_start = start

    def end(self, tag: Any, start: int, end: int) -> None:
        self.depth -= 1
        if isinstance(tag, dict) and "Heading" in tag:
            self.end_heading(int(tag["Heading"][1]), start, end)
        elif tag == "CodeBlock":
            self.end_code_block(start, end)
        if self.depth == 0 and self.top is not None:
            kind, _ = self.top
            self.top = None
            if kind in ("Paragraph", "List", "BlockQuote", "HtmlBlock", "Table", "other"):
                self.drop_block(kind, start, end)

    def text(self) -> str:
        return "".join(self.buffer)

    def end_heading(self, level: int, start: int, end: int) -> None:
        title = self.text()
        line = self.lines.line(start)
        if level >= 5:
            self.errors.append(MarkdownError(f"Unexpected heading level: h{level}", line))
            self.headings.append(Heading(level, title, line, None, self.plain))
            return
        if level == 1:
            self.close_reasoning(start)
            earlier = [h for h in self.headings if h.level == 1]
            if earlier:
                self.dropped.append(
                    Dropped(DropKind.TITLE_OVERRIDDEN, earlier[-1].line, earlier[-1].line, "")
                )
            self.spec.name = title
            self.hints.has_title = True
            self.headings.append(Heading(1, title, line, None, self.plain))
            self.drop_markup(start, end)
            return
        if level >= 3:
            self.buffer.clear()
            self.headings.append(Heading(level, title, line, None, self.plain))
            if self.reasoning_start is None:
                self.drop(DropKind.MINOR_HEADING, start, end, f"H{level} heading")
            return
        self.close_reasoning(start)
        section = SECTIONS.get(title.lower() if title.isascii() else _ascii_lower(title), OTHER)
        if section == OTHER and _ascii_lower(title) == "reasoning":
            section = REASONING
            self.reasoning_start = end
        self.section = section
        self.headings.append(Heading(2, title, line, section, self.plain))
        if section == OTHER:
            self.drop(DropKind.UNKNOWN_HEADING, start, end)
        else:
            self.drop_markup(start, end)

    def drop_markup(self, start: int, end: int) -> None:
        """Inline markup in a heading: the reference keeps only part of its text."""
        if not self.plain:
            self.drop(DropKind.HEADING_MARKUP, start, end)

    def end_code_block(self, start: int, end: int) -> None:
        text = self.text()
        self.buffer.clear()
        info = self.block_info
        section = self.section
        fence = _fence_of(self.body_bytes, start)
        block = CodeBlock(
            section=section,
            info=info,
            text=text,
            line=self.lines.line(start),
            end_line=self.lines.line(max(start, end - 1)),
            fenced=fence is not None,
            fence=fence or "",
            closed=fence is None or _closes(self.body_bytes, start, end, fence),
        )
        self.blocks.append(block)
        if section in (START, OTHER):
            block.used = False
            self.drop(DropKind.STRAY_CODE, start, end)
            return
        if section == REASONING:
            block.used = False
            return
        self.store(block)

    def store(self, block: CodeBlock) -> None:
        spec = self.spec
        section = block.section
        if section in SINGLETON_SECTIONS:
            for earlier in self.blocks[:-1]:
                if earlier.section == section and earlier.used:
                    earlier.used = False
                    self.dropped.append(
                        Dropped(
                            DropKind.OVERRIDDEN,
                            earlier.line,
                            earlier.end_line,
                            earlier.text[:60],
                            section,
                        )
                    )
        if section == "Uncommitted Diff":
            spec.uncommitted_diff = block.text
        elif section == "Recently Opened Files":
            spec.recently_opened_files = parse_path_list(block.text)
        elif section == "Recently Viewed Files":
            spec.recently_viewed_files = parse_path_list(block.text)
        elif section == "Edit History":
            block.accepted = self.accepted
            if self.accepted:
                spec.edit_history += ACCEPTED_PREDICTION_MARKER + "\n"
                self.accepted = False
                self.keep_marker_paragraph()
            spec.edit_history += block.text
            self.hints.history_blocks.append((block.accepted, block.text))
        elif section == "Cursor Position":
            spec.cursor_path = block.info
            spec.cursor_position = block.text
        elif section == "Expected Patch":
            spec.expected_patches.append(block.text)
        elif section == "Rejected Patch":
            spec.rejected_patch = block.text

    def keep_marker_paragraph(self) -> None:
        if self.last_paragraph is not None and self.last_paragraph in self.dropped:
            self.dropped.remove(self.last_paragraph)
        self.last_paragraph = None

    def drop_block(self, kind: str, start: int, end: int) -> None:
        if self.reasoning_start is not None:
            return
        if kind == "Paragraph":
            text = self.body_bytes[start:end].decode("utf-8", "replace").strip()
            if self.section == "Edit History" and text == NO_EDIT_HISTORY:
                return
            self.drop(DropKind.TEXT, start, end)
            self.last_paragraph = self.dropped[-1]
            return
        self.drop(DropKind.BLOCK, start, end, _BLOCK_NAMES.get(kind, kind))

    def drop(self, kind: DropKind, start: int, end: int, detail: str = "") -> None:
        if self.reasoning_start is not None and kind is not DropKind.UNKNOWN_HEADING:
            return
        excerpt = self.body_bytes[start:end].decode("utf-8", "replace").strip()
        first = self.lines.line(start)
        last = self.lines.line(max(start, end - 1))
        self.dropped.append(Dropped(kind, first, last, excerpt.split("\n")[0][:80], detail))

    def close_reasoning(self, until: int) -> None:
        if self.reasoning_start is None:
            return
        self.reasoning_spans.append((self.reasoning_start, until))
        raw = self.body_bytes[self.reasoning_start : until].decode("utf-8")
        if self.spec.reasoning and len(self.reasoning_spans) > 1:
            # Since the reader was rewritten: an earlier section's text is a loss (the
            # same change in both, so the differential test still compares the rewrite).
            lo, hi = self.reasoning_spans[-2]
            headings = [h.line for h in self.headings if h.section == REASONING]
            self.dropped.append(
                Dropped(
                    DropKind.OVERRIDDEN,
                    headings[-2] if len(headings) > 1 else self.lines.line(lo),
                    self.lines.line(max(lo, hi - 1)),
                    self.spec.reasoning.split("\n")[0][:80],
                    REASONING,
                )
            )
        self.spec.reasoning = trim_blank_lines(raw)
        self.reasoning_start = None


_BLOCK_NAMES = {
    "List": "list outside a code block",
    "BlockQuote": "block quote outside a code block",
    "HtmlBlock": "HTML outside a code block",
    "Table": "table outside a code block",
    "other": "content outside a code block",
}


def _ascii_lower(text: str) -> str:
    return "".join(c.lower() if c.isascii() else c for c in text)


def _tag_name(tag: Any) -> str:
    if isinstance(tag, str):
        return tag
    name = next(iter(tag))
    if name == "Heading":
        return "Heading"
    return name if name in ("List", "BlockQuote", "Table") else "other"


def _closes(body: bytes, start: int, end: int, fence: str) -> bool:
    """Whether the block's source (body[start:end]) ends with a line that closes its fence."""
    while end > start and body[end - 1] == 0x0A:
        end -= 1
    line_start = body.rfind(b"\n", start, end) + 1
    if line_start <= start:
        return False  # the opening fence is the only line
    last = body[line_start:end]
    stripped = last.lstrip(b" ")
    if len(last) - len(stripped) > 3:
        return False
    run = len(stripped) - len(stripped.lstrip(fence[0].encode()))
    return run >= len(fence) and not stripped[run:].strip(b" \t")


def _fence_of(body: bytes, start: int) -> str | None:
    end = body.find(b"\n", start)
    stripped = body[start : end if end >= 0 else len(body)].lstrip(b" ")
    char = stripped[:3]
    if char not in (b"```", b"~~~"):
        return None
    count = len(stripped) - len(stripped.lstrip(char[:1]))
    return (char[:1] * count).decode()
