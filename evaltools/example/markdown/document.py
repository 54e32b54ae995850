"""What reading an example's Markdown yields: sections, blocks, headings, losses, layout hints.

Plain data, shared by the reader (`markdown.py`), the writer, the round-trip check and lint.
"""

from __future__ import annotations

import enum
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import NamedTuple

from evaltools.example.diffs._difflines import RUST_WHITESPACE
from evaltools.example.markdown.frontmatter import FrontMatter
from evaltools.example.markdown.hints import LayoutHints
from evaltools.example.spec import ExampleSpec

ACCEPTED_PREDICTION_MARKER = "// User accepted prediction:"
NO_EDIT_HISTORY = "(No edit history)"

# Rust's `char::is_whitespace`, which the reference trims with, as a `str.strip` argument.
WHITESPACE = "".join(sorted(RUST_WHITESPACE))

SECTIONS = {
    "uncommitted diff": "Uncommitted Diff",
    "recently opened files": "Recently Opened Files",
    "recently viewed files": "Recently Viewed Files",
    "edit history": "Edit History",
    "cursor position": "Cursor Position",
    "expected patch": "Expected Patch",
    "rejected patch": "Rejected Patch",
}
REASONING = "Reasoning"
START = "Start"
OTHER = "Other"
SINGLETON_SECTIONS = frozenset(
    {
        "Uncommitted Diff",
        "Recently Opened Files",
        "Recently Viewed Files",
        "Cursor Position",
        "Rejected Patch",
    }
)


class MarkdownError(ValueError):
    """What makes the reference's `from_markdown` fail."""

    def __init__(self, message: str, line: int) -> None:
        super().__init__(message)
        self.line = line


@dataclass
class CodeBlock:
    section: str
    info: str
    text: str
    line: int  # 1-based line of the opening fence
    end_line: int
    fenced: bool = True
    fence: str = "```"
    closed: bool = True
    accepted: bool = False
    used: bool = True  # False when a later block of a singleton section overrides it
    # Its (start, end) byte offsets in the body while `line`, `end_line`, `fenced`, `fence`
    # and `closed` are still to be read from there: see `ParsedMarkdown.blocks`.
    span: tuple[int, int] | None = field(default=None, repr=False, compare=False)


# A named tuple, not a dataclass: each dataclass costs about a millisecond at import, on the
# path of the lint hook.
class Heading(NamedTuple):
    level: int
    title: str
    line: int
    section: str | None  # the section it selects (H2 only)
    plain: bool = True  # no inline markup inside


class DropKind(str, enum.Enum):
    """What kind of source content would vanish on a rewrite."""

    TEXT = "text outside a code block"
    BLOCK = "content outside a code block"
    UNKNOWN_HEADING = "unknown section heading"
    STRAY_CODE = "code block outside a known section"
    OVERRIDDEN = "block overridden by a later one"
    MINOR_HEADING = "heading dropped on rewrite"
    HEADING_MARKUP = "heading with inline markup"
    TITLE_OVERRIDDEN = "title overridden by a later one"
    LINK_DEFINITION = "link reference definition"
    FRONT_MATTER = "front matter content"
    FILE_POSITION = "text after the tab of a recent file"


# A named tuple, not a dataclass: each dataclass costs about a millisecond at import, on the
# path of the lint hook.
class Dropped(NamedTuple):
    """Source content that never reaches the model and would vanish on a rewrite."""

    kind: DropKind
    line: int
    end_line: int
    excerpt: str
    detail: str = ""  # the section, the block's kind, or what is wrong with the front matter
    column: int = 1  # 1-based, in characters, where the lost content starts on `line`

    def describe(self) -> str:
        if self.kind is DropKind.FILE_POSITION:
            return f"`{self.excerpt}` after the tab (not a position the reference reads)"
        if self.kind is DropKind.OVERRIDDEN:
            what = "section" if self.detail == REASONING else "block"
            return f"`{self.detail}` {what} overridden by a later one"
        if self.kind in (DropKind.BLOCK, DropKind.MINOR_HEADING, DropKind.FRONT_MATTER):
            return self.detail
        return str(self.kind.value)

    def remedy(self) -> str:
        """How to keep what a rewrite would lose."""
        if self.kind is DropKind.FRONT_MATTER:
            if self.detail.startswith("front matter the reference cannot read"):
                return "fix it, so that the reference reads it"
            if self.detail.startswith("unknown front matter keys"):
                return "remove it, or record it as an entry of `tags`"
            return _MOVE_TO_REASONING
        if self.kind is DropKind.OVERRIDDEN and self.detail == REASONING:
            return "merge the two `## Reasoning` sections into one"
        return _REMEDIES.get(self.kind, _MOVE_TO_REASONING)


_MOVE_TO_REASONING = "delete it, or move it into `## Reasoning` (right after the front matter)"
_REMEDIES = {
    DropKind.TEXT: "move it into `## Reasoning` (right after the front matter) to keep it",
    DropKind.UNKNOWN_HEADING: "use one of the known section headings, or `## Reasoning` for notes",
    DropKind.STRAY_CODE: "put it under the section it belongs to",
    DropKind.OVERRIDDEN: "keep one block: the reference uses only the last",
    DropKind.HEADING_MARKUP: "write the heading as plain text",
    DropKind.TITLE_OVERRIDDEN: "keep one `# title`",
    DropKind.FILE_POSITION: "write the position as a number after the tab, or remove the tab",
}


@dataclass
class ParsedMarkdown:
    spec: ExampleSpec
    front_matter: FrontMatter
    hints: LayoutHints
    code_blocks: list[CodeBlock]  # read `blocks`: these may not be located yet
    headings: list[Heading]
    dropped: list[Dropped]
    errors: list[MarkdownError]
    body_line: int  # 1-based line where the Markdown body starts
    # Reads a block's lines, fence and end from the source. Only lint and the explanation
    # of a mismatch need them, so a clean file's round trip never pays for them.
    locate: Callable[[CodeBlock], None] | None = field(default=None, repr=False, compare=False)

    @property
    def blocks(self) -> list[CodeBlock]:
        """The code blocks in source order, located."""
        if self.locate is not None:
            for block in self.code_blocks:
                self.locate(block)
            self.locate = None
        return self.code_blocks

    def cursor_block(self) -> CodeBlock | None:
        used = [b for b in self.blocks if b.section == "Cursor Position" and b.used]
        return used[-1] if used else None
