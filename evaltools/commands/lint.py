"""`evaltools lint`: the rule catalogue over example files."""

from __future__ import annotations

import sys
from pathlib import Path

from evaltools.config.model import Config, load_config
from evaltools.discover import check_paths_exist
from evaltools.example.lint.files import lint_paths
from evaltools.fileio import UsageError
from evaltools.parallel.processes import check_jobs
from evaltools.report.progress import Progress
from evaltools.selection import selection_from


def configured_paths(config: Config, paths: list[Path]) -> list[Path]:
    if paths:
        return paths
    if not config.paths:
        raise UsageError("no paths given and no `paths` in [tool.evaltools]")
    from evaltools.config.places import check_configured_exist

    check_configured_exist(config, "paths")
    return list(config.paths)


def run(
    paths: list[Path],
    output_format: str,
    select: list[str],
    ignore: list[str],
    config: Path | None,
    *,
    jobs: int | None = None,
    no_respect_gitignore: bool = False,
    max_warnings: int | None = None,
) -> int:
    check_jobs(jobs)
    settings = load_config(config)
    selection = selection_from(settings.rules, select, ignore)
    gate = settings.gate(max_warnings)
    targets = configured_paths(settings, paths)
    check_paths_exist(targets)
    progress = Progress()
    try:
        diagnostics, files = lint_paths(
            targets,
            selection,
            root=settings.root,
            jobs=jobs,
            respect_gitignore=not no_respect_gitignore,
            on_file=lambda done: progress.count(done, "files"),
            excluded=settings.excluded,
        )
    finally:
        progress.clear()
    from evaltools.config.discovery import places_of
    from evaltools.report import render

    diagnostics = gate.apply(diagnostics)
    failed_by = gate.note(diagnostics)
    render(
        output_format,
        diagnostics,
        sys.stdout,
        files_checked=files,
        places=places_of,
        failed_by=failed_by,
    )
    return gate.exit_code(diagnostics)
