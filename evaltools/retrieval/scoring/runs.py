"""Reading a retriever's run: TREC run files and JSONL, as one ranked ID list per query.

TREC lines are `qid Q0 docid rank score tag`; like trec_eval, the rank column is ignored and
a query's results are ordered by score, descending, ties broken by docid, descending (so a
run scores the same here as under trec_eval). JSONL lines are
`{"qid": ..., "results": [{"id": ..., "score": ...}, ...]}` (ordered the same way) or
`{"qid": ..., "ids": [...]}` (already ranked).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from evaltools.catalogue import rule
from evaltools.diagnostics import Diagnostic, make
from evaltools.fileio import display_path
from evaltools.retrieval.records.record import NEEDS_FULL_PARSE, parse_line, quick_value

RUN_UNREADABLE = rule("RG501")
RUN_DUPLICATE = rule("RG502")


@dataclass
class Run:
    name: str
    ranked: dict[str, list[str]] = field(default_factory=dict)
    problems: list[Diagnostic] = field(default_factory=list)


def read_run(path: Path) -> Run:
    """The run at `path`; a line it cannot read becomes a diagnostic, never an exception."""
    shown = display_path(path)
    run = Run(path.name)
    try:
        data = path.read_bytes()
    except OSError as exc:
        run.problems.append(make(RUN_UNREADABLE, shown, 1, 1, f"cannot read: {exc.strerror}"))
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
    for number, raw in enumerate(data.splitlines(), 1):
        fields = raw.split()
        if not fields:
            continue
        if len(fields) != 6:
            message = (
                f"a TREC run line has 6 fields (qid Q0 docid rank score tag), this one has "
                f"{len(fields)}: fix the line"
            )
            run.problems.append(make(RUN_UNREADABLE, shown, number, 1, message))
            continue
        try:
            qid, docid = fields[0].decode(), fields[2].decode()
            score = float(fields[4])
        except (UnicodeDecodeError, ValueError):
            message = "the line is not UTF-8 or its score (5th field) is not a number: fix it"
            run.problems.append(make(RUN_UNREADABLE, shown, number, 1, message))
            continue
        out.add(qid, docid, score, number)
    return out.scored


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
            self.run.problems.append(make(RUN_DUPLICATE, self.shown, number, 1, message))
            return
        self.seen.add((qid, docid))
        self.scored.setdefault(qid, []).append((docid, score))


def _read_jsonl(data: bytes, shown: str, run: Run) -> _Scored:
    out = _Collector(shown, run)
    for number, raw in enumerate(data.splitlines(keepends=True), 1):
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
        if isinstance(entries, str):
            run.problems.append(make(RUN_UNREADABLE, shown, number, 1, entries))
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


def _jsonl_entries(value: Any) -> tuple[str, list[tuple[str, float | None]]] | str:
    """(qid, results) of one line, or why the line is not a run line."""
    if not isinstance(value, dict) or not isinstance(value.get("qid"), (str, int)):
        return f"{_SHAPE}: this line has no string `qid`"
    qid = str(value["qid"])
    if isinstance(value.get("ids"), list):
        ids = value["ids"]
        if not all(isinstance(i, str) for i in ids):
            return f"{_SHAPE}: every entry of `ids` must be a chunk ID string"
        return qid, [(i, None) for i in ids]
    results = value.get("results")
    if not isinstance(results, list):
        return f"{_SHAPE}: this line has neither `results` nor `ids`"
    found: list[tuple[str, float | None]] = []
    for entry in results:
        if (
            not isinstance(entry, dict)
            or not isinstance(entry.get("id"), str)
            or isinstance(entry.get("score"), bool)
            or not isinstance(entry.get("score"), (int, float))
        ):
            return f"{_SHAPE}: every result needs a string `id` and a numeric `score`"
        found.append((entry["id"], float(entry["score"])))
    return qid, found
