"""`evaltools validate` and `evaltools gold stats`: files in, findings and figures out."""

from __future__ import annotations

import sys
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any, TextIO

from evaltools import jsonio
from evaltools.config.discovery import places_of
from evaltools.config.model import load_config
from evaltools.diagnostics import Diagnostic, Severity, make, worst_exit_code
from evaltools.discover import check_paths_exist
from evaltools.fileio import UsageError, display_path
from evaltools.parallel.processes import (
    check_jobs,
)
from evaltools.report import render
from evaltools.report.progress import Progress
from evaltools.retrieval.records.validation.check_files import (
    STDIN,
    check_files,
    jsonl_files,
    schema_text_for,
)

__all__ = ["gold_stats", "stats_table", "validate"]


def validate(
    paths: list[Path],
    schema: Path | None,
    output_format: str,
    max_errors: int | None,
    jobs: int | None,
    *,
    select: list[str] | None = None,
    ignore: list[str] | None = None,
    config: Path | None = None,
    no_respect_gitignore: bool = False,
    max_warnings: int | None = None,
) -> int:
    from evaltools.retrieval.records.validation.validate import checker_for
    from evaltools.selection import selection_from

    if max_errors is not None and max_errors < 0:
        raise UsageError("--max-errors must be 0 or more")
    check_jobs(jobs)
    settings = load_config(config)
    enabled = selection_from(settings.rules, select, ignore).predicate(settings.root)
    gate = settings.gate(max_warnings)
    check_paths_exist(paths)
    if schema is None:
        from evaltools.config.places import check_configured_sources

        check_configured_sources(settings, "schema")
    schema_text = schema_text_for(schema)
    if schema_text is not None:
        checker_for(schema_text)  # compile it here: workers forked later inherit it
    files = jsonl_files(
        paths, respect_gitignore=not no_respect_gitignore, excluded=settings.excluded
    )
    shown = _Shown(max_errors)
    progress = Progress()
    for done, found in enumerate(
        check_files(files, schema_text, jobs, settings.retrieval.collects_drafts)
    ):
        shown.extend(gate.apply(filter(enabled, found)))
        progress.count(done + 1, "parts")
    progress.clear()
    failed_by = gate.failed_by(shown.counts[Severity.WARNING])
    shown.write(output_format, sys.stdout, len(files), failed_by)
    return 1 if shown.counts[Severity.ERROR] or failed_by else 0


class _Shown:
    """The findings to print (the first `limit` in order), and how many there were in all."""

    def __init__(self, limit: int | None) -> None:
        self.limit = limit
        self.kept: list[Diagnostic] = []
        self.counts: Counter[Severity] = Counter()
        self.paths: set[str] = set()  # of the files with findings, shown or not

    def extend(self, found: Sequence[Diagnostic]) -> None:
        for diagnostic in found:
            self.counts[diagnostic.severity] += 1
            self.paths.add(diagnostic.path)
        room = len(found) if self.limit is None else max(self.limit - len(self.kept), 0)
        self.kept.extend(found[:room])

    @property
    def omitted(self) -> int:
        return sum(self.counts.values()) - len(self.kept)

    def write(self, output_format: str, out: TextIO, files_checked: int, failed_by: str) -> None:
        note = f"{self.omitted} more findings not shown (--max-errors {self.limit})"
        if not self.omitted or output_format != "text":
            render(
                output_format,
                self.kept,
                out,
                files_checked=files_checked,
                places=places_of,
                failed_by=failed_by,
            )
            if self.omitted:
                sys.stderr.write(f"evaltools validate: {note}\n")
            return
        from evaltools.report.text import format_line, found_line

        for diagnostic in self.kept:
            out.write(format_line(diagnostic) + "\n")
        summary = found_line(self.counts, len(self.paths), files_checked, failed_by)
        out.write(f"... {note}.\n{summary}\n")


def gold_stats(paths: list[Path], output_format: str) -> int:
    from evaltools.retrieval.records.record import iter_record_lines
    from evaltools.retrieval.records.stats import SetStats, Targets, to_json, warnings
    from evaltools.retrieval.records.validation.rules import UNREADABLE_FILE
    from evaltools.retrieval.records.validation.validate import plan_file

    check_paths_exist(paths)
    config = load_config()
    targets = Targets.from_config(config.retrieval.targets)
    stats = SetStats()
    found: list[Diagnostic] = []
    for path in jsonl_files(paths, excluded=config.excluded):
        if path == STDIN:
            stats.add_lines("<stdin>", iter_record_lines(sys.stdin.buffer))
            continue
        # The same checks as validate's: a directory, an empty or unreadable file.
        plan = plan_file(path, jobs=1, schema_text=None)
        if isinstance(plan, Diagnostic):
            stats.files.append(plan.path)
            found.append(plan)
            continue
        try:
            stats.add_lines(plan.display, iter_record_lines(path))
        except OSError as exc:
            message = f"cannot read the file ({exc.strerror or exc}): fix access"
            found.append(make(UNREADABLE_FILE, plan.display, 1, 1, message))
    # Set-level warnings go to the set's first file, or to what was named if it held none.
    where = stats.files[0] if stats.files else display_path(paths[0])
    found.extend(warnings(stats, targets, where=where))
    found.sort(key=Diagnostic.sort_key)
    if output_format == "json":
        data = to_json(stats, targets)
        data["warnings"] = [d.to_json() for d in found]
        sys.stdout.write(jsonio.dumps(data, indent=2) + "\n")
    else:
        if output_format == "text":
            sys.stdout.write(stats_table(to_json(stats, targets)))
        render(output_format, found, sys.stdout, files_checked=len(stats.files), places=places_of)
    return worst_exit_code(found)


def stats_table(data: dict[str, Any]) -> str:
    """The figures of `gold stats` (as `stats.to_json` gives them) as aligned tables."""
    noun = "file" if len(data["files"]) == 1 else "files"
    out = [f"{data['queries']} queries in {len(data['files'])} {noun}", ""]
    for title, rows in (("type", data["types"]), ("split", data["split"])):
        out.append(f"{title:<12}{'queries':>8}{'share':>8}{'target':>8}")
        for name, row in rows.items():
            target = f"{row['target']:.1%}" if "target" in row else ""
            out.append(f"{name:<12}{row['count']:>8}{row['share']:>8.1%}{target:>8}")
        out.append("")
    for title, column, counts in (
        ("source", "queries", data["sources"]),
        ("grade", "pairs", data["grades"]),
    ):
        total = sum(counts.values())
        out.append(f"{title:<12}{column:>8}{'share':>8}")
        out.extend(f"{name:<12}{n:>8}{n / total:>8.1%}" for name, n in counts.items())
        out.append("")
    per_query, per_gold = data["gold_per_query"], data["queries_per_gold"]
    out.append(
        f"gold per query:   min {per_query['min']}, median {per_query['median']:g}, "
        f"mean {per_query['mean']:g}, max {per_query['max']}"
    )
    busiest = f" ({per_gold['busiest']})" if per_gold["busiest"] else ""
    out.append(
        f"queries per gold: {per_gold['chunk_ids']} chunk IDs, median {per_gold['median']:g}, "
        f"mean {per_gold['mean']:g}, max {per_gold['max']}{busiest}"
    )
    return "\n".join(out) + "\n\n"
