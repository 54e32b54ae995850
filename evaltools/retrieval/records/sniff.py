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
