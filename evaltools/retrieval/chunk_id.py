"""Stable chunk IDs: `path:start-end:symbol` (symbol optional)."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

# A span is `:<digits>-<digits>` followed by `:` or the end. ASCII digits only: `\d` would
# also take other scripts' digits, which `int` accepts but JSON Schema's `[0-9]` does not.
_SPAN = re.compile(r":([0-9]+)-([0-9]+)(?=:|\Z)")
# The greedy path backtracks from the right, so the span matched is the last one: the same
# split as scanning for every span and keeping the last (paths may contain `:`).
_ID = re.compile(r"(.+):([0-9]+)-([0-9]+)(?::(.*))?", re.DOTALL)


class ChunkIdError(ValueError):
    """A malformed chunk ID; `reason` says which part, for callers that branch on it."""

    REASONS = ("no-span", "empty-path", "empty-symbol", "zero-start", "reversed-span", "other")

    def __init__(self, message: str, reason: str = "other") -> None:
        super().__init__(message)
        self.reason = reason


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


def _quote(text: str) -> str:
    return json.dumps(text, ensure_ascii=False)


def parse_chunk_id(text: str) -> ChunkId:
    match = _ID.fullmatch(text)
    if match is None:
        if _SPAN.match(text):
            raise ChunkIdError(
                f"chunk ID {_quote(text)} has an empty path: put the file's path, relative to the "
                "root, before the span",
                "empty-path",
            )
        raise ChunkIdError(
            f"chunk ID {_quote(text)} has no `:start-end` span: write it as path:start-end:symbol",
            "no-span",
        )
    path, start_text, end_text, symbol = match.groups()
    if symbol == "":
        raise ChunkIdError(
            f"chunk ID {_quote(text)} ends with `:` but names no symbol: add the symbol or "
            "drop the `:`",
            "empty-symbol",
        )
    start, end = int(start_text), int(end_text)
    if start < 1:
        raise ChunkIdError(
            f"chunk ID {_quote(text)} starts at line {start}: lines are 1-based, start at 1 "
            "or later",
            "zero-start",
        )
    if start > end:
        raise ChunkIdError(
            f"chunk ID {_quote(text)} has start {start} after end {end}: write the span as "
            "start-end, 1-based inclusive",
            "reversed-span",
        )
    return ChunkId(path, start, end, symbol)


def is_valid_chunk_id(text: str) -> bool:
    """`parse_chunk_id` succeeds; without building the error, for hot loops."""
    match = _ID.fullmatch(text)
    if match is None:
        return False
    _, start_text, end_text, symbol = match.groups()
    start = int(start_text)
    return symbol != "" and 1 <= start <= int(end_text)
