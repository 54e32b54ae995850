"""Stable chunk IDs: `path:start-end:symbol` (symbol optional).

`parse_chunk_id` is the one definition of a valid ID; the schema's `chunkId` pattern says the
same (tests/retrieval/records/test_fast_check_agrees.py holds them to it) and every command
that reads gold IDs (`validate`, `gold check`) asks it.
"""

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
# The path is a POSIX path relative to the root: it must name a file below the root on every
# system and go through git's line-based plumbing, so no `/` first or last, no empty, `.` or
# `..` part, no `\` (a separator on Windows), no control character (NUL cannot be a file
# name; a newline would end a request to `git cat-file --batch`).
_BAD_PATH = re.compile(r"[\x00-\x1f\x7f\\]|\A/|/\Z|//|(?:\A|/)\.\.?(?:/|\Z)")
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")
# Line numbers have at most this many significant digits (below a billion lines): more is a
# typo, and `int` refuses strings past 4,300 digits, which must be a finding, not a crash.
# The schema's `chunkId` pattern bounds the span the same way.
MAX_LINE_DIGITS = 9


def _clean_path(path: str) -> bool:
    """`_BAD_PATH` finds nothing; in string operations, three times faster (the fast check
    of `validate` asks it for every gold key)."""
    wrapped = f"/{path}/"  # `//` in it: an empty part, at either end too
    if (
        "//" in wrapped
        or "\\" in path
        or ("/." in wrapped and ("/./" in wrapped or "/../" in wrapped))
    ):
        return False
    return path.isprintable() or _CONTROL.search(path) is None


class ChunkIdError(ValueError):
    """A malformed chunk ID; `reason` says which part, for callers that branch on it."""

    REASONS = (
        "no-span",
        "empty-path",
        "bad-path",
        "empty-symbol",
        "zero-start",
        "reversed-span",
        "huge-line",
        "other",
    )

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

    def within(self, outer: ChunkId) -> bool:
        """Its lines are `outer`'s or inside them, in the same file."""
        return self.path == outer.path and outer.start <= self.start and self.end <= outer.end


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
    bad = None if _clean_path(path) else _BAD_PATH.search(path)
    if bad is not None:
        raise ChunkIdError(
            f"chunk ID {_quote(text)} has the path {_quote(path)}, {_path_fault(path, bad)}: "
            "write the file's path relative to the root, with `/` between its parts",
            "bad-path",
        )
    if symbol == "":
        raise ChunkIdError(
            f"chunk ID {_quote(text)} ends with `:` but names no symbol: add the symbol or "
            "drop the `:`",
            "empty-symbol",
        )
    start, end = _line(text, start_text), _line(text, end_text)
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


def _line(text: str, digits: str) -> int:
    significant = digits.lstrip("0")
    if len(significant) > MAX_LINE_DIGITS:
        shown = _quote(text if len(text) <= 80 else f"{text[:60]}...{text[-12:]}")
        raise ChunkIdError(
            f"chunk ID {shown} has a line number of {len(significant)} digits, more than any "
            f"file has lines (at most {MAX_LINE_DIGITS} digits): write the definition's span",
            "huge-line",
        )
    return int(significant or "0")


def _path_fault(path: str, bad: re.Match[str]) -> str:
    found = bad.group()
    if found and (found < " " or found == "\x7f"):
        return f"which holds the control character U+{ord(found):04X}"
    if found == "\\":
        return "which holds a `\\`"
    if path.startswith("/"):
        return "which is absolute (starts with `/`)"
    if "/" in found and found.strip("/") == "":
        return "which has an empty part (`//`, or a `/` at its end)"
    return f"which has a `{found.strip('/')}` part"


def is_valid_chunk_id(text: str) -> bool:
    """`parse_chunk_id` succeeds; without building the error, for hot loops."""
    match = _ID.fullmatch(text)
    if match is None:
        return False
    path, start_text, end_text, symbol = match.groups()
    start_text, end_text = start_text.lstrip("0"), end_text.lstrip("0")
    if len(start_text) > MAX_LINE_DIGITS or len(end_text) > MAX_LINE_DIGITS:
        return False
    start = int(start_text or "0")
    return symbol != "" and 1 <= start <= int(end_text or "0") and _clean_path(path)
