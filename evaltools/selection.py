"""Which rules apply where: `select`, `ignore` and `per-file-ignores`, as ruff has them."""

from __future__ import annotations

import fnmatch
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path, PurePosixPath
from typing import NamedTuple

from evaltools.catalogue import RULES
from evaltools.diagnostics import Diagnostic, Rule
from evaltools.fileio import UsageError, real_path


def _matches(code: str, name: str, selectors: Iterable[str]) -> bool:
    return any(s == "ALL" or code.startswith(s) or s == name for s in selectors)


_EXACT = 1_000  # a code or a name: more specific than any prefix


def specificity(selector: str, code: str, name: str) -> int | None:
    """How closely `selector` names the rule (None: not at all), as ruff ranks selectors:
    ALL, then longer prefixes, then the rule itself."""
    if selector == "ALL":
        return 0
    if selector in (code, name):
        return _EXACT
    return len(selector) if code.startswith(selector) else None


# Named tuples, not dataclasses: a gold check answered from its result cache reads the
# selection, and dataclasses (with inspect) would be most of that run's imports.
class Layer(NamedTuple):
    """One source of `select`/`ignore` (the configuration, then the command line): a layer
    with `select` starts from nothing; within it the most specific selector decides, and
    `ignore` wins a tie."""

    select: tuple[str, ...] | None = None
    ignore: tuple[str, ...] = ()

    def decide(self, rule: Rule | None, code: str, name: str, enabled: bool) -> bool:
        if self.select is not None:
            enabled = False
        best, verdict = -1, None
        for selector in self.select or ():
            rank = specificity(selector, code, name)
            if rank is not None and rank > best:
                # An off-by-default rule needs its code, its name or ALL (as ruff's preview).
                on = rule is None or rule.default_enabled or rank in (0, _EXACT)
                best, verdict = rank, on
        for selector in self.ignore:
            rank = specificity(selector, code, name)
            if rank is not None and rank >= best:
                best, verdict = rank, False
        return enabled if verdict is None else verdict


class RuleSelection(NamedTuple):
    """`select`/`ignore` of the configuration, then `command_line`'s (whose `--select`
    replaces both of the configuration's, as in ruff), then `per-file-ignores`. A rule that
    says a file could not be read at all is always reported."""

    select: tuple[str, ...] | None = None
    ignore: tuple[str, ...] = ()
    per_file_ignores: Mapping[str, tuple[str, ...]] = {}  # shared, never mutated
    command_line: Layer = Layer()

    def by_rule(self, code: str, name: str) -> bool:
        """Whether the rule is enabled before `per-file-ignores` (None: every path)."""
        rule = RULES.get(code)
        if rule is not None and rule.always_reported:
            return True
        enabled = rule is None or rule.default_enabled
        for layer in (Layer(self.select, self.ignore), self.command_line):
            enabled = layer.decide(rule, code, name, enabled)
        return enabled

    def enabled(self, code: str, name: str, path: str) -> bool:
        if not self.by_rule(code, name):
            return False
        rule = RULES.get(code)
        if rule is not None and rule.always_reported:
            return True
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

    __slots__ = ("base", "selection", "verdicts", "where")

    def __init__(self, selection: RuleSelection, base: Path | None) -> None:
        self.selection = selection
        self.base = base  # the configuration's folder, resolved, when per-file-ignores need it
        # Each shown path's place relative to `base`: resolved once per file, not per finding.
        self.where: dict[str, str] = {}
        # Each rule's verdict in each file, decided once: a file may carry a million findings.
        self.verdicts: dict[tuple[str, str], bool] = {}

    def __call__(self, found: Diagnostic) -> bool:
        key = (found.code, found.path)
        verdict = self.verdicts.get(key)
        if verdict is None:
            where = self.where.get(found.path)
            if where is None:
                where = self.where[found.path] = _relative(found.path, self.base)
            verdict = self.verdicts[key] = self.selection.enabled(found.code, found.name, where)
        return verdict


def _relative(path: str, base: Path | None) -> str:
    if base is None:
        return path
    try:
        return real_path(Path(path)).relative_to(base).as_posix()
    except ValueError:
        return path


class Excluded:
    """`exclude` of [tool.evaltools]: whether a file found by walking a directory is left
    out. Its globs are relative to `base` (the configuration's folder) and match as
    per-file-ignores globs do, so that one glob means the same in both keys."""

    __slots__ = ("base", "globs")

    def __init__(self, base: Path, globs: Sequence[str]) -> None:
        self.base = base.resolve()
        self.globs = tuple(globs)

    def __call__(self, path: Path) -> bool:
        where = _relative(str(path), self.base)
        if any(_path_matches(where, glob) for glob in self.globs):
            return True
        # A folder leaves out all below it (`exclude = ["evals/drafts"]`), as ruff's does.
        relative = PurePosixPath(where)
        folders = relative.parents if not relative.is_absolute() else ()
        return any(
            _path_matches(str(folder), glob.rstrip("/"))
            for folder in folders
            if str(folder) != "."
            for glob in self.globs
        )


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
    """The configuration's selection, then the command line's on top of it, as in ruff."""
    chosen = _codes(table["select"], "select") if "select" in table else None
    ignored = _codes(table.get("ignore", []), "ignore")
    flags = Layer(_codes(select, "select") if select else None, _codes(ignore or (), "ignore"))
    if select and not flags.select:
        # `--select=$RULES` with RULES unset would select nothing: a gate that always passes.
        raise UsageError(
            f"--select {select[-1]!r} names no rule: give rule codes, prefixes, names or ALL"
        )
    raw = table.get("per-file-ignores", {})
    if not isinstance(raw, Mapping):
        raise UsageError("[tool.evaltools] `per-file-ignores` must be a table of glob = [codes]")
    per_file = {str(k): _codes(v, f"per-file-ignores.{k}") for k, v in raw.items()}
    check_selectors((*(chosen or ()), *(flags.select or ())), "select")
    check_selectors((*ignored, *flags.ignore), "ignore")
    for pattern, codes in per_file.items():
        check_selectors(codes, f"per-file-ignores {pattern!r}")
    return RuleSelection(chosen, ignored, per_file, flags)
