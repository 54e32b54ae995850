"""The reference's section state machine over pulldown-cmark events, in one pass.

Which section each code block fills (the reference's buffer semantics exactly), and beside
it what the reference does not say: where each block and heading is, and what a rewrite
would drop. `reader.read_markdown` runs it.
"""

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
    MarkdownError,
)
from evaltools.example.markdown.hints import LayoutHints
from evaltools.example.markdown.pathlist import path_lines
from evaltools.example.markdown.source import LineIndex, closes, fence_of
from evaltools.example.spec import ExampleSpec, RecentFile


class SectionMachine:
    """One pass over the events, keeping the reference's buffer semantics exactly."""

    def __init__(self, spec: ExampleSpec, body: str, lines: LineIndex) -> None:
        self.spec = spec
        self.body = body
        self.body_bytes = lines.data  # the body, encoded once
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

    def run(self) -> None:
        import pyromark

        buffer, end = self.buffer, self.end
        # Text, Start and End are nearly all the events: dispatched here, without `event`; a
        # Start of anything but a code block is handled here too.
        for event, span in pyromark.events_with_range(self.body, merge_text=True):
            if type(event) is dict:
                if "Text" in event:
                    buffer.append(event["Text"])
                    continue
                tag = event.get("Start")
                if tag is not None:
                    if type(tag) is dict and "CodeBlock" in tag:
                        self.start_code(tag["CodeBlock"], span["start"])
                        continue
                    if self.depth == 0:
                        self.top = (_tag_name(tag), span["start"])
                        self.plain = True
                    else:
                        self.plain = False
                    self.depth += 1
                    buffer.clear()
                    self.block_info = ""
                    continue
                tag = event.get("End")
                if tag is not None:
                    end(tag, span["start"], span["end"])
                    continue
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
        """Any event but Text, Start and End (`run` handles those)."""
        if type(event) is str:
            if event == "Rule" and self.depth == 0:
                self.drop(DropKind.BLOCK, start, end, "thematic break outside a code block")
            else:
                self.plain = False  # a line break inside a heading joins its lines
            return
        self.plain = False
        if "Html" in event and self.depth == 0:
            self.drop(DropKind.BLOCK, start, end, "HTML outside a code block")

    def start_code(self, kind: Any, start: int) -> None:
        if self.depth == 0:
            self.top = ("code", start)
            self.plain = True
        self.depth += 1
        if self.section == "Edit History" and self.text().strip(WHITESPACE) == (
            ACCEPTED_PREDICTION_MARKER
        ):
            self.accepted = True
        self.buffer.clear()
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
        if tag == "CodeBlock":
            self.end_code_block(start, end)
        elif type(tag) is dict and "Heading" in tag:
            self.end_heading(int(tag["Heading"][1]), start, end)
        if self.depth == 0 and self.top is not None:
            kind, _ = self.top
            self.top = None
            if kind in ("Paragraph", "List", "BlockQuote", "HtmlBlock", "Table", "other"):
                self.drop_block(kind, start, end)

    def text(self) -> str:
        return "".join(self.buffer)

    def end_heading(self, level: int, start: int, end: int) -> None:
        title = "".join(self.buffer)
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
        if self.reasoning_start is not None:
            self.close_reasoning(start)
        section = SECTIONS.get(title.lower() if title.isascii() else _ascii_lower(title), OTHER)
        if section == OTHER and _ascii_lower(title) == "reasoning":
            section = REASONING
            self.reasoning_start = end
        self.section = section
        plain = self.plain
        self.headings.append(_new_tuple(Heading, (2, title, line, section, plain)))
        if section == OTHER:
            self.drop(DropKind.UNKNOWN_HEADING, start, end)
        elif not plain:
            self.drop(DropKind.HEADING_MARKUP, start, end)

    def drop_markup(self, start: int, end: int) -> None:
        """Inline markup in a heading: the reference keeps only part of its text."""
        if not self.plain:
            self.drop(DropKind.HEADING_MARKUP, start, end)

    def end_code_block(self, start: int, end: int) -> None:
        text = "".join(self.buffer)
        self.buffer.clear()
        section = self.section
        block = CodeBlock(section, self.block_info, text, 0, 0, span=(start, end))
        self.blocks.append(block)
        if section in (START, OTHER):
            block.used = False
            self.drop(DropKind.STRAY_CODE, start, end)
            return
        if section == REASONING:
            block.used = False
            return
        self.store(block)

    def locate(self, block: CodeBlock) -> None:
        """Fill in where the block is and how it is fenced, if not done yet."""
        if block.span is None:
            return
        start, end = block.span
        body, lines = self.body_bytes, self.lines
        fence = fence_of(body, start)
        block.line = lines.line(start)
        block.end_line = lines.line(max(start, end - 1))
        block.fenced = fence is not None
        block.fence = fence or ""
        block.closed = fence is None or closes(body, start, end, fence)
        block.span = None

    def store(self, block: CodeBlock) -> None:
        spec = self.spec
        section = block.section
        if section in SINGLETON_SECTIONS:
            for earlier in self.blocks[:-1]:
                if earlier.section == section and earlier.used:
                    earlier.used = False
                    self.locate(earlier)
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
            spec.recently_opened_files = self.path_list(block)
        elif section == "Recently Viewed Files":
            spec.recently_viewed_files = self.path_list(block)
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

    def path_list(self, block: CodeBlock) -> list[RecentFile]:
        """The block's files; the text after a tab that is no position is lost."""
        out = []
        for index, recent, unread in path_lines(block.text):
            out.append(recent)
            if unread is not None:
                self.locate(block)
                line = block.line + 1 + index
                excerpt = unread.text[:60]
                self.dropped.append(
                    Dropped(
                        DropKind.FILE_POSITION, line, line, excerpt, block.section, unread.column
                    )
                )
        return out

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
            # The field holds one text: an earlier section's is lost on a rewrite.
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


# `tuple.__new__(Heading, fields)` builds a named tuple without its Python-level `__new__`.
_new_tuple = tuple.__new__

_BLOCK_NAMES = {
    "List": "list outside a code block",
    "BlockQuote": "block quote outside a code block",
    "HtmlBlock": "HTML outside a code block",
    "Table": "table outside a code block",
    "other": "content outside a code block",
}


# What pulldown-cmark reads as a blank line (its `is_ascii_whitespace_no_nl`, and a CRLF's
# `\r`). Not Rust's `char::is_whitespace`: a line of U+00A0 or U+3000 is a paragraph, text the
# section holds, and trimming it as blank would delete it on a rewrite.
_BLANK = " \t\x0b\x0c\r"


def trim_blank_lines(raw: str) -> str:
    """Section text without its leading and trailing blank lines (and final newline)."""
    lines = raw.split("\n")
    while lines and not lines[0].strip(_BLANK):
        lines.pop(0)
    while lines and not lines[-1].strip(_BLANK):
        lines.pop()
    return "\n".join(lines)


def _ascii_lower(text: str) -> str:
    return "".join(c.lower() if c.isascii() else c for c in text)


def _tag_name(tag: Any) -> str:
    if isinstance(tag, str):
        return tag
    name = next(iter(tag))
    if name == "Heading":
        return "Heading"
    return name if name in ("List", "BlockQuote", "Table") else "other"
