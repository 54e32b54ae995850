"""Reading a retriever's run: TREC run files and JSONL, as one ranked ID list per query.

TREC lines are `qid Q0 docid rank score tag`; like trec_eval, the rank column is ignored and
a query's results are ordered by score, descending, ties broken by docid, descending (so a
run scores the same here as under trec_eval). JSONL lines are
`{"qid": ..., "results": [{"id": ..., "score": ...}, ...]}` (ordered the same way) or
`{"qid": ..., "ids": [...]}` (already ranked).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from evaltools.diagnostics import Diagnostic, make
from evaltools.fileio import MAX_DATA_FILE_BYTES, Refused, display_path, read_input
from evaltools.positions import char_column, lines_of
from evaltools.retrieval.records.record import NEEDS_FULL_PARSE, parse_line, quick_value
from evaltools.retrieval.records.validation.explain import json_type
from evaltools.retrieval.scoring.rules import RUN_DUPLICATE_RESULT, RUN_UNREADABLE_LINE


@dataclass
class Run:
    name: str
    ranked: dict[str, list[str]] = field(default_factory=dict)
    problems: list[Diagnostic] = field(default_factory=list)


def read_run(path: Path) -> Run:
    """The run at `path`; a line it cannot read becomes a diagnostic, never an exception."""
    shown = display_path(path)
    run = Run(path.name)
    data = read_input(path, max_bytes=MAX_DATA_FILE_BYTES)
    if isinstance(data, Refused):
        run.problems.append(data.at(shown))
        return run
    reader = _read_jsonl if _looks_jsonl(data) else _read_trec
    scored = reader(data, shown, run)
    for qid, results in scored.items():
        run.ranked[qid] = _ranked(results)
    return run


def _looks_jsonl(data: bytes) -> bool:
    return data.lstrip(b"\xef\xbb\xbf \t\r\n")[:1] == b"{"


# A query's results before ordering: (docid, score, position in the file), or score None
# when the list was given already ranked.
_Scored = dict[str, list[tuple[str, float | None]]]


def _ranked(results: list[tuple[str, float | None]]) -> list[str]:
    if results and results[0][1] is not None:
        # trec_eval's order: score descending, then docid descending.
        results = sorted(results, key=lambda r: (r[1], r[0]), reverse=True)
    return [docid for docid, _ in results]


def _read_trec(data: bytes, shown: str, run: Run) -> _Scored:
    out = _Collector(shown, run)
    for number, raw in enumerate(lines_of(data), 1):
        fields = list(_FIELD.finditer(raw))
        if not fields:
            continue
        if len(fields) != 6:
            message = (
                f"a TREC run line has 6 fields (qid Q0 docid rank score tag), this one has "
                f"{len(fields)}: fix the line"
            )
            run.problems.append(make(RUN_UNREADABLE_LINE, shown, number, 1, message))
            continue
        try:
            raw.decode()
        except UnicodeDecodeError:
            # The code and column every reader gives bytes that are not UTF-8.
            run.problems.append(parse_line(raw, number).problems[0].at(shown, number))
            continue
        score = _score(fields[4].group().decode())
        if isinstance(score, str):
            column = char_column(raw, fields[4].start())
            run.problems.append(make(RUN_UNREADABLE_LINE, shown, number, column, score))
            continue
        out.add(fields[0].group().decode(), fields[2].group().decode(), score, number)
    return out.scored


# A field of a TREC line: what `bytes.split()` separates (ASCII whitespace).
_FIELD = re.compile(rb"[^ \t\n\r\x0b\x0c]+")


def _score(text: str) -> float | str:
    """The score of a TREC line's 5th field, or what is wrong with it."""
    try:
        score = float(text)
    except ValueError:
        return f"score {text!r} (5th field) is not a number: write the retriever's score there"
    if not math.isfinite(score):
        return (
            f"score {text!r} (5th field) is not a finite number, so the ranking would depend "
            "on the order of the lines: write a finite score"
        )
    return score


@dataclass
class _Collector:
    shown: str
    run: Run
    scored: _Scored = field(default_factory=dict)
    seen: set[tuple[str, str]] = field(default_factory=set)

    def add(self, qid: str, docid: str, score: float | None, number: int) -> None:
        if (qid, docid) in self.seen:
            message = (
                f"query {qid!r} lists {docid!r} twice: a run ranks each document once, so "
                "remove the repeat"
            )
            self.run.problems.append(make(RUN_DUPLICATE_RESULT, self.shown, number, 1, message))
            return
        self.seen.add((qid, docid))
        self.scored.setdefault(qid, []).append((docid, score))


def _read_jsonl(data: bytes, shown: str, run: Run) -> _Scored:
    out = _Collector(shown, run)
    for number, raw in enumerate(lines_of(data), 1):
        if not raw.strip():
            continue
        value = quick_value(raw)
        if value is NEEDS_FULL_PARSE:
            line = parse_line(raw, number)
            if not line.parsed:
                # Bytes and JSON have the codes every reader gives them.
                run.problems.append(line.problems[-1].at(shown, number))
                continue
            value = line.value
        entries = _jsonl_entries(value)
        if isinstance(entries, _Wrong):
            run.problems.append(entries.at(raw, shown, number))
            continue
        qid, results = entries
        out.scored.setdefault(qid, [])
        for docid, score in results:
            out.add(qid, docid, score, number)
    return out.scored


_SHAPE = (
    'a JSONL run line is {"qid": ..., "results": [{"id": ..., "score": ...}, ...]} or '
    '{"qid": ..., "ids": [...]}'
)


@dataclass(frozen=True)
class _Wrong:
    """Why a JSONL line is not a run line, and the member it is about."""

    why: str
    pointer: str = ""

    def at(self, raw: bytes, shown: str, number: int) -> Diagnostic:
        line = parse_line(raw, number)
        column = line.column_of(self.pointer)
        pointer = self.pointer or None
        return make(
            RUN_UNREADABLE_LINE, shown, number, column, f"{_SHAPE}: {self.why}", pointer=pointer
        )


def _jsonl_entries(value: Any) -> tuple[str, list[tuple[str, float | None]]] | _Wrong:
    """(qid, results) of one line, or why the line is not a run line."""
    if not isinstance(value, dict) or not isinstance(value.get("qid"), (str, int)):
        return _Wrong("this line has no string `qid`", "/qid")
    qid = str(value["qid"])
    ids, results = value.get("ids"), value.get("results")
    if isinstance(ids, list):
        if not all(isinstance(i, str) for i in ids):
            return _Wrong("every entry of `ids` must be a chunk ID string", "/ids")
        return qid, [(i, None) for i in ids]
    if ids is not None and results is None:
        return _Wrong(f"`ids` is {json_type(ids)}, not a list: write [...] around it", "/ids")
    if results is None:
        return _Wrong("this line has neither `results` nor `ids`")
    if not isinstance(results, list):
        why = f"`results` is {json_type(results)}, not a list: make it a list of results"
        return _Wrong(why, "/results")
    found: list[tuple[str, float | None]] = []
    for entry in results:
        if (
            not isinstance(entry, dict)
            or not isinstance(entry.get("id"), str)
            or isinstance(entry.get("score"), bool)
            or not isinstance(entry.get("score"), (int, float))
        ):
            return _Wrong("every result needs a string `id` and a numeric `score`", "/results")
        found.append((entry["id"], float(entry["score"])))
    return qid, found
