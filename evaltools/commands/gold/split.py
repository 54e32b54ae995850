"""`evaltools gold split`: tune and holdout, in place, per type."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from evaltools.atomic import remove_stale_temps
from evaltools.atomic.outputs import write_outputs
from evaltools.config.discovery import places_of
from evaltools.report.gold_merge import percent
from evaltools.report.gold_summary import emit, fail, fail_writing
from evaltools.retrieval.gold.discipline.discipline_io import check_share, input_files, read_sets

if TYPE_CHECKING:
    from evaltools.retrieval.gold.discipline.holdout import SplitResult


def split(*, paths: list[Path], holdout: float | None, seed: int, output_format: str) -> int:
    from evaltools.retrieval.gold.discipline.holdout import split_set

    if holdout is None:
        holdout = _configured_holdout()
    else:
        check_share("--holdout", holdout)
    inputs = input_files(paths)
    count = len(inputs)
    files, problems = read_sets(inputs, need_gold=False)
    if problems:
        return fail(problems, output_format, count, places_of)
    result = split_set(files, holdout, seed)
    if result.diagnostics:
        return fail(result.diagnostics, output_format, count, places_of)
    for planned in result.files:
        remove_stale_temps(planned.source.path.parent)  # a killed earlier split may have left some
    changing = [planned for planned in result.files if planned.changed]
    # The files are one set: all of them are split, or none is.
    problem = write_outputs([(p.source.path, p.data, p.source.data) for p in changing])
    if problem is not None:
        return fail_writing([problem], [], output_format, count, places_of)
    changed = [planned.source.display for planned in changing]
    summary: dict[str, object] = {
        "seed": seed,
        "holdout": holdout,
        "assigned": result.assigned,
        "moved": result.moved,
        "files_changed": changed,
        "per_type": {n: {"records": r, "holdout": h} for n, (r, h) in result.per_type.items()},
        "moved_to_tune": result.moved_per_type(),
        "missing_holdout": result.missing,
    }
    emit(output_format, summary, _split_text(result, holdout, seed, len(changed), count))
    return 0


def _split_text(
    result: SplitResult, holdout: float, seed: int, changed: int, count: int
) -> list[str]:
    """The summary for people: a holdout query moved to tune and a holdout query missing are
    said per type, since either one changes what the holdout measures."""
    text = [
        f"Assigned a split to {result.assigned} records and moved {result.moved} from holdout "
        f"to tune, in {changed} of {count} files (seed {seed}, target holdout "
        f"{percent(holdout)}); holdout per type:"
    ]
    moved = result.moved_per_type()
    for name, (records, held) in result.per_type.items():
        line = f"  {name}: {held} of {records} ({percent(held / records)})"
        if moved.get(name):
            line += (
                f"; {moved[name]} moved from holdout to tune, as the target asks for a "
                "smaller holdout"
            )
        if result.missing.get(name):
            missing = result.missing[name]
            line += f"; {missing} holdout {'query' if missing == 1 else 'queries'} missing"
        text.append(line)
    if result.missing:
        text.append(
            "Tune queries never move into the holdout (they may have been tuned on): add new "
            "queries of the types missing some and split again; queries without a split are "
            "drawn for the holdout first."
        )
    return text


def _configured_holdout() -> float:
    """`holdout-share` of [tool.evaltools.retrieval] (the target `gold stats` checks), else 0.2."""
    from evaltools.config.model import load_config
    from evaltools.retrieval.records.stats import Targets

    share = Targets.from_config(load_config().retrieval.targets).holdout_share
    check_share("[tool.evaltools.retrieval] holdout-share", share)
    return share
