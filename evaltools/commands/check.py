"""`evaltools check`: everything `[tool.evaltools]` asks for, one summary, one exit code.

Example files get lint and the round-trip check; retrieval sets get validation and the
gold check. This is what CI and the default pre-commit hook run.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING

from evaltools.check.compose import Outcome, run_checks
from evaltools.check.plan import Plan, plan
from evaltools.config.model import load_config
from evaltools.parallel.processes import check_jobs
from evaltools.rerun import with_fix
from evaltools.selection import selection_from

if TYPE_CHECKING:
    from evaltools.diagnostics import Diagnostic


def run(
    paths: list[Path],
    output_format: str,
    fix: bool,
    config: Path | None,
    jobs: int | None = None,
    *,
    select: list[str] | None = None,
    ignore: list[str] | None = None,
    no_respect_gitignore: bool = False,
    no_cache: bool = False,
    max_warnings: int | None = None,
) -> int:
    check_jobs(jobs)
    settings = load_config(config)
    selection = selection_from(settings.rules, select, ignore)
    gate = settings.gate(max_warnings)
    work = plan(paths, settings, respect_gitignore=not no_respect_gitignore)
    # `check --fix` repairs stale gold too, so a finding's hint names this command: what
    # printed it can run it as written (`gold check` may lack the paths or configuration).
    fix_command = with_fix("check", paths, (("--config", config),))
    from evaltools.report.progress import Progress

    progress = Progress()
    try:
        outcome = run_checks(
            work,
            settings,
            fix=fix,
            jobs=jobs,
            no_cache=no_cache,
            on_file=lambda done: progress.count(done, "files"),
            enabled=selection.predicate(settings.root),
            fix_command=fix_command,
        )
    finally:
        progress.clear()
    diagnostics = gate.apply(selection.filter(outcome.diagnostics, settings.root))
    _render(work, diagnostics, output_format, gate.note(diagnostics))
    _stderr_notes(work, outcome)
    return gate.exit_code(diagnostics)


def _render(work: Plan, diagnostics: list[Diagnostic], output_format: str, failed_by: str) -> None:
    """The findings and the summary on stdout, in the format asked for."""
    from evaltools.config.discovery import places_of
    from evaltools.report import render

    # A file reported as left out (IO030) is no checked file, but the summary counts it
    # among the files with findings, so the total counts it too ("1 of 4", never "1 of 3"
    # when the 3 checked are clean).
    left_out = {d.path for d in work.unlisted} & {d.path for d in diagnostics}
    files = work.files + len(left_out)
    render(
        output_format,
        diagnostics,
        sys.stdout,
        files_checked=files,
        places=places_of,
        failed_by=failed_by,
    )


def _stderr_notes(work: Plan, outcome: Outcome) -> None:
    """On stderr: what --fix rewrote, and the configured places that held nothing to check."""
    for line in outcome.fixed:
        sys.stderr.write(f"fixed: {line}\n")
    for place in work.empty:
        sys.stderr.write(f"evaltools check: warning: {place}\n")
    if work.files == 0 and not work.empty:
        sys.stderr.write(
            "evaltools check: warning: nothing to check yet: `paths` in [tool.evaltools] and "
            "`sets` in [tool.evaltools.retrieval] name no files\n"
        )
