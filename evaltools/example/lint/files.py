"""Lint over files: one example file (`.md`, `.json`, `.jsonl`), or many in parallel.

What `evaltools lint` and `evaltools check` both run; the commands only choose the files,
show progress and report.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Callable, Iterator
from pathlib import Path

from evaltools.catalogue.io import NOT_A_FILE
from evaltools.diagnostics import Diagnostic, Rule, make
from evaltools.discover import discover
from evaltools.example.lint.diffs.rules import INVALID_RECORD
from evaltools.fileio import buffer_text, read_text_file
from evaltools.parallel.processes import Cost, batch_size, input_size, parallel_map, worker_count
from evaltools.selection import DiagnosticFilter, RuleSelection

SUFFIXES = (".md", ".json", ".jsonl")

# One core's cost of linting (benchmarks/bench_lint.py, `--jobs 1`); the caller only
# gathers the findings.
LINT_COST = Cost(per_item=2e-4, per_byte=1.5e-7, parent=0.05)


def lint_path(
    path: Path, enabled: DiagnosticFilter | None = None, data: bytes | None = None
) -> list[Diagnostic]:
    """The (`enabled`) findings of one file; of `data` instead of what the file holds when
    given (an editor's unsaved text, `evaltools server`)."""
    if path.suffix == ".md" or os.path.isdir(path):  # noqa: PTH112 (False past PATH_MAX)
        from evaltools.example.lint.linter import lint_markdown

        read = read_text_file(path) if data is None else buffer_text(path, data)
        if isinstance(read, Diagnostic):
            found = [read]
        else:
            stem = path.name.removesuffix(".md")
            return lint_markdown(read.text, read.display, stem, enabled=enabled)
    else:
        found = _lint_records(path, data)
    return found if enabled is None else list(filter(enabled, found))


def _lint_records(path: Path, data: bytes | None = None) -> list[Diagnostic]:
    from evaltools.example.lint.linter import lint_spec
    from evaltools.example.records import (
        BAD_FILE,
        BAD_JSON,
        iter_buffer_records,
        iter_records,
        placed,
    )

    out: list[Diagnostic] = []
    records = iter_records(path) if data is None else iter_buffer_records(path, data)
    for record in records:
        for error in record.errors:
            # Lint names what the reader found by its own rules: a file that cannot be read
            # as for a `.md` (IO007), a unit that is no example as EP501. Invalid JSON and
            # file-level problems (IO00x) keep their rule.
            if error.code == BAD_FILE:
                out.append(_as(NOT_A_FILE, error))
            elif error.code != BAD_JSON and not error.code.startswith("IO"):
                out.append(_as(INVALID_RECORD, error))
            else:
                out.append(error)
        if record.example is not None:
            out.extend(placed(record, lint_spec(record.example.spec, record.path, record.line)))
    return out


def _as(rule: Rule, found: Diagnostic) -> Diagnostic:
    return make(rule, found.path, found.line, found.column, found.message, pointer=found.pointer)


def lint_files(
    files: list[Path], jobs: int | None, enabled: DiagnosticFilter | None = None
) -> Iterator[list[Diagnostic]]:
    """The (`enabled`) findings of each file, in the order of `files`, as they come."""
    size = input_size(files, LINT_COST, items=len(files))
    workers = worker_count(jobs, items=len(files), size=size, cost=LINT_COST)
    batch = batch_size(len(files), workers)
    run = lint_path if enabled is None else functools.partial(lint_path, enabled=enabled)
    yield from parallel_map(run, files, workers=workers, batch=batch)


def lint_paths(
    paths: list[Path],
    selection: RuleSelection,
    *,
    root: Path | None = None,
    jobs: int | None = 1,
    respect_gitignore: bool = True,
    on_file: Callable[[int], None] | None = None,
    excluded: Callable[[Path], bool] | None = None,
) -> tuple[list[Diagnostic], int]:
    """The selected findings of every example file below `paths`, and how many files.
    `on_file` hears the count of files done so far (for a progress line)."""
    files = discover(
        paths,
        SUFFIXES[:1],
        respect_gitignore=respect_gitignore,
        what="example files",
        hint="name .json/.jsonl files directly",
        excluded=excluded,
    )
    diagnostics: list[Diagnostic] = []
    for done, found in enumerate(lint_files(files, jobs, selection.predicate(root)), 1):
        if on_file is not None:
            on_file(done)
        diagnostics.extend(found)
    return diagnostics, len(files)
