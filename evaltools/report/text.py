"""`path:line:col: CODE [severity] message`, then a summary line."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import TextIO

from evaltools.diagnostics import Diagnostic, Severity

# One finding, one line: a newline in a file name or a quoted value (a chunk ID, a JSON
# key) would otherwise split it, and tools that read `path:line:col:` lines would misparse.
_LINE_BREAKING = {
    **{c: f"\\x{c:02x}" for c in (*range(0x20), 0x7F, 0x85) if c != 0x09},
    0x0A: "\\n",
    0x0D: "\\r",
    0x2028: "\\u2028",
    0x2029: "\\u2029",
}


def format_line(d: Diagnostic) -> str:
    line = f"{d.path}:{d.line}:{d.column}: {d.code} [{d.severity.value}] {d.message}"
    if d.pointer is not None:
        line += f" (at {d.pointer})"
    return line.translate(_LINE_BREAKING)


def summary(diagnostics: Sequence[Diagnostic], files_checked: int, failed_by: str = "") -> str:
    counts = Counter(d.severity for d in diagnostics)
    return found_line(counts, len({d.path for d in diagnostics}), files_checked, failed_by)


def found_line(
    counts: Mapping[Severity, int], affected: int, files_checked: int, failed_by: str = ""
) -> str:
    """`Found 1 error, 2 warnings in 1 of 3 files.`: how many files have findings, of how
    many checked (`in 3 files` alone read as if all three had some); `failed_by` says why
    warnings alone fail the run (`(more than 0 warnings allowed by max-warnings)`)."""
    noun = "file" if files_checked == 1 else "files"
    if not any(counts.values()):
        return f"All checks passed: {files_checked} {noun}."
    parts = [f"{counts[s]} {s.value}{'s' if counts[s] != 1 else ''}" for s in Severity if counts[s]]
    # Findings about files not counted as checked (a configuration, a stale cache) make
    # `affected` no part of `files_checked`: then the count checked alone.
    where = f"{affected} of " if affected < files_checked else ""
    why = f" ({failed_by})" if failed_by else ""
    return f"Found {', '.join(parts)} in {where}{files_checked} {noun}{why}."


def render(
    diagnostics: Sequence[Diagnostic], out: TextIO, *, files_checked: int, failed_by: str = ""
) -> None:
    for d in diagnostics:
        out.write(format_line(d) + "\n")
    if diagnostics or not under_pre_commit():
        out.write(summary(diagnostics, files_checked, failed_by) + "\n")


def under_pre_commit() -> bool:
    """pre-commit runs a hook once per batch of files: a clean batch says nothing, as
    pre-commit's own hooks do, so a hook run prints findings and one line per failing batch."""
    import os

    return os.environ.get("PRE_COMMIT") == "1"
