"""`[tool.evaltools]` from pyproject.toml (searched upward): one validated model.

What each key must be is declared in `schema`; here, the model its values fill, with paths
resolved against the pyproject's folder.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, NamedTuple

from evaltools.config.discovery import find_pyproject
from evaltools.config.schema import DUPES, RETRIEVAL, TOP, Validator
from evaltools.diagnostics import Severity
from evaltools.fileio import UsageError, display_path
from evaltools.positions import line_column
from evaltools.tomlio import TomlError, explain, loads

if TYPE_CHECKING:
    from evaltools.gate import Gate

TABLE = ("tool", "evaltools")


class RetrievalConfig(NamedTuple):
    """`[tool.evaltools.retrieval]`; paths are resolved against the pyproject's folder."""

    sets: tuple[Path, ...] = ()
    root: Path | None = None
    metas: Path | None = None
    schema: Path | None = None
    target_mix: Mapping[str, float] | None = None
    holdout_share: float | None = None
    drafts: tuple[Path, ...] = ()  # sets (files or folders) that may hold `gold mine` drafts

    def collects_drafts(self, path: Path) -> bool:
        """Whether the set file `path` is, or lies in, one of `drafts`."""
        if not self.drafts:
            return False
        where = path.resolve()
        return any(where == d or d in where.parents for d in map(Path.resolve, self.drafts))

    @property
    def targets(self) -> dict[str, object]:
        """The configured targets in the form `Targets.from_config` takes."""
        found: dict[str, object] = {}
        if self.target_mix is not None:
            found["target-mix"] = dict(self.target_mix)
        if self.holdout_share is not None:
            found["holdout-share"] = self.holdout_share
        return found


class DupesSettings(NamedTuple):
    """`dupes = true`, or a `[tool.evaltools.dupes]` table (`enabled`, `threshold`)."""

    enabled: bool = False
    threshold: float = 0.5  # Zed's `ep --max-duplicates` Jaccard


class Config(NamedTuple):
    path: Path | None = None
    paths: tuple[Path, ...] = ()
    select: tuple[str, ...] | None = None
    ignore: tuple[str, ...] = ()
    per_file_ignores: Mapping[str, tuple[str, ...]] = MappingProxyType({})
    exclude: tuple[str, ...] = ()
    respect_gitignore: bool = True
    retrieval: RetrievalConfig = RetrievalConfig()
    dupes: DupesSettings = DupesSettings()
    severity: Mapping[str, Severity] = MappingProxyType({})  # [tool.evaltools.severity]
    max_warnings: int | None = None  # -1 is no limit, as None is
    # `paths` or retrieval `sets` written, even as []: what `check` is to look at is
    # declared, so finding nothing there is news, not a gate that checks nothing unawares.
    declares_targets: bool = False

    @property
    def root(self) -> Path:
        return self.path.parent if self.path is not None else Path.cwd()

    @property
    def excluded(self) -> Callable[[Path], bool] | None:
        """What `discover` leaves out of the directories it walks (None: nothing)."""
        if not self.exclude:
            return None
        from evaltools.selection import Excluded

        return Excluded(self.root, self.exclude)

    def gate(self, max_warnings: int | None = None) -> Gate:
        """The severities and warning limit configured, `--max-warnings` (when given) over
        `max-warnings`."""
        from evaltools.gate import gate_from

        return gate_from(self.severity, self.max_warnings, max_warnings)

    @property
    def rules(self) -> dict[str, object]:
        """The rule selection keys that are set, in the form `selection_from` takes."""
        found: dict[str, object] = {"ignore": self.ignore}
        if self.select is not None:
            found["select"] = self.select
        if self.per_file_ignores:
            found["per-file-ignores"] = dict(self.per_file_ignores)
        return found


def parse_config(path: Path, text: str) -> Config:
    """The model of `text` (the contents of `path`); a UsageError at the first fault."""
    try:
        data = loads(text)
    except TomlError as exc:
        line, column, what, fix = explain(exc, text)
        raise UsageError(
            f"{display_path(path)}:{line}:{column}: {what}: {fix}, or the configuration "
            "cannot be read"
        ) from exc
    tool = data.get("tool", {})
    checker = Validator(path, text)
    if not isinstance(tool, dict):
        raise checker.fail(
            ("tool",), "`tool` must be a table ([tool.evaltools] lives in it)", "value"
        )
    if "evaltools" not in tool:
        return Config(path)
    top = checker.table(TABLE, tool["evaltools"], TOP)
    retrieval = checker.table((*TABLE, "retrieval"), top.get("retrieval", {}), RETRIEVAL)
    dupes_value = top.get("dupes", False)
    if isinstance(dupes_value, bool):
        dupes = DupesSettings(enabled=dupes_value)
    else:
        table = checker.table((*TABLE, "dupes"), dupes_value, DUPES)
        dupes = DupesSettings(table.get("enabled", True), table.get("threshold", 0.5))
    severity: Mapping[str, Severity] = {}
    if "severity" in top:
        from evaltools.config.severity import severities

        severity = severities(top["severity"], checker.fail)
    return _model(path, top, retrieval, dupes, severity)


def _model(
    path: Path,
    top: Mapping[str, Any],
    retrieval: Mapping[str, Any],
    dupes: DupesSettings,
    severity: Mapping[str, Severity],
) -> Config:
    """The model the checked tables fill, paths resolved against the pyproject's folder."""
    base = path.parent

    def at(value: str | None) -> Path | None:
        return None if value is None else base / value

    return Config(
        path,
        paths=tuple(base / p for p in top.get("paths", ())),
        select=top.get("select"),
        ignore=top.get("ignore", ()),
        per_file_ignores=top.get("per-file-ignores", {}),
        exclude=top.get("exclude", ()),
        respect_gitignore=top.get("respect-gitignore", True),
        retrieval=RetrievalConfig(
            sets=tuple(base / s for s in retrieval.get("sets", ())),
            root=at(retrieval.get("root")),
            metas=at(retrieval.get("metas")),
            schema=at(retrieval.get("schema")),
            target_mix=retrieval.get("target-mix"),
            holdout_share=retrieval.get("holdout-share"),
            drafts=tuple(base / d for d in retrieval.get("drafts", ())),
        ),
        dupes=dupes,
        severity=severity,
        max_warnings=top.get("max-warnings"),
        declares_targets="paths" in top or "sets" in retrieval,
    )


def load_config(explicit: Path | None = None, start: Path | None = None) -> Config:
    path = explicit if explicit is not None else find_pyproject(start or Path.cwd())
    if path is None:
        return Config()
    if not path.is_file():  # a directory, a missing file, or a FIFO that would block
        raise UsageError(f"cannot read configuration {path}: not a file")
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise UsageError(f"cannot read configuration {path}: {exc.strerror or exc}") from exc
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line, column = line_column(data, exc.start)
        raise UsageError(
            f"{display_path(path)}:{line}:{column}: byte 0x{data[exc.start]:02x} is not valid "
            "UTF-8: re-encode the file as UTF-8, or the configuration cannot be read"
        ) from exc
    return parse_config(path, text)
