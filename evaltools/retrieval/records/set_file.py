"""An eval set read whole, to write it back: every line's bytes, and its records.

Lines come from the one reader (`records.record`: exact bytes, strict JSON). `read_jsonl`
adds only the checks the gold discipline commands (merge, sample, split, dupes) rely on: a
non-empty string `qid`, and for merge and sample a `gold` of integer grades 1-3. Full
record validation is `evaltools validate`'s job.
"""

from __future__ import annotations

import io
import json
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from evaltools.diagnostics import Diagnostic, make
from evaltools.fileio import InputRefused, display_path, open_records
from evaltools.jsonlocate import pointer
from evaltools.retrieval.records.record import RecordLine, iter_record_lines
from evaltools.retrieval.records.rules import GOLD_RECORD_UNUSABLE
from evaltools.retrieval.records.validation.rules import BLANK_LINE, DUPLICATE_KEY

GRADES = (1, 2, 3)


@dataclass(frozen=True)
class JsonlFile:
    """A file's lines (`read_jsonl`: its records only), and every line's bytes (blank ones
    too) to write it back."""

    path: Path
    display: str
    raws: list[bytes]
    lines: list[RecordLine]

    @classmethod
    def of(cls, path: Path, display: str, data: bytes) -> JsonlFile:
        """Every line of `data`, the set `path` shown as `display`."""
        lines = list(iter_record_lines(io.BytesIO(data), path=display))
        return cls(path, display, [line.raw for line in lines], lines)

    @property
    def data(self) -> bytes:
        """The file's bytes as they were read (the lines are all of them, line ends kept)."""
        return b"".join(self.raws)


def index_by_qid(
    lines: Iterable[RecordLine],
) -> tuple[dict[str, RecordLine], list[tuple[RecordLine, RecordLine]]]:
    """Each qid's first line, and every later line of a qid already seen, with that first."""
    first: dict[str, RecordLine] = {}
    repeats: list[tuple[RecordLine, RecordLine]] = []
    for line in lines:
        seen = first.setdefault(line.qid, line)
        if seen is not line:
            repeats.append((line, seen))
    return first, repeats


def read_jsonl(path: Path, *, need_gold: bool) -> JsonlFile | list[Diagnostic]:
    """The file's records, or the diagnostics that say why it cannot be used."""
    shown = display_path(path)
    try:
        stream = open_records(path)
    except InputRefused as exc:
        return [exc.refused.at(shown)]
    raws: list[bytes] = []
    lines: list[RecordLine] = []
    problems: list[Diagnostic] = []
    with stream:
        records = list(iter_record_lines(stream, path=shown))
    for rec in records:
        raws.append(rec.raw)
        found = _check(shown, rec, need_gold=need_gold)
        if isinstance(found, RecordLine):
            lines.append(found)
        else:
            problems += found
    if problems:
        return problems
    return JsonlFile(path, shown, raws, lines)


def _check(shown: str, rec: RecordLine, *, need_gold: bool) -> RecordLine | list[Diagnostic]:
    number = rec.line
    found = [
        p.at(shown, number)
        for p in rec.problems
        if p.rule is not BLANK_LINE  # blank lines carry no record; validate reports them
    ]
    if not rec.parsed:
        return found
    if rec.duplicate_keys:
        found.append(
            make(
                DUPLICATE_KEY,
                shown,
                number,
                1,
                "a key occurs twice in this record and a reader keeps only the last: "
                "keep one (`evaltools validate` points at it)",
            )
        )
    value = rec.record
    problem, where = _problem(value, need_gold=need_gold)
    if problem is not None:
        column = 1 if where is None else rec.column_of(where)
        found.append(make(GOLD_RECORD_UNUSABLE, shown, number, column, problem, pointer=where))
    if found or value is None:
        return found
    return rec


def _problem(value: dict[str, Any] | None, *, need_gold: bool) -> tuple[str | None, str | None]:
    if value is None:
        return "line is not a JSON object: write one record object per line", None
    qid = value.get("qid")
    if not isinstance(qid, str) or not qid:
        return "record has no non-empty string `qid`: give every query an id", "/qid"
    if not need_gold:
        return None, None
    gold = value.get("gold")
    if not isinstance(gold, dict) or not gold:
        return (
            f"record {qid!r}: `gold` is not a non-empty object of chunk ID -> grade: "
            "add the graded chunk IDs",
            "/gold",
        )
    for chunk_id, grade in gold.items():
        if type(grade) is not int or grade not in GRADES:
            return (
                f"record {qid!r}: grade {json.dumps(grade)} of {chunk_id!r} is not an "
                "integer 1-3: use 3 (exact), 2 (relevant) or 1 (marginal)",
                pointer(["gold", chunk_id]),
            )
    return None, None
