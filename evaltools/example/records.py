"""Streaming readers for the three forms of an example: `.md`, `.json` and `.jsonl` (or stdin).

Reading is split in two steps along the seam a process pool needs: `iter_units` cuts a
source into raw units cheaply (one file, or one JSONL line, with its location), and
`parse_unit` turns a unit into a `Record`: an `Example`, or located errors. Nothing here
holds more than one unit of a source in memory, whatever its size.

Default names are the reference CLI's: `.json`/`.md` take the file stem, `.jsonl` takes
`<stem>-<i>` (0-based line index) when `name` is empty.
"""

from __future__ import annotations

import io
import os
import sys
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import BinaryIO

from evaltools import jsonio, jsonlocate
from evaltools.catalogue.io import BYTE_ORDER_MARK, FILE_TOO_LARGE, INVALID_JSON
from evaltools.diagnostics import Diagnostic, make
from evaltools.discover import walk_files
from evaltools.example.convert import rules as cv
from evaltools.example.convert.rules import (
    BLANK_JSONL_LINE,
    INVALID_EXAMPLE,
    UNREADABLE_MARKDOWN,
    UNREADABLE_SOURCE,
)
from evaltools.example.markdown.reader import ParsedMarkdown, read_markdown
from evaltools.example.spec import Example, SpecError, example_from_json_dict
from evaltools.fileio import (
    BOM_AT_START,
    MAX_DATA_FILE_BYTES,
    MAX_TEXT_FILE_BYTES,
    UTF8_BOM,
    Refused,
    check_text_bytes,
    display_path,
    open_input,
    read_input,
    wrong_encoding,
)
from evaltools.positions import Lines, line_column

STDIN = "-"
STDIN_DISPLAY = "<stdin>"
SUFFIXES = (".md", ".json", ".jsonl")

# Why a unit is not an example: the reader's rules (convert reports them as they are; lint
# reports a record as EP501 and an unreadable file as IO007). Invalid JSON is IO008 in
# every command (evaltools.jsonio).

# The codes of the reader's findings, for callers that report some under rules of their own.
BAD_JSON = INVALID_JSON.code
BAD_SPEC = INVALID_EXAMPLE.code
BAD_MARKDOWN = UNREADABLE_MARKDOWN.code
BLANK_LINE = BLANK_JSONL_LINE.code
UNKNOWN_EXTENSION = cv.UNKNOWN_EXTENSION.code
BAD_FILE = UNREADABLE_SOURCE.code


@dataclass(frozen=True)
class Unit:
    """One example's raw source: a whole `.md`/`.json` file, or one JSONL line.

    Whole files are read by `parse_unit`, not when the unit is made, so that the
    reading happens where the parsing does (in a worker process, for a conversion).
    """

    form: str  # "md", "json", "jsonl", or "" when the unit is already an error
    path: str  # as shown to people
    line: int  # 1-based: the record's line for JSONL, 1 for whole files
    index: int  # 0-based position in its source (the JSONL line index)
    stem: str  # the source's file stem, for default names
    data: bytes | None = None  # a JSONL line; None for a file still to read
    file: str | None = None  # the file to read, for whole-file units
    error: Diagnostic | None = None


@dataclass
class Record:
    """A parsed unit: `example` is set exactly when `errors` is empty."""

    path: str
    line: int
    index: int
    form: str
    example: Example | None = None
    markdown: ParsedMarkdown | None = None  # for `.md` sources: hints, dropped content
    size: int = 0  # bytes read
    errors: list[Diagnostic] = field(default_factory=list)
    # A `.json` file's or `.jsonl` line's text: what `placed` finds a field's position in.
    text: str = ""


def placed(record: Record, found: list[Diagnostic]) -> list[Diagnostic]:
    """`found`, each finding that names a field by JSON Pointer moved to where the field's
    value starts in the record's text (a missing field: to the object that lacks it)."""
    if not record.text or all(d.pointer is None for d in found):
        return found
    located = jsonlocate.locate(record.text, (d.pointer for d in found if d.pointer))
    lines = Lines(record.text)  # a record may carry thousands of findings

    def at_value(finding: Diagnostic) -> Diagnostic:
        if finding.pointer is None:
            return finding
        line, column = lines.line_column(located.nearest(finding.pointer))
        return finding._replace(line=record.line + line - 1, column=column)

    return [at_value(d) for d in found]


def iter_all_units(
    paths: Iterable[Path],
    *,
    exclude: Path | None = None,
    stdin: BinaryIO | None = None,
    respect_gitignore: bool = True,
) -> Iterator[Unit]:
    """The units of every source, in order: files as given, `-` (JSONL on stdin), and
    directories searched (by `discover.walk_files`, sorted) for `*.md`, `*.json`, `*.jsonl`.

    A searched directory's listing skips what every command skips (hidden files such as
    `.zed/settings.json` are not examples), and `exclude` (the output of a conversion,
    which may live below a source directory and grow while it is searched).
    """
    for path in paths:
        if str(path) != STDIN and os.path.isdir(path):  # noqa: PTH112 (False past PATH_MAX)
            names = walk_files(
                path, SUFFIXES, respect_gitignore=respect_gitignore, exclude=exclude
            ).names
            shown_root = display_path(path)
            prefix = "" if shown_root == "." else f"{shown_root}/"
            for name in names:
                suffix = name[name.rfind(".") :]
                file = f"{path}{os.sep}{name}"
                yield from _file_units(file, prefix + name, name.rsplit("/", 1)[-1], suffix)
        else:
            yield from iter_units(path, stdin)


def iter_units(path: Path, stdin: BinaryIO | None = None) -> Iterator[Unit]:
    """The raw units of one source file (or `-` for JSONL on stdin)."""
    if str(path) == STDIN:
        yield from _jsonl_units(stdin if stdin is not None else sys.stdin.buffer, STDIN_DISPLAY)
        return
    shown = display_path(path)
    if path.suffix not in SUFFIXES:
        stem = path.stem
        message = (
            f"cannot tell the form of {path.name!r} from its extension: "
            "name it .md, .json or .jsonl (or pass - for JSONL on stdin)"
        )
        yield _error_unit(shown, stem, make(cv.UNKNOWN_EXTENSION, shown, 1, 1, message))
        return
    yield from _file_units(str(path), shown, path.name, path.suffix)


def _file_units(file: str, shown: str, name: str, suffix: str) -> Iterator[Unit]:
    stem = name[: -len(suffix)]
    if suffix != ".jsonl":
        yield Unit(suffix[1:], shown, 1, 0, stem, None, file)
        return
    opened = open_input(file, max_bytes=MAX_DATA_FILE_BYTES)
    if isinstance(opened, Refused):
        yield _error_unit(shown, stem, _refusal(opened, shown))
        return
    with opened:
        yield from _jsonl_units(opened, shown, stem)


def _refusal(refused: Refused, shown: str) -> Diagnostic:
    """The input policy's refusal, under the reader's rule for a file it cannot read (a
    file too large keeps its own, IO006)."""
    if refused.rule is FILE_TOO_LARGE:
        return refused.at(shown)
    return make(UNREADABLE_SOURCE, shown, 1, 1, refused.message)


def _error_unit(shown: str, stem: str, error: Diagnostic) -> Unit:
    return Unit("", shown, error.line, 0, stem, error=error)


def _jsonl_units(handle: BinaryIO, shown: str, stem: str | None = None) -> Iterator[Unit]:
    # The reference names stdin records like a file called "stdin".
    stem = "stdin" if stem is None else stem
    for index, raw in enumerate(handle):
        if index == 0 and stem == "stdin" and raw.lstrip().startswith(_MARKDOWN_STARTS):
            # `cat x.md | evaltools lint -` would otherwise get an error for every line.
            message = (
                "not valid JSON: standard input is read as JSONL (one example a line), and "
                "this looks like a Markdown example: pass the .md file's path instead"
            )
            yield _error_unit(shown, stem, make(INVALID_JSON, shown, 1, 1, message))
            return
        yield Unit("jsonl", shown, index + 1, index, stem, raw)


# How a Markdown example starts: front matter, a heading or a fence; never a JSON value.
_MARKDOWN_STARTS = (b"+++", b"#", b"```", b"~~~")


def parse_unit(unit: Unit) -> Record:
    record = Record(unit.path, unit.line, unit.index, unit.form)
    if unit.error is not None:
        record.errors.append(unit.error)
        return record
    data = unit.data if unit.data is not None else _read(unit, record)
    if data is None:
        return record
    record.size = len(data)
    if unit.form == "md":
        _parse_markdown_unit(unit, data, record)
    elif unit.form == "jsonl" and len(data) <= _MAX_REMEMBERED_LINE:
        _parse_jsonl_line(unit, data, record)
    else:
        _parse_json_unit(unit, data, record)
    return record


# A JSONL line that is no example is explained once however often it recurs (a file of a
# million blank lines or `{}`): its findings depend on its bytes alone, but for the line.
_MAX_REMEMBERED_LINE = 4096
_REMEMBERED = 10_000
_REFUSED_LINES: dict[bytes, list[Diagnostic]] = {}


def _parse_jsonl_line(unit: Unit, data: bytes, record: Record) -> None:
    known = _REFUSED_LINES.get(data)
    if known is not None:
        record.errors.extend(d._replace(path=unit.path, line=unit.line + d.line - 1) for d in known)
        return
    _parse_json_unit(unit, data, record)
    if record.example is None and len(_REFUSED_LINES) < _REMEMBERED:
        _REFUSED_LINES[data] = [d._replace(line=d.line - unit.line + 1) for d in record.errors]


def _read(unit: Unit, record: Record) -> bytes | None:
    """A whole file's bytes, or None with the reason in `record.errors`."""
    assert unit.file is not None
    data = read_input(unit.file, max_bytes=MAX_TEXT_FILE_BYTES)
    if isinstance(data, Refused):
        record.errors.append(_refusal(data, unit.path))
        return None
    return data


def _parse_markdown_unit(unit: Unit, data: bytes, record: Record) -> None:
    problem = check_text_bytes(unit.path, data)
    if problem is not None:
        record.errors.append(problem)  # the file-level finding itself (BOM, CRLF, ...)
        return
    parsed = read_markdown(data.decode("utf-8"), unit.stem)
    record.markdown = parsed
    record.errors.extend(
        make(UNREADABLE_MARKDOWN, unit.path, e.line, 1, str(e)) for e in parsed.errors
    )
    if not parsed.errors:
        record.example = Example(parsed.spec)


def _parse_json_unit(unit: Unit, data: bytes, record: Record) -> None:
    jsonl = unit.form == "jsonl"
    if jsonl and not data.strip():
        message = "blank line: JSONL holds one example per line; delete the line"
        record.errors.append(make(BLANK_JSONL_LINE, unit.path, unit.line, 1, message))
        return
    encoding = wrong_encoding(data) if unit.line == 1 else None
    if encoding is not None:
        record.errors.append(make(INVALID_JSON, unit.path, 1, 1, encoding))
        return
    if unit.line == 1 and data.startswith(UTF8_BOM):
        record.errors.append(make(BYTE_ORDER_MARK, unit.path, 1, 1, BOM_AT_START))
        return
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line, column = line_column(data, exc.start)
        message = f"byte 0x{data[exc.start]:02x} is not valid UTF-8: re-encode the file as UTF-8"
        record.errors.append(make(INVALID_JSON, unit.path, unit.line + line - 1, column, message))
        return
    try:
        value = jsonio.loads(text)
    except jsonio.JsonError as exc:
        line, column = exc.line_column(text)
        where = unit.line + line - 1
        record.errors.append(make(INVALID_JSON, unit.path, where, column, exc.message))
        return
    record.text = text
    try:
        example = example_from_json_dict(value)
    except SpecError as exc:
        error = make(
            INVALID_EXAMPLE, unit.path, unit.line, 1, str(exc), pointer=exc.pointer or None
        )
        record.errors.extend(placed(record, [error]))
        return
    if not example.spec.name:
        example.spec.name = f"{unit.stem}-{unit.index}" if jsonl else unit.stem
    record.example = example


def iter_buffer_records(path: Path, data: bytes) -> Iterator[Record]:
    """Every example of `data`, an editor's unsaved text of `path`, read as the file would be
    (`evaltools server`)."""
    shown = display_path(path)
    stem = path.name[: -len(path.suffix)] if path.suffix else path.name
    if path.suffix == ".jsonl":
        units: Iterable[Unit] = _jsonl_units(io.BytesIO(data), shown, stem)
    else:
        units = [Unit(path.suffix[1:], shown, 1, 0, stem, data, str(path))]
    for unit in units:
        yield parse_unit(unit)


def iter_records(path: Path, stdin: BinaryIO | None = None) -> Iterator[Record]:
    """Every example of one source, in order, each parsed or with its located errors."""
    for unit in iter_units(path, stdin):
        yield parse_unit(unit)
