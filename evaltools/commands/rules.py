"""`evaltools rule [CODE|PREFIX]`: the documentation of the rule catalogue, and docs/rules.md."""

from __future__ import annotations

import re
import sys

from evaltools import jsonio
from evaltools.catalogue import FAMILIES, RULES
from evaltools.catalogue.text import default_of as _default
from evaltools.catalogue.text import text_section
from evaltools.diagnostics import Rule
from evaltools.fileio import UsageError

DOC_TITLE = "# Rules"
DOC_INTRO = (
    "Every finding evaltools reports has a stable code and a kebab-case name. "
    "`--select`/`--ignore` and `select`, `ignore` and `per-file-ignores` in "
    "`[tool.evaltools]` take either, or a code prefix such as `EP1`; an unknown one is a "
    "usage error. The prefixes: "
    + ", ".join(f"`{code}` {what}" for code, what in FAMILIES.items())
    + ". `ALL` selects every rule, the rules off by default too. A command-line `--select` "
    "replaces the configuration's `select` and `ignore` (per-file ignores still apply); "
    "within one source the most specific selector wins (`--select EP305 --ignore EP3` keeps "
    "EP305), and `ignore` wins a tie. Errors make the exit code 1; rules marked *off by "
    "default* run only when selected by code, name or `ALL`; rules marked *always reported* "
    "mean the file could not be read or parsed at all, and no selection turns them off. "
    "`evaltools rule CODE` explains one rule, `evaltools rule EP2` the rules "
    "of a prefix. This file is generated from the rule catalogue (evaltools/catalogue) by "
    "`evaltools rule --format markdown > docs/rules.md`; a test keeps it in step."
)


def _rule_json(rule: Rule) -> dict[str, object]:
    return {
        "code": rule.code,
        "name": rule.name,
        "family": rule.family,
        "severity": rule.severity.value,
        "summary": rule.summary,
        "doc": rule.doc,
        "what": rule.what,
        "why": rule.why,
        "failing": rule.failing,
        "fixed": rule.fixed,
        "default_enabled": rule.default_enabled,
        "always_reported": rule.always_reported,
    }


def _cell(text: str) -> str:
    # GFM splits cells at every unescaped pipe, even inside code spans.
    return text.replace("|", "\\|")


def markdown_table(rules: list[Rule]) -> str:
    lines = ["| code | name | severity | what it checks |", "| --- | --- | --- | --- |"]
    for rule in rules:
        off = " (off by default)" if not rule.default_enabled else ""
        off += " (always reported)" if rule.always_reported else ""
        lines.append(
            f"| [`{rule.code}`](#{rule.code.lower()}) | `{rule.name}` | "
            f"{rule.severity.value}{off} | {_cell(rule.summary)} |"
        )
    return "\n".join(lines) + "\n"


def _fenced(text: str) -> str:
    runs = re.findall(r"`{3,}", text)
    fence = "`" * max([3, *(len(run) + 1 for run in runs)])
    return f"{fence}text\n{text.rstrip(chr(10))}\n{fence}"


def markdown_section(rule: Rule) -> str:
    return (
        f"### {rule.code}\n\n"
        f"`{rule.name}`: {rule.severity.value}, {_default(rule)}. {rule.summary}\n\n"
        f"**What it checks.** {rule.what}\n\n"
        f"**Why it matters.** {rule.why}\n\n"
        f"Failing:\n\n{_fenced(rule.failing)}\n\n"
        f"Fixed:\n\n{_fenced(rule.fixed)}\n"
    )


def markdown_document(rules: list[Rule]) -> str:
    """docs/rules.md: a title, what the codes mean, the table, then each rule's section."""
    sections = "\n".join(markdown_section(r) for r in rules)
    return f"{DOC_TITLE}\n\n{DOC_INTRO}\n\n{markdown_table(rules)}\n## Every rule\n\n{sections}"


def _list_line(rule: Rule) -> str:
    severity = rule.severity.value + ("" if rule.default_enabled else ", off")
    return f"{rule.code:7} {rule.name:34} {severity:13} {rule.summary}\n"


def chosen_rules(code: str | None) -> list[Rule]:
    """One rule by code or name, or every rule of a code prefix; a usage error otherwise."""
    if code is None or code == "ALL":
        return RULES.all()
    rule = RULES.get(code)
    if rule is not None:
        return [rule]
    prefixed = RULES.with_prefix(code) if code else []
    if prefixed:
        return prefixed
    raise UsageError(RULES.unknown(code))


def run(code: str | None, output_format: str) -> int:
    rules = chosen_rules(code)
    single = code not in (None, "ALL") and RULES.get(code or "") is not None
    if output_format == "json":
        sys.stdout.write(
            jsonio.dumps([_rule_json(r) for r in rules], indent=2, ensure_ascii=True) + "\n"
        )
    elif output_format == "markdown":
        if code in (None, "ALL"):
            sys.stdout.write(markdown_document(rules))
        else:
            sections = "\n".join(markdown_section(r) for r in rules)
            sys.stdout.write(f"{markdown_table(rules)}\n{sections}")
    elif single:
        sys.stdout.write(text_section(rules[0]))
    else:
        sys.stdout.write("".join(_list_line(r) for r in rules))
    return 0
