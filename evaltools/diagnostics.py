"""Diagnostics as plain data, and the shape of a rule (the registry: evaltools.catalogue)."""

from __future__ import annotations

import enum
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import NamedTuple


class Severity(str, enum.Enum):
    ERROR = "error"
    WARNING = "warning"
    INFO = "info"


class Rule(NamedTuple):
    """One entry of the rule catalogue (evaltools/catalogue): plain data, built once."""

    code: str
    name: str
    severity: Severity
    summary: str
    what: str = ""  # what it checks, beyond the summary
    why: str = ""  # why it matters
    failing: str = ""  # an input that the rule reports
    fixed: str = ""  # the same input, fixed
    # Off unless selected by code or name (like ruff's preview rules).
    default_enabled: bool = True
    # The file could not be read or parsed at all: reported whatever select/ignore say (as
    # ruff reports a file it cannot parse), or a selection would let it pass unchecked.
    always_reported: bool = False
    # The module that finds it (a dotted name, imported only by whoever asks): where to look
    # first for why a finding was or was not reported.
    check: str = ""

    @property
    def family(self) -> str:
        return self.code[:2]

    @property
    def doc(self) -> str:
        return f"{self.what} {self.why}".strip()


class Fix(NamedTuple):
    """A "did you mean" hint as data: the first `old` on the finding's line becomes `new`
    (`evaltools server` offers it as a quick fix; no output format prints it)."""

    old: str
    new: str


class Places(NamedTuple):
    """Where findings' files are, for a format that names them by URI (SARIF): the project's
    root and each path as the file system resolves it (symbolic links followed). The command
    finds them (`config.discovery.places_of`), so that a reporter reads no file system."""

    root: Path
    resolved: Mapping[str, Path]


class Diagnostic(NamedTuple):
    path: str
    line: int
    column: int
    code: str
    name: str
    severity: Severity
    message: str
    pointer: str | None = None
    fix: Fix | None = None

    def sort_key(self) -> tuple[str, int, int, str]:
        return (self.path, self.line, self.column, self.code)

    def to_json(self) -> dict[str, object]:
        out: dict[str, object] = {
            "path": self.path,
            "line": self.line,
            "column": self.column,
            "code": self.code,
            "name": self.name,
            "severity": self.severity.value,
            "message": self.message,
        }
        if self.pointer is not None:
            out["pointer"] = self.pointer
        return out


def make(
    rule: Rule,
    path: str,
    line: int,
    column: int,
    message: str,
    *,
    pointer: str | None = None,
    fix: Fix | None = None,
) -> Diagnostic:
    return Diagnostic(
        path=path,
        line=max(line, 1),
        column=max(column, 1),
        code=rule.code,
        name=rule.name,
        severity=rule.severity,
        message=message,
        pointer=pointer,
        fix=fix,
    )


def worst_exit_code(diagnostics: Iterable[Diagnostic]) -> int:
    return 1 if any(d.severity is Severity.ERROR for d in diagnostics) else 0
