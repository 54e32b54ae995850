"""`evaltools gold mine|merge|sample|split`: the gold discipline as commands."""

from __future__ import annotations

import sys
from collections.abc import Iterable, Sequence
from pathlib import Path

from evaltools import jsonio
from evaltools.atomic import WriteError, atomic_write, remove_stale_temps, write_finding
from evaltools.diagnostics import Diagnostic, worst_exit_code
from evaltools.fileio import (
    UsageError,
    check_paths_exist,
    discover,
    display_path,
    refuse_input_as_output,
)
from evaltools.report import render
from evaltools.report.gold_merge import merge_text, percent
from evaltools.retrieval.records._gold_jsonl import JsonlFile, read_jsonl


def dump_jsonl(records: Iterable[object]) -> bytes:
    return b"".join(jsonio.dumps(record).encode("utf-8") + b"\n" for record in records)


def check_output(
    path: Path, force: bool, *, inputs: Sequence[Path] = (), option: str = "-o"
) -> None:
    """Refuse to overwrite an existing output file unless --force, and an input ever: the
    output is written before the command ends, so the input would be lost."""
    if str(path) == "-":
        return
    if path.is_dir():
        raise UsageError(f"{option} {path}: is a directory; name the output file")
    refuse_input_as_output(path, inputs, option)
    if path.exists() and not force:
        raise UsageError(f"{option} {path}: file exists; pass --force to overwrite it")
    if not path.parent.is_dir():
        raise UsageError(f"{option} {path}: no such directory {path.parent}")


def write_output(path: Path, data: bytes, *, expect: bytes | None = None) -> Diagnostic | None:
    """Write one output (or rewrite an input read as `expect`); the finding if it failed."""
    if str(path) == "-":
        sys.stdout.flush()
        sys.stdout.buffer.write(data)
        sys.stdout.buffer.flush()
        return None
    try:
        atomic_write(path, data, expect=expect)
    except WriteError as error:
        return write_finding(error, display_path(path))
    return None


def fail_writing(
    problems: Sequence[Diagnostic], written: Sequence[str], output_format: str, files: int
) -> int:
    """Report the files that could not be written, after saying which ones were."""
    for name in written:
        sys.stderr.write(f"written: {name}\n")
    return fail(problems, output_format, files)


def input_files(paths: Sequence[Path]) -> list[Path]:
    """The .jsonl files to read: those named, and those in the directories named."""
    if any(str(path) == "-" for path in paths):
        raise UsageError("- (stdin) is not supported here: name the .jsonl files")
    check_paths_exist(paths)
    return discover(paths, (".jsonl",), what="eval sets")


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


def fail(problems: Sequence[Diagnostic], output_format: str, files_checked: int) -> int:
    """Report input problems the usual way; nothing has been written."""
    render(output_format, problems, sys.stdout, files_checked=files_checked)
    return max(worst_exit_code(problems), 1)


def emit(output_format: str, summary: dict[str, object], text: Iterable[str]) -> None:
    """The run's summary: one JSON object, or lines for people; on stderr when the data
    itself goes to stdout, so that `-o -` stays clean."""
    stream = sys.stderr if summary.get("output") == "-" else sys.stdout
    if output_format == "json":
        stream.write(jsonio.dumps(summary, indent=2) + "\n")
        return
    for line in text:
        stream.write(line + "\n")


# --- merge -----------------------------------------------------------------------------------


def merge(
    *,
    first: Path,
    second: Path,
    output: Path,
    conflicts: Path | None,
    force: bool,
    output_format: str,
) -> int:
    from evaltools.retrieval.gold.annotate import merge_annotations

    input_files([first, second])  # the checks: no stdin, both exist
    for path in (first, second):
        if path.is_dir():
            raise UsageError(
                f"{path.as_posix()} is a directory: gold merge takes two .jsonl files, "
                "one per annotator"
            )
    # One file per annotator, by position: the same file twice is merged with itself,
    # not taken once as discovery takes a file named twice.
    inputs = [first, second]
    check_output(output, force, inputs=inputs)
    if conflicts is not None:
        check_output(conflicts, force, inputs=inputs, option="--conflicts")
        if conflicts.resolve() == output.resolve():
            raise UsageError("-o and --conflicts must name two different files")
    count = len(inputs)
    files, problems = read_sets(inputs, need_gold=True)
    if problems:
        return fail(problems, output_format, count)
    result = merge_annotations(files[0].lines, files[1].lines)
    if result.diagnostics:
        return fail(result.diagnostics, output_format, count)
    outputs = [(output, dump_jsonl(result.merged))]
    if conflicts is not None:
        outputs.append((conflicts, dump_jsonl(result.conflicts)))
    failed = [(path, write_output(path, data)) for path, data in outputs]
    written = [str(path) for path, problem in failed if problem is None]
    problems = [problem for _, problem in failed if problem is not None]
    if problems:
        return fail_writing(problems, written, output_format, count)
    agreement = result.agreement
    summary: dict[str, object] = {
        "output": str(output),
        "conflicts_file": None if conflicts is None else str(conflicts),
        "merged": len(result.merged),
        "counts": dict(sorted(result.counts.items())),
        "agreement": {
            "pairs": agreement.pairs,
            "exact": agreement.exact,
            "within_one": agreement.within_one,
            "weighted_kappa": agreement.kappa,
            "one_annotator": agreement.one_annotator,
        },
        "conflicts": result.conflicts,
    }
    _report_findings(output_format, summary, result.findings, count)
    emit(output_format, summary, merge_text(summary, result.conflicts, first, second))
    return worst_exit_code(result.findings)


def _report_findings(
    output_format: str, summary: dict[str, object], findings: Sequence[Diagnostic], files: int
) -> None:
    """Errors the merge wrote down for a person (RG405): inside the JSON summary, else as
    findings ahead of the summary lines, in the stream the summary goes to."""
    if not findings:
        return
    if output_format == "json":
        summary["findings"] = [d.to_json() for d in sorted(findings, key=Diagnostic.sort_key)]
        return
    stream = sys.stderr if summary.get("output") == "-" else sys.stdout
    render(output_format, findings, stream, files_checked=files)


# --- sample ----------------------------------------------------------------------------------


def _check_share(name: str, value: float) -> None:
    if not 0 < value <= 1:
        raise UsageError(f"{name} must be a share in (0, 1], like 0.1; got {value}")


def sample(
    *,
    paths: list[Path],
    fraction: float,
    seed: int,
    output: Path,
    force: bool,
    output_format: str,
) -> int:
    from evaltools.retrieval.gold.annotate import sample_pairs

    _check_share("--fraction", fraction)
    inputs = input_files(paths)
    check_output(output, force, inputs=inputs)
    count = len(inputs)
    files, problems = read_sets(inputs, need_gold=True)
    if problems:
        return fail(problems, output_format, count)
    result = sample_pairs([line for f in files for line in f.lines], fraction, seed)
    problem = write_output(output, dump_jsonl(result.pairs))
    if problem is not None:
        return fail_writing([problem], [], output_format, count)
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
    from evaltools.retrieval.gold.strata import type_key

    return sorted(per_type.items(), key=lambda item: type_key(item[0]))


# --- split -----------------------------------------------------------------------------------


def split(*, paths: list[Path], holdout: float | None, seed: int, output_format: str) -> int:
    from evaltools.retrieval.gold.holdout import split_set

    if holdout is None:
        holdout = _configured_holdout()
    else:
        _check_share("--holdout", holdout)
    inputs = input_files(paths)
    count = len(inputs)
    files, problems = read_sets(inputs, need_gold=False)
    if problems:
        return fail(problems, output_format, count)
    result = split_set(files, holdout, seed)
    if result.diagnostics:
        return fail(result.diagnostics, output_format, count)
    changed: list[str] = []
    for planned in result.files:
        remove_stale_temps(planned.source.path.parent)  # a killed earlier split may have left some
        if planned.changed:
            problem = write_output(planned.source.path, planned.data, expect=planned.source.data)
            if problem is not None:
                problems.append(problem)
                continue
            changed.append(planned.source.display)
    if problems:
        return fail_writing(problems, changed, output_format, count)
    typed = [(n, {"records": r, "holdout": h}) for n, (r, h) in result.per_type.items()]
    summary: dict[str, object] = {
        "seed": seed,
        "holdout": holdout,
        "assigned": result.assigned,
        "moved": result.moved,
        "files_changed": changed,
        "per_type": dict(typed),
    }
    text = [
        f"Assigned a split to {result.assigned} records and moved {result.moved} between tune "
        f"and holdout, in {len(changed)} of {count} files (seed {seed}, target holdout "
        f"{percent(holdout)}); holdout per type:"
    ]
    for name, row in typed:
        held, records = row["holdout"], row["records"]
        text.append(f"  {name}: {held} of {records} ({percent(held / records)})")
    emit(output_format, summary, text)
    return 0


def _configured_holdout() -> float:
    """`holdout-share` of [tool.evaltools.retrieval] (the target `gold stats` checks), else 0.2."""
    from evaltools.config.model import load_config
    from evaltools.retrieval.records.stats import Targets

    share = Targets.from_config(load_config().retrieval.targets).holdout_share
    _check_share("[tool.evaltools.retrieval] holdout-share", share)
    return share


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
    from evaltools.retrieval.gold import mine as mining

    if per_type is not None and per_type < 1:
        raise UsageError(f"--per-type must be at least 1; got {per_type}")
    _check_path_prefix(path_prefix)
    from evaltools.retrieval.sources.git import GitError

    check_output(output, force)
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
    problem = write_output(output, dump_jsonl(c.record() for c in chosen))
    if problem is not None:
        return fail_writing([problem], [], output_format, 1)
    types = sorted({c.type for c in chosen}, key=_type_key)
    per_type_written = {t: sum(c.type == t for c in chosen) for t in types}
    dropped = {r: result.dropped[r] for r in mining.DROP_REASONS if result.dropped[r]}
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
    emit(output_format, summary, text)
    return 0


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
    from evaltools.retrieval.gold.strata import type_key

    return type_key(type_name)
