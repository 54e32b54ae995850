"""`evaltools score`: Zed's prediction scores, offline, under a chosen metric definition."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from evaltools.diagnostics import Diagnostic
from evaltools.discover import check_paths_exist
from evaltools.fileio import UsageError

if TYPE_CHECKING:
    from evaltools.gate import Gate
    from evaltools.score.definitions import Definition
    from evaltools.score.service import Outcome


def run(
    paths: list[Path],
    *,
    predictions: Path | None,
    metric: str,
    by: str | None,
    baseline: Path | None,
    write_scores: bool,
    output_format: str,
    jobs: int | None = None,
    no_respect_gitignore: bool = False,
    mode: str = "score",
    max_warnings: int | None = None,
) -> int:
    from evaltools.score import definitions, service, write

    if write_scores and mode == "eval":
        raise UsageError(
            "--write-scores writes score[] as `ep score` does, which --mode eval is not "
            "(related context capped, an empty prediction scored): drop one of the two"
        )
    check_paths_exist([*paths, *(p for p in (predictions, baseline) if p is not None)])
    from evaltools.config.model import load_config

    gate = load_config().gate(max_warnings)
    definition = definitions.definition(metric)
    before = service.read_baseline(baseline) if baseline is not None else None
    outcome = _score(
        paths,
        definition,
        predictions=predictions,
        respect_gitignore=not no_respect_gitignore,
        jobs=jobs,
        eval_like=mode == "eval",
    )
    doc = _document(outcome, definition, by, before, mode)
    if write_scores:
        outcome.diagnostics += write.write_scores(
            outcome.writable, outcome.unwritable, names=outcome.names
        )
    _render(doc, definition, output_format)
    return _findings(outcome.diagnostics, gate)


def _score(
    paths: list[Path],
    definition: Definition,
    *,
    predictions: Path | None,
    respect_gitignore: bool,
    jobs: int | None,
    eval_like: bool,
) -> Outcome:
    """Every prediction scored, with a progress line of the examples done so far."""
    from evaltools.report.progress import Progress
    from evaltools.score import service

    progress = Progress()
    try:
        return service.score_paths(
            paths,
            definition,
            predictions=predictions,
            respect_gitignore=respect_gitignore,
            jobs=jobs,
            on_example=lambda done: progress.count(done, "examples"),
            eval_like=eval_like,
        )
    finally:
        progress.clear()


def _document(
    outcome: Outcome,
    definition: Definition,
    by: str | None,
    before: dict[tuple[str, int], float] | None,
    mode: str,
) -> dict[str, Any]:
    """The scores' report: every row, their summary, and the groups --by or --baseline ask for."""
    from evaltools.report import score_report
    from evaltools.score import summary

    groups = summary.groups_json(outcome.rows, by, before) if by or before is not None else {}
    return score_report.document(
        definition.name,
        outcome.rows,
        summary.summarise(*summary.scores_of(outcome.rows)),
        groups,
        mode=mode,
        left_out=outcome.left_out,
        unpredicted=outcome.unpredicted,
    )


def _render(doc: dict[str, Any], definition: Definition, output_format: str) -> None:
    """The report on stdout, in the format asked for."""
    from evaltools.report import score_report

    if output_format == "json":
        score_report.render_json(doc, sys.stdout)
    elif output_format == "markdown":
        score_report.render_markdown(doc, sys.stdout)
    else:
        score_report.render_text(doc, definition.summary, sys.stdout)


def _findings(found: list[Diagnostic], gate: Gate) -> int:
    """The findings on stderr (stdout holds the scores), and the exit code the gate gives."""
    from evaltools.report.text import format_line

    diagnostics = gate.apply(sorted(found, key=Diagnostic.sort_key))
    for finding in diagnostics:
        sys.stderr.write(format_line(finding) + "\n")
    if failed_by := gate.note(diagnostics):
        sys.stderr.write(f"evaltools score: failed: {failed_by}\n")
    return gate.exit_code(diagnostics)
