"""Diagnostics as plain data, and the registry of rules that produce them."""

from __future__ import annotations

import enum
from collections.abc import Iterable
from dataclasses import dataclass, field


class Severity(str, enum.Enum):
    ERROR = "error"
    WARNING = "warning"
    INFO = "info"


@dataclass(frozen=True)
class Rule:
    code: str
    name: str
    severity: Severity
    summary: str
    doc: str = ""
    # Off unless selected explicitly (like ruff's preview/info rules).
    default_enabled: bool = True


@dataclass(frozen=True)
class Diagnostic:
    path: str
    line: int
    column: int
    code: str
    name: str
    severity: Severity
    message: str
    pointer: str | None = None

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


@dataclass
class RuleRegistry:
    rules: dict[str, Rule] = field(default_factory=dict)

    def add(self, rule: Rule) -> Rule:
        if rule.code in self.rules:
            raise ValueError(f"duplicate rule code {rule.code}")
        self.rules[rule.code] = rule
        return rule

    def get(self, code_or_name: str) -> Rule | None:
        if code_or_name in self.rules:
            return self.rules[code_or_name]
        for rule in self.rules.values():
            if rule.name == code_or_name:
                return rule
        return None

    def all(self) -> list[Rule]:
        return sorted(self.rules.values(), key=lambda r: r.code)


RULES = RuleRegistry()


def make(
    rule: Rule,
    path: str,
    line: int,
    column: int,
    message: str,
    *,
    pointer: str | None = None,
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
    )


def worst_exit_code(diagnostics: Iterable[Diagnostic]) -> int:
    return 1 if any(d.severity is Severity.ERROR for d in diagnostics) else 0
