"""Which pyproject.toml configures a run (the nearest one above that has `[tool.evaltools]`),
and the root the project's paths are relative to."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from evaltools.diagnostics import Diagnostic, Places
from evaltools.fileio import real_path
from evaltools.tomlio import TomlError, loads


def find_pyproject(start: Path) -> Path | None:
    """The nearest pyproject.toml at or above `start` that has `[tool.evaltools]`.

    As ruff passes over one without `[tool.ruff]`: a package's own pyproject.toml below the
    project's (its `[project]` only) must not hide the project's configuration.
    """
    here = start.resolve()
    for candidate in (here, *here.parents):
        path = candidate / "pyproject.toml"
        if path.is_file() and _may_configure_evaltools(path):
            return path
    return None


def project_root(cwd: Path) -> Path:
    """The root the project's paths are relative to (SARIF's `%SRCROOT%`): the git work
    tree's top level, else the folder of the configuration (as `load_config` finds it),
    else `cwd` itself."""
    here = cwd.resolve()
    for candidate in (here, *here.parents):
        if (candidate / ".git").exists():
            return candidate
    config = find_pyproject(here)
    return here if config is None else config.parent


def places_of(diagnostics: Sequence[Diagnostic]) -> Places:
    """The project's root from the working folder, and each finding's path resolved."""
    return Places(project_root(Path.cwd()), {d.path: real_path(Path(d.path)) for d in diagnostics})


def _may_configure_evaltools(path: Path) -> bool:
    """Whether `path` has a `tool.evaltools` table, or cannot be read to say it has none.

    A file that does not mention `evaltools` cannot hold the table, so it is never parsed:
    every command, each hook run included, walks up through these files. One that cannot
    be read or parsed is taken, so that loading it reports why rather than skipping it.
    """
    try:
        data = path.read_bytes()
    except OSError:
        return True
    if b"evaltools" not in data:
        return False
    try:
        tool = loads(data.decode("utf-8")).get("tool", {})
    except (UnicodeDecodeError, TomlError):
        return True
    return not isinstance(tool, dict) or "evaltools" in tool
