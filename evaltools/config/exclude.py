"""`exclude` of [tool.evaltools] for a command that reads no other configuration."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

from evaltools.config.model import load_config


def walk_exclusion(paths: Sequence[Path]) -> Callable[[Path], bool] | None:
    """What `discover` leaves out below the directories among `paths`. The configuration
    is read only when a directory is walked: `exclude` never drops a file named directly,
    so a run on named files (a pre-commit hook's) does not depend on it."""
    if not any(str(p) != "-" and p.is_dir() for p in paths):
        return None
    return load_config().excluded
