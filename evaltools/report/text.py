"""`path:line:col: CODE [severity] message`, then a summary line."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TextIO

from evaltools.diagnostics import Diagnostic, Severity


def format_line(d: Diagnostic) -> str:
    line = f"{d.path}:{d.line}:{d.column}: {d.code} [{d.severity.value}] {d.message}"
    if d.pointer is not None:
        line += f" (at {d.pointer})"
    return line


def summary(diagnostics: Sequence[Diagnostic], files_checked: int) -> str:
    counts = dict.fromkeys(Severity, 0)
    for d in diagnostics:
        counts[d.severity] += 1
    noun = "file" if files_checked == 1 else "files"
    if not diagnostics:
        return f"All checks passed: {files_checked} {noun}."
    parts = [f"{counts[s]} {s.value}{'s' if counts[s] != 1 else ''}" for s in Severity if counts[s]]
    return f"Found {', '.join(parts)} in {files_checked} {noun}."


def render(diagnostics: Sequence[Diagnostic], out: TextIO, *, files_checked: int) -> None:
    for d in diagnostics:
        out.write(format_line(d) + "\n")
    out.write(summary(diagnostics, files_checked) + "\n")
