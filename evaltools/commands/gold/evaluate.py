"""`evaltools gold eval RUN... --set SET [--baseline RUN] [--k 10] [--history FILE [--plot SVG]]`.

The set is validated first (`validate`'s record checks: a record that is not a valid query
would silently drop out of the scores) and its gold IDs checked by the gold check service (a
stale ID refuses the evaluation unless --allow-stale), then each run is scored by
`retrieval.evaluate` and reported as text, JSON or Markdown. --history appends one line per
run; --plot then draws the history's nDCG by query type (the runs just scored included);
with --plot the RUNs are optional.

Nothing is written until everything that can refuse has been checked: the history and the
plot are outputs that must not be inputs, the history must read back as one, and the plot
may replace only a chart this command drew. The history and the plot are written together,
both or neither (`atomic.WriteSet`), and the history is read again under a lock just before:
two runs recording into one history at once both land.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from evaltools import jsonio
from evaltools.atomic import MISSING, Expect, WriteError, WriteSet, atomic_write, locked
from evaltools.config.model import load_config
from evaltools.diagnostics import Diagnostic
from evaltools.discover import refuse_input_as_output
from evaltools.fileio import MAX_DATA_FILE_BYTES, Refused, UsageError, display_path, read_input
from evaltools.retrieval.gold.gold_check import GoldCheck
from evaltools.retrieval.gold.reanchor.resolve import Status
from evaltools.retrieval.scoring.history import History, parse_history

if TYPE_CHECKING:
    from evaltools.retrieval.scoring.evaluate import Evaluation
    from evaltools.retrieval.scoring.history import Provenance

# Enough of an existing --plot file to find the generator's marker on its first line.
_CHART_HEAD_BYTES = 4096


def run(
    *,
    runs: list[Path],
    set_path: Path | None,
    baseline: Path | None,
    k: int,
    seed: int,
    root: Path | None,
    rev: str | None,
    metas: Path | None,
    allow_stale: bool,
    history: Path | None,
    plot: Path | None,
    output_format: str,
    label: str | None = None,
) -> int:
    _check_usage(runs, history, plot, k)
    set_file = _set_path(set_path) if runs else set_path
    inputs = [
        *runs,
        *([baseline] if baseline is not None else []),
        *([set_file] if set_file is not None else []),
    ]
    old = _read_history(history, inputs, must_exist=not runs) if history is not None else None
    if old is not None and old.parsed.problems:
        return _refuse_history(old, output_format)
    if plot is not None:
        _check_plot(plot, [*inputs, *([history] if history is not None else [])])
    if not runs:
        assert old is not None and plot is not None  # _check_usage: no RUN means a plot
        _write_plot(plot, old.parsed, old.path)
        return 0
    assert set_file is not None
    scored = _score(
        runs=runs,
        set_file=set_file,
        baseline=baseline,
        k=k,
        seed=seed,
        sources=(root, rev, metas),
        allow_stale=allow_stale,
        output_format=output_format,
    )
    if isinstance(scored, int):
        return scored
    results, checked, stale = scored
    if old is not None:
        _record(old, results, checked, _provenance(root, rev, metas, label, checked), plot)
    _print(results, stale, output_format)
    return 0


def _check_usage(runs: list[Path], history: Path | None, plot: Path | None, k: int) -> None:
    if plot is not None and history is None:
        raise UsageError(
            "--plot draws the runs recorded in a --history file: pass --history FILE too"
        )
    if k < 1:
        raise UsageError(f"--k must be at least 1, not {k}")
    if not runs and plot is None:
        raise UsageError(
            "gold eval needs at least one RUN to score (or --history FILE --plot SVG to draw "
            "the runs recorded so far)"
        )


@dataclass(frozen=True)
class _OldHistory:
    path: Path
    data: bytes  # b"" for a history not created yet
    exists: bool
    parsed: History


def _read_history(path: Path, inputs: Sequence[Path], *, must_exist: bool) -> _OldHistory:
    """The history as it is now, read back whole: appending to a file that is not one
    (the set, a run, notes) would corrupt it."""
    refuse_input_as_output(path, inputs, "--history")
    shown = display_path(path)
    if not path.exists() and not must_exist:
        if not path.parent.is_dir():
            raise UsageError(f"--history {path}: no such directory {path.parent}")
        return _OldHistory(path, b"", False, History())
    data = read_input(path, max_bytes=MAX_DATA_FILE_BYTES)
    if isinstance(data, Refused):
        raise UsageError(f"cannot read --history {shown}: {data.message}")
    return _OldHistory(path, data, True, parse_history(data, shown))


def _refuse_history(old: _OldHistory, output_format: str) -> int:
    """Report the lines of a --history file that are not a history's; the exit code."""
    return _refuse(
        old.parsed.problems,
        f"gold eval: {len(old.parsed.problems)} unreadable line(s) in "
        f"{display_path(old.path)}: it is not a history `gold eval --history` wrote; fix or "
        "delete them, or name another --history file (nothing was written)",
        output_format,
    )


def _check_plot(plot: Path, inputs: Sequence[Path]) -> None:
    """Refuse a --plot path that is an input or a file this command did not draw."""
    refuse_input_as_output(plot, inputs, "--plot")
    if plot.is_dir():
        raise UsageError(f"--plot {plot}: is a directory; name the SVG file")
    if plot.exists() and not _drawn_here(plot):
        raise UsageError(
            f"--plot {plot}: file exists and is not a chart `gold eval --plot` drew; "
            "delete it or name another file"
        )
    if not plot.parent.is_dir():
        raise UsageError(f"--plot {plot}: no such directory {plot.parent}")


def _drawn_here(plot: Path) -> bool:
    from evaltools.report.gold_eval import is_history_chart

    if not plot.is_file():  # a FIFO or device: opening it could block, and it is no chart
        return False
    try:
        with plot.open("rb") as stream:
            return is_history_chart(stream.read(_CHART_HEAD_BYTES))
    except OSError as exc:
        raise UsageError(f"cannot read --plot {plot}: {exc.strerror}") from exc


_Sources = tuple[Path | None, str | None, Path | None]  # --root, --rev, --metas


def _score(
    *,
    runs: list[Path],
    set_file: Path,
    baseline: Path | None,
    k: int,
    seed: int,
    sources: _Sources,
    allow_stale: bool,
    output_format: str,
) -> int | tuple[list[Evaluation], GoldCheck, list[str]]:
    """The evaluations, the gold check and the stale queries; or the exit code of a
    refusal (an invalid set, stale gold, an unreadable run), already reported."""
    from evaltools.retrieval.scoring.evaluate import evaluate, queries_of
    from evaltools.retrieval.scoring.runs import read_run

    invalid = _set_findings(set_file)
    if invalid:
        return _refuse(
            invalid,
            f"gold eval: {len(invalid)} problem(s) in the eval set {display_path(set_file)}: "
            "every query must count, so nothing was scored; fix them (`evaltools validate` "
            "reports the same)",
            output_format,
        )
    checked = _check_gold(set_file, sources)
    stale = _stale_qids(checked)
    if checked.diagnostics and not allow_stale:
        where = f" in {len(stale)} queries ({', '.join(stale)})" if stale else ""
        return _refuse(
            checked.diagnostics,
            f"gold eval: {len(checked.diagnostics)} gold ID problem(s){where}: scoring would "
            "skip them silently; fix them (`evaltools gold check --fix`) or pass --allow-stale",
            output_format,
        )
    queries = queries_of(line for f in checked.files for line in f.lines)
    loaded = [read_run(p) for p in runs]
    base = read_run(baseline) if baseline is not None else None
    problems = [d for r in [*loaded, *([base] if base else [])] for d in r.problems]
    if problems:
        return _refuse(problems, None, output_format)
    results = [evaluate(queries, r, k=k, seed=seed, baseline=base) for r in loaded]
    return results, checked, stale


def _set_findings(set_file: Path) -> list[Diagnostic]:
    """`validate`'s findings at error level in the set: a record it refuses would drop
    out of the scores (a grade "3", a missing qid, a repeated qid, an empty set)."""
    from evaltools.diagnostics import Severity
    from evaltools.retrieval.records.validation.check_files import (
        check_files,
        jsonl_files,
        schema_text_for,
    )

    if str(set_file) == "-":
        raise UsageError("--set -: gold eval reads the set more than once; name the file")
    files = jsonl_files([set_file])
    drafts = load_config().retrieval.collects_drafts
    found = [d for chunk in check_files(files, schema_text_for(None), None, drafts) for d in chunk]
    return [d for d in found if d.severity is Severity.ERROR]


def _check_gold(set_file: Path, sources: _Sources) -> GoldCheck:
    from evaltools.report.progress import Progress
    from evaltools.retrieval.gold.gold_check import check_gold
    from evaltools.retrieval.gold.gold_roots import gold_sources

    configured = load_config().retrieval
    root, rev, metas = sources
    root, metas = gold_sources(root, metas, configured.root, configured.metas)
    progress = Progress()
    try:
        return check_gold(
            [set_file],
            root=root,
            rev=rev,
            metas=metas,
            fix=False,
            on_parsed=lambda done: progress.count(done, "source files"),
        )
    finally:
        progress.clear()


def _refuse(found: Sequence[Diagnostic], why: str | None, output_format: str) -> int:
    """Report what refuses the evaluation, and why; the exit code. With `--format json` the
    findings are stdout's JSON, as every command prints them, so a pipeline reads them."""
    if output_format == "json":
        from evaltools.config.discovery import places_of
        from evaltools.report import render

        render("json", found, sys.stdout, files_checked=0, places=places_of)
    else:
        from evaltools.report.text import format_line

        for diagnostic in sorted(found, key=Diagnostic.sort_key):
            sys.stderr.write(format_line(diagnostic) + "\n")
    if why is not None:
        sys.stderr.write(why + "\n")
    return 1


def _provenance(
    root: Path | None, rev: str | None, metas: Path | None, label: str | None, checked: GoldCheck
) -> Provenance:
    """The revision of the code the gold was checked against (of --root's repository, as
    configured when not given), the date, the label: what a history line records."""
    from evaltools.retrieval.gold.gold_roots import gold_sources
    from evaltools.retrieval.scoring.history import Provenance, code_revision, scored_now

    configured = load_config().retrieval
    root, _ = gold_sources(root, metas, configured.root, configured.metas)
    return Provenance(code_revision(root, rev, checked), scored_now(), label)


def _record(
    old: _OldHistory,
    results: list[Evaluation],
    checked: GoldCheck,
    made: Provenance,
    plot: Path | None,
) -> None:
    """Append the runs to the history and draw the plot of the history they make: both
    files or neither. The history is read again under a lock, so that runs recorded by
    another `gold eval` meanwhile (jobs of a CI matrix) are kept, not overwritten."""
    from evaltools.report.gold_eval import history_lines

    try:
        with locked(old.path):
            now = _read_history(old.path, (), must_exist=False)
            if now.parsed.problems:
                raise UsageError(
                    f"--history {display_path(old.path)} changed while gold eval ran and no "
                    "longer reads as a history; nothing was written"
                )
            # A last line without its newline (an interrupted editor save) still ends a line.
            joint = b"\n" if now.data and not now.data.endswith(b"\n") else b""
            data = now.data + joint + history_lines(results, checked, made)
            with WriteSet() as files:
                if plot is not None:
                    svg = _chart(parse_history(data, display_path(old.path)), old.path)
                    _add(files, plot, svg, None, "--plot")
                _add(files, old.path, data, now.data if now.exists else MISSING, "--history")
                files.commit()
    except WriteError as exc:  # the lock's folder cannot be opened, or a rename failed
        raise UsageError(f"cannot write --history {display_path(old.path)}: {exc}") from exc


def _add(files: WriteSet, path: Path, data: bytes, expect: Expect, option: str) -> None:
    try:
        files.add(path, data, expect=expect)
    except WriteError as exc:
        # The history's message has always named the file twice (`path: reason`).
        reason = exc.reason if option == "--plot" else str(exc)
        raise UsageError(f"cannot write {option} {display_path(path)}: {reason}") from exc


def _write_plot(plot: Path, history: History, source: Path) -> None:
    try:
        atomic_write(plot, _chart(history, source))
    except WriteError as exc:
        raise UsageError(f"cannot write --plot {display_path(plot)}: {exc.reason}") from exc


def _chart(history: History, source: Path) -> bytes:
    from evaltools.report.gold_eval import history_chart

    return history_chart(history.entries, source.name).encode()


def _print(results: list[Evaluation], stale: list[str], output_format: str) -> None:
    from evaltools.report import gold_eval as report

    if output_format == "json":
        objects = [report.as_json(r, stale) for r in results]
        sys.stdout.write(jsonio.dumps(objects[0] if len(objects) == 1 else objects) + "\n")
    elif output_format == "markdown":
        sys.stdout.write("\n".join(report.as_markdown(r, stale) for r in results))
    else:
        sys.stdout.write("\n".join(report.as_text(r, stale) for r in results))


def _set_path(set_path: Path | None) -> Path:
    if set_path is not None:
        return set_path
    sets = load_config().retrieval.sets
    if len(sets) != 1:
        raise UsageError(
            "gold eval needs the eval set: pass --set FILE (or one `sets` entry in "
            "[tool.evaltools.retrieval])"
        )
    return sets[0]


def _stale_qids(checked: GoldCheck) -> list[str]:
    found: dict[str, None] = {}
    for item in checked.items:
        if item.result is not None and item.result.status is not Status.OK and item.qid:
            found[item.qid] = None
    return list(found)
