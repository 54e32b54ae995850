"""Which files `check` looks at, and which checks each kind of file gets."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from evaltools.config.model import Config
from evaltools.config.places import check_configured_exist, refuse_unlisted_eval_files
from evaltools.fileio import NothingFound, UsageError, check_paths_exist, discover
from evaltools.retrieval.records.sniff import split_sets


@dataclass
class Plan:
    examples: list[Path] = field(default_factory=list)
    example_records: list[Path] = field(default_factory=list)
    retrieval_sets: list[Path] = field(default_factory=list)
    empty: list[str] = field(default_factory=list)  # configured places that held nothing

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
        check_configured_exist(config, "paths", "sets")
        if not configured and not sets:
            refuse_unlisted_eval_files(config)
        out.examples = _found(configured, (".md",), ignore, "example files", out.empty, config)
        out.retrieval_sets = _found(sets, (".jsonl",), ignore, "eval sets", out.empty, config)
        return out
    check_paths_exist(paths, stdin=False)
    found = discover(
        paths, (".md", ".jsonl"), respect_gitignore=ignore, what="files", excluded=config.excluded
    )
    others, out.retrieval_sets = split_sets(found, list(config.retrieval.sets))
    for path in others:
        is_record = path.suffix in (".json", ".jsonl")
        (out.example_records if is_record else out.examples).append(path)
    return out


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
