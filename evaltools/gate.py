"""What makes a run fail, as ESLint has it: the severity each rule is reported at
(`[tool.evaltools.severity]`), and how many warnings pass (`max-warnings`, `--max-warnings`).

Every command that reports findings applies one `Gate` after its rule selection, before it
prints anything, so that the severity shown in every format and the exit code agree.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import NamedTuple

from evaltools.diagnostics import Diagnostic, Severity

NO_LIMIT = -1


class Gate(NamedTuple):
    """`severities` maps rule selectors (codes, names, prefixes, ALL) to the severity their
    findings get; the most specific selector decides, as in `select`/`ignore`.
    `max_warnings` is the number of warnings a run may have and still pass (None: any);
    `limit_source` says where it was set, for the summary."""

    # Named tuples, not dataclasses: plain values on the lint hook's start-up path.
    severities: Mapping[str, Severity] = {}  # shared, never mutated
    max_warnings: int | None = None
    limit_source: str = "max-warnings"

    def severity(self, found: Diagnostic) -> Severity:
        if not self.severities:
            return found.severity
        from evaltools.selection import specificity

        best, chosen = -1, found.severity
        for selector, severity in self.severities.items():
            rank = specificity(selector, found.code, found.name)
            if rank is not None and rank > best:
                best, chosen = rank, severity
        return chosen

    def apply(self, diagnostics: Iterable[Diagnostic]) -> list[Diagnostic]:
        """The findings with the configured severities (the same objects when none apply)."""
        if not self.severities:
            return list(diagnostics)
        out = []
        for found in diagnostics:
            severity = self.severity(found)
            out.append(found if severity is found.severity else found._replace(severity=severity))
        return out

    def too_many(self, warnings: int) -> bool:
        return self.max_warnings is not None and warnings > self.max_warnings

    def exit_code(self, diagnostics: Sequence[Diagnostic]) -> int:
        """1 for an error, or for more warnings than the limit; else 0."""
        warnings = 0
        for found in diagnostics:
            if found.severity is Severity.ERROR:
                return 1
            warnings += found.severity is Severity.WARNING
        return 1 if self.too_many(warnings) else 0

    def note(self, diagnostics: Iterable[Diagnostic]) -> str:
        """Why the warnings failed the run (`more than 0 warnings allowed by max-warnings`),
        or "" when they did not."""
        return self.failed_by(count_warnings(diagnostics))

    def failed_by(self, warnings: int) -> str:
        """`note` for a run with `warnings` warnings."""
        if self.max_warnings is None or not self.too_many(warnings):
            return ""
        noun = "warning" if self.max_warnings == 1 else "warnings"
        return f"more than {self.max_warnings} {noun} allowed by {self.limit_source}"


def gate_from(severities: Mapping[str, Severity], configured: int | None, flag: int | None) -> Gate:
    """The configuration's gate with `--max-warnings` (when given) over its `max-warnings`;
    -1 in either means no limit."""
    from evaltools.fileio import UsageError

    if flag is not None and flag < NO_LIMIT:
        raise UsageError(f"--max-warnings must be 0 or more (-1: no limit), not {flag}")
    limit, source = (flag, "--max-warnings") if flag is not None else (configured, "max-warnings")
    return Gate(severities, None if limit is None or limit == NO_LIMIT else limit, source)


def count_warnings(diagnostics: Iterable[Diagnostic]) -> int:
    return sum(found.severity is Severity.WARNING for found in diagnostics)
