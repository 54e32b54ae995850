"""Reading the Markdown form: front matter, then the section state machine (`sections`).

`read_markdown` never raises: it returns the spec the reference would build, every
problem that would make the reference fail, and what it needs to say more than the
reference does (source lines of every block, content that would be dropped, and
layout hints that let the writer reproduce the file). The data it returns is defined
in `document.py` and re-exported here.
"""

from __future__ import annotations

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
    ParsedMarkdown,
)
from evaltools.example.markdown.frontmatter import split_front_matter
from evaltools.example.markdown.hints import LayoutHints
from evaltools.example.markdown.pathlist import UnreadPosition, parse_path_list, path_lines
from evaltools.example.markdown.sections import SectionMachine, trim_blank_lines
from evaltools.example.markdown.source import LineIndex
from evaltools.example.spec import ExampleSpec
from evaltools.positions import line_column

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
    "UnreadPosition",
    "from_markdown",
    "parse_path_list",
    "path_lines",
    "read_markdown",
    "trim_blank_lines",
]


def read_markdown(text: str, stem: str | None = None) -> ParsedMarkdown:
    front = split_front_matter(text)
    body_start = front.end if front.closed else 0
    body = text[body_start:].lstrip(WHITESPACE) if front.closed else text
    body_line = line_column(text, len(text) - len(body))[0]
    spec = ExampleSpec(
        repository_url=front.repository_url,
        revision=front.revision,
        tags=list(front.tags),
        uncommitted_diff_contains_edit_history=front.rollback,
    )
    machine = SectionMachine(spec, body, LineIndex(body.encode("utf-8"), body_line))
    machine.run()
    if not spec.cursor_path or not spec.cursor_position:
        # The file's last line, not the offset past its last newline (a line that is not there).
        last_line = text.count("\n", 0, max(len(text) - 1, 0)) + 1
        machine.errors.append(
            MarkdownError("Missing cursor position codeblock", _cursor_line(machine, last_line))
        )
    if not spec.name and stem is not None:
        spec.name = stem
    machine.hints.stem = stem
    spec.layout = machine.hints
    return ParsedMarkdown(
        spec=spec,
        front_matter=front,
        hints=machine.hints,
        code_blocks=machine.blocks,
        headings=machine.headings,
        dropped=machine.dropped,
        errors=machine.errors,
        body_line=body_line,
        locate=machine.locate,
    )


def _cursor_line(machine: SectionMachine, last_line: int) -> int:
    """Where a missing cursor is best shown: the block that has no path or text, else the
    section's heading, else the end of the file."""
    blocks = [b for b in machine.blocks if b.section == "Cursor Position"]
    for block in blocks:
        machine.locate(block)
    headings = [h.line for h in machine.headings if h.section == "Cursor Position"]
    return ([b.line for b in blocks] or headings or [last_line])[-1]


def from_markdown(text: str, stem: str | None = None) -> ExampleSpec:
    """The spec of a Markdown example; raises `MarkdownError` where the reference fails."""
    parsed = read_markdown(text, stem)
    if parsed.errors:
        raise parsed.errors[0]
    return parsed.spec
