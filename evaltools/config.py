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
