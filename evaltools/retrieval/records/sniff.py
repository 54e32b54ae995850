"""Telling a retrieval eval set from example records without reading all of it."""

from __future__ import annotations

import itertools
from collections.abc import Iterable
from pathlib import Path

from evaltools import jsonio
from evaltools.fileio import MAX_DATA_FILE_BYTES, Refused, open_input, real_path

_SNIFF_LINE_BYTES = 1 << 20


def looks_like_retrieval_set(path: Path) -> bool:
    """A JSONL whose records have `qid` and `gold` (example records have neither).

    The first readable record decides, so one broken first line does not turn a retrieval
    set into example records.
    """
    # A FIFO would block, a huge file take minutes: the reader that takes it says why.
    opened = open_input(path, max_bytes=MAX_DATA_FILE_BYTES)
    if isinstance(opened, Refused):
        return False
    try:
        with opened as handle:
            # Lines read to a bound: a file of one endless line is no set, and is no reason
            # to hold it whole.
            return lines_look_like_set(iter(lambda: handle.readline(_SNIFF_LINE_BYTES), b""))
    except OSError:
        return False


def lines_look_like_set(lines: Iterable[bytes]) -> bool:
    """`looks_like_retrieval_set` on lines already at hand (an editor's text)."""
    for raw in itertools.islice(lines, 20):
        if not raw.endswith(b"\n") and len(raw) == _SNIFF_LINE_BYTES:
            return False
        try:
            record = jsonio.loads(raw.decode("utf-8"))
        except (ValueError, RecursionError):  # UnicodeDecodeError is a ValueError
            continue
        if isinstance(record, dict):
            return "qid" in record and "gold" in record
    return False


def is_retrieval_set(path: Path, configured: set[Path]) -> bool:
    """A configured set (`configured` holds resolved paths), or a JSONL that looks like one."""
    return real_path(path) in configured or looks_like_retrieval_set(path)


def split_sets(files: list[Path], configured: list[Path]) -> tuple[list[Path], list[Path]]:
    """(the other files, the retrieval sets) among `files`: a `.jsonl` is a set when it is
    one of the `configured` sets or looks like one; everything else is left to the caller."""
    known = {real_path(p) for p in configured}
    others: list[Path] = []
    sets: list[Path] = []
    for path in files:
        is_set = path.suffix == ".jsonl" and is_retrieval_set(path, known)
        (sets if is_set else others).append(path)
    return others, sets
