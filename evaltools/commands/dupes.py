"""`evaltools dupes`: examples or queries that count twice, and holdout leakage."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING

from evaltools.check.dupes import Found, collect
from evaltools.config.model import load_config
from evaltools.discover import check_paths_exist
from evaltools.fileio import UsageError
from evaltools.parallel.processes import check_jobs
from evaltools.selection import selection_from

if TYPE_CHECKING:
    from evaltools.diagnostics import Diagnostic


def _workers(jobs: int | None) -> int | None:
    check_jobs(jobs)
    return jobs


def run(
    paths: list[Path],
    against: list[Path],
    threshold: float | None,
    output_format: str,
    *,
    select: list[str] | None = None,
    ignore: list[str] | None = None,
    config: Path | None = None,
    jobs: int | None = None,
    max_warnings: int | None = None,
) -> int:
    settings = load_config(config)
    enabled = selection_from(settings.rules, select, ignore).predicate(settings.root)
    gate = settings.gate(max_warnings)
    configured = settings.dupes
    if threshold is None:
        threshold = configured.threshold
    if not 0.0 < threshold <= 1.0:
        raise UsageError(f"--threshold must be above 0 and at most 1, not {threshold}")
    check_paths_exist([*paths, *against])
    from evaltools.report.progress import Progress

    progress = Progress()
    read = 0

    def on_item() -> None:
        nonlocal read
        read += 1
        progress.update(read, lambda rate: f"{read:,} examples read ({rate:,.0f}/s)")

    try:
        found = collect(paths, against, threshold, settings, _workers(jobs), on_item=on_item)
    finally:
        progress.clear()
    found.pairs = [pair for pair in found.pairs if enabled(pair.to_diagnostic())]
    found.problems = list(filter(enabled, found.problems))
    diagnostics = gate.apply(found.diagnostics())  # the pairs', then the problems
    _render(found, diagnostics, output_format, gate.note(diagnostics))
    return gate.exit_code(diagnostics)


def _render(
    found: Found, diagnostics: list[Diagnostic], output_format: str, failed_by: str
) -> None:
    """The pairs and the problems, in the format asked for."""
    if output_format == "json":
        from evaltools.report import pairs_json
        from evaltools.report.text import format_line

        pairs_json.render(found.pairs, sys.stdout, [d.severity for d in diagnostics])
        # The list holds pairs only; problems go beside it.
        for problem in diagnostics[len(found.pairs) :]:
            sys.stderr.write(format_line(problem) + "\n")
        if failed_by:
            sys.stderr.write(f"evaltools: failed: {failed_by}\n")
    else:
        from evaltools.config.discovery import places_of
        from evaltools.report import render

        render(
            output_format,
            diagnostics,
            sys.stdout,
            files_checked=found.files,
            places=places_of,
            failed_by=failed_by,
        )
