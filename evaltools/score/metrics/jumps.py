"""`jump_location` and `editable_context_coverage` (upstream `patch_location_match` and
`editable_context_coverage`, `MET/jumps.rs`; reference section 2, step 7), reimplemented from
their behaviour, on the metrics crate's reading of a patch (`patch_lines.parse_patch_lines`):

* a patch's anchor rows are the 0-based old rows of its deleted lines; a pure insertion is
  anchored on the context rows just before and just after it;
* jump location: per file, each predicted anchor (in row order) takes the first unmatched
  expected anchor within 20 rows; predicted paths lose their first component when that names
  an expected file; files count when they hold a change;
* editable-context coverage: the documents' rows within 20 rows of an expected anchor are true
  positives, the others false positives; expected anchors no document holds are false
  negatives, and the line recall is the share of anchors held;
* precision, recall and F1 over no counts at all are 1."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, NamedTuple

from evaltools.score.context.documents import Document, strip_first_component
from evaltools.score.patch_lines import ADDITION, CONTEXT, DELETION, PatchHunk

WINDOW = 20

Rows = dict[str, set[int]]


class LineFile(NamedTuple):
    """Upstream's `LineFileClassification`, its fields in its order."""

    lines_tp: int
    lines_fp: int
    lines_fn: int
    lines_precision: float
    lines_recall: float
    lines_f1: float
    files_tp: int
    files_fp: int
    files_fn: int
    files_precision: float
    files_recall: float
    files_f1: float

    def fields(self) -> dict[str, Any]:
        return self._asdict()


def _precision(tp: int, fp: int, fn: int) -> float:
    return 1.0 if tp + fp + fn == 0 or tp + fp == 0 else tp / (tp + fp)


def _recall(tp: int, fp: int, fn: int) -> float:
    return 1.0 if tp + fp + fn == 0 or tp + fn == 0 else tp / (tp + fn)


def _f1(precision: float, recall: float) -> float:
    return 0.0 if precision + recall == 0.0 else 2 * precision * recall / (precision + recall)


def classification(
    lines: tuple[int, int, int], files: tuple[int, int, int], line_recall: float | None = None
) -> LineFile:
    """`line_recall`: the coverage's own line recall, in place of the one from the counts."""
    lp, fp_ = _precision(*lines), _precision(*files)
    lr = _recall(*lines) if line_recall is None else line_recall
    fr = _recall(*files)
    return LineFile(*lines, lp, lr, _f1(lp, lr), *files, fp_, fr, _f1(fp_, fr))


class Locations(NamedTuple):
    files: frozenset[str]  # files with a change
    anchors: dict[str, set[int]]


def locations(hunks: Iterable[PatchHunk]) -> Locations:
    files: set[str] = set()
    anchors: Rows = {}
    for hunk in hunks:
        if hunk.has_change:
            files.add(hunk.filename)
        _anchor_hunk(hunk, anchors.setdefault(hunk.filename, set()))
    return Locations(frozenset(files), {path: rows for path, rows in anchors.items() if rows})


def _anchor_hunk(hunk: PatchHunk, rows: set[int]) -> None:
    row = max(hunk.old_start - 1, 0)
    before: int | None = None  # the context row just before a run of changes
    lines = hunk.lines
    i = 0
    while i < len(lines):
        kind = lines[i][0]
        if kind == CONTEXT:
            before, row, i = row, row + 1, i + 1
            continue
        if kind not in (ADDITION, DELETION):
            i += 1
            continue
        deleted: list[int] = []
        added = False
        while i < len(lines) and lines[i][0] in (ADDITION, DELETION):
            if lines[i][0] == ADDITION:
                added = True
            else:
                deleted.append(row)
                row += 1
            i += 1
        if deleted:
            rows.update(deleted)
        elif added:
            if before is not None:
                rows.add(before)
            if i < len(lines) and lines[i][0] == CONTEXT:
                rows.add(row)
        before = None


def _files(expected: Iterable[str], found: Iterable[str]) -> tuple[int, int, int]:
    exp, got = set(expected), set(found)
    return len(exp & got), len(got - exp), len(exp - got)


def _matched(expected: set[int], actual: set[int]) -> int:
    unmatched = sorted(expected)
    matched = 0
    for row in sorted(actual):
        for k, candidate in enumerate(unmatched):
            if candidate > row + WINDOW:
                break
            if candidate >= row - WINDOW:
                del unmatched[k]
                matched += 1
                break
    return matched


def patch_location_match(expected: Locations, actual: Locations) -> LineFile:
    moved: Rows = {}
    for path in sorted(actual.files):
        stripped = strip_first_component(path)
        home = (
            stripped
            if path not in expected.files and stripped is not None and stripped in expected.files
            else path
        )
        rows = actual.anchors.get(path)
        if rows is not None:
            moved.setdefault(home, set()).update(rows)
    tp = fp = fn = 0
    for path in expected.anchors.keys() | moved.keys():
        exp, act = expected.anchors.get(path, set()), moved.get(path, set())
        matched = _matched(exp, act)
        tp, fp, fn = tp + matched, fp + len(act) - matched, fn + len(exp) - matched
    return classification((tp, fp, fn), _files(expected.files, moved))


def editable_context_coverage(expected: Locations, documents: Sequence[Document]) -> LineFile:
    retrieved: Rows = {}
    for doc in documents:
        retrieved.setdefault(doc.path, set()).update(range(doc.start_row, doc.end_row))
    tp = fp = 0
    for path, rows in retrieved.items():
        anchors = expected.anchors.get(path, ())
        for row in rows:
            if any(abs(row - anchor) <= WINDOW for anchor in anchors):
                tp += 1
            else:
                fp += 1
    count = sum(len(rows) for rows in expected.anchors.values())
    fn = sum(
        1
        for path, rows in expected.anchors.items()
        for row in rows
        if row not in retrieved.get(path, ())
    )
    line_recall = 1.0 if count == 0 else (count - fn) / count
    return classification((tp, fp, fn), _files(expected.files, retrieved), line_recall)
