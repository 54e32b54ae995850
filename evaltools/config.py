"""`[tool.evaltools]` from pyproject.toml (searched upward), merged with flags by the commands."""

from __future__ import annotations

import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from evaltools.fileio import UsageError

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib


@dataclass(frozen=True)
class Config:
    """The raw table and where it came from; each command reads the keys it owns."""

    path: Path | None = None
    table: dict[str, Any] = field(default_factory=dict)

    @property
    def root(self) -> Path:
        return self.path.parent if self.path is not None else Path.cwd()

    def get(self, key: str, default: Any = None) -> Any:
        return self.table.get(key, default)

    def section(self, name: str) -> dict[str, Any]:
        value = self.table.get(name, {})
        if not isinstance(value, dict):
            raise UsageError(f"{self.path}: [tool.evaltools.{name}] must be a table")
        return value


def find_pyproject(start: Path) -> Path | None:
    here = start.resolve()
    for candidate in (here, *here.parents):
        path = candidate / "pyproject.toml"
        if path.is_file():
            return path
    return None


def load_config(explicit: Path | None = None, start: Path | None = None) -> Config:
    path = explicit if explicit is not None else find_pyproject(start or Path.cwd())
    if path is None:
        return Config()
    if not path.is_file():  # a directory, a missing file, or a FIFO that would block
        raise UsageError(f"cannot read configuration {path}: not a file")
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise UsageError(f"cannot read configuration {path}: {exc}") from exc
    tool = data.get("tool", {})
    if not isinstance(tool, dict):
        raise UsageError(f"{path}: `tool` must be a table ([tool.evaltools] lives in it)")
    table = tool.get("evaltools", {})
    if not isinstance(table, dict):
        raise UsageError(f"{path}: [tool.evaltools] must be a table")
    return Config(path, table)


@dataclass(frozen=True)
class DupesSettings:
    """`dupes = true`, or a `[tool.evaltools.dupes]` table (`enabled`, `threshold`)."""

    enabled: bool = False
    threshold: float = 0.5  # Zed's `ep --max-duplicates` Jaccard


_DUPES_KEYS = ("enabled", "threshold")


def dupes_settings(config: Config) -> DupesSettings:
    value = config.get("dupes", False)
    where = f"{config.path}: [tool.evaltools]"
    if isinstance(value, bool):
        return DupesSettings(enabled=value)
    if not isinstance(value, dict):
        raise UsageError(f"{where} `dupes` must be true, false or a table with `threshold`")
    unknown = sorted(set(value) - set(_DUPES_KEYS))
    if unknown:
        raise UsageError(
            f"{where.removesuffix(']')}.dupes] has no key {unknown[0]!r}: the keys are "
            + ", ".join(_DUPES_KEYS)
        )
    enabled = value.get("enabled", True)
    threshold = value.get("threshold", DupesSettings.threshold)
    if not isinstance(enabled, bool):
        raise UsageError(f"{where.removesuffix(']')}.dupes] `enabled` must be true or false")
    if isinstance(threshold, bool) or not isinstance(threshold, (int, float)):
        raise UsageError(f"{where.removesuffix(']')}.dupes] `threshold` must be a number")
    if not 0.0 < threshold <= 1.0:
        raise UsageError(
            f"{where.removesuffix(']')}.dupes] `threshold` must be above 0 and at most 1"
        )
    return DupesSettings(enabled, float(threshold))
