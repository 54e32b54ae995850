"""Validating retrieval sets file by file, in parallel: what `validate` and `check` share."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

from evaltools import jsonio
from evaltools.config.evalfiles import discover_sets
from evaltools.config.model import load_config
from evaltools.diagnostics import Diagnostic
from evaltools.fileio import UsageError, display_path
from evaltools.parallel.processes import Cost, available_cores, parallel_map, worker_count

STDIN = Path("-")
# One core's cost of checking records (benchmarks/bench_validate.py, `--jobs 1`); workers
# return only findings, so the caller's share is small.
VALIDATE_COST = Cost(per_byte=1e-7, parent=0.05)


def schema_text_for(schema: Path | None) -> str | None:
    """The user's schema as JSON text for the workers, or None for the default (fast path)."""
    from evaltools.retrieval.records.validation.schema import is_default_schema, load_schema

    if schema is None:
        configured = load_config().retrieval.schema
        if configured is None:
            return None
        schema = configured
    if not schema.is_file():
        if schema.exists():
            raise UsageError(
                f"schema {schema.as_posix()} is not a file (a directory, device or FIFO): "
                "give the JSON Schema file"
            )
        raise UsageError(f"no such schema file: {schema.as_posix()}")
    loaded = load_schema(schema)
    # The same schema as ours (a copy, say) is proven equivalent to the fast check.
    return None if is_default_schema(loaded) else jsonio.dumps(loaded, ensure_ascii=True)


def jsonl_files(
    paths: Sequence[Path],
    *,
    respect_gitignore: bool = True,
    excluded: Callable[[Path], bool] | None = None,
) -> list[Path]:
    """Named files as given, directories searched for *.jsonl (but what `excluded` says);
    each file once (as `discover` takes it), sorted."""
    found = discover_sets(paths, respect_gitignore=respect_gitignore, excluded=excluded)
    return sorted(found, key=lambda p: (p == STDIN, display_path(p)))


def check_files(
    files: list[Path],
    schema_text: str | None,
    jobs: int | None,
    drafts: Callable[[Path], bool] | None = None,
) -> Iterator[list[Diagnostic]]:
    """The findings of each file, chunk by chunk, in file order (what `evaltools check`
    can reuse: `jsonl_files` and `schema_text_for` give the arguments; `jobs` is --jobs;
    `drafts` says which files collect drafts, `RetrievalConfig.collects_drafts`)."""
    from evaltools.retrieval.records.validation.validate import (
        FileCheck,
        FilePlan,
        check_chunk,
        check_lines,
        checker_for,
        plan_file,
    )

    # Planned for every core (chunks only): how many of them pay is known after.
    cores = 1 if jobs == 1 else available_cores()
    plans = [
        path
        if path == STDIN
        else plan_file(
            path,
            jobs=cores,
            schema_text=schema_text,
            drafts=drafts is not None and drafts(path),
        )
        for path in files
    ]
    tasks = [task for plan in plans if isinstance(plan, FilePlan) for task in plan.tasks]
    size = sum(plan.size for plan in plans if isinstance(plan, FilePlan))
    workers = worker_count(jobs, items=len(tasks), size=size, cost=VALIDATE_COST)
    results = parallel_map(check_chunk, tasks, workers=workers)
    try:
        for plan in plans:
            if isinstance(plan, Diagnostic):
                yield [plan]
            elif isinstance(plan, FilePlan):
                joined = FileCheck(plan.display, plan.path)
                for _ in plan.tasks:
                    yield joined.add(next(results))
            else:
                lines = check_lines(sys.stdin.buffer, "<stdin>", checker_for(schema_text))
                yield FileCheck("<stdin>").add(lines)
    finally:
        results.close()
