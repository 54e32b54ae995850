"""The one retrieval record and its one reader: a JSONL line where it is, with its exact bytes.

`iter_record_lines` yields one `RecordLine` per line of the file: the file it is in, its
1-based number, the raw bytes (line ending included, so joining every `raw` gives the file
back byte for byte, for rewriting in place), and the parsed JSON value or the reason there
is none. Memory stays constant: one line at a time. Every command that reads a set (validate,
stats, gold check/fix/eval, merge, split, sample) reads it here; views of a record (its qid,
its scoring query) are functions of this one type.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, BinaryIO

from evaltools import jsonio
from evaltools.catalogue.io import BYTE_ORDER_MARK, INVALID_JSON, NOT_UTF8
from evaltools.diagnostics import Diagnostic, Rule, make
from evaltools.fileio import BOM_AT_START, open_records, wrong_encoding
from evaltools.jsonlocate import Locations, locate
from evaltools.positions import char_column
from evaltools.retrieval.records.gold_keys import gold_key_tokens
from evaltools.retrieval.records.validation.rules import BLANK_LINE

BOM = "\ufeff"
# What a record's `type` and `split` may be: the shipped schema's enums, in its order.
RECORD_TYPES = ("identifier", "intent", "mixed")
SPLITS = ("tune", "holdout")
_JSON_WHITESPACE = " \t\r\n"


@dataclass(frozen=True)
class LineProblem:
    """Why a line holds no usable record, or what is wrong with its bytes: a diagnostic
    that waits for the reader to say which file and line it is on."""

    rule: Rule  # parse_line's: blank, not UTF-8, byte order mark, invalid JSON
    column: int  # 1-based, in characters of the line
    message: str

    def at(self, path: str, line: int) -> Diagnostic:
        return make(self.rule, path, line, self.column, self.message)


# The problems after which a line holds no value at all.
_NO_VALUE = frozenset((NOT_UTF8.code, BLANK_LINE.code, INVALID_JSON.code))


@dataclass(frozen=True)
class RecordLine:
    """One line of a set: where it is (`path`, `line`, and columns by offset or JSON Pointer),
    its bytes, and its value or the problems that say why it has none."""

    path: str  # as findings show it ("" when the reader was not told)
    line: int
    raw: bytes
    value: Any = None
    # The line repeats a key inside one object; `value` keeps the last, like `json.loads`.
    duplicate_keys: bool = False
    problems: tuple[LineProblem, ...] = ()
    # The line opens the file with a UTF-8 byte order mark (not part of `text`).
    bom: bool = False

    @property
    def parsed(self) -> bool:
        """The line is JSON (its value may still be no record: a list, say)."""
        return not any(problem.rule.code in _NO_VALUE for problem in self.problems)

    @property
    def record(self) -> dict[str, Any] | None:
        """The value when it is a JSON object (what a record must be)."""
        return self.value if self.parsed and isinstance(self.value, dict) else None

    @property
    def text(self) -> str:
        """The decoded line without its line ending and byte order mark; offsets into it
        become columns with `column()`. Empty when the line is not UTF-8."""
        try:
            text = _strip_newline(self.raw).decode()
        except UnicodeDecodeError:
            return ""
        return text[1:] if self.bom else text

    def column(self, offset: int) -> int:
        """The 1-based column in the file's line of an offset into `text`."""
        return offset + 1 + (1 if self.bom else 0)

    @functools.cached_property
    def locations(self) -> Locations:
        """Where each key and value of the line is; worked out only for lines that report."""
        return locate(self.text)

    def locate_only(self, pointers: list[str]) -> None:
        """Work out `locations` for these JSON Pointers alone (a record may hold 100,000 gold
        keys and report one); any other pointer then falls back to its nearest located one."""
        if "locations" not in self.__dict__:
            self.__dict__["locations"] = locate(self.text, pointers)

    def column_of(self, where: str, *, at_key: bool = False) -> int:
        """The 1-based column of the value at JSON Pointer `where` (its key's, with `at_key`;
        a missing member: of the object that lacks it), as `evaltools validate` places it."""
        return self.column(self.locations.nearest(where, at_key=at_key))

    @functools.cached_property
    def _gold_key_columns(self) -> dict[str, int]:
        columns: dict[str, int] = {}
        try:
            for token in gold_key_tokens(self.text):
                columns.setdefault(token.key, self.column(token.start))
        except ValueError:  # pragma: no cover - json parsed it, so the scanner does too
            pass
        return columns

    def gold_key_column(self, key: str) -> int:
        """The column of the first token of gold ID `key` (1 when there is none)."""
        return self._gold_key_columns.get(key, 1)

    # Views of a usable record: one `read_set` returned, with a string qid.
    @property
    def qid(self) -> str:
        value = self.value["qid"]
        assert isinstance(value, str)
        return value

    @property
    def query(self) -> object:
        return self.value.get("query")

    @property
    def type_name(self) -> str:
        value = self.value.get("type")
        return value if isinstance(value, str) and value else "(none)"

    def gold(self) -> dict[str, int]:
        """The gold map; only for records read with ``need_gold=True``."""
        value = self.value["gold"]
        assert isinstance(value, dict)
        return dict(value)


def _strip_newline(raw: bytes) -> bytes:
    return raw[:-1] if raw.endswith(b"\n") else raw


def parse_line(
    raw: bytes, line: int, *, at_file_start: bool | None = None, path: str = ""
) -> RecordLine:
    """Parse line `line` of `path` (with or without its `\\n`); `at_file_start` (default:
    line 1) says whether a byte order mark is the file's, to report and skip, or just a bad
    character."""
    body = _strip_newline(raw)
    at_start = line == 1 if at_file_start is None else at_file_start
    encoding = wrong_encoding(body) if at_start else None
    if encoding is not None:
        return RecordLine(path, line, raw, problems=(LineProblem(NOT_UTF8, 1, encoding),))
    try:
        text = body.decode()
    except UnicodeDecodeError as exc:
        column = char_column(body, exc.start)
        problem = LineProblem(
            NOT_UTF8,
            column,
            f"byte 0x{body[exc.start]:02x} is not valid UTF-8: re-encode the file as UTF-8",
        )
        return RecordLine(path, line, raw, problems=(problem,))
    problems: tuple[LineProblem, ...] = ()
    shift = 0
    if at_start and text.startswith(BOM):
        problems = (LineProblem(BYTE_ORDER_MARK, 1, BOM_AT_START),)
        text = text[1:]
        shift = 1
    if not text.strip(_JSON_WHITESPACE):
        blank = LineProblem(
            BLANK_LINE,
            1,
            "line is blank: delete it (a JSONL file holds one record on every line, and "
            "many readers stop at an empty one)",
        )
        return RecordLine(path, line, raw, problems=(*problems, blank), bom=shift == 1)
    try:
        decoded = jsonio.decode(text, keep_repeated=True)
    except jsonio.JsonError as exc:
        _, column = exc.line_column(text)
        invalid = LineProblem(INVALID_JSON, column + shift, exc.message)
        return RecordLine(path, line, raw, problems=(*problems, invalid), bom=shift == 1)
    duplicates = decoded.repeated_key is not None
    return RecordLine(path, line, raw, decoded.value, duplicates, problems, shift == 1)


def strict_loads(text: str) -> Any:
    """A whole JSON document (a schema file, say) read by the rules of a record line.

    ValueError (`jsonio.JsonError`), with a reason a person can act on, for what JSON
    parsers disagree on: a repeated key, NaN or Infinity, a lone surrogate escape, nesting
    too deep to read.
    """
    return jsonio.loads(text)


NEEDS_FULL_PARSE: Any = object()


def quick_value(raw: bytes) -> Any:
    """The value of an ordinary line (UTF-8, no BOM, no leading blank, no repeated key), or
    NEEDS_FULL_PARSE for anything else, which `parse_line` then reads and explains. For hot
    loops: no RecordLine is built, and nothing is done twice on the common line."""
    try:
        text = raw.decode()
        value, end = jsonio.scan_once(text, 0)
    except Exception:  # whatever it is, `parse_line` reads and explains it
        return NEEDS_FULL_PARSE
    if end != len(text) and text[end:].strip(_JSON_WHITESPACE):
        return NEEDS_FULL_PARSE
    if jsonio.has_lone_surrogate(text, value):
        return NEEDS_FULL_PARSE
    return value


def iter_record_lines(
    source: Path | BinaryIO | Iterable[bytes], *, first_line: int = 1, path: str = ""
) -> Iterator[RecordLine]:
    """Every line of `source` parsed, in order, as lines of `path` (the display name); a Path
    is opened and closed here."""
    if isinstance(source, Path):
        with open_records(source) as stream:
            yield from iter_record_lines(stream, first_line=first_line, path=path)
        return
    for number, raw in enumerate(source, first_line):
        yield parse_line(raw, number, path=path)
