"""Which files `check` looks at, and which checks each kind of file gets."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from evaltools.config.evalfiles import SUFFIXES, Kind, kind, unlisted
from evaltools.config.model import Config
from evaltools.config.places import (
    check_configured_exist,
    check_configured_sources,
    refuse_unlisted_eval_files,
)
from evaltools.diagnostics import Diagnostic
from evaltools.discover import NothingFound, check_paths_exist, discover
from evaltools.fileio import UsageError, display_path, real_path


@dataclass
class Plan:
    examples: list[Path] = field(default_factory=list)
    example_records: list[Path] = field(default_factory=list)
    retrieval_sets: list[Path] = field(default_factory=list)
    empty: list[str] = field(default_factory=list)  # configured places that held nothing
    # Tracked eval files the configuration leaves out (IO030), reported with the findings.
    unlisted: list[Diagnostic] = field(default_factory=list)

    @property
    def files(self) -> int:
        return len(self.examples) + len(self.example_records) + len(self.retrieval_sets)


def plan(paths: list[Path], config: Config, *, respect_gitignore: bool = True) -> Plan:
    out = Plan()
    ignore = respect_gitignore and config.respect_gitignore
    if not paths:
        configured = list(config.paths)
        sets = list(config.retrieval.sets)
        if not config.declares_targets:
            raise UsageError(
                "nothing to check: pass paths, or set `paths` in [tool.evaltools] and `sets` "
                "in [tool.evaltools.retrieval]"
            )
        # A configured place that is gone is an error; one that holds no eval files yet
        # (a fresh setup) is said and passes, as ruff passes a folder without Python files.
        check_configured_exist(config, "paths", "sets", "drafts")
        if not configured and not sets:
            refuse_unlisted_eval_files(config)
        out.retrieval_sets = _found(sets, (".jsonl",), ignore, "eval sets", out.empty, config)
        if out.retrieval_sets:  # where their gold and schema come from, once there are some
            check_configured_sources(config, "root", "metas", "schema")
        found = _found(configured, SUFFIXES, ignore, "example files", out.empty, config)
        _sort(out, found, configured, config)
        if found and not (out.examples or out.example_records):
            patterns = ", ".join(f"*{s}" for s in SUFFIXES)
            out.empty.append(f"no example files ({patterns}) in `paths` of [tool.evaltools]")
        # Only the whole configuration says what is left out: named paths are the caller's.
        out.unlisted = unlisted(config, [*found, *out.retrieval_sets])
        return out
    check_paths_exist(paths, stdin=False)
    found = discover(
        paths, SUFFIXES, respect_gitignore=ignore, what="files", excluded=config.excluded
    )
    _sort(out, found, paths, config)
    if not out.files:
        where = ", ".join(f"{display_path(p).rstrip('/')}/" for p in paths)
        shown = ", ".join(display_path(p) for p in found[:3]) + (", ..." if len(found) > 3 else "")
        raise NothingFound(
            f"no example files or retrieval sets under {where}: {len(found)} .json/.jsonl "
            f"{'file holds' if len(found) == 1 else 'files hold'} neither ({shown}); "
            "name a file to check it as its suffix says"
        )
    return out


def _sort(out: Plan, found: list[Path], named: list[Path], config: Config) -> None:
    """Each file to the checks of what it is: its form by its suffix (as `lint` and
    `convert` read it), a `.jsonl` a retrieval set when configured as one or when its records
    have `qid` and `gold`. A `.json`/`.jsonl` found in a folder that is plainly something
    else (no example's keys) is no example; one named is read as its suffix says."""
    given = set(named)
    sets = {real_path(p) for p in config.retrieval.sets}
    checked = {real_path(p) for p in out.retrieval_sets}
    for path in found:
        if path.suffix not in (".json", ".jsonl"):
            out.examples.append(path)
            continue
        real = real_path(path)
        if real in checked:
            continue  # a configured set, below a configured folder too: checked once, as a set
        what = kind(path)
        if real in sets or what is Kind.SET:
            out.retrieval_sets.append(path)
            checked.add(real)
        elif path in given or what is not Kind.OTHER:
            out.example_records.append(path)


def _found(  # noqa: PLR0917 (one call per kind of file)
    paths: list[Path],
    suffixes: tuple[str, ...],
    ignore: bool,
    what: str,
    empty: list[str],
    config: Config,
) -> list[Path]:
    """The files below configured `paths`; finding none is noted in `empty`, not raised."""
    if not paths:
        return []
    try:
        return discover(
            paths, suffixes, respect_gitignore=ignore, what=what, excluded=config.excluded
        )
    except NothingFound as nothing:
        empty.append(str(nothing))
        return []
