"""The gold IDs of a check where they are written: the set file read, and each ID of each
record with its verdict; shared by the check (`gold_check`) and the fix (`fix_records`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from evaltools.diagnostics import Diagnostic
from evaltools.retrieval.code.chunk_id import ChunkId
from evaltools.retrieval.gold.resolve import GoldRef, Resolution
from evaltools.retrieval.records.gold_keys import gold_key_tokens
from evaltools.retrieval.records.record import RecordLine


@dataclass
class SetFile:
    path: Path
    display: str
    data: bytes
    lines: list[RecordLine] = field(default_factory=list)
    _columns: dict[int, dict[str, int]] = field(default_factory=dict)

    def column(self, line: RecordLine, key: str) -> int:
        """The column of `key`'s token in the line; scanned only for lines that report."""
        columns = self._columns.get(line.line)
        if columns is None:
            columns = self._columns[line.line] = {}
            try:
                for token in gold_key_tokens(line.text):
                    columns.setdefault(token.key, line.column(token.start))
            except ValueError:  # pragma: no cover - json parsed it, so the scanner does too
                pass
        return columns.get(key, 1)


@dataclass
class GoldItem:
    """One gold ID where it is written: the file and the record's line."""

    file: SetFile
    line: RecordLine
    qid: str | None
    ref: GoldRef
    result: Resolution | None = None
    cid: ChunkId | None = None  # the ID parsed (when it was checked), for `resolve_all`
    fixed: bool = False
    conflict: str | None = None  # why a repair was not written
    finding: Diagnostic | None = None  # what is reported about it (None: it is ok)

    @property
    def column(self) -> int:
        return self.file.column(self.line, self.ref.chunk_id)
