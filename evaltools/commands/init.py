"""`evaltools init`: add evaltools' hook to `.pre-commit-config.yaml`, keeping everything else."""

from __future__ import annotations

import sys
from pathlib import Path

from evaltools import __version__
from evaltools.fileio import atomic_write, display_path
from evaltools.precommit import ConfigEditError, add_evaltools, same_except_evaltools


def run(config_file: Path, rev: str | None, hooks: list[str]) -> int:
    rev = rev or f"v{__version__}"
    shown = display_path(config_file)
    before = config_file.read_text(encoding="utf-8") if config_file.exists() else None
    try:
        edit = add_evaltools(before, rev, tuple(hooks) or ("evaltools-check",))
    except ConfigEditError as exc:
        sys.stdout.write(f"{shown}:{exc.line}:{exc.column}: {exc} (file left unchanged)\n")
        return 1
    if edit.action == "unchanged":
        sys.stdout.write(f"{shown}: evaltools is already at {rev}; nothing to do\n")
        return 0
    if not same_except_evaltools(before, edit.text):
        sys.stdout.write(
            f"{shown}: the edit would change more than the evaltools entry; file left "
            "unchanged (please add the entry by hand)\n"
        )
        return 1
    atomic_write(config_file, edit.text.encode("utf-8"))
    what = {
        "created": f"created with evaltools {rev}",
        "added": f"added evaltools {rev}",
        "updated": f"updated evaltools from {edit.old_rev} to {rev}",
    }[edit.action]
    sys.stdout.write(f"{shown}: {what}; run `pre-commit install` to enable the hooks\n")
    return 0
