"""The gold IDs of a check where they are written: each ID of each record with its verdict;
shared by the check (`gold_check`) and the fix (`fix_records`)."""

from __future__ import annotations

from dataclasses import dataclass

from evaltools.diagnostics import Diagnostic
from evaltools.retrieval.code.chunk_id import ChunkId
from evaltools.retrieval.gold.reanchor.resolve import GoldRef, Resolution
from evaltools.retrieval.records.record import RecordLine
from evaltools.retrieval.records.set_file import JsonlFile


@dataclass
class GoldItem:
    """One gold ID where it is written: the file and the record's line."""

    file: JsonlFile
    line: RecordLine
    ref: GoldRef
    result: Resolution | None = None
    cid: ChunkId | None = None  # the ID parsed (when it was checked), for `resolve_all`
    fixed: bool = False
    conflict: str | None = None  # why a repair was not written
    finding: Diagnostic | None = None  # what is reported about it (None: it is ok)

    @property
    def qid(self) -> str | None:
        """The record's qid, when it is a string."""
        qid = self.line.value.get("qid")
        return qid if isinstance(qid, str) else None

    @property
    def column(self) -> int:
        return self.line.gold_key_column(self.ref.chunk_id)
