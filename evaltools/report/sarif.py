"""SARIF 2.1.0, with stable rule ids and paths relative to the repository root."""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TextIO
from urllib.parse import quote

from evaltools import __version__, jsonio
from evaltools.catalogue import RULES
from evaltools.diagnostics import Diagnostic, Places, Severity

SCHEMA_URI = "https://json.schemastore.org/sarif-2.1.0.json"
_LEVEL = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "note"}


def artifact_location(resolved: Path, root: Path) -> dict[str, str]:
    """A percent-encoded URI relative to %SRCROOT%, or an absolute file URI outside the root.

    A bare relative path is not a URI: `a:b.md` would read as scheme `a`, and `#`, `?`,
    `%` or a space would change what it points at. A name that is not UTF-8 is encoded
    from its bytes as the file system holds them (RFC 3986 percent-encodes octets).
    """
    try:
        relative = resolved.relative_to(root)
    except ValueError:
        return {"uri": resolved.as_uri()}
    return {"uri": quote(os.fsencode(relative.as_posix())), "uriBaseId": "%SRCROOT%"}


def build(
    diagnostics: Sequence[Diagnostic], root: Path, resolved: Mapping[str, Path] | None = None
) -> dict[str, object]:
    """The log; a path not in `resolved` is taken as it is, relative to `root`."""
    resolved = resolved or {}
    codes = sorted({d.code for d in diagnostics})
    index = {code: i for i, code in enumerate(codes)}
    rules = [_rule(code) for code in codes]
    results = [_result(d, index[d.code], root, resolved) for d in diagnostics]
    return {
        "$schema": SCHEMA_URI,
        "version": "2.1.0",
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": "evaltools",
                        "version": __version__,
                        "informationUri": "https://pypi.org/project/evaltools/",
                        "rules": rules,
                    }
                },
                "originalUriBaseIds": {"%SRCROOT%": {"uri": root.as_uri() + "/"}},
                # What `startColumn` counts; SARIF's default would be UTF-16 code units.
                "columnKind": "unicodeCodePoints",
                "results": results,
            }
        ],
    }


def _rule(code: str) -> dict[str, object]:
    """The driver's entry for one rule code (a code the catalogue does not know as a warning)."""
    rule = RULES.get(code)
    name = rule.name if rule else code
    text = rule.summary if rule else code
    level = _LEVEL[rule.severity] if rule else "warning"
    entry: dict[str, object] = {
        "id": code,
        "name": name,
        "shortDescription": {"text": text},
        "fullDescription": {"text": (rule.doc or text) if rule else text},
        "defaultConfiguration": {"level": level, "enabled": rule.default_enabled}
        if rule
        else {"level": level},
    }
    if rule is not None:
        entry["help"] = {"text": f"{rule.summary} Run `evaltools rule {code}` for examples."}
        entry["properties"] = {"tags": [rule.family]}
    return entry


def _result(
    d: Diagnostic, rule_index: int, root: Path, resolved: Mapping[str, Path]
) -> dict[str, object]:
    """One finding, at its path relative to `root` (or resolved)."""
    return {
        "ruleId": d.code,
        "ruleIndex": rule_index,
        "level": _LEVEL[d.severity],
        "message": {"text": d.message},
        "locations": [
            {
                "physicalLocation": {
                    "artifactLocation": artifact_location(
                        resolved.get(d.path) or root / d.path, root
                    ),
                    "region": {"startLine": d.line, "startColumn": d.column},
                }
            }
        ],
    }


def render(
    diagnostics: Sequence[Diagnostic],
    out: TextIO,
    places: Callable[[Sequence[Diagnostic]], Places],
) -> None:
    root, resolved = places(diagnostics)
    out.write(jsonio.dumps(build(diagnostics, root, resolved), indent=2, ensure_ascii=True))
    out.write("\n")
