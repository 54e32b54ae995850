"""Bulk conversion between `.md`, `.json` and `.jsonl`: streaming, parallel, lossless.

The pipeline: the sources are cut into raw units in this process (cheap), units go in
chunks to worker processes that parse, filter and convert them (`convert_record`), and
the results come back in input order to this process, which applies `--offset` and
`--limit`, names the output files, and writes. At most a few chunks per worker are in
flight, so memory does not grow with the input. An output that holds one example (a `.md`
or `.json` file, or stdout) is written at the end, once the selection is known to be one
example: how many are selected is known only as they are read (stdin, `--name`), and a
second one makes the run a usage error with nothing written.

The selection differs from the reference CLI on purpose: the reference sorts by
repository and revision first; here the input order is kept (deterministic output), then
`--name`/`--repo` (substrings), then `--offset`, then `--limit` apply, in that order.

Nothing here prints: findings and progress go to the callbacks the caller gives.
"""

from __future__ import annotations

import contextlib
import functools
import itertools
from collections import deque
from collections.abc import Callable, Generator, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import BinaryIO

from evaltools.diagnostics import Diagnostic, make
from evaltools.example.convert.kinds import (
    COLLISION,
    LOSSY,
    LOSSY_ALLOWED,
    RULE_OF_KIND,
    UNWRITABLE,
)
from evaltools.example.convert.record import (
    FILTERED,
    MALFORMED,
    TARGETS,
    Converted,
    Settings,
    convert_unit,
)
from evaltools.example.convert.sinks import (
    EXISTS,
    WRITE_FAILED,
    DirectorySink,
    JsonlSink,
    SingleSink,
    Sink,
    SinkFailed,
)
from evaltools.example.records import Unit, iter_all_units
from evaltools.fileio import UsageError, display_path
from evaltools.parallel.processes import Cost, input_size, parallel_map, worker_count

CHUNK_SIZE = 256

# One core's cost of converting, by target (benchmarks/bench_convert.py, `--jobs 1` over
# its input): Markdown is rendered and read back, JSON only serialized. The caller reads,
# cuts, names and writes (a file per example for md and json): its share of the wall time.
# Measured on 2 cores, workers never paid for JSON targets (3x slower on 64 MB), so the
# default keeps them in process.
COSTS = {
    "md": Cost(per_byte=2.3e-7, parent=0.5),
    "json": Cost(per_byte=4.5e-8, parent=1.0),
    "jsonl": Cost(per_byte=4.5e-8, parent=1.0),
}


@dataclass(frozen=True)
class Options:
    to: str
    output: Path  # `-` for stdout
    name: str | None = None
    repo: str | None = None
    offset: int = 0
    limit: int | None = None
    jobs: int | None = 1  # --jobs; None: as many as the input is worth
    allow_lossy: bool = False
    force: bool = False
    # `-o out.json/`: a folder, whatever its name ends with.
    output_is_folder: bool = False
    chunk_size: int = CHUNK_SIZE


@dataclass
class Stats:
    read: int = 0  # units read from the sources
    bytes_read: int = 0
    malformed: int = 0
    filtered: int = 0  # not matching --name / --repo
    skipped: int = 0  # by --offset
    selected: int = 0
    written: int = 0
    refused: int = 0
    renamed: int = 0
    notes: list[str] = field(default_factory=list)


__all__ = ["Options", "Stats", "convert"]

OnFinding = Callable[[Diagnostic], None]
OnProgress = Callable[[Stats], None]


def convert(
    sources: Iterable[Path],
    options: Options,
    on_finding: OnFinding,
    on_progress: OnProgress | None = None,
    *,
    stdout: BinaryIO | None = None,
    stdin: BinaryIO | None = None,
) -> Stats:
    """Convert every example of `sources`; return the counts. Raises nothing for bad input;
    `UsageError` (with nothing written) when a one-example output gets several."""
    if options.to not in TARGETS:
        raise ValueError(f"unknown target {options.to!r}")
    stats = Stats()
    sink = _usable_sink(options, stdout, on_finding)
    if sink is None:
        return stats
    settings = Settings(
        options.to, options.name, options.repo, options.allow_lossy, sink.stem, sink.spool
    )
    run = _Run(options, settings, sink, stats, on_finding)
    exclude = None if str(options.output) == "-" else options.output
    units = iter_all_units(sources, exclude=exclude, stdin=stdin)
    results = _results(units, options, settings, _workers(sources, options))
    try:
        try:
            for chunk, converted in results:
                if run.take(chunk, converted):
                    break
                if on_progress is not None:
                    on_progress(stats)
        finally:
            # Stop the workers before the sink cleans up what they may still be writing.
            results.close()
        run.release()
        # Every example refused (or unreadable): no output file at all, not an empty one
        # that then stands in the way of the run that fixes them ("already exists").
        sink.commit(keep_empty=not (stats.refused or stats.malformed))
    except SinkFailed as failure:  # the one output file: none of it was written
        on_finding(make(RULE_OF_KIND[WRITE_FAILED], display_path(failure.path), 1, 1, str(failure)))
        stats.refused += stats.written
        stats.written = 0
    finally:
        sink.close()
    run.finish()
    return stats


def _usable_sink(options: Options, stdout: BinaryIO | None, on_finding: OnFinding) -> Sink | None:
    """The sink to write to; None when nothing can be written, and a finding says why."""
    try:
        sink = open_sink(options, stdout)
    except SinkFailed as failure:  # the output folder cannot be made: nothing was written
        on_finding(make(RULE_OF_KIND[WRITE_FAILED], display_path(failure.path), 1, 1, str(failure)))
        return None
    refusal = sink.refusal()
    if refusal is not None:
        on_finding(make(RULE_OF_KIND[EXISTS], refusal[0], 1, 1, refusal[1]))
        return None
    return sink


def open_sink(options: Options, stdout: BinaryIO | None) -> Sink:
    to_stdout = str(options.output) == "-"
    if options.to == "jsonl":
        return JsonlSink(None if to_stdout else options.output, stdout, force=options.force)
    suffix = f".{options.to}"
    one_file = not (options.output.is_dir() or options.output_is_folder)
    if to_stdout or (options.output.suffix == suffix and one_file):
        return SingleSink(None if to_stdout else options.output, stdout, force=options.force)
    return DirectorySink(options.output, suffix, force=options.force)


def _chunks(units: Iterator[Unit], size: int) -> Iterator[list[Unit]]:
    while True:
        chunk = list(itertools.islice(units, size))
        if not chunk:
            return
        yield chunk


def _workers(sources: Iterable[Path], options: Options) -> int:
    if options.jobs == 1:
        return 1
    cost = COSTS[options.to]
    files = [p for p in sources if str(p) != "-"]
    size = input_size(files, cost)
    # Chunks are the work items; stdin's size is unknown, so it counts for nothing here.
    chunks = max(2, size // (options.chunk_size * 1024))
    return worker_count(options.jobs, items=chunks, size=size, cost=cost)


def _results(
    units: Iterator[Unit], options: Options, settings: Settings, workers: int
) -> Generator[tuple[list[Unit], list[Converted]], None, None]:
    """Each chunk of units with its results, in input order, with bounded work in flight."""
    chunks = _chunks(units, options.chunk_size)
    head = list(itertools.islice(chunks, 2))
    if len(head) < 2:
        workers = 1  # one chunk is not worth starting processes for
    sent: deque[list[Unit]] = deque()

    def send(chunks: Iterable[list[Unit]]) -> Iterator[list[Unit]]:
        for chunk in chunks:
            sent.append(chunk)
            yield chunk

    convert = functools.partial(convert_chunk, settings=settings)
    results = parallel_map(convert, send(itertools.chain(head, chunks)), workers=workers)
    try:
        for converted in results:
            yield sent.popleft(), converted
    finally:
        results.close()


def convert_chunk(chunk: list[Unit], settings: Settings) -> list[Converted]:
    return [convert_unit(unit, settings) for unit in chunk]


class _Run:
    """The in-order part: selection, naming, writing, reporting."""

    def __init__(
        self,
        options: Options,
        settings: Settings,
        sink: Sink,
        stats: Stats,
        on_finding: OnFinding,
    ) -> None:
        self.options = options
        self.settings = settings
        self.sink = sink
        self.stats = stats
        self.report = on_finding
        self.names = _Names()
        # A one-example output's example, written only once no second one turned up.
        self.held: tuple[Unit, Converted] | None = None
        self.count_exact = True  # False when a second example stopped the reading

    def take(self, chunk: list[Unit], results: list[Converted]) -> bool:
        """Handle one chunk's results; True to stop reading: --limit is reached, or a
        one-example output got a second one."""
        for unit, result in zip(chunk, results, strict=True):
            self.stats.read += 1
            self.stats.bytes_read += result.size
            if result.status == MALFORMED:
                self.malformed(result)
                continue
            if result.status == FILTERED:
                self.stats.filtered += 1
                continue
            if self.stats.skipped < self.options.offset:
                self.stats.skipped += 1
                _discard(result)
                continue
            if self.options.limit is not None and self.stats.selected >= self.options.limit:
                return True
            self.stats.selected += 1
            if not self.sink.one_example:
                self.selected(unit, result)
            elif self.held is None:
                self.held = unit, result
            else:
                _discard(result)  # counted for the message, never written
        limit = self.options.limit
        if limit is not None and self.stats.selected >= limit:
            return True
        if self.sink.one_example and self.stats.selected > 1:
            # Reading on to count them all would convert everything for an error: stop.
            # Only a short chunk is known to be the last one.
            self.count_exact = len(chunk) < self.options.chunk_size
            return True
        return False

    def release(self) -> None:
        """Write the held example, or refuse the run when it selected several."""
        if self.held is None:
            return
        unit, result = self.held
        self.held = None
        if self.stats.selected > 1:
            _discard(result)
            raise UsageError(_several(self.options, self.stats.selected, self.count_exact))
        self.selected(unit, result)

    def malformed(self, result: Converted) -> None:
        self.stats.malformed += 1
        for error in result.errors:
            self.report(error)

    def selected(self, unit: Unit, result: Converted) -> None:
        stem = result.stem
        if self.sink.named:
            stem = self.names.claim(result.stem)
            if stem != result.stem:
                self.stats.renamed += 1
                self.report(
                    make(
                        RULE_OF_KIND[COLLISION],
                        result.path,
                        result.line,
                        1,
                        f"an earlier example has the same file name {result.stem}"
                        f"{self.sink.suffix}: written as {stem}{self.sink.suffix}",
                    )
                )
                if self.options.to == "md":
                    # The title depends on the file name: render again for the new one.
                    _discard(result)
                    result = convert_unit(unit, self.settings, stem)
        if result.unwritable is not None:
            self.refuse(UNWRITABLE, result, result.unwritable)
            return
        if result.losses:
            self.losses(result)
        if result.unspooled is not None:
            self.refuse(
                WRITE_FAILED, result, f"cannot write {self.sink.shown(stem)}: {result.unspooled}"
            )
            return
        if result.spooled is not None:
            problem = self.sink.place(stem, result.spooled)
        elif result.text is not None:
            problem = self.sink.write(stem, result.text)
        else:
            self.stats.refused += 1
            return
        if problem is None:
            self.stats.written += 1
        else:
            self.refuse(problem[0], result, problem[1])

    def losses(self, result: Converted) -> None:
        for loss in result.losses:
            if self.options.allow_lossy:
                message = f"{loss.message}; written without it (--allow-lossy)"
                self.report(
                    make(RULE_OF_KIND[LOSSY_ALLOWED], result.path, loss.line, loss.column, message)
                )
            else:
                message = (
                    f"{loss.message}: not converted ({loss.fix}, or pass --allow-lossy to drop it)"
                )
                self.report(make(RULE_OF_KIND[LOSSY], result.path, loss.line, loss.column, message))

    def refuse(self, kind: str, result: Converted, message: str) -> None:
        self.stats.refused += 1
        self.report(make(RULE_OF_KIND[kind], result.path, result.line, 1, message))

    def finish(self) -> None:
        offset = self.options.offset
        if offset and self.stats.skipped < offset:
            matched = self.stats.skipped
            self.stats.notes.append(
                f"--offset {offset} is past the end: only {matched} example"
                f"{'' if matched == 1 else 's'} matched, so nothing was converted"
            )


def _several(options: Options, count: int, exact: bool) -> str:
    if str(options.output) == "-":
        output = "-o - (stdout) takes one example"
    else:
        output = f"-o {display_path(options.output)} names one file"
    return (
        f"{output}, but {'' if exact else 'at least '}{count} examples were selected: "
        "name a directory with -o for one file per example, or write them all into one "
        "file with --to jsonl (or select one with --name, --offset or --limit 1)"
    )


def _discard(result: Converted) -> None:
    if result.spooled is not None:
        with contextlib.suppress(OSError):
            Path(result.spooled).unlink()


class _Names:
    """Output file stems, unique in input order: a repeated one gets `-2`, `-3`, ...

    Compared case-insensitively, so that the same input gives the same files on a
    case-insensitive file system. Only hashes are kept: about 70 bytes per example.
    """

    def __init__(self) -> None:
        self.taken: set[int] = set()

    def claim(self, stem: str) -> str:
        candidate, number = stem, 1
        while hash(candidate.casefold()) in self.taken:
            number += 1
            candidate = f"{stem}-{number}"
        self.taken.add(hash(candidate.casefold()))
        return candidate
