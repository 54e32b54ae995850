"""`evaltools convert`: bulk conversion between `.md`, `.json` and `.jsonl`."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TextIO

from evaltools import jsonio
from evaltools.config.evalfiles import looks_like_retrieval_set
from evaltools.config.exclude import walk_exclusion
from evaltools.diagnostics import Diagnostic, Severity
from evaltools.discover import check_paths_exist, discover, refuse_input_as_output
from evaltools.example import records
from evaltools.example.convert import pipeline as conv
from evaltools.fileio import UsageError, display_path
from evaltools.parallel.processes import check_jobs
from evaltools.report.progress import Progress


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
    output_is_folder: bool = False,
) -> int:
    if offset < 0 or (limit is not None and limit < 0):
        raise UsageError("--offset and --limit must not be negative")
    check_jobs(jobs)
    sources, sets = _sources(paths, to, output, respect_gitignore=not no_respect_gitignore)
    options = conv.Options(
        to=to,
        output=output,
        name=name,
        repo=repo,
        offset=offset,
        limit=limit,
        jobs=jobs,
        allow_lossy=allow_lossy,
        force=force,
        output_is_folder=output_is_folder,
    )
    # With `-o -` the data owns stdout; the report goes to stderr.
    report_stream = sys.stderr if str(output) == "-" else sys.stdout
    stats, found = _convert(sources, options, output_format, report_stream)
    stats.notes[:0] = [
        f"{display_path(path)} is a retrieval set, not examples: left out (name it to "
        "convert it all the same)"
        for path in sets
    ]
    if output_format == "json":
        _print_json(report_stream, options, stats, found)
    else:
        _print_summary(report_stream, options, stats)
    return 1 if any(d.severity is Severity.ERROR for d in found) else 0


def _sources(
    paths: list[Path], to: str, output: Path, *, respect_gitignore: bool
) -> tuple[list[Path], list[Path]]:
    """(the example files to convert, the retrieval sets left out), listed before anything
    is written, so that no output is read back; refused when the output is one of them."""
    check_paths_exist(paths)
    if to != "md" and str(output) != "-":  # Markdown goes to a folder: the sink says so
        # Writing over a source while reading it would lose the records not yet read.
        refuse_input_as_output(output, [p for p in paths if str(p) != "-"], "-o")
    if sum(str(p) == "-" for p in paths) > 1:
        raise UsageError("stdin (-) can be read only once")
    sources = discover(
        paths,
        records.SUFFIXES,
        respect_gitignore=respect_gitignore,
        exclude=None if str(output) == "-" else output,
        what="examples",
        excluded=walk_exclusion(paths),
    )
    return _without_sets(sources, paths)


def _convert(
    sources: list[Path], options: conv.Options, output_format: str, report_stream: TextIO
) -> tuple[conv.Stats, list[Diagnostic]]:
    """The conversion's counts and findings; in the text format each finding is written as
    it comes, and a progress line shows on stderr meanwhile."""
    found: list[Diagnostic] = []

    def on_finding(diagnostic: Diagnostic) -> None:
        found.append(diagnostic)
        if output_format == "text":
            from evaltools.report.text import format_line

            progress.clear()
            report_stream.write(format_line(diagnostic) + "\n")

    progress = Progress(sys.stderr)

    def on_progress(stats: conv.Stats) -> None:
        progress.update(stats.read, lambda rate: _progress_line(stats, rate))

    try:
        stats = conv.convert(
            sources, options, on_finding, on_progress, stdout=sys.stdout.buffer, stdin=None
        )
    finally:  # a usage error found while reading goes on a line of its own
        progress.clear()
    return stats, found


def _without_sets(sources: list[Path], named: list[Path]) -> tuple[list[Path], list[Path]]:
    """(the sources, the retrieval sets found in a folder among them): a set beside the
    examples is no example file, as `check` sorts them; one named is read as examples."""
    given = {str(p) for p in named}
    found = [p for p in sources if p.suffix == ".jsonl" and str(p) not in given]
    if not found:
        return sources, []
    sets = {str(p) for p in found if looks_like_retrieval_set(p)}
    return [p for p in sources if str(p) not in sets], [p for p in found if str(p) in sets]


def _progress_line(stats: conv.Stats, rate: float) -> str:
    return (
        f"{stats.read:,} records read, {stats.written:,} written "
        f"({stats.bytes_read / 1e6:,.1f} MB, {rate:,.0f} records/s)"
    )


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
