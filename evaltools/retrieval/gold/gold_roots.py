"""What gold IDs resolve against: kept apart from the check so that a cached run
(`result_cache`) settles it without importing the resolver."""

from __future__ import annotations

from pathlib import Path

from evaltools.fileio import UsageError


def gold_sources(
    root: Path | None,
    metas: Path | None,
    default_root: Path | None,
    default_metas: Path | None,
) -> tuple[Path | None, Path | None]:
    """What the gold IDs resolve against: the flags first, then the configured defaults."""
    root_from = "--root" if root is not None else "`root` in [tool.evaltools.retrieval]:"
    metas_from = "--metas" if metas is not None else "`metas` in [tool.evaltools.retrieval]:"
    root = root if root is not None else default_root
    metas = metas if metas is not None else default_metas
    if root is None and metas is None:
        raise UsageError(
            "gold check needs --root DIR (the code the gold IDs point into) or --metas FILE, "
            "or `root` in [tool.evaltools.retrieval]"
        )
    if root is not None and not root.is_dir():
        raise UsageError(f"{root_from} {root.as_posix()} is not a directory")
    if metas is not None and not metas.is_file():
        raise UsageError(f"{metas_from} {metas.as_posix()} is not a file")
    return root, metas
