"""Reading retrieval eval sets (JSONL) as a stream of lines, each with its exact bytes.

`iter_record_lines` yields one `RecordLine` per line of the file: its 1-based number, the raw
bytes (line ending included, so joining every `raw` gives the file back byte for byte, for
rewriting in place), and the parsed JSON value or the reason there is none. Memory stays
constant: one line at a time.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, BinaryIO

from evaltools import jsonio
from evaltools.diagnostics import Diagnostic, Rule, make
from evaltools.fileio import BYTE_ORDER_MARK, NOT_UTF8, open_records
from evaltools.positions import char_column
from evaltools.retrieval.records.record_rules import BLANK_LINE, INVALID_JSON

BOM = "\ufeff"
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


@dataclass(frozen=True)
class RecordLine:
    line: int
    raw: bytes
    value: Any = None
    parsed: bool = False
    # The line repeats a key inside one object; `value` keeps the last, like `json.loads`.
    duplicate_keys: bool = False
    problems: tuple[LineProblem, ...] = ()
    # The line opens the file with a UTF-8 byte order mark (not part of `text`).
    bom: bool = False

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


def _strip_newline(raw: bytes) -> bytes:
    return raw[:-1] if raw.endswith(b"\n") else raw


def parse_line(raw: bytes, line: int, *, at_file_start: bool | None = None) -> RecordLine:
    """Parse one line (with or without its `\\n`); `at_file_start` (default: line 1) says
    whether a byte order mark is the file's, to report and skip, or just a bad character."""
    body = _strip_newline(raw)
    try:
        text = body.decode()
    except UnicodeDecodeError as exc:
        column = char_column(body, exc.start)
        problem = LineProblem(
            NOT_UTF8,
            column,
            f"byte 0x{body[exc.start]:02x} is not valid UTF-8: re-encode the file as UTF-8",
        )
        return RecordLine(line, raw, problems=(problem,))
    problems: tuple[LineProblem, ...] = ()
    shift = 0
    if (line == 1 if at_file_start is None else at_file_start) and text.startswith(BOM):
        problems = (
            LineProblem(
                BYTE_ORDER_MARK,
                1,
                "file starts with a UTF-8 byte order mark: save it as UTF-8 without BOM",
            ),
        )
        text = text[1:]
        shift = 1
    if not text.strip(_JSON_WHITESPACE):
        blank = LineProblem(
            BLANK_LINE,
            1,
            "line is blank: delete it (a JSONL file holds one record on every line, and "
            "many readers stop at an empty one)",
        )
        return RecordLine(line, raw, problems=(*problems, blank), bom=shift == 1)
    try:
        decoded = jsonio.decode(text, keep_repeated=True)
    except jsonio.JsonError as exc:
        _, column = exc.line_column(text)
        invalid = LineProblem(INVALID_JSON, column + shift, exc.message)
        return RecordLine(line, raw, problems=(*problems, invalid), bom=shift == 1)
    duplicates = decoded.repeated_key is not None
    return RecordLine(line, raw, decoded.value, True, duplicates, problems, shift == 1)


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
    source: Path | BinaryIO | Iterable[bytes], *, first_line: int = 1
) -> Iterator[RecordLine]:
    """Every line of `source` parsed, in order; a Path is opened and closed here."""
    if isinstance(source, Path):
        with open_records(source) as stream:
            yield from iter_record_lines(stream, first_line=first_line)
        return
    for number, raw in enumerate(source, first_line):
        yield parse_line(raw, number)
