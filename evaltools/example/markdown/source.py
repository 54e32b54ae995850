"""Where things sit in a Markdown body's bytes: the line of an offset, a code block's fence."""

from __future__ import annotations


class LineIndex:
    """Byte offset to 1-based line, counting forward from the last answer (events come in order)."""

    def __init__(self, data: bytes, first_line: int) -> None:
        self.data = data
        self._offset = 0
        self._line = first_line

    def line(self, offset: int) -> int:
        if offset < self._offset:
            self._offset, self._line = 0, self._line - self.data.count(b"\n", 0, self._offset)
        self._line += self.data.count(b"\n", self._offset, offset)
        self._offset = offset
        return self._line


def closes(body: bytes, start: int, end: int, fence: str) -> bool:
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


def fence_of(body: bytes, start: int) -> str | None:
    """The fence that opens the block at `body[start:]`, None for an indented block."""
    end = body.find(b"\n", start)
    stripped = body[start : end if end >= 0 else len(body)].lstrip(b" ")
    char = stripped[:3]
    if char not in (b"```", b"~~~"):
        return None
    count = len(stripped) - len(stripped.lstrip(char[:1]))
    return (char[:1] * count).decode()
