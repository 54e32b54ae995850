"""The round trip applied to files: each file's verdict as diagnostics, and `--fix`.

What `evaltools roundtrip` and `evaltools check` both run; a file is rewritten only when
the canonical form holds exactly what the file held, and only atomically.
"""

from __future__ import annotations

import difflib
import shlex
from dataclasses import dataclass
from pathlib import Path

from evaltools.atomic import WriteError, atomic_write, remove_stale_temps, write_finding
from evaltools.diagnostics import Diagnostic, make
from evaltools.example.markdown.reader import ParsedMarkdown
from evaltools.example.markdown.roundtrip import (
    LayoutChange,
    RoundTrip,
    Verdict,
    check_roundtrip,
)
from evaltools.example.markdown.rules import LOSSY_CONTENT, NOT_CANONICAL, UNREADABLE_EXAMPLE
from evaltools.fileio import TextFile, read_text_file
from evaltools.parallel.processes import Cost
from evaltools.positions import lines_of


@dataclass
class FileResult:
    path: str
    status: str
    line: int | None
    diagnostics: list[Diagnostic]
    fixed: bool = False
    diff: str = ""


def _span(first: int, last: int) -> str:
    return f" (lines {first}-{last})" if last > first else ""


def _diagnostics(shown: str, result: RoundTrip, strict_reference: bool = False) -> list[Diagnostic]:
    if result.verdict is Verdict.INVALID:
        return [make(UNREADABLE_EXAMPLE, shown, e.line, 1, f"{e}") for e in result.errors]
    if result.verdict is Verdict.LOSSY:
        found = [
            make(
                LOSSY_CONTENT,
                shown,
                d.line,
                d.column,
                f"{d.describe()} would be lost on a rewrite"
                f"{_span(d.line, d.end_line)}: {d.remedy()}",
            )
            for d in result.dropped
        ]
        fix = f"once nothing is lost, run `evaltools roundtrip --fix {shlex.quote(shown)}`"
        return found + [
            make(NOT_CANONICAL, shown, change.line, 1, f"{change.what}: {fix}")
            for change in result.layout_changes
        ]
    if result.verdict is Verdict.REFORMAT:
        if result.unsafe:
            message = f"layout differs, but the canonical form cannot be trusted: {result.unsafe}"
            return [make(NOT_CANONICAL, shown, result.first_difference or 1, 1, message)]
        # The path too: `roundtrip` takes no configured paths, so a bare command fails.
        fix = "--strict-reference --fix" if strict_reference else "--fix"
        fix = f"{fix} {shlex.quote(shown)}"
        changes = result.layout_changes or [
            LayoutChange(
                result.first_difference or 1, "layout differs from the canonical form here"
            )
        ]
        return [
            make(NOT_CANONICAL, shown, c.line, 1, f"{c.what}: run `evaltools roundtrip {fix}`")
            for c in changes
        ]
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
                lines_of(read.text),
                lines_of(result.rendered),
                fromfile=read.display,
                tofile=f"{read.display} (canonical)",
            )
        )
    if fix:
        remove_stale_temps(path.parent)  # a killed earlier --fix may have left some
    rewrite = rewritten(result) if fix else None
    if rewrite is not None:
        try:
            atomic_write(path, rewrite.encode("utf-8"), expect=read.data)
        except WriteError as error:
            out.diagnostics.append(write_finding(error, read.display))
        else:
            out.fixed = True
    return out


def rewritten(result: RoundTrip) -> str | None:
    """What `--fix` writes: the canonical form of a file that only needs its layout changed
    and whose rewrite is safe; None for any other (never a lossy rewrite)."""
    if result.verdict is Verdict.REFORMAT and result.unsafe is None:
        return result.rendered
    return None


def canonical_text(text: str, stem: str) -> str | None:
    """`rewritten` for an editor's text (`evaltools server`)."""
    return rewritten(check_roundtrip(text, stem))


# One core's cost of a round trip (benchmarks/bench_roundtrip.py, in process).
ROUNDTRIP_COST = Cost(per_item=2e-4, per_byte=2e-7, parent=0.05)
