"""Parsing many files once each, across processes when there are enough of them."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

from evaltools.fileio import UsageError
from evaltools.retrieval.closing import Closing

if TYPE_CHECKING:
    # Imported where used: `validate` imports this module for `worker_count` alone, and the
    # start-up time of the CLI counts (a pre-commit hook).
    from multiprocessing.pool import Pool

    from evaltools.retrieval.symbols import Definition

_T = TypeVar("_T")
_R = TypeVar("_R")

# Below this many files a pool costs more (fork, pickling) than it saves.
MIN_PARALLEL_FILES = 48


@dataclass(frozen=True)
class ParsedFile:
    """What a gold check needs from one file; `error` says why definitions are unknown."""

    definitions: tuple[Definition, ...]
    line_count: int
    error: str | None = None


def line_count(source: bytes) -> int:
    if not source:
        return 0
    return source.count(b"\n") + (0 if source.endswith(b"\n") else 1)


def parse_source(path: str, source: bytes) -> ParsedFile:
    from evaltools.retrieval.symbols import UnsupportedLanguage, find_definitions

    try:
        found = find_definitions(path, source)
    except UnsupportedLanguage as exc:
        return ParsedFile((), line_count(source), str(exc))
    return ParsedFile(tuple(found), line_count(source))


def read_and_parse(task: tuple[str, str]) -> tuple[str, ParsedFile | None]:
    """Worker for work-tree files: (key, file system path) -> parsed, or None if no file."""
    key, fs_path = task
    try:
        source = Path(fs_path).read_bytes()
    except (FileNotFoundError, NotADirectoryError, IsADirectoryError):
        return key, None
    except OSError as exc:
        return key, ParsedFile((), 0, f"cannot read the file: {exc.strerror or exc}")
    return key, parse_source(key, source)


def parse_blob(task: tuple[str, bytes | None]) -> tuple[str, ParsedFile | None]:
    """Worker for blobs read elsewhere (git): (key, bytes or None) -> parsed."""
    key, source = task
    return key, (None if source is None else parse_source(key, source))


def worker_count(jobs: int | None) -> int:
    """Processes for `--jobs`: None or 0 is every core this process may run on (as
    `lint --jobs 0`); a negative count is a usage error."""
    if jobs is None or jobs == 0:
        try:
            return max(1, len(os.sched_getaffinity(0)))
        except AttributeError:  # pragma: no cover - macOS, Windows
            return max(1, os.cpu_count() or 1)
    if jobs < 0:
        raise UsageError(f"--jobs must be 0 (every core) or more; got {jobs}")
    return jobs


class ParsePool(Closing):
    """A process pool made on first use by a large batch; serial below MIN_PARALLEL_FILES.

    Forked workers inherit the pipes of long-lived children (git cat-file): close the pool
    before those children, or they never see end-of-input.
    """

    def __init__(self, jobs: int | None = None, *, min_parallel: int = MIN_PARALLEL_FILES) -> None:
        self.jobs = worker_count(jobs)
        self.min_parallel = min_parallel
        self._pool: Pool | None = None

    def start(self) -> None:
        """Start the workers now (see the class docstring) if parallelism is possible."""
        if self._pool is None and self.jobs > 1:
            from evaltools.processes import pool_context

            self._pool = pool_context().Pool(self.jobs)

    def close(self) -> None:
        if self._pool is not None:
            self._pool.close()
            self._pool.join()
            self._pool = None

    def map_paths(self, tasks: list[tuple[str, str]]) -> Iterator[tuple[str, ParsedFile | None]]:
        if len(tasks) < self.min_parallel or self.jobs == 1:
            return map(read_and_parse, tasks)
        return self._imap(read_and_parse, tasks, len(tasks))

    def map_blobs(
        self, tasks: Iterable[tuple[str, bytes | None]], count: int
    ) -> Iterator[tuple[str, ParsedFile | None]]:
        if count < self.min_parallel or self.jobs == 1:
            return map(parse_blob, tasks)
        return self._imap(parse_blob, tasks, count)

    def _imap(self, func: Callable[[_T], _R], tasks: Iterable[_T], count: int) -> Iterator[_R]:
        self.start()
        assert self._pool is not None
        chunksize = max(1, min(64, count // (self.jobs * 8)))
        return self._pool.imap_unordered(func, tasks, chunksize)
