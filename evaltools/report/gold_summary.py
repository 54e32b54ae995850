"""What the gold discipline commands (`gold mine`, `merge`, `sample`, `split`) print: their
summaries, and the problems that stopped them (their inputs and outputs are
`retrieval.gold.discipline.discipline_io`'s).

Here rather than in `commands/` because command modules do not import one another."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable, Sequence

from evaltools import jsonio
from evaltools.diagnostics import Diagnostic, Places, worst_exit_code
from evaltools.report import render

Where = Callable[[Sequence[Diagnostic]], Places]


def fail_writing(
    problems: Sequence[Diagnostic],
    written: Sequence[str],
    output_format: str,
    files: int,
    places: Where,
) -> int:
    """Report the files that could not be written, after saying which ones were."""
    for name in written:
        sys.stderr.write(f"written: {name}\n")
    return fail(problems, output_format, files, places)


def fail(
    problems: Sequence[Diagnostic], output_format: str, files_checked: int, places: Where
) -> int:
    """Report input problems the usual way; nothing has been written."""
    render(output_format, problems, sys.stdout, files_checked=files_checked, places=places)
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
