"""GitHub Actions workflow commands (`::error file=…::message`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TextIO

from evaltools.diagnostics import Diagnostic, Severity

_LEVEL = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "notice"}


def escape_data(value: str) -> str:
    return valid_utf8(value).replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def valid_utf8(value: str) -> str:
    """`value` with each byte of a name that is not UTF-8 as U+FFFD: the runner reads the
    commands as UTF-8, and its escapes (%25, %0D, %0A, %3A, %2C) cannot spell a raw byte."""
    if value.isascii():
        return value
    return value.encode("utf-8", "surrogateescape").decode("utf-8", "replace")


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
