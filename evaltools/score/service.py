"""Scoring files: read the examples (and a predictions file), score every prediction under a
definition, and return the score rows and the findings. The one entry point of `score`."""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple

from evaltools import jsonio
from evaltools.catalogue import rule
from evaltools.diagnostics import Diagnostic, make
from evaltools.example.records import Record, Unit, iter_all_units, parse_unit
from evaltools.fileio import MAX_DATA_FILE_BYTES, Refused, UsageError, display_path, read_input
from evaltools.parallel.processes import Cost, batch_size, parallel_map, worker_count
from evaltools.positions import lines_of
from evaltools.score.context.related_limit import EVAL_RELATED_CONTEXT_BYTES
from evaltools.score.definitions import Definition
from evaltools.score.inputs import BadInput, Problem, Scorable, from_example, from_markdown
from evaltools.score.prediction import ActualCursor, Prediction, Score, Scored, score_prediction
from evaltools.score.prediction_cache import Cache
from evaltools.score.rules import (
    INVALID_PREDICTION_LINE,
    PREDICTION_NOT_PLACED,
    SCORES_NOT_WRITABLE,
    UNKNOWN_PREDICTION_NAME,
)
from evaltools.score.summary import Row

NO_PREDICTION = Prediction(None, None)


class LeftOut(NamedTuple):
    name: str
    prediction: int
    code: str


@dataclass
class Outcome:
    rows: list[Row] = field(default_factory=list)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    files: int = 0
    # Where each scored `ep predict` record came from: (path, form, index) -> its score[]
    # entries as upstream writes them.
    writable: dict[tuple[str, str, int], list[Score]] = field(default_factory=dict)
    # Records whose score[] cannot be written faithfully: (path, form, index) -> why.
    unwritable: dict[tuple[str, str, int], Diagnostic] = field(default_factory=dict)
    # The name of each record scored, (path, form, index) -> name: the writer finds it there
    # again, or the file changed while it was scored.
    names: dict[tuple[str, str, int], str] = field(default_factory=dict)
    # Predictions given but not scored, with the rule that says why.
    left_out: list[LeftOut] = field(default_factory=list)
    # Examples without a prediction: not scored (`ep score`), or scored as one empty
    # prediction (`ep eval`).
    unpredicted: list[str] = field(default_factory=list)


def read_predictions(
    path: Path,
) -> tuple[dict[str, list[tuple[int, Prediction]]], list[Diagnostic]]:
    """`{name: [(line, prediction), ...]}` in file order, and the lines that are not one."""
    shown = display_path(path)
    found: dict[str, list[tuple[int, Prediction]]] = {}
    problems: list[Diagnostic] = []
    data = read_input(path, max_bytes=MAX_DATA_FILE_BYTES)
    if isinstance(data, Refused):
        return {}, [data.at(shown)]
    for number, raw in enumerate(lines_of(data), start=1):
        if not raw.strip():
            continue
        try:
            value = jsonio.loads(raw.decode("utf-8"))
        except (UnicodeDecodeError, jsonio.JsonError) as exc:
            problems.append(
                make(INVALID_PREDICTION_LINE, shown, number, 1, f"not a JSON line: {exc}")
            )
            continue
        prediction, message = _prediction_line(value)
        if prediction is None:
            problems.append(make(INVALID_PREDICTION_LINE, shown, number, 1, message))
            continue
        found.setdefault(value["name"], []).append((number, prediction))
    return found, problems


def _prediction_line(value: Any) -> tuple[Prediction | None, str]:
    if not isinstance(value, dict) or not isinstance(value.get("name"), str):
        return None, "each line must be an object with a string `name`"
    patch = value.get("patch")
    if patch is not None and not isinstance(patch, str):
        return None, "`patch` must be a string or null"
    offset = value.get("cursor_offset")
    if offset is not None and (
        not isinstance(offset, int) or isinstance(offset, bool) or offset < 0
    ):
        return None, "`cursor_offset` must be a byte offset (an integer from 0) or null"
    cursor = None if offset is None else ActualCursor(None, offset)
    return Prediction(patch, cursor), ""


class External:
    """The --predictions lines for one example: a finding about one of them is reported at
    its line of that file."""

    def __init__(self, shown: str, lines: list[tuple[int, Prediction]]) -> None:
        self.shown = shown
        self.lines = [line for line, _ in lines]
        self.predictions = [p for _, p in lines]


def _at_prediction(
    record: Record, external: External | None, i: int, problem: Problem
) -> Diagnostic:
    if external is None:
        return _diagnostic(record, problem)
    return make(rule(problem.code), external.shown, external.lines[i], 1, problem.message)


def _diagnostic(record: Record, problem: Problem) -> Diagnostic:
    return make(
        rule(problem.code), record.path, record.line, 1, problem.message, pointer=problem.pointer
    )


def _scorable(
    record: Record, external: External | None, definition: Definition, eval_like: bool
) -> Scorable | None:
    """None: a spec without a prediction, which `ep score` does not score; `ep eval`
    (`eval_like`) scores one empty prediction for it, and caps the related context."""
    example = record.example
    assert example is not None
    cap = EVAL_RELATED_CONTEXT_BYTES if eval_like else None
    if "prompt_inputs" in example.extra or (external is None and "predictions" in example.extra):
        scorable = from_example(example, definition, related_cap=cap)
        if external is not None:
            given = tuple(external.predictions)
            scorable = scorable._replace(predictions=given, providers=("",) * len(given))
        if not scorable.predictions and eval_like:
            scorable = scorable._replace(predictions=(NO_PREDICTION,), providers=("",))
        return scorable
    if external is None:
        return from_markdown(example, [NO_PREDICTION], definition) if eval_like else None
    return from_markdown(example, external.predictions, definition)


def _unreadable(prediction: Prediction, i: int, cache: Cache) -> Problem | None:
    patch = prediction.patch or ""
    if patch.strip() and not any(h.has_change for h in cache.parsed(patch)):
        message = "holds text but no hunk with a change: it is scored as changing nothing"
        return Problem("SC001", f"/predictions/{i}/actual_patch", message)
    return None


def score_record(
    record: Record,
    external: External | None,
    definition: Definition,
    outcome: Outcome,
    *,
    eval_like: bool = False,
) -> None:
    example = record.example
    assert example is not None
    try:
        scorable = _scorable(record, external, definition, eval_like)
    except BadInput as exc:
        outcome.diagnostics.append(_diagnostic(record, exc.problem))
        return
    stored = example.extra.get("predictions")
    if external is None and not (isinstance(stored, list) and stored):
        outcome.unpredicted.append(example.spec.name)
    if scorable is None:
        return
    outcome.diagnostics += [_diagnostic(record, problem) for problem in scorable.problems]
    if scorable.refused:
        return
    scores: list[Score] = []
    unknown: list[int] = []
    cache = Cache()
    for i in range(len(scorable.predictions)):
        scored = _score_one(record, external, scorable, i, definition, outcome=outcome, cache=cache)
        if scored is None:
            continue
        scores.append(scored.score)
        if scored.reversal is None:
            unknown.append(i)
        outcome.rows.append(_row(record, scorable, i, scored))
    if external is None and record.form in ("json", "jsonl") and scores:
        key = (record.path, record.form, record.index)
        outcome.writable[key] = scores
        outcome.names[key] = example.spec.name
        if unknown:
            outcome.unwritable[key] = _unwritable(record, unknown)


def _score_one(
    record: Record,
    external: External | None,
    scorable: Scorable,
    i: int,
    definition: Definition,
    *,
    outcome: Outcome,
    cache: Cache,
) -> Scored | None:
    """Prediction `i` of the record scored, its findings added to `outcome`; None when it is
    left out (its hunks fit none of the file lines the example holds)."""
    example = record.example
    assert example is not None
    prediction = scorable.predictions[i]
    documents = scorable.documents if definition.context_scoring else None
    unreadable = _unreadable(prediction, i, cache)
    if unreadable is not None:
        outcome.diagnostics.append(_at_prediction(record, external, i, unreadable))
    scored = score_prediction(
        scorable.original,
        scorable.expected,
        prediction,
        documents,
        definition,
        cache=cache,
        history=scorable.history,
    )
    if scored.actual_dropped and (prediction.patch or "").strip() and scorable.from_file_lines:
        outcome.diagnostics.append(_unplaced(record, external, i, scored.actual_dropped))
        outcome.left_out.append(LeftOut(example.spec.name, i, "SC007"))
        return None
    if scored.actual_dropped and (prediction.patch or "").strip():
        message = (
            f"{scored.actual_dropped} hunk(s) of the prediction fit no document (path and "
            "old text) and are left out of its score, as upstream does"
        )
        problem = Problem("SC002", f"/predictions/{i}", message)
        outcome.diagnostics.append(_at_prediction(record, external, i, problem))
    return scored


def _row(record: Record, scorable: Scorable, i: int, scored: Scored) -> Row:
    """Prediction `i`'s row of the summary."""
    example = record.example
    assert example is not None
    spec = example.spec
    provider = scorable.providers[i] if i < len(scorable.providers) else ""
    return Row(
        spec.name,
        i,
        record.path,
        record.line,
        tuple(spec.tags),
        spec.repository_url,
        provider,
        scored.score,
        scorable.retrieved_bytes if i == 0 else None,
    )


def _unplaced(record: Record, external: External | None, i: int, dropped: int) -> Diagnostic:
    where = f" (line {external.lines[i]} of {external.shown})" if external is not None else ""
    message = (
        f"prediction {i}{where}: {dropped} hunk(s) fit none of the file lines the example "
        "holds (cursor block, expected patches' old sides, edit history), so it cannot be "
        "scored and is left out of the summary; check its path and old lines"
    )
    return make(PREDICTION_NOT_PLACED, record.path, record.line, 1, message)


def _unwritable(record: Record, unknown: list[int]) -> Diagnostic:
    which = ", ".join(str(i) for i in unknown)
    message = (
        f"--write-scores: reversal_ratio is unknown for prediction(s) {which} (upstream's "
        "diff there is not reproduced: see `evaltools rule SC006`); the file is left "
        "unchanged rather than written with a reversal_ratio upstream would read as 0"
    )
    pointer = f"/predictions/{unknown[0]}"
    return make(SCORES_NOT_WRITABLE, record.path, record.line, 1, message, pointer=pointer)


# Measured with benchmarks/bench_score.py on one core: CPU seconds per input byte of
# `ep predict` JSONL (3.56 MB, 585 records, 4,095 predictions scored in 1.44 s).
SCORE_COST = Cost(per_byte=4e-7, parent=0.1)
STDIN_SHOWN = "<stdin>"


class _Part(NamedTuple):
    """What scoring one unit gives, as it travels back from a worker."""

    path: str
    name: str | None  # the example's name, None when the unit is not an example
    outcome: Outcome


def _score_unit(
    definition: Definition,
    eval_like: bool,
    external: dict[str, list[tuple[int, Prediction]]],
    predictions_shown: str,
    unit: Unit,
) -> _Part:
    outcome = Outcome()
    record = parse_unit(unit)
    if record.errors or record.example is None:
        outcome.diagnostics += record.errors
        return _Part(record.path, None, outcome)
    name = record.example.spec.name
    mine = external.get(name)
    given = None if mine is None else External(predictions_shown, mine)
    score_record(record, given, definition, outcome, eval_like=eval_like)
    if record.path == STDIN_SHOWN:
        outcome.writable.clear()  # nothing to write back to
        outcome.unwritable.clear()
        outcome.names.clear()
    return _Part(record.path, name, outcome)


def _unit_size(unit: Unit) -> int:
    if unit.data is not None:
        return len(unit.data)
    try:
        return Path(unit.file).stat().st_size if unit.file is not None else 0
    except OSError:
        return 0


def score_paths(
    paths: Iterable[Path],
    definition: Definition,
    *,
    predictions: Path | None = None,
    respect_gitignore: bool = True,
    jobs: int | None = None,
    on_example: Callable[[int], None] | None = None,
    eval_like: bool = False,
) -> Outcome:
    """Every prediction of every example below `paths`, in input order, over `jobs` worker
    processes (the one --jobs policy: `processes.worker_count`). `on_example` hears the count
    of examples scored so far (for a progress line). `eval_like`: as `ep eval` scores (an
    example without a prediction scores one empty prediction; related context capped),
    else as `ep score` does."""
    outcome = Outcome()
    external: dict[str, list[tuple[int, Prediction]]] = {}
    shown = ""
    if predictions is not None:
        external, problems = read_predictions(predictions)
        outcome.diagnostics += problems
        shown = display_path(predictions)
    units = list(iter_all_units(paths, respect_gitignore=respect_gitignore))
    size = sum(map(_unit_size, units))
    workers = worker_count(jobs, items=len(units), size=size, cost=SCORE_COST)
    batch = batch_size(len(units), workers)
    work = functools.partial(_score_unit, definition, eval_like, external, shown)
    seen: set[str] = set()
    files: set[str] = set()
    for done, part in enumerate(parallel_map(work, units, workers=workers, batch=batch), 1):
        if on_example is not None:
            on_example(done)
        files.add(part.path)
        if part.name is not None:
            seen.add(part.name)
        outcome.rows += part.outcome.rows
        outcome.diagnostics += part.outcome.diagnostics
        outcome.writable.update(part.outcome.writable)
        outcome.unwritable.update(part.outcome.unwritable)
        outcome.names.update(part.outcome.names)
        outcome.left_out += part.outcome.left_out
        outcome.unpredicted += part.outcome.unpredicted
    outcome.files = len(files)
    for name, lines in external.items():
        if name not in seen:
            message = f"names {name!r}, which is no example among the inputs"
            outcome.diagnostics += [
                make(UNKNOWN_PREDICTION_NAME, shown, line, 1, message) for line, _ in lines
            ]
    return outcome


def read_baseline(path: Path) -> dict[tuple[str, int], float]:
    """A baseline run's delta chrF by (example name, prediction index): the JSON that
    `evaltools score --format json` writes, or examples whose `score[]` `ep score` (or
    --write-scores) filled. Raises `UsageError` for anything else."""
    shown = display_path(path)
    # By the input policy (a FIFO is refused, not waited on) and as bytes: text mode would
    # turn a lone "\r", JSON whitespace inside a record, into a line break.
    if path.is_dir():
        raise UsageError(f"--baseline {shown} is a directory: give the baseline's JSON file")
    data = read_input(path, max_bytes=MAX_DATA_FILE_BYTES)
    if isinstance(data, Refused):
        raise UsageError(f"--baseline {shown}: {data.message}")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise UsageError(f"--baseline {shown}: cannot read it ({exc})") from exc
    try:
        values = [jsonio.loads(text)]
    except jsonio.JsonError:
        try:
            values = [jsonio.loads(line) for line in lines_of(text) if line.strip()]
        except jsonio.JsonError as exc:
            raise UsageError(f"--baseline {shown}: not JSON or JSONL ({exc})") from exc
    found: dict[tuple[str, int], float] = {}
    for value in values:
        if isinstance(value, dict) and isinstance(value.get("scores"), list):
            entries = [(s.get("name"), s.get("prediction"), s) for s in value["scores"]]
        elif isinstance(value, dict) and isinstance(value.get("score"), list):
            entries = [(value.get("name"), i, s) for i, s in enumerate(value["score"])]
        else:
            entries = []
        for name, index, score in entries:
            chrf = score.get("delta_chr_f") if isinstance(score, dict) else None
            if isinstance(name, str) and isinstance(index, int) and isinstance(chrf, (int, float)):
                found[(name, index)] = float(chrf)
    if not found:
        raise UsageError(
            f"--baseline {shown}: holds no scores (give the JSON of `evaltools score --format "
            "json`, or examples with score[] filled by `ep score`)"
        )
    return found
