"""Parsing many files once each, across processes when there are enough of them."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import TYPE_CHECKING, NamedTuple, TypeVar

from evaltools.fileio import read_regular
from evaltools.parallel.closing import Closing
from evaltools.parallel.processes import Cost, batch_size, check_jobs, parallel_map, worker_count

if TYPE_CHECKING:
    from evaltools.retrieval.code.symbols import Definition

_T = TypeVar("_T")
_R = TypeVar("_R")

# One core's cost of reading and parsing a source file (benchmarks/bench_gold_check.py):
# a pool pays from about fifty files on.
PARSE_COST = Cost(per_item=0.03, parent=0.05)


class ParsedFile(NamedTuple):
    """What a gold check needs from one file; `error` says why definitions are unknown."""

    definitions: tuple[Definition, ...]
    line_count: int
    error: str | None = None


def line_count(source: bytes) -> int:
    if not source:
        return 0
    return source.count(b"\n") + (0 if source.endswith(b"\n") else 1)


def parse_source(path: str, source: bytes) -> ParsedFile:
    from evaltools.retrieval.code.symbols import UnsupportedLanguage, find_definitions

    try:
        found = find_definitions(path, source)
    except UnsupportedLanguage as exc:
        return ParsedFile((), line_count(source), str(exc))
    return ParsedFile(tuple(found), line_count(source))


def read_and_parse(task: tuple[str, str]) -> tuple[str, ParsedFile | None]:
    """Worker for work-tree files: (key, file system path) -> parsed, or None if no file."""
    key, fs_path = task
    try:
        source = read_regular(fs_path)
    except (FileNotFoundError, NotADirectoryError, IsADirectoryError):
        return key, None
    except OSError as exc:
        return key, ParsedFile((), 0, f"cannot read the file: {exc.strerror or exc}")
    return key, parse_source(key, source)


def parse_blob(task: tuple[str, bytes | None]) -> tuple[str, ParsedFile | None]:
    """Worker for blobs read elsewhere (git): (key, bytes or None) -> parsed."""
    key, source = task
    return key, (None if source is None else parse_source(key, source))


# Told the number of files parsed so far, after each one (a progress line, say).
OnParsed = Callable[[int], None]


class FileParser(Closing):
    """Parses batches of files, in worker processes when a batch is worth them (the one
    `--jobs` policy of `evaltools.parallel.processes`). Holds nothing open: a context manager only
    so that callers can scope it. `on_parsed` is called as each result comes in, with the
    count over every batch of this parser."""

    def __init__(self, jobs: int | None = None, on_parsed: OnParsed | None = None) -> None:
        check_jobs(jobs)
        self.jobs = jobs
        self.on_parsed = on_parsed
        self.parsed = 0

    def close(self) -> None:
        pass

    def map_paths(self, tasks: list[tuple[str, str]]) -> Iterator[tuple[str, ParsedFile | None]]:
        return self._map(read_and_parse, tasks, len(tasks))

    def map_blobs(
        self, tasks: Iterable[tuple[str, bytes | None]], count: int
    ) -> Iterator[tuple[str, ParsedFile | None]]:
        return self._map(parse_blob, tasks, count)

    def _map(self, func: Callable[[_T], _R], tasks: Iterable[_T], count: int) -> Iterator[_R]:
        workers = worker_count(self.jobs, items=count, cost=PARSE_COST)
        batch = batch_size(count, workers)
        results = parallel_map(func, tasks, workers=workers, batch=batch)
        return results if self.on_parsed is None else self._counted(results, self.on_parsed)

    def _counted(self, results: Iterator[_R], on_parsed: OnParsed) -> Iterator[_R]:
        for result in results:
            self.parsed += 1
            on_parsed(self.parsed)
            yield result
