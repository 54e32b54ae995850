"""`evaltools gold check [PATH...] [--root DIR] [--rev REV] [--metas FILE] [--fix]`.

Arguments and configuration in, `retrieval.gold_check.check_gold` does the work, and the
results go out as text, JSON, or a report format.
"""

from __future__ import annotations

import io
import sys
from collections import Counter
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from evaltools.config.model import Config, load_config
from evaltools.discover import check_paths_exist
from evaltools.fileio import UsageError
from evaltools.parallel.processes import check_jobs
from evaltools.rerun import with_fix
from evaltools.retrieval.code.cache_store import cache_folder
from evaltools.retrieval.gold.gold_roots import gold_sources

if TYPE_CHECKING:
    from evaltools.diagnostics import Diagnostic
    from evaltools.gate import Gate
    from evaltools.retrieval.gold.cache.result_cache import Outcome, ResultCache
    from evaltools.retrieval.gold.gold_check import GoldCheck
    from evaltools.retrieval.gold.items import GoldItem
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
    max_warnings: int | None = None,
) -> int:
    config = load_config(config_file)
    gate = config.gate(max_warnings)
    fix_command = _fix_command(paths, root, rev, metas, config_file)
    paths, root, metas = _sets_and_sources(config, paths, root, metas)
    check_jobs(jobs)
    cache_dir = None if no_cache else cache_folder(config.root)
    # A second run on an unchanged tree prints the first one's output (see result_cache);
    # the resolver is imported only when it has to run.
    from evaltools.retrieval.gold.cache.result_cache import open_results

    results = open_results(
        cache_dir,
        paths,
        root=root,
        rev=rev,
        metas=metas,
        output_format=output_format,
        selection=_selection_key(config, select, ignore, fix_command, gate),
    )
    try:
        hit = None if results is None else results.lookup(fix=fix)
        if hit is not None:
            return _replay(hit)
        from evaltools.selection import selection_from

        selection = selection_from(config.rules, select, ignore)
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
            fix_command=fix_command,
            gate=gate,
        )
    finally:
        if results is not None:
            results.close()


def _fix_command(
    paths: list[Path],
    root: Path | None,
    rev: str | None,
    metas: Path | None,
    config_file: Path | None,
) -> str:
    """What a stale ID's finding says to run: this invocation, as given, with --fix."""
    given = (("--root", root), ("--rev", rev), ("--metas", metas), ("--config", config_file))
    return with_fix("gold check", paths, given)


def _selection_key(
    config: Config, select: list[str] | None, ignore: list[str] | None, fix_command: str, gate: Gate
) -> str:
    """The options besides the sets and the tree that change what the check prints.

    The same sets, selected otherwise or named otherwise, print otherwise. The words as
    given: an entry exists only once they were checked (by this version, which the key
    holds too), so a hit needs neither the selection nor the rule catalogue."""
    return f"{config.rules!r} {select!r} {ignore!r} {fix_command} {gate!r}"


def _sets_and_sources(
    config: Config, paths: list[Path], root: Path | None, metas: Path | None
) -> tuple[list[Path], Path | None, Path | None]:
    """The sets to check, and the root and metas their gold IDs resolve against: the
    options first, then the configuration."""
    paths = configured_sets(config, paths)
    from evaltools.config.places import check_configured_sources

    check_configured_sources(
        config, *(k for k, v in (("root", root), ("metas", metas)) if v is None)
    )
    root, metas = gold_sources(root, metas, config.retrieval.root, config.retrieval.metas)
    return paths, root, metas


def _replay(hit: Outcome) -> int:
    """What the same check printed on the same tree, printed again; its exit code."""
    sys.stdout.write(hit.stdout)
    sys.stderr.write(hit.stderr)
    return hit.code


def configured_sets(config: Config, paths: list[Path]) -> list[Path]:
    """The sets named, else `sets` of [tool.evaltools.retrieval], as `check` takes them;
    the directories among them listed without what `exclude` leaves out."""
    if not paths:
        if not config.retrieval.sets:
            raise UsageError(
                "no eval sets to check: pass PATH..., or set `sets` in "
                "[tool.evaltools.retrieval] of pyproject.toml"
            )
        from evaltools.config.places import check_configured_exist

        check_configured_exist(config, "sets")
        paths = list(config.retrieval.sets)
    excluded = config.excluded
    if excluded is None or not any(str(p) != "-" and p.is_dir() for p in paths):
        return paths
    # The directories are listed here, so that what the check (and its result cache)
    # reads leaves out what `exclude` says; a missing path is the check's to report.
    from evaltools.config.evalfiles import discover_sets

    check_paths_exist(paths)
    return discover_sets(paths, excluded=excluded)


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
    fix_command: str,
    gate: Gate,
) -> int:
    from evaltools.report.progress import Progress
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
            fix_command=fix_command,
        )
    finally:
        progress.clear()
    _select_and_gate(found, enabled, gate)
    out = io.StringIO()
    _report(output_format, found, out, gate.note(found.diagnostics))
    code = gate.exit_code(found.diagnostics)
    sys.stdout.write(out.getvalue())
    if results is not None and not fix:
        _store(results, found, out.getvalue(), code)
    return code


def _select_and_gate(found: GoldCheck, enabled: DiagnosticFilter, gate: Gate) -> None:
    """The findings the rule selection keeps, at the severities the gate gives them."""
    found.diagnostics = gate.apply(filter(enabled, found.diagnostics))
    found.problems = gate.apply(filter(enabled, found.problems))
    for item in found.items:
        if item.finding is not None:
            item.finding = item.finding._replace(severity=gate.severity(item.finding))


def _store(results: ResultCache, found: GoldCheck, stdout: str, code: int) -> None:
    """Keep what was printed for the next run on the same tree, with whether --fix would
    have work."""
    from evaltools.retrieval.gold.cache.result_cache import Outcome

    repairable = found.behind or any(
        i.result is not None and i.result.status.repairable and i.result.new_chunk_id
        for i in found.items
    )
    results.store(Outcome(stdout, "", code), repairable=repairable)


def _report(fmt: str, found: GoldCheck, out: TextIO, failed_by: str) -> None:
    """`failed_by` (why warnings alone fail the run) ends the text summary; in the other
    formats the exit code says it, as their output holds findings only."""
    from evaltools.diagnostics import Diagnostic

    items, diagnostics, problems = found.items, found.diagnostics, found.problems
    files_checked = len(found.files)
    if fmt == "json":
        from evaltools import jsonio

        # One array holds everything: an object per gold ID (cli.md's shape) and one per
        # finding that is not about a resolved ID (a line that is no record, an invalid
        # key), with the same keys, so that a script reading stdout misses nothing.
        placed = [((i.file.display, i.line.line, i.column), _item_json(i)) for i in items]
        placed += [((d.path, d.line, d.column), _problem_json(d, found)) for d in problems]
        placed.sort(key=lambda pair: pair[0])  # stable: a line's IDs stay in key order
        # One object a line: readable, greppable, and fast for 10,000 IDs.
        lines = ",\n".join("  " + jsonio.dumps(o) for _, o in placed)
        out.write(f"[\n{lines}\n]\n" if placed else "[]\n")
        return
    if fmt != "text":
        from evaltools.config.discovery import places_of
        from evaltools.report import render

        render(fmt, diagnostics, out, files_checked=files_checked, places=places_of)
        return
    from evaltools.report.text import format_line

    for diagnostic in sorted(diagnostics, key=Diagnostic.sort_key):
        out.write(format_line(diagnostic) + "\n")
    out.write(_summary(items, problems, files_checked, failed_by) + "\n")


def _item_json(item: GoldItem) -> dict[str, object]:
    from evaltools.retrieval.gold.reanchor.resolve import Resolution, Status

    result = item.result or Resolution(Status.MISSING_FILE)
    status = result.contract_status
    # `new_chunk_id` is where --fix rewrites the ID: moved, renamed_file, and a relocated
    # ID (reported as missing by name), which leads its candidates too.
    new = result.new_chunk_id if result.status.repairable else None
    lead = [new] if new is not None and result.status is Status.RELOCATED else []
    candidates = lead + [c for c in result.candidates if c not in lead]
    return {
        "path": item.file.display,
        "line": item.line.line,
        "column": item.column,
        "qid": item.qid,
        "chunk_id": item.ref.chunk_id,
        "status": status.value,
        "kind": result.status.value,
        "new_chunk_id": new,
        "candidates": candidates,
        "caveat": result.caveat,
        "evidence": result.evidence if new is not None else None,
        "fixed": item.fixed,
        **_finding_json(item.finding),
    }


def _problem_json(problem: Diagnostic, found: GoldCheck) -> dict[str, object]:
    """A finding about no resolved gold ID (an invalid key: its qid and key), with the keys
    of the ID objects and no status."""
    qid, key = found.invalid.get(problem, (None, None))
    return {
        "path": problem.path,
        "line": problem.line,
        "column": problem.column,
        "qid": qid,
        "chunk_id": key,
        "status": None,
        "kind": None,
        "new_chunk_id": None,
        "candidates": [],
        "caveat": None,
        "evidence": None,
        "fixed": False,
        **_finding_json(problem),
    }


def _finding_json(finding: Diagnostic | None) -> dict[str, object]:
    """The lint shape's fields (`code`, `name`, `severity`, `message`); null for an ok ID."""
    if finding is None:
        return dict.fromkeys(("code", "name", "severity", "message"))
    return {
        "code": finding.code,
        "name": finding.name,
        "severity": finding.severity.value,
        "message": finding.message,
    }


def _summary(
    items: list[GoldItem], problems: list[Diagnostic], files_checked: int, failed_by: str = ""
) -> str:
    from evaltools.diagnostics import Severity
    from evaltools.retrieval.gold.reanchor.resolve import Status

    counts = Counter(i.result.status for i in items if i.result is not None)
    fixed = sum(1 for i in items if i.fixed)
    parts = [f"{counts[s]} {s.value}" for s in Status if counts[s]]
    noun = "file" if files_checked == 1 else "files"
    text = f"{len(items)} gold IDs in {files_checked} {noun}: {', '.join(parts) or 'none'}"
    if fixed:
        text += f"; {fixed} fixed"
    for severity, what in ((Severity.INFO, "note"), (Severity.WARNING, "warning")):
        if n := sum(1 for p in problems if p.severity is severity):
            text += f"; {n} {what}{'s' if n != 1 else ''}"
    if n := sum(1 for p in problems if p.severity is Severity.ERROR):
        text += f"; {n} other error{'s' if n != 1 else ''}"
    return text + (f" ({failed_by})." if failed_by else ".")
