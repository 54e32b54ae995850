"""`evaltools rule [CODE]`: the documentation of the rule registry."""

from __future__ import annotations

import json
import sys

from evaltools.diagnostics import RULES, Rule
from evaltools.fileio import UsageError


def load_all_rules() -> None:
    """Import every module that registers rules, so the registry is complete."""


def _rule_json(rule: Rule) -> dict[str, object]:
    return {
        "code": rule.code,
        "name": rule.name,
        "severity": rule.severity.value,
        "summary": rule.summary,
        "doc": rule.doc,
        "default_enabled": rule.default_enabled,
    }


def markdown_table(rules: list[Rule]) -> str:
    lines = ["| code | name | severity | what it checks |", "| --- | --- | --- | --- |"]
    for rule in rules:
        off = " (off by default)" if not rule.default_enabled else ""
        lines.append(
            f"| `{rule.code}` | `{rule.name}` | {rule.severity.value}{off} | {rule.summary} |"
        )
    return "\n".join(lines) + "\n"


def run(code: str | None, output_format: str) -> int:
    load_all_rules()
    rules = RULES.all()
    if code is not None:
        rule = RULES.get(code)
        if rule is None:
            raise UsageError(f"unknown rule {code!r}: `evaltools rule` lists them all")
        rules = [rule]
    if output_format == "json":
        sys.stdout.write(json.dumps([_rule_json(r) for r in rules], indent=2) + "\n")
    elif output_format == "markdown":
        sys.stdout.write(markdown_table(rules))
    elif code is not None:
        rule = rules[0]
        sys.stdout.write(f"{rule.code} ({rule.name}) [{rule.severity.value}]\n\n{rule.summary}\n")
        if rule.doc:
            sys.stdout.write(f"\n{rule.doc}\n")
    else:
        for rule in rules:
            sys.stdout.write(
                f"{rule.code:7} {rule.name:34} {rule.severity.value:8} {rule.summary}\n"
            )
    return 0
