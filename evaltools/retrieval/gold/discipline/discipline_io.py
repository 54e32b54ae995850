"""What the gold discipline commands (`gold mine`, `merge`, `sample`, `split`) share: the
sets they read, the bytes of the sets they write, and the checks of their options.

Here rather than in `commands/` because command modules do not import one another; their
outputs are written by `atomic.outputs`, their summaries and failures printed by
`report.gold_summary`."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path

from evaltools import jsonio
from evaltools.config.evalfiles import discover_sets
from evaltools.diagnostics import Diagnostic
from evaltools.discover import check_paths_exist
from evaltools.fileio import UsageError
from evaltools.retrieval.records.set_file import JsonlFile, read_jsonl


def dump_jsonl(records: Iterable[object]) -> bytes:
    return b"".join(jsonio.dumps(record).encode("utf-8") + b"\n" for record in records)


def input_files(paths: Sequence[Path]) -> list[Path]:
    """The .jsonl files to read: those named, and those in the directories named."""
    if any(str(path) == "-" for path in paths):
        raise UsageError("- (stdin) is not supported here: name the .jsonl files")
    check_paths_exist(paths)
    from evaltools.config.exclude import walk_exclusion

    return discover_sets(paths, excluded=walk_exclusion(paths))


def read_sets(
    files: Sequence[Path], *, need_gold: bool
) -> tuple[list[JsonlFile], list[Diagnostic]]:
    """The sets, or the diagnostics of the lines that make one unusable."""
    sets: list[JsonlFile] = []
    problems: list[Diagnostic] = []
    for path in files:
        found = read_jsonl(path, need_gold=need_gold)
        if isinstance(found, list):
            problems.extend(found)
        else:
            sets.append(found)
    return sets, problems


def check_share(name: str, value: float) -> None:
    if not 0 < value <= 1:
        raise UsageError(f"{name} must be a share in (0, 1], like 0.1; got {value}")
