"""The list of a `## Recently Opened Files` / `## Recently Viewed Files` block, read as the
reference's `parse_path_list` reads it, with what it drops."""

from __future__ import annotations

from collections.abc import Iterator
from typing import NamedTuple

from evaltools.example.markdown.document import WHITESPACE
from evaltools.example.spec import USIZE_MAX, RecentFile


def parse_path_list(text: str) -> list[RecentFile]:
    return [recent for _, recent, _ in path_lines(text)]


class UnreadPosition(NamedTuple):
    """Text after the last tab of a recent-file line that the reference drops."""

    column: int  # 1-based, in characters of the block's line
    text: str


def path_lines(text: str) -> Iterator[tuple[int, RecentFile, UnreadPosition | None]]:
    """Each file of a recent-files block as the reference reads it, with its line's index
    in the block and the text after its tab the reference drops, if any."""
    for index, raw in enumerate(text.split("\n")):
        line = raw.strip(WHITESPACE)
        if not line:
            continue
        path, tab, tail = line.rpartition("\t")
        if not tab:
            yield index, RecentFile(line), None
            continue
        position = parse_position(tail)
        unread = None
        if position is None:
            lead = len(raw) - len(raw.lstrip(WHITESPACE))
            unread = UnreadPosition(lead + len(path) + 2, tail)
        yield index, RecentFile(path, position), unread


def parse_position(text: str) -> int | None:
    """A Rust `usize` as the reference reads a recent file's position; None if it cannot."""
    if text[:1] == "+":
        text = text[1:]  # Rust's integer parsing takes a leading plus sign, even unsigned
    if not (text.isascii() and text.isdigit()) or len(text.lstrip("0")) > 20:
        return None  # int() of thousands of digits raises; past 20 digits it overflows anyway
    value = int(text)
    return value if value <= USIZE_MAX else None
