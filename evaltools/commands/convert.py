"""`evaltools convert`: bulk conversion between `.md`, `.json` and `.jsonl`."""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import TextIO

from evaltools import jsonio
from evaltools.diagnostics import Diagnostic, Severity
from evaltools.example import convert as conv
from evaltools.example import records
from evaltools.fileio import UsageError, check_paths_exist, discover


def default_jobs() -> int:
    if hasattr(os, "sched_getaffinity"):
        return max(1, len(os.sched_getaffinity(0)))
    return max(1, os.cpu_count() or 1)  # pragma: no cover (platforms without affinity)


def _refuse_output_among_sources(output: Path, paths: list[Path]) -> None:
    """Writing over a source while reading it would lose the records not yet read."""
    if str(output) == "-" or not output.is_file():
        return
    for source in paths:
        if str(source) != "-" and source.is_file() and source.samefile(output):
            raise UsageError(
                f"the output {output.as_posix()} is also a source: write to another file, "
                "then move it over the source"
            )


def run(
    *,
    paths: list[Path],
    to: str,
    output: Path,
    name: str | None,
    repo: str | None,
    offset: int,
    limit: int | None,
    jobs: int | None,
    allow_lossy: bool,
    force: bool,
    output_format: str,
    no_respect_gitignore: bool = False,
) -> int:
    if offset < 0 or (limit is not None and limit < 0):
        raise UsageError("--offset and --limit must not be negative")
    if jobs is not None and jobs < 0:
        raise UsageError("--jobs must be 0 (all cores) or more")
    check_paths_exist(paths)
    if to != "md":  # Markdown goes to a directory; the sink says so for a file
        _refuse_output_among_sources(output, paths)
    if sum(str(p) == "-" for p in paths) > 1:
        raise UsageError("stdin (-) can be read only once")
    # The listing is taken before anything is written, so no output is read back.
    sources = discover(
        paths,
        records.SUFFIXES,
        respect_gitignore=not no_respect_gitignore,
        exclude=None if str(output) == "-" else output,
        what="examples",
    )
    options = conv.Options(
        to=to,
        output=output,
        name=name,
        repo=repo,
        offset=offset,
        limit=limit,
        jobs=jobs or default_jobs(),
        allow_lossy=allow_lossy,
        force=force,
    )
    # With `-o -` the data owns stdout; the report goes to stderr.
    report_stream = sys.stderr if str(output) == "-" else sys.stdout
    found: list[Diagnostic] = []

    def on_finding(diagnostic: Diagnostic) -> None:
        found.append(diagnostic)
        if output_format == "text":
            from evaltools.report.text import format_line

            progress.clear()
            report_stream.write(format_line(diagnostic) + "\n")

    progress = Progress(sys.stderr)
    stats = conv.convert(
        sources, options, on_finding, progress.update, stdout=sys.stdout.buffer, stdin=None
    )
    progress.clear()
    if output_format == "json":
        _print_json(report_stream, options, stats, found)
    else:
        _print_summary(report_stream, options, stats)
    return 1 if any(d.severity is Severity.ERROR for d in found) else 0


def _print_summary(out: TextIO, options: conv.Options, stats: conv.Stats) -> None:
    for note in stats.notes:
        out.write(f"note: {note}\n")
    noun = "example" if stats.selected == 1 else "examples"
    parts = [f"{stats.written} written"]
    for count, what in (
        (stats.refused, "refused"),
        (stats.malformed, "malformed"),
        (stats.filtered, "not matching --name/--repo"),
        (stats.skipped, "skipped by --offset"),
        (stats.renamed, "renamed"),
    ):
        if count:
            parts.append(f"{count} {what}")
    where = "stdout" if str(options.output) == "-" else options.output.as_posix()
    out.write(f"{stats.selected} {noun} to {options.to} ({', '.join(parts)}): {where}\n")


def _print_json(
    out: TextIO, options: conv.Options, stats: conv.Stats, found: list[Diagnostic]
) -> None:
    report = {
        "to": options.to,
        "output": str(options.output),
        "read": stats.read,
        "selected": stats.selected,
        "written": stats.written,
        "refused": stats.refused,
        "malformed": stats.malformed,
        "filtered": stats.filtered,
        "skipped": stats.skipped,
        "renamed": stats.renamed,
        "notes": stats.notes,
        "findings": [d.to_json() for d in found],
    }
    out.write(jsonio.dumps(report, indent=2) + "\n")


class Progress:
    """A one-line counter on a terminal's stderr, only for runs long enough to need one."""

    AFTER_SECONDS = 2.0
    AFTER_RECORDS = 1000
    EVERY_SECONDS = 0.2

    def __init__(self, stream: TextIO, clock: Callable[[], float] = time.monotonic) -> None:
        self.stream = stream
        self.clock = clock
        self.enabled = _isatty(stream)
        self.start = clock()
        self.last = 0.0
        self.shown = False

    def update(self, stats: conv.Stats) -> None:
        if not self.enabled:
            return
        now = self.clock()
        elapsed = now - self.start
        if not self.shown and elapsed < self.AFTER_SECONDS and stats.read <= self.AFTER_RECORDS:
            return
        if self.shown and now - self.last < self.EVERY_SECONDS:
            return
        self.last = now
        self.shown = True
        rate = stats.read / elapsed if elapsed > 0 else 0.0
        megabytes = stats.bytes_read / 1e6
        self.stream.write(
            f"\r{stats.read:,} records read, {stats.written:,} written "
            f"({megabytes:,.1f} MB, {rate:,.0f} records/s)\x1b[K"
        )
        self.stream.flush()

    def clear(self) -> None:
        if self.shown:
            self.stream.write("\r\x1b[K")
            self.stream.flush()
            self.shown = False


def _isatty(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False
