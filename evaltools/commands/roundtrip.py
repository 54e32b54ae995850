"""`evaltools roundtrip`: exact / reformat / lossy for each example file, and `--fix`."""

from __future__ import annotations

import difflib
import functools
import sys
from dataclasses import dataclass
from pathlib import Path

from evaltools import jsonio
from evaltools.atomic import WriteError, atomic_write, remove_stale_temps, write_finding
from evaltools.catalogue import rule
from evaltools.diagnostics import Diagnostic, make
from evaltools.example.markdown.reader import DropKind, Dropped, ParsedMarkdown
from evaltools.example.markdown.roundtrip import RoundTrip, Verdict, check_roundtrip
from evaltools.fileio import (
    TextFile,
    check_paths_exist,
    discover,
    read_text_file,
)
from evaltools.parallel.processes import Cost, check_jobs, input_size, parallel_map, worker_count
from evaltools.report.progress import Progress

NOT_CANONICAL = rule("RT001")
LOSSY_CONTENT = rule("RT002")
NOT_READABLE = rule("RT003")


@dataclass
class FileResult:
    path: str
    status: str
    line: int | None
    diagnostics: list[Diagnostic]
    fixed: bool = False
    diff: str = ""


_HINTS = {
    DropKind.TEXT: "move it into `## Reasoning` (right after the front matter) to keep it",
    DropKind.UNKNOWN_HEADING: "use one of the known section headings, or `## Reasoning` for notes",
    DropKind.STRAY_CODE: "put it under the section it belongs to",
    DropKind.OVERRIDDEN: "keep one block: the reference uses only the last",
    DropKind.HEADING_MARKUP: "write the heading as plain text",
    DropKind.TITLE_OVERRIDDEN: "keep one `# title`",
}


def _hint(dropped: Dropped) -> str:
    if dropped.kind is DropKind.FRONT_MATTER:
        if dropped.detail.startswith("front matter the reference cannot read"):
            return "fix it, so that the reference reads it"
        if dropped.detail.startswith("unknown front matter keys"):
            return "remove it, or record it as an entry of `tags`"
        return "delete it, or move it into `## Reasoning` (right after the front matter)"
    return _HINTS.get(
        dropped.kind, "delete it, or move it into `## Reasoning` (right after the front matter)"
    )


def _span(first: int, last: int) -> str:
    return f" (lines {first}-{last})" if last > first else ""


def _diagnostics(shown: str, result: RoundTrip, strict_reference: bool = False) -> list[Diagnostic]:
    if result.verdict is Verdict.INVALID:
        return [make(NOT_READABLE, shown, e.line, 1, f"{e}") for e in result.errors]
    if result.verdict is Verdict.LOSSY:
        return [
            make(
                LOSSY_CONTENT,
                shown,
                d.line,
                1,
                f"{d.describe()} would be lost on a rewrite{_span(d.line, d.end_line)}: {_hint(d)}",
            )
            for d in result.dropped
        ]
    if result.verdict is Verdict.REFORMAT:
        fix = "--strict-reference --fix" if strict_reference else "--fix"
        message = f"layout differs from the canonical form here: run `evaltools roundtrip {fix}`"
        if result.unsafe:
            message = f"layout differs, but the canonical form cannot be trusted: {result.unsafe}"
        return [make(NOT_CANONICAL, shown, result.first_difference or 1, 1, message)]
    return []


def check_file(path: Path, *, fix: bool, diff: bool, strict_reference: bool) -> FileResult:
    read = read_text_file(path)
    if isinstance(read, Diagnostic):
        return FileResult(read.path, "invalid", read.line, [read])
    return check_text(read, fix=fix, diff=diff, strict_reference=strict_reference)


def check_text(
    read: TextFile,
    *,
    fix: bool,
    diff: bool,
    strict_reference: bool,
    parsed: ParsedMarkdown | None = None,
) -> FileResult:
    """The verdict (and fix) for a file already read (and perhaps already parsed)."""
    path = read.path
    stem = path.name.removesuffix(".md")
    result = check_roundtrip(read.text, stem, strict_reference=strict_reference, parsed=parsed)
    out = FileResult(
        read.display,
        result.verdict.value,
        result.first_difference,
        _diagnostics(read.display, result, strict_reference),
    )
    if diff and result.rendered is not None and result.rendered != read.text:
        out.diff = "".join(
            difflib.unified_diff(
                read.text.splitlines(keepends=True),
                result.rendered.splitlines(keepends=True),
                fromfile=read.display,
                tofile=f"{read.display} (canonical)",
            )
        )
    if fix:
        remove_stale_temps(path.parent)  # a killed earlier --fix may have left some
    if fix and result.verdict is Verdict.REFORMAT and result.unsafe is None:
        assert result.rendered is not None
        try:
            atomic_write(path, result.rendered.encode("utf-8"), expect=read.data)
        except WriteError as error:
            out.diagnostics.append(write_finding(error, read.display))
        else:
            out.fixed = True
    return out


# One core's cost of a round trip (benchmarks/bench_roundtrip.py, in process).
ROUNDTRIP_COST = Cost(per_item=2e-4, per_byte=2e-7, parent=0.05)


def run(  # noqa: PLR0917 (the table's parameters, by name or position)
    paths: list[Path],
    fix: bool,
    diff: bool,
    strict_reference: bool,
    output_format: str,
    jobs: int | None = None,
    *,
    no_respect_gitignore: bool = False,
) -> int:
    check_jobs(jobs)
    check_paths_exist(paths)
    files = discover(
        paths, (".md",), respect_gitignore=not no_respect_gitignore, what="example files"
    )
    size = input_size(files, ROUNDTRIP_COST, items=len(files))
    workers = worker_count(jobs, items=len(files), size=size, cost=ROUNDTRIP_COST)
    check = functools.partial(check_file, fix=fix, diff=diff, strict_reference=strict_reference)
    batch = max(1, min(64, len(files) // (workers * 8)))
    results: list[FileResult] = []
    progress = Progress()
    for result in parallel_map(check, files, workers=workers, batch=batch):
        results.append(result)
        progress.count(len(results), "files")
    progress.clear()
    if output_format == "json":
        _print_json(results)
    else:
        _print_text(results, fix=fix)
    return 1 if any(r.status != "exact" for r in results) else 0


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


def _print_text(results: list[FileResult], *, fix: bool) -> None:
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
    if under_pre_commit() and counts.get("exact", 0) == len(results):
        return  # a clean batch of a hook run says nothing
    sys.stdout.write(f"{len(results)} {noun}: {', '.join(parts) or 'none'}{tail}.\n")
