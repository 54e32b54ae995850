"""Validating retrieval eval files: every line against the schema, and what a schema cannot say.

A file is cut into chunks of whole lines (`plan_file`); `check_chunk` checks one chunk and can
run in a worker process; `FileCheck` joins the results of one file in order (line numbers,
qids repeated across chunks). Clean records take the fast path (`fast_check`, compiled from
the schema); only the others are parsed for positions and explained by jsonschema.
"""

from __future__ import annotations

import functools
import io
import itertools
import json
import os
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, BinaryIO

from evaltools import jsonio
from evaltools.catalogue.io import EMPTY_FILE
from evaltools.diagnostics import Diagnostic, make
from evaltools.fileio import (
    MAX_DATA_FILE_BYTES,
    InputRefused,
    Refused,
    display_path,
    open_input,
    open_records,
)
from evaltools.retrieval.records.record import NEEDS_FULL_PARSE, RecordLine, parse_line, quick_value
from evaltools.retrieval.records.validation.explain import Problem, beyond_schema, explain
from evaltools.retrieval.records.validation.fast_check import clean_check
from evaltools.retrieval.records.validation.fields import FIELDS
from evaltools.retrieval.records.validation.rules import (
    DUPLICATE_KEY,
    DUPLICATE_QID,
    UNREADABLE_FILE,
)
from evaltools.retrieval.records.validation.schema import Validator, build_validator, default_schema

# Chunks: big enough that a worker's start-up and result transfer are noise, small enough
# that two cores share the work evenly and a worker's memory stays bounded.
MIN_CHUNK_BYTES = 1 << 20
MAX_CHUNK_BYTES = 16 << 20
# Where a qid first occurs is `chunk << LINE_BITS | line in the chunk`: workers can number
# it without knowing how many lines come before their chunk, and the main process merges a
# chunk's qids with one C-level `dict.update` instead of a Python loop over a million qids.
LINE_BITS = 32
_LINE_MASK = (1 << LINE_BITS) - 1


class Checker:
    """Says whether a parsed record is clean, and explains the records that are not.

    With the default schema (`schema_text` None) the yes/no is `fast_check`'s, and
    jsonschema is imported only when a record fails. With a user's schema, jsonschema
    decides everything. `drafts`: the set collects drafts (RV013 is not reported).
    """

    def __init__(self, schema_text: str | None = None, drafts: bool = False) -> None:
        self.schema_text = schema_text
        self.drafts = drafts
        self.known = FIELDS
        self._validator: Validator | None = None
        # An attribute, not a method: the hot loop calls it once per record.
        self.is_clean: Callable[[Any], bool] = clean_check(drafts)
        if schema_text is not None:
            self.validator()  # fail early on a schema that cannot be compiled
            properties = jsonio.loads(schema_text).get("properties")
            if isinstance(properties, dict):  # a team's fields are known too
                self.known = tuple(dict.fromkeys([*properties, *FIELDS]))
            self.is_clean = self._schema_is_clean

    def validator(self) -> Validator:
        if self._validator is None:
            schema = (
                default_schema() if self.schema_text is None else jsonio.loads(self.schema_text)
            )
            self._validator = build_validator(schema)
        return self._validator

    def _schema_is_clean(self, value: Any) -> bool:
        beyond = beyond_schema(value, drafts=self.drafts, known=self.known)
        return self.validator().is_valid(value) and next(beyond, None) is None

    def explain(self, value: Any) -> list[Problem]:
        return explain(value, self.validator(), drafts=self.drafts, known=self.known)


@functools.lru_cache(maxsize=8)
def checker_for(schema_text: str | None, drafts: bool = False) -> Checker:
    """One checker per process and schema: workers compile the schema once, not per chunk."""
    return Checker(schema_text, drafts)


@dataclass(frozen=True)
class ChunkTask:
    path: str
    display: str
    start: int  # the chunk holds the lines that start at a byte offset in [start, stop)
    stop: int
    schema_text: str | None = None
    chunk: int = 0  # its position in the file
    drafts: bool = False  # the file collects drafts


@dataclass
class ChunkResult:
    chunk: int = 0
    start: int = 0  # byte offset of the chunk's first line
    lines: int = 0
    diagnostics: list[Diagnostic] = field(default_factory=list)  # lines counted from 1 here
    # qid -> where it first occurs in the chunk, as chunk << LINE_BITS | line.
    first_lines: dict[str, int] = field(default_factory=dict)
    repeats: list[tuple[str, int, int]] = field(default_factory=list)  # (qid, line, column)


def check_chunk(task: ChunkTask) -> ChunkResult:
    """Check the lines of one chunk; line numbers in the result count from the chunk's start."""
    try:
        with open_records(task.path) as stream:
            start = _line_start_at_or_after(stream, task.start)
            stream.seek(start)
            block = stream.read(max(task.stop - start, 0))
            if block and not block.endswith(b"\n"):
                block += stream.readline()  # the chunk's last line runs past `stop`
    except InputRefused as exc:  # replaced (by a FIFO, say) since the file was planned
        return ChunkResult(chunk=task.chunk, diagnostics=[exc.refused.at(task.display)])
    except OSError as exc:
        reason = exc.strerror or str(exc)
        unreadable = make(
            UNREADABLE_FILE, task.display, 1, 1, f"cannot read the file ({reason}): fix access"
        )
        return ChunkResult(chunk=task.chunk, diagnostics=[unreadable])
    result = check_lines(
        io.BytesIO(block),
        task.display,
        checker_for(task.schema_text, task.drafts),
        at_file_start=start == 0,
        chunk=task.chunk,
    )
    result.start = start
    return result


def _line_start_at_or_after(stream: BinaryIO, offset: int) -> int:
    if offset == 0:
        return 0
    stream.seek(offset - 1)
    stream.readline()
    return stream.tell()


def check_lines(
    lines: Iterable[bytes],
    display: str,
    checker: Checker,
    *,
    at_file_start: bool = True,
    chunk: int = 0,
) -> ChunkResult:
    """The hot loop: one line at a time, so a stream of any length takes constant memory
    (besides the qids, which must all be remembered to find repeats)."""
    result = ChunkResult(chunk=chunk)
    first_lines = result.first_lines
    is_clean = checker.is_clean
    tag = chunk << LINE_BITS
    number = 0
    seen: dict[bytes, tuple[list[Diagnostic], str | None, int]] = {}
    for number, raw in enumerate(lines, 1):
        value = quick_value(raw)
        if value is not NEEDS_FULL_PARSE and is_clean(value):
            # A team's schema may make anything clean: a list, a record without a qid.
            qid = value.get("qid") if type(value) is dict else None
            if type(qid) is str and first_lines.setdefault(qid, tag | number) != tag | number:
                rec = parse_line(raw, number, at_file_start=at_file_start and number == 1)
                result.repeats.append((qid, number, rec.column_of("/qid")))
            continue
        explained = seen.get(raw) if number > 1 else None
        if explained is None:
            explained = _explain_line(raw, number, at_file_start, display, checker)
            if number > 1 and len(raw) <= _MAX_REMEMBERED_LINE and len(seen) < _REMEMBERED:
                seen[raw] = explained
        found, qid, qid_column = explained
        result.diagnostics.extend(d._replace(line=number) for d in found)
        if qid is not None and first_lines.setdefault(qid, tag | number) != tag | number:
            result.repeats.append((qid, number, qid_column))
    result.lines = number
    return result


# A line that is not clean is explained once however often it recurs (a file of a million
# blank lines or `{}`): the explanation depends on its bytes alone.
_MAX_REMEMBERED_LINE = 4096
_REMEMBERED = 10_000


def _explain_line(
    raw: bytes, number: int, at_file_start: bool, display: str, checker: Checker
) -> tuple[list[Diagnostic], str | None, int]:
    """The findings of a line that is not clean, its qid and the qid's column."""
    rec = parse_line(raw, number, at_file_start=at_file_start and number == 1)
    found = [problem.at(display, number) for problem in rec.problems]
    if not rec.parsed:
        return found, None, 1
    problems = checker.explain(rec.value)
    # Only what is reported is located (a record may hold 100,000 gold keys); a repeated
    # key is found by walking everything.
    if not rec.duplicate_keys:
        rec.locate_only(["/qid", *(p.pointer for p in problems)])
    found.extend(_explained(rec, display, problems))
    qid = rec.value.get("qid") if isinstance(rec.value, dict) else None
    if not isinstance(qid, str):
        return found, None, 1
    return found, qid, rec.column_of("/qid")


def _explained(rec: RecordLine, display: str, problems: list[Problem]) -> list[Diagnostic]:
    found = [
        make(
            DUPLICATE_KEY,
            display,
            rec.line,
            rec.column(offset),
            _duplicate_key_message(where),
            pointer=where,
        )
        for where, offset in rec.locations.duplicates
    ]
    for problem in problems:
        found.append(
            make(
                problem.rule,
                display,
                rec.line,
                rec.column_of(problem.pointer, at_key=problem.at_key),
                problem.message,
                pointer=problem.pointer or None,
                fix=problem.fix,
            )
        )
    return found


def _duplicate_key_message(where: str) -> str:
    parent, _, key = where.rpartition("/")
    key = key.replace("~1", "/").replace("~0", "~")
    if parent == "/gold":
        return (
            f"chunk ID {json.dumps(key, ensure_ascii=False)} is listed twice in `gold`: keep "
            "one entry with the right grade (readers keep only the last, silently)"
        )
    return (
        f"key {json.dumps(key, ensure_ascii=False)} occurs twice in one object: keep one "
        "(readers keep only the last value, silently)"
    )


def duplicate_qid(
    display: str,
    line: int,
    column: int,
    qid: str,
    first: int,
    *,
    first_path: str | None = None,
    advice: str = "give each query its own qid",
) -> Diagnostic:
    """RV004 on the later record; `first_path` names the first one's file when the set
    spans several (`gold split`)."""
    where = f"line {first}" if first_path in (None, display) else f"{first_path}:{first}"
    return make(
        DUPLICATE_QID,
        display,
        line,
        column,
        f"qid {json.dumps(qid, ensure_ascii=False)} is used again (first at {where}): {advice}",
        pointer="/qid",
    )


# --- whole files ---------------------------------------------------------------------------


@dataclass(frozen=True)
class FilePlan:
    path: Path
    display: str
    size: int
    tasks: tuple[ChunkTask, ...]


def plan_file(
    path: Path, *, jobs: int, schema_text: str | None, drafts: bool = False
) -> FilePlan | Diagnostic:
    """Chunks of about a quarter of a worker's share of the file, within the bounds above;
    `drafts`: the file collects drafts."""
    display = display_path(path)
    opened = open_input(path, max_bytes=MAX_DATA_FILE_BYTES)
    if isinstance(opened, Refused):
        return opened.at(display)
    with opened:
        size = os.fstat(opened.fileno()).st_size
    if size == 0:
        return _empty(display)
    chunk = min(max(size // max(jobs * 4, 1), MIN_CHUNK_BYTES), MAX_CHUNK_BYTES)
    tasks = tuple(
        ChunkTask(str(path), display, start, min(start + chunk, size), schema_text, index, drafts)
        for index, start in enumerate(range(0, size, chunk))
    )
    return FilePlan(path, display, size, tasks)


def _empty(display: str) -> Diagnostic:
    return make(EMPTY_FILE, display, 1, 1, "file is empty: delete it or add records")


def check_buffer(
    path: Path, data: bytes, schema_text: str | None, drafts: bool = False
) -> list[Diagnostic]:
    """The findings of `data`, an editor's unsaved text of the set `path`, as `check_files`
    gives them for the file (`evaltools server`): one chunk, checked in this process."""
    display = display_path(path)
    if not data:
        return [_empty(display)]
    lines = check_lines(io.BytesIO(data), display, checker_for(schema_text, drafts))
    return FileCheck(display).add(lines)


class FileCheck:
    """Joins the chunk results of one file, fed in file order."""

    def __init__(self, display: str, path: Path | None = None) -> None:
        self.display = display
        self.path = path  # to re-read lines whose qid repeats one from an earlier chunk
        self.lines_before = 0
        self.bases: dict[int, int] = {}  # chunk -> lines before it
        self.first_seen: dict[str, int] = {}  # qid -> chunk << LINE_BITS | line in the chunk

    def line_of(self, where: int) -> int:
        return self.bases[where >> LINE_BITS] + (where & _LINE_MASK)

    def add(self, result: ChunkResult) -> list[Diagnostic]:
        base = self.bases[result.chunk] = self.lines_before
        found = [d._replace(line=d.line + base) for d in result.diagnostics]
        seen, firsts = self.first_seen, result.first_lines
        for qid, line, column in result.repeats:
            first = self.line_of(seen.get(qid, firsts[qid]))
            found.append(duplicate_qid(self.display, line + base, column, qid, first))
        again = firsts.keys() & seen.keys()
        if again:
            columns = self._qid_columns(result, {firsts[q] & _LINE_MASK for q in again})
            for qid in again:
                line = firsts.pop(qid) & _LINE_MASK
                first = self.line_of(seen[qid])
                found.append(
                    duplicate_qid(self.display, line + base, columns.get(line, 1), qid, first)
                )
        seen.update(firsts)
        self.lines_before += result.lines
        found.sort(key=Diagnostic.sort_key)
        return found

    def _qid_columns(self, result: ChunkResult, lines: set[int]) -> dict[int, int]:
        """Workers do not keep where each qid sits; find it for the few repeated ones."""
        if self.path is None:  # pragma: no cover - stdin is one chunk, nothing comes before it
            return {}
        columns: dict[int, int] = {}
        with self.path.open("rb") as stream:
            stream.seek(result.start)
            for number, raw in enumerate(itertools.islice(stream, max(lines)), 1):
                if number in lines:
                    rec = parse_line(raw, number, at_file_start=result.start == 0 and number == 1)
                    columns[number] = rec.column_of("/qid")
        return columns
