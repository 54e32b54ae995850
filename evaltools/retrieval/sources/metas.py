"""The index's own chunk list (`metas.jsonl`): which chunk IDs retrieval can return."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from evaltools.diagnostics import Diagnostic
from evaltools.fileio import MAX_DATA_FILE_BYTES, read_text_file
from evaltools.retrieval.code.chunk_id import ChunkIdError, parse_chunk_id
from evaltools.retrieval.gold.rules import INVALID_METAS_LINE
from evaltools.retrieval.records.record import LineProblem, parse_line


@dataclass(frozen=True)
class MetaChunk:
    chunk_id: str
    path: str | None
    start: int | None
    end: int | None
    symbol: str | None


@dataclass
class MetasIndex:
    ids: set[str] = field(default_factory=set)
    by_path: dict[str, list[MetaChunk]] = field(default_factory=dict)

    def add(self, chunk: MetaChunk) -> None:
        self.ids.add(chunk.chunk_id)
        if chunk.path is not None:
            self.by_path.setdefault(chunk.path, []).append(chunk)

    def chunks(self, path: str) -> list[MetaChunk] | None:
        return self.by_path.get(path)


def read_metas(path: Path) -> tuple[MetasIndex, list[Diagnostic]]:
    index = MetasIndex()
    text = read_text_file(path, max_bytes=MAX_DATA_FILE_BYTES)
    if isinstance(text, Diagnostic):
        return index, [text]
    problems: list[Diagnostic] = []
    for number, raw in enumerate(text.data.split(b"\n"), start=1):
        if not raw.strip():
            continue
        chunk = chunk_from_line(raw, number)
        if isinstance(chunk, LineProblem):
            problems.append(chunk.at(text.display, number))
        else:
            index.add(chunk)
    return index, problems


def chunk_from_line(raw: bytes, number: int = 1) -> MetaChunk | LineProblem:
    """The chunk a line describes, or why it describes none.

    The line is read as strictly as an eval set's (`record.parse_line`): a repeated key, NaN
    or a lone surrogate is a problem, not a guess. Fields missing from the line are taken
    from the chunk ID when it is a stable one (`path:start-end:symbol`); an opaque ID with no
    fields can only be matched exactly.
    """
    line = parse_line(raw, number)
    if line.problems:
        return line.problems[-1]
    if line.duplicate_keys:
        return LineProblem(
            INVALID_METAS_LINE,
            1,
            "line repeats a key in one object, and readers keep only the last: keep one",
        )
    value = line.record
    if value is None:
        return LineProblem(
            INVALID_METAS_LINE, 1, "line is not a JSON object: write one chunk object per line"
        )
    chunk_id = value.get("chunk_id")
    if not isinstance(chunk_id, str) or not chunk_id:
        return LineProblem(
            INVALID_METAS_LINE,
            1,
            "chunk has no non-empty string `chunk_id`: give every chunk its ID",
        )
    try:
        parsed = parse_chunk_id(chunk_id)
    except ChunkIdError:
        parsed = None
    path = _str_field(value, "path", parsed.path if parsed else None)
    start = _int_field(value, "start_line", parsed.start if parsed else None)
    end = _int_field(value, "end_line", parsed.end if parsed else None)
    symbol = _str_field(value, "symbol", parsed.symbol if parsed else None)
    return MetaChunk(chunk_id, path, start, end, symbol or None)


def _str_field(value: dict[str, object], key: str, fallback: str | None) -> str | None:
    found = value.get(key)
    if isinstance(found, str):
        return found
    # An explicit null (a window chunk's symbol) means none; anything else: the ID's value.
    return None if key in value and found is None else fallback


def _int_field(value: dict[str, object], key: str, fallback: int | None) -> int | None:
    found = value.get(key)
    if isinstance(found, int) and not isinstance(found, bool):
        return found
    return None if key in value and found is None else fallback
