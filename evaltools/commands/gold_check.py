"""`evaltools gold check PATH... --root DIR [--rev REV] [--metas FILE] [--fix]`.

Arguments and configuration in, `retrieval.gold_check.check_gold` does the work, and the
results go out as text, JSON, or a report format.
"""

from __future__ import annotations

import io
import sys
from collections import Counter
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from evaltools.config.model import load_config
from evaltools.parallel.processes import check_jobs
from evaltools.retrieval.code.definition_cache import cache_folder
from evaltools.retrieval.gold.gold_roots import gold_sources
from evaltools.selection import selection_from

if TYPE_CHECKING:
    from evaltools.diagnostics import Diagnostic
    from evaltools.retrieval.gold.check_cache import ResultCache
    from evaltools.retrieval.gold.gold_check import GoldCheck, GoldItem
    from evaltools.selection import DiagnosticFilter


def run(
    *,
    paths: list[Path],
    root: Path | None,
    rev: str | None,
    metas: Path | None,
    fix: bool,
    output_format: str,
    jobs: int | None = None,
    select: list[str] | None = None,
    ignore: list[str] | None = None,
    config_file: Path | None = None,
    no_cache: bool = False,
) -> int:
    config = load_config(config_file)
    selection = selection_from(config.rules, select, ignore)
    root, metas = gold_sources(root, metas, config.retrieval.root, config.retrieval.metas)
    check_jobs(jobs)
    cache_dir = None if no_cache else cache_folder(config.root)
    # A second run on an unchanged tree prints the first one's output (see check_cache);
    # the resolver is imported only when it has to run.
    from evaltools.retrieval.gold.check_cache import open_results

    results = open_results(
        cache_dir,
        paths,
        root=root,
        rev=rev,
        metas=metas,
        output_format=output_format,
        selection=repr(selection),  # the same sets, selected otherwise, print otherwise
    )
    try:
        if results is not None:
            hit = results.lookup(fix=fix)
            if hit is not None:
                sys.stdout.write(hit.stdout)
                sys.stderr.write(hit.stderr)
                return hit.code
        return _check(
            paths,
            root=root,
            rev=rev,
            metas=metas,
            fix=fix,
            output_format=output_format,
            jobs=jobs,
            cache_dir=cache_dir,
            results=results,
            enabled=selection.predicate(config.root),
        )
    finally:
        if results is not None:
            results.close()


def _check(
    paths: list[Path],
    *,
    root: Path | None,
    rev: str | None,
    metas: Path | None,
    fix: bool,
    output_format: str,
    jobs: int | None,
    cache_dir: Path | None,
    results: ResultCache | None,
    enabled: DiagnosticFilter,
) -> int:
    from evaltools.report.progress import Progress
    from evaltools.retrieval.gold.check_cache import Outcome
    from evaltools.retrieval.gold.gold_check import check_gold

    progress = Progress()

    def on_parsed(done: int) -> None:
        progress.update(done, lambda rate: f"{done:,} source files parsed ({rate:,.0f} files/s)")

    try:
        found = check_gold(
            paths,
            root=root,
            rev=rev,
            metas=metas,
            fix=fix,
            jobs=jobs,
            cache_dir=cache_dir,
            on_parsed=on_parsed,
            watch=None if results is None else results.watch,
        )
    finally:
        progress.clear()
    found.diagnostics = list(filter(enabled, found.diagnostics))
    found.problems = list(filter(enabled, found.problems))
    out, err = io.StringIO(), io.StringIO()
    _report(output_format, found, out, err)
    code = 1 if found.diagnostics else 0
    sys.stdout.write(out.getvalue())
    sys.stderr.write(err.getvalue())
    if results is not None and not fix:
        repairable = any(
            i.result is not None and i.result.status.repairable and i.result.new_chunk_id
            for i in found.items
        )
        results.store(Outcome(out.getvalue(), err.getvalue(), code), repairable=repairable)
    return code


def _report(fmt: str, found: GoldCheck, out: TextIO, err: TextIO) -> None:
    from evaltools import jsonio
    from evaltools.diagnostics import Diagnostic

    items, diagnostics, problems = found.items, found.diagnostics, found.problems
    files_checked = len(found.files)
    if fmt == "json":
        from evaltools.report.text import format_line

        # One object a line: readable, greppable, and fast for 10,000 IDs.
        objects = ",\n".join("  " + jsonio.dumps(_item_json(i)) for i in items)
        out.write(f"[\n{objects}\n]\n" if items else "[]\n")
        for problem in sorted(problems, key=Diagnostic.sort_key):
            err.write(format_line(problem) + "\n")
        return
    if fmt != "text":
        from evaltools.report import render

        render(fmt, diagnostics, out, files_checked=files_checked)
        return
    from evaltools.report.text import format_line

    for diagnostic in sorted(diagnostics, key=Diagnostic.sort_key):
        out.write(format_line(diagnostic) + "\n")
    out.write(_summary(items, problems, files_checked) + "\n")


def _item_json(item: GoldItem) -> dict[str, object]:
    from evaltools.retrieval.gold.resolve import Resolution, Status

    result = item.result or Resolution(Status.MISSING_FILE)
    return {
        "path": item.file.display,
        "line": item.line.line,
        "qid": item.qid,
        "chunk_id": item.ref.chunk_id,
        "status": result.status.value,
        "new_chunk_id": result.new_chunk_id,
        "candidates": list(result.candidates),
        "caveat": result.caveat,
    }


def _summary(items: list[GoldItem], problems: list[Diagnostic], files_checked: int) -> str:
    from evaltools.retrieval.gold.resolve import Status

    counts = Counter(i.result.status for i in items if i.result is not None)
    fixed = sum(1 for i in items if i.fixed)
    parts = [f"{counts[s]} {s.value}" for s in Status if counts[s]]
    noun = "file" if files_checked == 1 else "files"
    text = f"{len(items)} gold IDs in {files_checked} {noun}: {', '.join(parts) or 'none'}"
    if fixed:
        text += f"; {fixed} fixed"
    if problems:
        text += f"; {len(problems)} other error{'s' if len(problems) != 1 else ''}"
    return text + "."
