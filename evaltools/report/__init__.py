"""One reporter per output format; each turns plain diagnostics into text."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TextIO

from evaltools.diagnostics import Diagnostic, Places

FORMATS = ("text", "json", "github", "sarif")


def render(
    fmt: str,
    diagnostics: Sequence[Diagnostic],
    out: TextIO,
    *,
    files_checked: int,
    places: Callable[[Sequence[Diagnostic]], Places],
    failed_by: str = "",
) -> None:
    """`failed_by`: why warnings alone fail the run (`Gate.note`), said in the text summary,
    and on stderr beside the other formats, whose output holds findings only. `places`:
    where the findings' files are, asked only by the formats that name them by URI."""
    ordered = sorted(diagnostics, key=Diagnostic.sort_key)
    if failed_by and fmt != "text":
        import sys

        sys.stderr.write(f"evaltools: failed: {failed_by}\n")
    if fmt == "json":
        from evaltools.report import json_report

        json_report.render(ordered, out)
    elif fmt == "github":
        from evaltools.report import github

        github.render(ordered, out)
    elif fmt == "sarif":
        from evaltools.report import sarif

        sarif.render(ordered, out, places)
    else:
        from evaltools.report import text

        text.render(ordered, out, files_checked=files_checked, failed_by=failed_by)
