"""Stable chunk IDs: `path:start-end:symbol` (symbol optional)."""

from __future__ import annotations

import re
from dataclasses import dataclass

# The span is the last `:<digits>-<digits>` followed by `:` or the end, so paths may hold `:`.
_SPAN = re.compile(r":(\d+)-(\d+)(?=:|$)")


class ChunkIdError(ValueError):
    pass


@dataclass(frozen=True)
class ChunkId:
    path: str
    start: int
    end: int
    symbol: str | None = None

    def __str__(self) -> str:
        base = f"{self.path}:{self.start}-{self.end}"
        return f"{base}:{self.symbol}" if self.symbol else base

    def with_span(self, start: int, end: int) -> ChunkId:
        return ChunkId(self.path, start, end, self.symbol)

    def with_path(self, path: str) -> ChunkId:
        return ChunkId(path, self.start, self.end, self.symbol)


def parse_chunk_id(text: str) -> ChunkId:
    match = None
    for match in _SPAN.finditer(text):
        pass
    if match is None:
        raise ChunkIdError(
            f"chunk ID {text!r} has no `:start-end` span: write it as path:start-end:symbol"
        )
    path = text[: match.start()]
    symbol = text[match.end() + 1 :] if match.end() < len(text) else None
    if not path:
        raise ChunkIdError(f"chunk ID {text!r} has an empty path")
    if match.end() < len(text) and not symbol:
        raise ChunkIdError(f"chunk ID {text!r} ends with `:` but names no symbol")
    start, end = int(match.group(1)), int(match.group(2))
    if start < 1:
        raise ChunkIdError(f"chunk ID {text!r} starts at line {start}: lines are 1-based")
    if start > end:
        raise ChunkIdError(
            f"chunk ID {text!r} has start {start} after end {end}: the span is start-end, "
            "1-based inclusive"
        )
    return ChunkId(path, start, end, symbol)
