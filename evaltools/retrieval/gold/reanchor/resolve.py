"""Resolving gold chunk IDs against a code tree or an index, and what can be repaired safely.

A repair is safe when the evidence names exactly one place: the same qualified name in the
same file (`moved`), or in the file git says the old one was renamed (or copied) to
(`renamed_file`), or the one place its body went (`relocated`, see `follow`). Everything
else is left to a person, with candidates: several fits (`ambiguous`), one body in several
places (`copied`), a name kept on a body that went elsewhere (`hollowed`).

These nine kinds are finer than the six statuses of the command-line contract (cli.md):
`Resolution.contract_status` says which of the six each one is reported as.
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass, field

from evaltools.retrieval.code.chunk_id import ChunkId, parse_chunk_id
from evaltools.retrieval.gold.reanchor.lookup import Entry, FileEntries, Lookup
from evaltools.retrieval.gold.reanchor.scope import file_stem
from evaltools.retrieval.gold.rules import (
    GOLD_AMBIGUOUS,
    GOLD_COPIED,
    GOLD_FILE_RENAMED,
    GOLD_HOLLOWED,
    GOLD_MISSING_FILE,
    GOLD_MISSING_SYMBOL,
    GOLD_MOVED,
    GOLD_RELOCATED,
    GOLD_WINDOW_MISSING_LINES,
)

MAX_CANDIDATES = 5


class Status(str, enum.Enum):
    OK = "ok"
    MOVED = "moved"
    RENAMED_FILE = "renamed_file"
    MISSING_SYMBOL = "missing_symbol"
    MISSING_LINES = "missing_lines"  # a window (no symbol) past its file's end
    MISSING_FILE = "missing_file"
    AMBIGUOUS = "ambiguous"
    RELOCATED = "relocated"
    COPIED = "copied"
    HOLLOWED = "hollowed"

    @property
    def repairable(self) -> bool:
        return self in (Status.MOVED, Status.RENAMED_FILE, Status.RELOCATED)

    @property
    def missing(self) -> bool:
        """Nothing fits: a person chooses among candidates found by name, lines or body."""
        return self in (Status.MISSING_SYMBOL, Status.MISSING_LINES, Status.MISSING_FILE)


# The statuses `gold check --format json` may print (cli.md: "What is written here is fixed").
CONTRACT_STATUSES = (
    Status.OK,
    Status.MOVED,
    Status.RENAMED_FILE,
    Status.MISSING_SYMBOL,
    Status.MISSING_FILE,
    Status.AMBIGUOUS,
)


RULE_OF_STATUS = {
    Status.MOVED: GOLD_MOVED,
    Status.RENAMED_FILE: GOLD_FILE_RENAMED,
    Status.MISSING_SYMBOL: GOLD_MISSING_SYMBOL,
    Status.MISSING_LINES: GOLD_WINDOW_MISSING_LINES,
    Status.MISSING_FILE: GOLD_MISSING_FILE,
    Status.AMBIGUOUS: GOLD_AMBIGUOUS,
    Status.RELOCATED: GOLD_RELOCATED,
    Status.COPIED: GOLD_COPIED,
    Status.HOLLOWED: GOLD_HOLLOWED,
}


@dataclass(frozen=True)
class GoldRef:
    """A gold ID to resolve, with the record's `revision` (narrows rename search) if any."""

    chunk_id: str
    revision: str | None = None


# A revision and a path: where a gold ID was.
Place = tuple[str | None, str]


@dataclass(frozen=True)
class Resolution:
    status: Status
    new_chunk_id: str | None = None
    candidates: tuple[str, ...] = ()
    detail: str = ""  # what was found, for the message
    # Why the verdict may be wrong: it rests on git history that the clone does not have.
    caveat: str | None = None
    # The ID's own file is gone from the tree: a relocated ID then reports `missing_file`.
    file_gone: bool = False
    # Why a repair is right, in a few words (`same name in the renamed file`): shown with
    # every re-anchored ID, where a person decides whether to trust it. Not part of the
    # verdict: two resolutions to one place are equal whatever words explain them.
    evidence: str | None = field(default=None, compare=False)

    @property
    def contract_status(self) -> Status:
        """The one of the six contract statuses this verdict is: a relocated ID is by name
        missing (so a script that only knows the six never takes it for a plain move); a
        hollowed or copied one has several right places, so it is ambiguous; a window past
        its file's end is missing what it names, as a symbol would be."""
        if self.status is Status.RELOCATED:
            return Status.MISSING_FILE if self.file_gone else Status.MISSING_SYMBOL
        if self.status in (Status.COPIED, Status.HOLLOWED):
            return Status.AMBIGUOUS
        if self.status is Status.MISSING_LINES:
            return Status.MISSING_SYMBOL
        return self.status


def match_in_file(cid: ChunkId, found: FileEntries, written: str | None = None) -> Resolution:
    """`written`: the ID as the set spells it, when it differs from `str(cid)` (`04-6`)."""
    if cid.symbol is None:
        result = _match_window(cid, found)
        if result.status is Status.OK and written not in (None, str(cid)):
            return Resolution(
                Status.MOVED,
                str(cid),
                detail="the span is spelled differently",
                evidence="the same lines",
            )
        return result
    same = [e for e in found.entries if e.name == cid.symbol]
    exact = [e for e in same if (e.start, e.end) == (cid.start, cid.end)]
    if exact and exact[0].chunk_id == (written or str(cid)):
        return Resolution(Status.OK)
    if len(exact) == 1 or len(same) == 1:
        entry = exact[0] if exact else same[0]
        why = "the same name and span" if exact else "the same name, once in the file"
        return Resolution(Status.MOVED, entry.chunk_id, detail=_at(cid.symbol, entry), evidence=why)
    if same:
        return Resolution(
            Status.AMBIGUOUS,
            candidates=tuple(e.chunk_id for e in same),
            detail=f"{len(same)} definitions of `{cid.symbol}` in {cid.path} "
            f"(lines {', '.join(f'{e.start}-{e.end}' for e in same)})",
        )
    why = f" ({found.note})" if found.note else ""
    return Resolution(Status.MISSING_SYMBOL, detail=f"{cid.path} defines no `{cid.symbol}`{why}")


def _match_window(cid: ChunkId, found: FileEntries) -> Resolution:
    """An ID without a symbol names lines: they exist, or (in an index) a chunk has them."""
    if found.line_count is not None:
        if cid.end <= found.line_count:
            return Resolution(Status.OK)
        return Resolution(
            Status.MISSING_LINES,
            detail=f"{cid.path} has {found.line_count} lines, fewer than the span's end {cid.end}",
        )
    same = [e for e in found.entries if e.name is None and (e.start, e.end) == (cid.start, cid.end)]
    if len(same) == 1:
        return Resolution(
            Status.MOVED,
            same[0].chunk_id,
            detail=f"the index calls it {same[0].chunk_id}",
            evidence="the index's chunk of the same lines",
        )
    return Resolution(
        Status.MISSING_LINES,
        detail=f"the index has no chunk of {cid.path} at lines {cid.start}-{cid.end}",
    )


def match_renamed(cid: ChunkId, targets: Sequence[str], lookup: Lookup) -> Resolution:
    hits = _named_in(cid, targets, lookup, retyped=False)
    # A file that kept the name outranks one that renamed its type with the file (git
    # paired hamcrest's `IsCollectionContainingTest.java` with it and with a copy).
    retyped = not hits
    if retyped:
        hits = _named_in(cid, targets, lookup, retyped=True)
    renamed = ", ".join(targets)
    if len(hits) == 1:
        type_now = (parse_chunk_id(hits[0]).symbol or "").partition(".")[0]
        evidence = (
            f"same name under `{type_now}`, the type named for its renamed file"
            if retyped
            else "same name in the renamed file"
        )
        return Resolution(
            Status.RENAMED_FILE,
            hits[0],
            detail=f"{cid.path} was renamed to {renamed}",
            evidence=evidence,
        )
    if hits:
        return Resolution(
            Status.AMBIGUOUS,
            candidates=tuple(hits),
            detail=f"{cid.path} was renamed to {renamed}, where {len(hits)} definitions fit",
        )
    if targets:
        what = f"`{cid.symbol}`" if cid.symbol else f"lines {cid.start}-{cid.end}"
        return Resolution(
            Status.MISSING_SYMBOL if cid.symbol else Status.MISSING_LINES,
            detail=f"{cid.path} was renamed to {renamed}, which has no {what}",
        )
    return Resolution(Status.MISSING_FILE, detail=lookup.absent(cid.path))


def _named_in(cid: ChunkId, targets: Sequence[str], lookup: Lookup, *, retyped: bool) -> list[str]:
    """The places of `cid`'s name in the files `targets`, or (`retyped`) of its name under
    the type renamed with each file (`in_renamed_file`)."""
    hits: list[str] = []
    for path in targets:
        found = lookup.get(path)
        if found is None:
            continue
        moved = in_renamed_file(cid, path, found.entries) if retyped else cid.with_path(path)
        if retyped and (moved.symbol == cid.symbol or _beside(path, cid.path, lookup)):
            continue
        result = match_in_file(moved, found)
        if result.status is Status.OK:
            hits.append(str(moved))
        elif result.status is Status.MOVED and result.new_chunk_id is not None:
            hits.append(result.new_chunk_id)
        else:
            hits.extend(result.candidates)
    return hits


def _beside(path: str, old_path: str, lookup: Lookup) -> bool:
    """Whether a file named as `old_path` stands in `path`'s folder: the old type is still
    there, by its file's name (hamcrest 2.1's `IsCollectionContainingTest.java` beside
    `IsIterableContainingTest.java`, the file git paired with it)."""
    folder, name = path.rpartition("/")[0], old_path.rpartition("/")[2]
    return lookup.get(f"{folder}/{name}" if folder else name) is not None


def in_renamed_file(cid: ChunkId, path: str, entries: Sequence[Entry]) -> ChunkId:
    """`cid` in the file `path` it was renamed or moved to; under the file's new name when
    its outer type is named for its file and the file no longer defines the old name, as
    Java requires (`FooTestCase.testX` in `FooTest.java` is `FooTest.testX`). A function
    named as its module keeps its name."""
    old, new = file_stem(cid.path), file_stem(path)
    head, dot, rest = (cid.symbol or "").partition(".")
    renamed = f"{new}{dot}{rest}"
    names = {e.name for e in entries}
    if not old or head != old or new == old or head in names or renamed not in names:
        return cid.with_path(path)
    return ChunkId(path, cid.start, cid.end, renamed)


def leaf_of(symbol: str) -> str:
    return symbol.rpartition(".")[2]


def _at(symbol: str, entry: Entry) -> str:
    return f"`{symbol}` is now at lines {entry.start}-{entry.end}"


def resolved(cid: ChunkId, chunk_id: str, why: str, evidence: str) -> Resolution:
    """The repair of `cid` to `chunk_id` (`moved` within its file under its name, else
    `relocated`), saying why (`why`, or nothing) and on what evidence."""
    new = parse_chunk_id(chunk_id)
    status = Status.MOVED if new.path == cid.path and new.symbol == cid.symbol else Status.RELOCATED
    detail = f"{why}: it is now {chunk_id}" if why else f"it is now {chunk_id}"
    return Resolution(status, chunk_id, detail=detail, evidence=evidence)
