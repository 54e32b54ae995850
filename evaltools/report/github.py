"""GitHub Actions workflow commands (`::error file=…::message`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TextIO

from evaltools.diagnostics import Diagnostic, Severity

_LEVEL = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "notice"}


def escape_data(value: str) -> str:
    return value.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(value: str) -> str:
    return escape_data(value).replace(":", "%3A").replace(",", "%2C")


def format_line(d: Diagnostic) -> str:
    props = ",".join(
        f"{key}={escape_property(value)}"
        for key, value in (
            ("file", d.path),
            ("line", str(d.line)),
            ("col", str(d.column)),
            ("title", f"{d.code} {d.name}"),
        )
    )
    return f"::{_LEVEL[d.severity]} {props}::{escape_data(d.message)}"


def render(diagnostics: Sequence[Diagnostic], out: TextIO) -> None:
    for d in diagnostics:
        out.write(format_line(d) + "\n")
