"""`evaltools gold merge`: two annotators' grades into one set, and what a person must
still decide."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from evaltools.atomic.outputs import check_output, output_expect, write_outputs
from evaltools.config.discovery import places_of
from evaltools.diagnostics import Diagnostic, worst_exit_code
from evaltools.fileio import UsageError
from evaltools.report import render
from evaltools.report.gold_merge import merge_text
from evaltools.report.gold_summary import emit, fail, fail_writing
from evaltools.retrieval.gold.discipline.discipline_io import dump_jsonl, input_files, read_sets

if TYPE_CHECKING:
    from evaltools.retrieval.gold.discipline.annotate import MergeResult


def merge(
    *,
    first: Path,
    second: Path,
    output: Path,
    conflicts: Path | None,
    force: bool,
    output_format: str,
) -> int:
    from evaltools.retrieval.gold.discipline.annotate import merge_annotations

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
    refused = [check_output(output, force, inputs=inputs)]
    if conflicts is not None:
        refused.append(check_output(conflicts, force, inputs=inputs, option="--conflicts"))
        if conflicts.resolve() == output.resolve():
            raise UsageError("-o and --conflicts must name two different files")
    count = len(inputs)
    if any(refused):
        return fail_writing(
            [r for r in refused if r is not None], [], output_format, count, places_of
        )
    files, problems = read_sets(inputs, need_gold=True)
    if problems:
        return fail(problems, output_format, count, places_of)
    result = merge_annotations(files[0].lines, files[1].lines)
    if result.diagnostics:
        return fail(result.diagnostics, output_format, count, places_of)
    outputs = [(output, dump_jsonl(result.merged), output_expect(force))]
    if conflicts is not None:
        outputs.append((conflicts, dump_jsonl(result.conflicts), output_expect(force)))
    problem = write_outputs(outputs)  # both files or neither
    if problem is not None:
        return fail_writing([problem], [], output_format, count, places_of)
    summary = _merge_summary(result, output, conflicts)
    _report_findings(output_format, summary, result.findings, count)
    emit(output_format, summary, merge_text(summary, result.conflicts, first, second))
    return worst_exit_code(result.findings)


def _merge_summary(result: MergeResult, output: Path, conflicts: Path | None) -> dict[str, object]:
    """The merge's summary: the JSON summary as it is, and what the text one is made of."""
    agreement = result.agreement
    return {
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
    render(output_format, findings, stream, files_checked=files, places=places_of)
