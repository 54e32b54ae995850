"""An editor's text as two kinds of lines: evaltools' (ended by "\n", columns in characters:
every finding's place) and the Language Server Protocol's (ended by "\r\n", "\r" or "\n",
columns in the code units the client chose).

pygls' `TextDocument.lines` is `str.splitlines`, which also ends a line at a form feed,
U+0085 or U+2028 (a JSON string may hold the last two raw): a place counted on those lines
lands lines off in the editor. Places go through offsets into the text here instead.
"""

from __future__ import annotations

import bisect
import re

from lsprotocol import types as t
from pygls.workspace.position_codec import PositionCodec

from evaltools.positions import Lines

_ROW_END = re.compile(r"\r\n|\r|\n")


class DocumentLines:
    def __init__(self, source: str, codec: PositionCodec) -> None:
        self.source, self.codec = source, codec
        self._lines = Lines(source)  # evaltools' lines, as every finding counts them
        self._row_starts = [0] + [m.end() for m in _ROW_END.finditer(source)]

    def offset(self, line: int, column: int) -> int:
        """Where evaltools' 1-based `line` and `column` are, kept within that line."""
        start, end = self._lines.span(line)
        return min(start + max(column - 1, 0), end)

    def line_span(self, offset: int) -> tuple[int, int]:
        """Start and end (its "\n" left out) of evaltools' line holding `offset`."""
        return self._lines.span(self.line_number(offset))

    def line_number(self, offset: int) -> int:
        return self._lines.line_column(offset)[0]

    def row_span(self, row: int) -> tuple[int, int]:
        """Start and end (its line break left out) of the protocol's line `row`."""
        if row >= len(self._row_starts):
            return len(self.source), len(self.source)
        start = self._row_starts[row]
        found = _ROW_END.search(self.source, start)
        return start, len(self.source) if found is None else found.start()

    def position(self, offset: int) -> t.Position:
        row = bisect.bisect_right(self._row_starts, offset) - 1
        start = self._row_starts[row]
        return t.Position(row, self.codec.client_num_units(self.source[start:offset]))

    def offset_of(self, position: t.Position) -> int:
        """The offset of a client's `position`, kept within its line."""
        at, end = self.row_span(position.line)
        units = 0
        while at < end and units < position.character:
            units += self.codec.client_num_units(self.source[at])
            at += 1
        return at

    def range(self, start: int, end: int) -> t.Range:
        return t.Range(self.position(start), self.position(end))

    def end(self) -> t.Position:
        return self.position(len(self.source))
