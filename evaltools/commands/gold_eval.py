"""`evaltools gold eval RUN... --set SET [--baseline RUN] [--k 10] [--history FILE [--plot SVG]]`.

The set's gold IDs are checked first by the gold check service (a stale ID refuses the
evaluation unless --allow-stale), then each run is scored by `retrieval.evaluate` and
reported as text, JSON or Markdown. --plot then draws the history's nDCG by query type
(the runs just appended included); with --plot the RUNs are optional.
"""

from __future__ import annotations

import sys
from pathlib import Path

from evaltools import jsonio
from evaltools.atomic import WriteError, atomic_write
from evaltools.config.model import load_config
from evaltools.diagnostics import Diagnostic
from evaltools.fileio import UsageError, display_path
from evaltools.retrieval.gold.gold_check import GoldCheck, check_gold
from evaltools.retrieval.gold.gold_roots import gold_sources
from evaltools.retrieval.gold.resolve import Status


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
) -> int:
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
    if runs:
        code = _score(
            runs=runs,
            set_path=set_path,
            baseline=baseline,
            k=k,
            seed=seed,
            root=root,
            rev=rev,
            metas=metas,
            allow_stale=allow_stale,
            history=history,
            output_format=output_format,
        )
        if code:
            return code
    if plot is not None and history is not None:
        return _plot(history, plot)
    return 0


def _score(
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
    output_format: str,
) -> int:
    from evaltools.report.text import format_line
    from evaltools.retrieval.scoring.evaluate import evaluate, queries_of
    from evaltools.retrieval.scoring.runs import read_run

    configured = load_config().retrieval
    root, metas = gold_sources(root, metas, configured.root, configured.metas)
    from evaltools.report.progress import Progress

    progress = Progress()
    try:
        checked = check_gold(
            [_set_path(set_path)],
            root=root,
            rev=rev,
            metas=metas,
            fix=False,
            on_parsed=lambda done: progress.count(done, "source files"),
        )
    finally:
        progress.clear()
    stale = _stale_qids(checked)
    if checked.diagnostics and not allow_stale:
        for diagnostic in sorted(checked.diagnostics, key=Diagnostic.sort_key):
            sys.stderr.write(format_line(diagnostic) + "\n")
        where = f" in {len(stale)} queries ({', '.join(stale)})" if stale else ""
        sys.stderr.write(
            f"gold eval: {len(checked.diagnostics)} gold ID problem(s){where}: scoring would "
            "skip them silently; fix them (`evaltools gold check --fix`) or pass --allow-stale\n"
        )
        return 1
    queries = queries_of(line.record for f in checked.files for line in f.lines if line.record)
    loaded = [read_run(p) for p in runs]
    base = read_run(baseline) if baseline is not None else None
    problems = [d for r in [*loaded, *([base] if base else [])] for d in r.problems]
    if problems:
        for diagnostic in sorted(problems, key=Diagnostic.sort_key):
            sys.stderr.write(format_line(diagnostic) + "\n")
        return 1
    results = [evaluate(queries, r, k=k, seed=seed, baseline=base) for r in loaded]
    from evaltools.report import gold_eval as report

    if history is not None:
        report.append_history(history, results, checked, rev)
    if output_format == "json":
        objects = [report.as_json(r, stale) for r in results]
        sys.stdout.write(jsonio.dumps(objects[0] if len(objects) == 1 else objects) + "\n")
    elif output_format == "markdown":
        sys.stdout.write("\n".join(report.as_markdown(r, stale) for r in results))
    else:
        sys.stdout.write("\n".join(report.as_text(r, stale) for r in results))
    return 0


def _plot(history: Path, plot: Path) -> int:
    """Draw the history's nDCG by query type to `plot`; a bad line refuses the plot."""
    from evaltools.report.gold_eval import history_chart
    from evaltools.report.text import format_line
    from evaltools.retrieval.scoring.history import read_history

    try:
        read = read_history(history)
    except OSError as exc:
        raise UsageError(f"cannot read --history {display_path(history)}: {exc.strerror}") from exc
    if read.problems:
        for diagnostic in read.problems:
            sys.stderr.write(format_line(diagnostic) + "\n")
        sys.stderr.write(
            f"gold eval: {len(read.problems)} unreadable line(s) in {display_path(history)}: "
            "fix or delete them to draw --plot\n"
        )
        return 1
    svg = history_chart(read.entries, history.name)
    try:
        atomic_write(plot, svg.encode())
    except WriteError as exc:
        raise UsageError(f"cannot write --plot {display_path(plot)}: {exc.reason}") from exc
    return 0


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
