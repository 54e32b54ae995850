"""Reading retrieval eval sets (JSONL) as a stream of lines, each with its exact bytes.

`iter_record_lines` yields one `RecordLine` per line of the file: its 1-based number, the raw
bytes (line ending included, so joining every `raw` gives the file back byte for byte, for
rewriting in place), and the parsed JSON value or the reason there is none. Memory stays
constant: one line at a time.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, BinaryIO

from evaltools.retrieval.locate import locate

BOM = "\ufeff"
_JSON_WHITESPACE = " \t\r\n"


class _DuplicateKeys(Exception):
    """An object repeats a key; `args[0]` is the first key repeated."""


def _unique_pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    obj = dict(pairs)
    if len(obj) != len(pairs):
        raise _DuplicateKeys(_first_repeated(pairs))
    return obj


def _first_repeated(pairs: list[tuple[str, Any]]) -> str:
    seen: set[str] = set()
    for key, _ in pairs:
        if key in seen:
            return key
        seen.add(key)
    return ""  # pragma: no cover - only called when a key repeats


class _NotJsonConstant(ValueError):
    pass


def _reject_constant(name: str) -> Any:
    raise _NotJsonConstant(name)


_STRICT = json.JSONDecoder(object_pairs_hook=_unique_pairs, parse_constant=_reject_constant)
_LAST_WINS = json.JSONDecoder(parse_constant=_reject_constant)
# `decode` = skip whitespace + `scan_once` + check the rest; calling the C scanner directly
# saves that Python-level work on the common line (no leading blank), about a fifth of the cost.
_scan_once: Callable[[str, int], tuple[Any, int]] = _STRICT.scan_once  # type: ignore[attr-defined]


@dataclass(frozen=True)
class LineProblem:
    """Why a line holds no usable record, or what is wrong with its bytes."""

    # parse_line's: "blank" | "not-utf8" | "byte-order-mark" | "invalid-json"; readers of
    # other line formats (metas) add their own.
    kind: str
    column: int  # 1-based, in characters of the line
    message: str


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
        column = len(body[: exc.start].decode(errors="replace")) + 1
        problem = LineProblem(
            "not-utf8",
            column,
            f"byte 0x{body[exc.start]:02x} is not valid UTF-8: re-encode the file as UTF-8",
        )
        return RecordLine(line, raw, problems=(problem,))
    problems: tuple[LineProblem, ...] = ()
    shift = 0
    if (line == 1 if at_file_start is None else at_file_start) and text.startswith(BOM):
        problems = (
            LineProblem(
                "byte-order-mark",
                1,
                "file starts with a UTF-8 byte order mark: save it as UTF-8 without BOM",
            ),
        )
        text = text[1:]
        shift = 1
    if not text.strip(_JSON_WHITESPACE):
        blank = LineProblem(
            "blank",
            1,
            "line is blank: delete it (a JSONL file holds one record on every line, and "
            "many readers stop at an empty one)",
        )
        return RecordLine(line, raw, problems=(*problems, blank), bom=shift == 1)
    try:
        value, duplicates = _loads(text)
    except (ValueError, RecursionError) as exc:
        invalid = _invalid_json(text, exc, shift)
        return RecordLine(line, raw, problems=(*problems, invalid), bom=shift == 1)
    if has_lone_surrogate(text, value):
        lone = LineProblem(
            "invalid-json",
            _lone_surrogate_offset(text) + 1 + shift,
            "string holds a lone UTF-16 surrogate escape (\\ud800-\\udfff without its "
            "pair): it is no character, and no tool can write it back as UTF-8; fix the escape",
        )
        return RecordLine(line, raw, problems=(*problems, lone), bom=shift == 1)
    return RecordLine(line, raw, value, True, duplicates, problems, shift == 1)


def has_lone_surrogate(text: str, value: Any) -> bool:
    """Whether `value`, parsed from `text`, holds a string with an unpaired surrogate
    (valid JSON syntax, but refused by serde_json, and fatal to any UTF-8 writer)."""
    # Only a `\u` escape can make one: the text itself is valid UTF-8.
    if "\\u" not in text:
        return False
    try:
        json.dumps(value, ensure_ascii=False).encode()
    except UnicodeEncodeError:
        return True
    return False


_HIGH = r"\\u[dD][89abAB][0-9a-fA-F]{2}"
_LOW = r"\\u[dD][c-fC-F][0-9a-fA-F]{2}"
_LONE_SURROGATE = re.compile(rf"{_HIGH}(?!{_LOW})|(?<!{_HIGH}){_LOW}")


def _lone_surrogate_offset(text: str) -> int:
    found = _LONE_SURROGATE.search(text)
    return found.start() if found is not None else 0


def strict_loads(text: str) -> Any:
    """A whole JSON document (a schema file, say) read by the rules of a record line.

    ValueError, with a reason a person can act on, for what JSON parsers disagree on:
    a repeated key, NaN or Infinity, a lone surrogate escape, nesting too deep to read.
    """
    try:
        value = _STRICT.decode(text)
    except _DuplicateKeys as exc:
        raise ValueError(f"key {json.dumps(exc.args[0])} occurs twice in one object") from None
    except _NotJsonConstant as exc:
        raise ValueError(f"{exc} is not JSON: write a number or null") from None
    except RecursionError:
        raise ValueError("it is nested too deeply to read") from None
    if has_lone_surrogate(text, value):
        raise ValueError("a string holds a lone UTF-16 surrogate escape (\\ud800-\\udfff)")
    return value


NEEDS_FULL_PARSE: Any = object()


def quick_value(raw: bytes) -> Any:
    """The value of an ordinary line (UTF-8, no BOM, no leading blank, no repeated key), or
    NEEDS_FULL_PARSE for anything else, which `parse_line` then reads and explains. For hot
    loops: no RecordLine is built, and nothing is done twice on the common line."""
    try:
        text = raw.decode()
        value, end = _scan_once(text, 0)
    except (UnicodeDecodeError, StopIteration, _DuplicateKeys, ValueError, RecursionError):
        return NEEDS_FULL_PARSE
    if end != len(text) and text[end:].strip(_JSON_WHITESPACE):
        return NEEDS_FULL_PARSE
    if has_lone_surrogate(text, value):
        return NEEDS_FULL_PARSE
    return value


def _loads(text: str) -> tuple[Any, bool]:
    try:
        try:
            value, end = _scan_once(text, 0)
        except StopIteration:
            return _STRICT.decode(text), False
        if end != len(text) and text[end:].strip(_JSON_WHITESPACE):
            return _STRICT.decode(text), False  # raises "Extra data"
        return value, False
    except _DuplicateKeys:
        return _LAST_WINS.decode(text), True


def _invalid_json(text: str, exc: BaseException, shift: int) -> LineProblem:
    if isinstance(exc, RecursionError):
        return LineProblem(
            "invalid-json", 1 + shift, "record is nested too deeply to read: flatten it"
        )
    if isinstance(exc, _NotJsonConstant):
        return LineProblem(
            "invalid-json",
            _constant_offset(text) + 1 + shift,
            f"{exc} is not JSON (Python's json accepts it, other readers do not): "
            "write a number or null",
        )
    if not isinstance(exc, json.JSONDecodeError):
        return LineProblem("invalid-json", 1 + shift, f"record cannot be read ({exc}): fix it")
    column = exc.pos + 1 + shift
    if text.startswith(BOM):
        return LineProblem(
            "invalid-json",
            column,
            "line starts with a byte order mark (were two files joined?): delete it",
        )
    reason = exc.msg[0].lower() + exc.msg[1:]
    stripped = text.rstrip(_JSON_WHITESPACE)
    if exc.msg == "Extra data":
        message = "there is more text after the end of the record: put each record on its own line"
    elif exc.pos >= len(stripped) and stripped.lstrip(_JSON_WHITESPACE).startswith(("{", "[")):
        message = (
            f"the record ends before it is closed ({reason}): a JSONL record must be on one "
            "line (was the file pretty-printed?)"
        )
    else:
        message = f"line is not valid JSON ({reason}): fix the syntax at this column"
    return LineProblem("invalid-json", column, message)


def _constant_offset(text: str) -> int:
    try:
        json.loads(text)
    except (ValueError, RecursionError):
        return 0  # a syntax error too: no offsets to trust, point at the start
    located = locate(text)
    offsets = [
        at
        for at in located.values.values()
        if text.startswith(("NaN", "Infinity", "-Infinity"), at)
    ]
    return min(offsets, default=0)


def iter_record_lines(
    source: Path | BinaryIO | Iterable[bytes], *, first_line: int = 1
) -> Iterator[RecordLine]:
    """Every line of `source` parsed, in order; a Path is opened and closed here."""
    if isinstance(source, Path):
        with source.open("rb") as stream:
            yield from iter_record_lines(stream, first_line=first_line)
        return
    for number, raw in enumerate(source, first_line):
        yield parse_line(raw, number)
