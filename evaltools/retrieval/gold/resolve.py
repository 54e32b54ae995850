"""Resolving gold chunk IDs against a code tree or an index, and what can be repaired safely.

A repair is safe when the evidence names exactly one place: the same qualified name in the
same file (`moved`), or in the file git says the old one was renamed (or copied) to
(`renamed_file`), or the one place its body went (`relocated`, see `follow`). Everything
else is left to a person, with candidates: several fits (`ambiguous`), one body in several
places (`copied`), a name kept on a body that went elsewhere (`hollowed`).
"""

from __future__ import annotations

import dataclasses
import difflib
import enum
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from evaltools.catalogue import rule
from evaltools.retrieval.code.chunk_id import ChunkId, parse_chunk_id
from evaltools.retrieval.sources.lookup import Entry, FileEntries, Lookup

MAX_CANDIDATES = 5


class Status(str, enum.Enum):
    OK = "ok"
    MOVED = "moved"
    RENAMED_FILE = "renamed_file"
    MISSING_SYMBOL = "missing_symbol"
    MISSING_FILE = "missing_file"
    AMBIGUOUS = "ambiguous"
    RELOCATED = "relocated"
    COPIED = "copied"
    HOLLOWED = "hollowed"

    @property
    def repairable(self) -> bool:
        return self in (Status.MOVED, Status.RENAMED_FILE, Status.RELOCATED)


GOLD_MOVED = rule("RG001")
GOLD_FILE_RENAMED = rule("RG002")
GOLD_MISSING_SYMBOL = rule("RG003")
GOLD_MISSING_FILE = rule("RG004")
GOLD_AMBIGUOUS = rule("RG005")
INVALID_CHUNK_ID = rule("RG006")
UNREADABLE_RECORD = rule("RG008")
GOLD_RELOCATED = rule("RG009")
GOLD_COPIED = rule("RG010")
GOLD_HOLLOWED = rule("RG011")
RULE_OF_STATUS = {
    Status.MOVED: GOLD_MOVED,
    Status.RENAMED_FILE: GOLD_FILE_RENAMED,
    Status.MISSING_SYMBOL: GOLD_MISSING_SYMBOL,
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


@dataclass(frozen=True)
class Resolution:
    status: Status
    new_chunk_id: str | None = None
    candidates: tuple[str, ...] = ()
    detail: str = ""  # what was found, for the message
    # Why the verdict may be wrong: it rests on git history that the clone does not have.
    caveat: str | None = None


def resolve_all(refs: Iterable[GoldRef], lookup: Lookup) -> dict[GoldRef, Resolution]:
    """Resolve every gold ID (ChunkIdError for one that is not valid: callers report those
    first); each referenced file is parsed once."""
    ids = {ref: parse_chunk_id(ref.chunk_id) for ref in refs}
    results: dict[GoldRef, Resolution] = {}
    lookup.load({cid.path for ref, cid in ids.items() if not lookup.known(ref.chunk_id)})
    gone: dict[GoldRef, ChunkId] = {}
    for ref, cid in ids.items():
        if lookup.known(ref.chunk_id):
            results[ref] = Resolution(Status.OK)
            continue
        entries = lookup.get(cid.path)
        if entries is None:
            gone[ref] = cid
        else:
            results[ref] = match_in_file(cid, entries, ref.chunk_id)
    targets = {ref: lookup.renamed(cid.path, ref.revision) for ref, cid in gone.items()}
    lookup.load({path for paths in targets.values() for path in paths})
    for ref, cid in gone.items():
        caveat = lookup.history_gap(cid.path, ref.revision)
        results[ref] = dataclasses.replace(match_renamed(cid, targets[ref], lookup), caveat=caveat)
    from evaltools.retrieval.gold.follow import follow_all

    follow_all(ids, results, lookup)
    add_candidates(ids, results, lookup)
    return results


def match_in_file(cid: ChunkId, found: FileEntries, written: str | None = None) -> Resolution:
    """`written`: the ID as the set spells it, when it differs from `str(cid)` (`04-6`)."""
    if cid.symbol is None:
        result = _match_window(cid, found)
        if result.status is Status.OK and written not in (None, str(cid)):
            return Resolution(Status.MOVED, str(cid), detail="the span is spelled differently")
        return result
    same = [e for e in found.entries if e.name == cid.symbol]
    exact = [e for e in same if (e.start, e.end) == (cid.start, cid.end)]
    if exact and exact[0].chunk_id == (written or str(cid)):
        return Resolution(Status.OK)
    if len(exact) == 1 or len(same) == 1:
        entry = exact[0] if exact else same[0]
        return Resolution(Status.MOVED, entry.chunk_id, detail=_at(cid.symbol, entry))
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
            Status.MISSING_SYMBOL,
            detail=f"{cid.path} has {found.line_count} lines, fewer than the span's end {cid.end}",
        )
    same = [e for e in found.entries if e.name is None and (e.start, e.end) == (cid.start, cid.end)]
    if len(same) == 1:
        return Resolution(
            Status.MOVED, same[0].chunk_id, detail=f"the index calls it {same[0].chunk_id}"
        )
    return Resolution(
        Status.MISSING_SYMBOL,
        detail=f"the index has no chunk of {cid.path} at lines {cid.start}-{cid.end}",
    )


def match_renamed(cid: ChunkId, targets: Sequence[str], lookup: Lookup) -> Resolution:
    hits: list[str] = []
    for path in targets:
        found = lookup.get(path)
        if found is None:
            continue
        moved = cid.with_path(path)
        result = match_in_file(moved, found)
        if result.status is Status.OK:
            hits.append(str(moved))
        elif result.status is Status.MOVED and result.new_chunk_id is not None:
            hits.append(result.new_chunk_id)
        else:
            hits.extend(result.candidates)
    renamed = ", ".join(targets)
    if len(hits) == 1:
        return Resolution(
            Status.RENAMED_FILE, hits[0], detail=f"{cid.path} was renamed to {renamed}"
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
            Status.MISSING_SYMBOL,
            detail=f"{cid.path} was renamed to {renamed}, which has no {what}",
        )
    return Resolution(Status.MISSING_FILE, detail=lookup.absent(cid.path))


def _leaf(symbol: str) -> str:
    return symbol.rpartition(".")[2]


def _at(symbol: str, entry: Entry) -> str:
    return f"`{symbol}` is now at lines {entry.start}-{entry.end}"


def add_candidates(
    ids: dict[GoldRef, ChunkId], results: dict[GoldRef, Resolution], lookup: Lookup
) -> None:
    """Candidates for IDs a person must resolve: similar names, the same name elsewhere."""
    from evaltools.retrieval.gold.follow import body_candidates

    open_refs = [
        ref
        for ref, result in results.items()
        if result.status in (Status.MISSING_SYMBOL, Status.MISSING_FILE)
    ]
    if not open_refs:
        return
    leaves = {_leaf(symbol) for ref in open_refs if (symbol := ids[ref].symbol)}
    elsewhere: dict[str, list[Entry]] = {}
    for _path, entry in lookup.holding(leaves) if leaves else []:
        if entry.leaf is not None:
            elsewhere.setdefault(entry.leaf, []).append(entry)
    by_basename: dict[str, list[str]] = {}
    for path in lookup.paths():
        by_basename.setdefault(path.rpartition("/")[2], []).append(path)
    for ref in open_refs:
        cid, result = ids[ref], results[ref]
        if result.status is Status.MISSING_SYMBOL:
            exists = lookup.get(cid.path) is not None
            places = [cid.path] if exists else lookup.renamed(cid.path, ref.revision)
        else:
            places = by_basename.get(cid.path.rpartition("/")[2], [])
        local = [(p, found) for p in places if (found := lookup.get(p)) is not None]
        if cid.symbol is None:
            tiers = [_windows(cid, path, found) for path, found in local]
        else:
            tiers = _symbol_tiers(cid, cid.symbol, local, elsewhere.get(_leaf(cid.symbol), []))
        tiers.insert(0, body_candidates(cid, ref, lookup))
        ranked = dict.fromkeys(c for tier in tiers for c in tier if c != ref.chunk_id)
        results[ref] = dataclasses.replace(
            result, new_chunk_id=None, candidates=tuple(list(ranked)[:MAX_CANDIDATES])
        )


def _symbol_tiers(
    cid: ChunkId, symbol: str, local: list[tuple[str, FileEntries]], elsewhere: list[Entry]
) -> list[list[str]]:
    """Most likely first: the same method name in the file (renamed class), the same
    qualified name in another file (moved), the same last name elsewhere (files nearer the
    old path first), what now covers the old lines (renamed in place), similar names in
    the file (renamed);
    for an index, its nearest chunks. A shared `Class.` prefix makes every method of a
    class close by string distance, so that tier comes after the last-name ones."""
    here = [e for _, found in local for e in found.entries if e.name is not None]
    leaf = _leaf(symbol)
    # A definition that encloses the symbol (`Store` for `Store.get`) is not what it became.
    names = {e.name: e for e in here if e.name and not symbol.startswith(e.name + ".")}
    close = difflib.get_close_matches(symbol, list(names), n=MAX_CANDIDATES, cutoff=0.6)
    nearest = [
        e.chunk_id
        for _, found in local
        if found.line_count is None
        for e in _nearest(cid, found.entries)
    ]
    # A definition renamed in place still covers (some of) the old lines.
    overlapping = [e for e in names.values() if e.start <= cid.end and cid.start <= e.end]
    innermost = sorted(overlapping, key=lambda e: e.end - e.start)[:2]
    others = [e for e in elsewhere if e.name != symbol]
    return [
        [e.chunk_id for e in here if e.leaf == leaf],
        [e.chunk_id for e in elsewhere if e.name == symbol],
        [e.chunk_id for e in _by_similarity(cid.path, symbol, others)],
        [e.chunk_id for e in innermost],
        [names[n].chunk_id for n in close],
        nearest,
    ]


def _by_similarity(path: str, symbol: str, entries: list[Entry]) -> list[Entry]:
    """`TokenService.store` before `IndexService.store`, and among equals a file nearer
    `path` (`app.py` -> `core/app.py`) first; common names are capped."""

    matcher = difflib.SequenceMatcher(None, b=symbol)  # `b` is analysed once, reused
    folder, _, name = path.rpartition("/")

    def score(entry: Entry) -> tuple[float, int]:
        matcher.set_seq1(entry.name or "")
        other = entry.chunk_id.rsplit(":", 2)[0]
        near = int(other.rpartition("/")[2] == name) + int(other.startswith(folder))
        return matcher.ratio(), near

    return sorted(entries[:200], key=score, reverse=True)


def _windows(cid: ChunkId, path: str, found: FileEntries) -> list[str]:
    if found.line_count is None:
        return [e.chunk_id for e in _nearest(cid, found.entries)]
    return [] if cid.end > found.line_count else [str(cid.with_path(path))]


def _nearest(cid: ChunkId, entries: Iterable[Entry]) -> list[Entry]:
    """Chunks by distance from the old span (0 when they overlap): an index's neighbours."""

    def distance(entry: Entry) -> int:
        return max(0, entry.start - cid.end, cid.start - entry.end)

    return sorted(entries, key=lambda e: (distance(e), e.start))[:MAX_CANDIDATES]
