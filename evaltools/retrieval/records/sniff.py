"""Telling a retrieval eval set from example records without reading all of it."""

from __future__ import annotations

import itertools
from pathlib import Path

from evaltools import jsonio
from evaltools.fileio import real_path


def looks_like_retrieval_set(path: Path) -> bool:
    """A JSONL whose records have `qid` and `gold` (example records have neither).

    The first readable record decides, so one broken first line does not turn a retrieval
    set into example records.
    """
    if not path.is_file():
        return False  # a FIFO would block; the example reader says what it is instead
    try:
        with path.open("rb") as handle:
            for raw in itertools.islice(handle, 20):
                try:
                    record = jsonio.loads(raw.decode("utf-8"))
                except (ValueError, RecursionError):  # UnicodeDecodeError is a ValueError
                    continue
                if isinstance(record, dict):
                    return "qid" in record and "gold" in record
    except OSError:
        return False
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
