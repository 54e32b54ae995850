"""`evaltools roundtrip`: exact / reformat / lossy for each example file, and `--fix`."""

from __future__ import annotations

import functools
import sys
from pathlib import Path

from evaltools import jsonio
from evaltools.config.exclude import walk_exclusion
from evaltools.discover import check_paths_exist, discover
from evaltools.example.markdown.roundtrip_files import ROUNDTRIP_COST, FileResult, check_file
from evaltools.fileio import UsageError, display_path
from evaltools.parallel.processes import (
    batch_size,
    check_jobs,
    input_size,
    parallel_map,
    worker_count,
)
from evaltools.report.progress import Progress


def run(  # noqa: PLR0917 (the table's parameters, by name or position)
    paths: list[Path],
    fix: bool,
    diff: bool,
    strict_reference: bool,
    output_format: str,
    jobs: int | None = None,
    *,
    no_respect_gitignore: bool = False,
    max_warnings: int | None = None,
) -> int:
    check_jobs(jobs)
    check_paths_exist(paths, stdin=False)
    from evaltools.config.model import load_config

    gate = load_config().gate(max_warnings)
    files = discover(
        paths,
        (".md",),
        respect_gitignore=not no_respect_gitignore,
        what="example files",
        excluded=walk_exclusion(paths),
    )
    records = [f for f in files if f.suffix in (".json", ".jsonl")]
    if records:
        # Read as Markdown they would fail for want of a cursor section: a false verdict.
        raise UsageError(
            f"{display_path(records[0])} is an example in JSON form, which has no Markdown "
            "layout to round-trip: name .md files (`evaltools lint` checks .json/.jsonl)"
        )
    size = input_size(files, ROUNDTRIP_COST, items=len(files))
    workers = worker_count(jobs, items=len(files), size=size, cost=ROUNDTRIP_COST)
    check = functools.partial(check_file, fix=fix, diff=diff, strict_reference=strict_reference)
    batch = batch_size(len(files), workers)
    results: list[FileResult] = []
    progress = Progress()
    for result in parallel_map(check, files, workers=workers, batch=batch):
        result.diagnostics = gate.apply(result.diagnostics)
        results.append(result)
        progress.count(len(results), "files")
    progress.clear()
    # A file `--fix` rewrote has nothing left to warn about.
    failed_by = gate.note(d for r in results if not r.fixed for d in r.diagnostics)
    if output_format == "json":
        _print_json(results)
        if failed_by:
            sys.stderr.write(f"evaltools: failed: {failed_by}\n")
    else:
        _print_text(results, fix=fix, failed_by=failed_by)
    return 1 if failed_by or any(_still_wrong(r) for r in results) else 0


def _still_wrong(result: FileResult) -> bool:
    """A file that does not round-trip once the command ends: a `reformat` file `--fix`
    rewrote does (exit 0, as black and `ruff format` exit after rewriting; pre-commit fails
    the hook by itself when a file changed), a lossy one it refused does not."""
    return result.status != "exact" and not (result.status == "reformat" and result.fixed)


def _print_json(results: list[FileResult]) -> None:
    items = []
    for r in results:
        item: dict[str, object] = {"path": r.path, "status": r.status}
        if r.line is not None and r.status != "exact":
            item["line"] = r.line
        if r.fixed:
            item["fixed"] = True
        if r.status in ("invalid", "lossy") or (r.diagnostics and r.status == "reformat"):
            item["messages"] = [d.message for d in r.diagnostics]
        if r.diff:
            item["diff"] = r.diff
        items.append(item)
    sys.stdout.write(jsonio.dumps(items, indent=2) + "\n")


def _print_text(results: list[FileResult], *, fix: bool, failed_by: str) -> None:
    from evaltools.report.text import format_line, under_pre_commit

    counts: dict[str, int] = {}
    for r in results:
        counts[r.status] = counts.get(r.status, 0) + 1
        for d in r.diagnostics:
            sys.stdout.write(format_line(d) + "\n")
        if r.fixed:
            sys.stdout.write(f"{r.path}: fixed (rewritten in canonical form)\n")
        elif fix and r.status == "lossy":
            sys.stdout.write(f"{r.path}: not rewritten: it holds content the model cannot keep\n")
        if r.diff:
            sys.stdout.write(r.diff)
    order = ("exact", "reformat", "lossy", "invalid")
    parts = [f"{counts[s]} {s}" for s in order if counts.get(s)]
    fixed = sum(r.fixed for r in results)
    tail = f" ({fixed} fixed)" if fixed else ""
    noun = "file" if len(results) == 1 else "files"
    if under_pre_commit() and counts.get("exact", 0) == len(results) and not failed_by:
        return  # a clean batch of a hook run says nothing
    why = f" ({failed_by})" if failed_by else ""
    sys.stdout.write(f"{len(results)} {noun}: {', '.join(parts) or 'none'}{tail}{why}.\n")
