"""`evaltools gold mine|sample`: weak labels from git history, and the audit sample.

`gold merge` and `gold split` are in merge.py and split.py; what the four share is
in `retrieval.gold.discipline.discipline_io` (reading), `atomic.outputs` (writing) and
`report.gold_summary` (printing)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from evaltools import jsonio
from evaltools.atomic.outputs import check_output, output_expect, write_output
from evaltools.config.discovery import places_of
from evaltools.fileio import UsageError
from evaltools.report.gold_merge import percent
from evaltools.report.gold_summary import emit, fail, fail_writing
from evaltools.retrieval.gold.discipline.discipline_io import (
    check_share,
    dump_jsonl,
    input_files,
    read_sets,
)

if TYPE_CHECKING:
    from evaltools.retrieval.gold.discipline.mine import MineResult

# --- sample ----------------------------------------------------------------------------------


def sample(
    *,
    paths: list[Path],
    fraction: float,
    seed: int,
    output: Path,
    force: bool,
    output_format: str,
) -> int:
    from evaltools.retrieval.gold.discipline.annotate import sample_pairs

    check_share("--fraction", fraction)
    inputs = input_files(paths)
    count = len(inputs)
    refused = check_output(output, force, inputs=inputs)
    if refused is not None:
        return fail_writing([refused], [], output_format, count, places_of)
    files, problems = read_sets(inputs, need_gold=True)
    if problems:
        return fail(problems, output_format, count, places_of)
    result = sample_pairs([line for f in files for line in f.lines], fraction, seed)
    problem = write_output(output, dump_jsonl(result.pairs), expect=output_expect(force))
    if problem is not None:
        return fail_writing([problem], [], output_format, count, places_of)
    per_type = {
        name: {"pairs": total, "sampled": result.sampled[name]}
        for name, total in result.totals.items()
    }
    summary: dict[str, object] = {
        "output": str(output),
        "seed": seed,
        "fraction": fraction,
        "pairs": sum(result.totals.values()),
        "sampled": len(result.pairs),
        "per_type": per_type,
    }
    lines = [
        f"  {name}: {entry['sampled']} of {entry['pairs']} "
        f"({percent(entry['sampled'] / entry['pairs'])})"
        for name, entry in _typed(per_type)
    ]
    total = sum(result.totals.values())
    head = (
        f"Sampled {len(result.pairs)} of {total} gold pairs "
        f"({percent(len(result.pairs) / total if total else None)}, target "
        f"{percent(fraction)}, seed {seed}) into {output}:"
    )
    emit(output_format, summary, [head, *lines])
    return 0


def _typed(per_type: dict[str, dict[str, int]]) -> list[tuple[str, dict[str, int]]]:
    from evaltools.retrieval.records.strata import type_key

    return sorted(per_type.items(), key=lambda item: type_key(item[0]))


# --- mine ------------------------------------------------------------------------------------


def mine(
    *,
    repo: Path,
    since: str | None,
    rev_range: str | None,
    per_type: int | None,
    seed: int,
    path_prefix: str,
    output: Path,
    force: bool,
    output_format: str,
) -> int:
    from evaltools.retrieval.gold.discipline import mine as mining

    if per_type is not None and per_type < 1:
        raise UsageError(f"--per-type must be at least 1; got {per_type}")
    _check_path_prefix(path_prefix)
    from evaltools.retrieval.sources.git import GitError

    refused = check_output(output, force)
    if refused is not None:
        return fail_writing([refused], [], output_format, 1, places_of)
    from evaltools.report.progress import Progress

    progress = Progress()
    try:
        result = mining.mine(
            repo,
            since=since,
            rev_range=rev_range,
            path_prefix=path_prefix,
            on_commit=lambda done: progress.count(done, "commits"),
        )
    except GitError as exc:
        raise UsageError(str(exc)) from exc
    finally:
        progress.clear()
    _check_shallow(repo, result.shallow_skipped, result.commits)
    chosen = result.candidates
    if per_type is not None:
        chosen = mining.review_sample(result.candidates, per_type, seed)
    records = dump_jsonl(chosen)
    problem = write_output(output, records, expect=output_expect(force))
    if problem is not None:
        return fail_writing([problem], [], output_format, 1, places_of)
    summary, text = _mine_summary(result, chosen, output)
    emit(output_format, summary, text)
    return 0


def _mine_summary(
    result: MineResult, chosen: list[dict[str, Any]], output: Path
) -> tuple[dict[str, object], list[str]]:
    """What was mined, dropped and written: the JSON summary, and its lines for people."""
    from evaltools.retrieval.gold.discipline.mine import DROP_REASONS

    types = sorted({c["type"] for c in chosen}, key=_type_key)
    per_type_written = {t: sum(c["type"] == t for c in chosen) for t in types}
    dropped = {r: result.dropped[r] for r in DROP_REASONS if result.dropped[r]}
    summary: dict[str, object] = {
        "output": str(output),
        "commits": result.commits,
        "candidates": len(result.candidates),
        "written": len(chosen),
        "written_per_type": per_type_written,
        "dropped": dropped,
        "unparsed_files": result.unparsed_files,
        "shallow_skipped": result.shallow_skipped,
    }
    drop_text = ", ".join(f"{k.replace('_', ' ')} {v}" for k, v in dropped.items()) or "none"
    mix = ", ".join(f"{t} {n}" for t, n in per_type_written.items())
    text = [
        f"Read {result.commits} commits: {len(result.candidates)} candidates, "
        f"{sum(dropped.values())} dropped ({drop_text}).",
        f"Wrote {len(chosen)} draft records to {output} ({mix or 'none'}); "
        "review every one before it joins the set.",
    ]
    return summary, text


def _check_shallow(repo: Path, skipped: int, mined: int) -> None:
    """Say what the commits at a shallow clone's edge cost; refuse when they were all there
    was (`actions/checkout`'s default depth), rather than write an empty file as if the
    history held no candidate."""
    if not skipped:
        return
    from evaltools.retrieval.sources.git import FETCH_HISTORY

    one = skipped == 1
    why = f"whose parents git does not have, so what {'it' if one else 'they'} changed is unknown"
    if not mined:
        only = (
            "commit in the range is the one" if one else f"commits in the range are the {skipped}"
        )
        fix = FETCH_HISTORY.replace("check again", "mine again")
        raise UsageError(
            f"--repo {repo} is a shallow clone whose only {only} at its edge, {why}: {fix}"
        )
    sys.stderr.write(
        f"evaltools gold mine: warning: skipped {'1 commit' if one else f'{skipped} commits'} "
        f"at the edge of the shallow clone {repo}, {why}: `git fetch --unshallow` fetches the "
        f"full history to mine {'it' if one else 'them'} too\n"
    )


def _check_path_prefix(prefix: str) -> None:
    """The prefix must make every mined ID valid: it names folders, so it ends with `/`, and
    prefix plus a file's path must pass the chunk-ID grammar (validate would refuse it)."""
    if not prefix:
        return
    from evaltools.retrieval.code.chunk_id import ChunkIdError, parse_chunk_id

    if not prefix.endswith("/"):
        raise UsageError(
            f"--path-prefix {jsonio.dumps(prefix)} does not end with `/`: it names the folder "
            f"the repository is in, e.g. {jsonio.dumps(prefix + '/')}"
        )
    try:
        parse_chunk_id(f"{prefix}FILE:1-1")
    except ChunkIdError as exc:
        raise UsageError(
            f"--path-prefix {jsonio.dumps(prefix)} makes invalid chunk IDs: {exc}"
        ) from exc


def _type_key(type_name: str) -> tuple[int, str]:
    from evaltools.retrieval.records.strata import type_key

    return type_key(type_name)
