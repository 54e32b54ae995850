"""A rule's documentation as text: what `evaltools rule CODE` prints and the server's hover."""

from __future__ import annotations

from evaltools.diagnostics import Rule


def default_of(rule: Rule) -> str:
    if rule.always_reported:
        return "always reported, whatever select and ignore say"
    return "on by default" if rule.default_enabled else "off by default"


def _indented(text: str) -> str:
    return "\n".join(f"    {line}" if line else "" for line in text.rstrip("\n").split("\n"))


def text_section(rule: Rule) -> str:
    off = "" if rule.default_enabled else f" (select it with `--select {rule.code}`)"
    return (
        f"{rule.code} ({rule.name}) [{rule.severity.value}, {default_of(rule)}]{off}\n\n"
        f"{rule.summary}\n\n"
        f"What it checks: {rule.what}\n\n"
        f"Why it matters: {rule.why}\n\n"
        f"Failing:\n\n{_indented(rule.failing)}\n\n"
        f"Fixed:\n\n{_indented(rule.fixed)}\n"
    )
