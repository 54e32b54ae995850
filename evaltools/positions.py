"""The one conversion from an offset into a text to a 1-based line and column.

Columns count characters (code points), the unit of every reported column: in a `str`, an
offset is a character offset; in `bytes`, a byte offset whose line's bytes before it are
decoded (a byte that does not decode counts as one character). `Lines` indexes where each
line starts once, so that the many findings of one large record are placed in O(log n)
each (counting newlines from the start for each was quadratic in the findings);
`line_column` places a single offset without building the index; `lines_of` cuts a text
into the lines all of these count.
"""

from __future__ import annotations

import bisect
from typing import overload


@overload
def lines_of(text: bytes) -> list[bytes]: ...
@overload
def lines_of(text: str) -> list[str]: ...
def lines_of(text: str | bytes) -> list[str] | list[bytes]:
    """Each line of `text` with its "\n" (the last without one when `text` has no final
    newline): a line ends at "\n" only, as in JSONL and in every line number reported.
    `splitlines` also ends one at a lone "\r" (JSON whitespace) and, in a `str`, at a form
    feed, U+0085 or U+2028 (a JSON string may hold the last two raw)."""
    if isinstance(text, bytes):
        parts = text.split(b"\n")
        lines = [part + b"\n" for part in parts[:-1]]
        return [*lines, parts[-1]] if parts[-1] else lines
    pieces = text.split("\n")
    rows = [piece + "\n" for piece in pieces[:-1]]
    return [*rows, pieces[-1]] if pieces[-1] else rows


def char_column(line: bytes, offset: int) -> int:
    """The 1-based column of byte `offset` of `line`, in characters (code points): a caret
    byte offset or a reader's byte position becomes one here. A byte that does not decode
    counts as one character (the bytes before the first such byte are exactly the
    characters an editor shows)."""
    return len(line[:offset].decode("utf-8", "replace")) + 1


def _column(text: str | bytes, start: int, offset: int) -> int:
    if isinstance(text, bytes):
        return char_column(text[start:offset], offset - start)
    return offset - start + 1


def line_column(text: str | bytes, offset: int) -> tuple[int, int]:
    """1-based line and column (in characters) of `offset` in `text`, for one offset."""
    if isinstance(text, bytes):
        line, start = text.count(b"\n", 0, offset) + 1, text.rfind(b"\n", 0, offset) + 1
    else:
        line, start = text.count("\n", 0, offset) + 1, text.rfind("\n", 0, offset) + 1
    return line, _column(text, start, offset)


class Lines:
    """Where each line of `text` starts, for placing many offsets in it."""

    def __init__(self, text: str | bytes) -> None:
        self.text = text
        starts = [0]
        if isinstance(text, bytes):
            found = text.find(b"\n")
            while found >= 0:
                starts.append(found + 1)
                found = text.find(b"\n", found + 1)
        else:
            found = text.find("\n")
            while found >= 0:
                starts.append(found + 1)
                found = text.find("\n", found + 1)
        self._starts = starts

    def line_column(self, offset: int) -> tuple[int, int]:
        line = bisect.bisect_right(self._starts, offset)
        return line, _column(self.text, self._starts[line - 1], offset)

    def span(self, line: int) -> tuple[int, int]:
        """Where 1-based `line` starts and ends (its "\n" left out), kept within the text."""
        index = min(max(line - 1, 0), len(self._starts) - 1)
        last = index + 1 == len(self._starts)
        return self._starts[index], len(self.text) if last else self._starts[index + 1] - 1
