"""Pairs that count twice across a set, or between two sets: both halves, one result.

Edit-prediction examples (.md, .json, .jsonl) and retrieval sets (.jsonl with `qid` and
`gold`) are told apart as `evaltools check` does, and each half is compared on its own.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from evaltools.config.model import Config
from evaltools.diagnostics import Diagnostic
from evaltools.discover import discover
from evaltools.dupes.pairs import Pair
from evaltools.gcpause import no_cycle_collection

# Searched for in directories, as `check` does (a .json there is as often editor settings
# as an example); a .json named directly is read as an example.
SUFFIXES = (".md", ".jsonl")


@dataclass
class Found:
    pairs: list[Pair] = field(default_factory=list)
    problems: list[Diagnostic] = field(default_factory=list)
    files: int = 0

    def diagnostics(self) -> list[Diagnostic]:
        return [pair.to_diagnostic() for pair in self.pairs] + self.problems


def sorted_inputs(paths: list[Path], config: Config) -> tuple[list[Path], list[Path]]:
    """(example files, retrieval set files) below `paths`."""
    from evaltools.config.evalfiles import split_sets

    found = discover(
        paths,
        SUFFIXES,
        respect_gitignore=config.respect_gitignore,
        what="examples or eval sets",
        excluded=config.excluded,
    )
    return split_sets(found, list(config.retrieval.sets))


def collect(
    paths: list[Path],
    against: list[Path],
    threshold: float,
    config: Config,
    workers: int | None = 1,
    *,
    on_item: Callable[[], None] | None = None,
) -> Found:
    """Pairs within `paths`, or, with `against`, between `against` (the reference) and
    `paths` only. `on_item` hears each example read (for a progress line)."""
    mine = sorted_inputs(paths, config)
    theirs = sorted_inputs(against, config) if against else None
    return compare(mine, theirs, threshold, workers, on_item)


def compare(
    mine: tuple[list[Path], list[Path]],
    theirs: tuple[list[Path], list[Path]] | None,
    threshold: float,
    workers: int | None = 1,
    on_item: Callable[[], None] | None = None,
) -> Found:
    """Pairs among (example files, retrieval set files) `mine`, or only between `theirs`
    and `mine` when `theirs` is given."""
    # Fingerprints and buckets are millions of objects in no cycle: the collector's full
    # passes traverse them all again and again (about 30% of the time, measured at 30k).
    with no_cycle_collection():
        return _compare(mine, theirs, threshold, workers, on_item)


def _compare(
    mine: tuple[list[Path], list[Path]],
    theirs: tuple[list[Path], list[Path]] | None,
    threshold: float,
    workers: int | None,
    on_item: Callable[[], None] | None,
) -> Found:
    found = Found()
    reference = theirs if theirs is not None else ([], [])
    found.files = sum(map(len, (*mine, *reference)))
    if mine[0] or reference[0]:
        from evaltools.example import dupes as example_dupes

        before, problems = example_dupes.read_fingerprints(reference[0], workers, on_item)
        after, more = example_dupes.read_fingerprints(mine[0], workers, on_item)
        found.problems += problems + more
        across = len(before) if theirs is not None else None
        found.pairs += example_dupes.find_pairs(before + after, threshold, across=across)
    if mine[1] or reference[1]:
        from evaltools.retrieval.gold.discipline import dupes as retrieval_dupes

        queries, problems = retrieval_dupes.read_prints(reference[1])
        more_queries, more = retrieval_dupes.read_prints(mine[1])
        found.problems += problems + more
        across = len(queries) if theirs is not None else None
        found.pairs += retrieval_dupes.find_pairs(queries + more_queries, threshold, across=across)
    return found
