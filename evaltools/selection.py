"""Which rules apply where: `select`, `ignore` and `per-file-ignores`, as ruff has them."""

from __future__ import annotations

import fnmatch
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

from evaltools.catalogue import RULES
from evaltools.diagnostics import Diagnostic
from evaltools.fileio import UsageError, real_path


def _matches(code: str, name: str, selectors: Iterable[str]) -> bool:
    return any(s == "ALL" or code.startswith(s) or s == name for s in selectors)


@dataclass(frozen=True)
class RuleSelection:
    select: tuple[str, ...] | None = None
    ignore: tuple[str, ...] = ()
    per_file_ignores: Mapping[str, tuple[str, ...]] = field(default_factory=dict)

    def enabled(self, code: str, name: str, path: str) -> bool:
        rule = RULES.get(code)
        explicit = self.select is not None and (code in self.select or name in self.select)
        if rule is not None and not rule.default_enabled and not explicit:
            return False
        if self.select is not None and not _matches(code, name, self.select):
            return False
        if _matches(code, name, self.ignore):
            return False
        return not any(
            _path_matches(path, pattern) and _matches(code, name, codes)
            for pattern, codes in self.per_file_ignores.items()
        )

    def filter(
        self, diagnostics: Iterable[Diagnostic], root: Path | None = None
    ) -> list[Diagnostic]:
        """Per-file-ignores globs are relative to `root` (the configuration's folder)."""
        return list(filter(self.predicate(root), diagnostics))

    def predicate(self, root: Path | None = None) -> DiagnosticFilter:
        """Whether a finding is enabled, as a value that pickles (for lint's workers)."""
        return DiagnosticFilter(self, root.resolve() if root and self.per_file_ignores else None)


class DiagnosticFilter:
    """`RuleSelection.enabled` for a finding at its path (a plain class: one dataclass
    fewer on the hook's start-up path)."""

    __slots__ = ("base", "selection", "where")

    def __init__(self, selection: RuleSelection, base: Path | None) -> None:
        self.selection = selection
        self.base = base  # the configuration's folder, resolved, when per-file-ignores need it
        # Each shown path's place relative to `base`: resolved once per file, not per finding.
        self.where: dict[str, str] = {}

    def __call__(self, found: Diagnostic) -> bool:
        where = self.where.get(found.path)
        if where is None:
            where = self.where[found.path] = _relative(found.path, self.base)
        return self.selection.enabled(found.code, found.name, where)


def _relative(path: str, base: Path | None) -> str:
    if base is None:
        return path
    try:
        return real_path(Path(path)).relative_to(base).as_posix()
    except ValueError:
        return path


def _path_matches(path: str, pattern: str) -> bool:
    posix = PurePosixPath(path)
    return (
        fnmatch.fnmatch(path, pattern)
        or posix.match(pattern)
        or fnmatch.fnmatch(posix.name, pattern)
    )


def _codes(value: object, key: str) -> tuple[str, ...]:
    if isinstance(value, str):
        return tuple(v.strip() for v in value.split(",") if v.strip())
    if isinstance(value, Sequence) and all(isinstance(v, str) for v in value):
        # `--ignore EP207,EP403` as ruff takes it: each item may be a comma-separated list.
        return tuple(part.strip() for v in value for part in v.split(",") if part.strip())
    raise UsageError(f"[tool.evaltools] `{key}` must be a list of rule codes")


def check_selectors(selectors: Iterable[str], where: str) -> None:
    """Every selector names a rule, a code prefix or ALL, for every family alike."""
    for selector in selectors:
        if RULES.is_selector(selector):
            continue
        raise UsageError(RULES.unknown(selector, "rule selector", f" in {where}"))


def selection_from(
    table: Mapping[str, object], select: Sequence[str] | None, ignore: Sequence[str] | None
) -> RuleSelection:
    """Flags win over the configuration, as in ruff."""
    chosen = _codes(select, "select") if select else None
    if chosen is None and "select" in table:
        chosen = _codes(table["select"], "select")
    ignored = _codes(table.get("ignore", []), "ignore") + (
        _codes(ignore, "ignore") if ignore else ()
    )
    raw = table.get("per-file-ignores", {})
    if not isinstance(raw, Mapping):
        raise UsageError("[tool.evaltools] `per-file-ignores` must be a table of glob = [codes]")
    per_file = {str(k): _codes(v, f"per-file-ignores.{k}") for k, v in raw.items()}
    check_selectors(chosen or (), "select")
    check_selectors(ignored, "ignore")
    for pattern, codes in per_file.items():
        check_selectors(codes, f"per-file-ignores {pattern!r}")
    return RuleSelection(chosen, ignored, per_file)
