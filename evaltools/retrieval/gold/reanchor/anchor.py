"""Resolving every gold ID of a check: each one's own file first (`resolve`), then renamed
files, then where its body went (`follow`), and for what stays unresolved, the candidates a
person chooses from, most likely first."""

from __future__ import annotations

import dataclasses
import difflib
from collections.abc import Iterable, Iterator, Mapping

from evaltools.retrieval.code.chunk_id import ChunkId, parse_chunk_id
from evaltools.retrieval.gold.reanchor.history.bodies import BODY_MARGIN, HOLLOW_BELOW, NEAR_BODY
from evaltools.retrieval.gold.reanchor.history.follow import follow_all
from evaltools.retrieval.gold.reanchor.history.hollow import declarations_hollowed
from evaltools.retrieval.gold.reanchor.history.old_defs import kept, old_body
from evaltools.retrieval.gold.reanchor.lookup import Entry, FileEntries, Lookup
from evaltools.retrieval.gold.reanchor.modules import inline_module_moved
from evaltools.retrieval.gold.reanchor.plain.collisions import settle_collisions
from evaltools.retrieval.gold.reanchor.plain.file_renames import folder_changes, suffix_changes
from evaltools.retrieval.gold.reanchor.resolve import (
    MAX_CANDIDATES,
    GoldRef,
    Place,
    Resolution,
    Status,
    leaf_of,
    match_in_file,
    match_renamed,
)
from evaltools.retrieval.gold.reanchor.scope import scope_of
from evaltools.retrieval.gold.reanchor.similarity import by_similarity


def resolve_all(
    refs: Iterable[GoldRef], lookup: Lookup, parsed: Mapping[str, ChunkId] | None = None
) -> dict[GoldRef, Resolution]:
    """Resolve every gold ID (ChunkIdError for one that is not valid: callers report those
    first); each referenced file is parsed once. `parsed`: chunk IDs the caller parsed
    already (when it checked them), not parsed again."""
    known = parsed or {}
    ids = {ref: known.get(ref.chunk_id) or parse_chunk_id(ref.chunk_id) for ref in refs}
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
            result = match_in_file(cid, entries, ref.chunk_id)
            if result.status is Status.MISSING_SYMBOL:
                result = inline_module_moved(cid, lookup) or result
            results[ref] = result
    results |= _in_renamed_files(gone, lookup)
    follow_all(ids, results, lookup)
    declarations_hollowed(ids, results, lookup)
    settle_collisions(ids, results, lookup)
    add_candidates(ids, results, lookup)
    for ref in gone:
        results[ref] = dataclasses.replace(results[ref], file_gone=True)
    for ref, cid in ids.items():
        # Only an ID left to a person wants the history it lacks (a symbol gone from its
        # file too); one resolved without it needs none.
        if results[ref].status is Status.OK or results[ref].status.repairable:
            results[ref] = dataclasses.replace(results[ref], caveat=None)
        elif ref not in gone and results[ref].status is Status.MISSING_SYMBOL:
            caveat = lookup.history_gap(cid.path, ref.revision)
            results[ref] = dataclasses.replace(results[ref], caveat=caveat)
    lookup.save()
    return results


def _in_renamed_files(gone: dict[GoldRef, ChunkId], lookup: Lookup) -> dict[GoldRef, Resolution]:
    """The verdict on each ID whose file is gone, by its name in the files git renamed it
    to, or in the one its path alone pairs it with."""
    results: dict[GoldRef, Resolution] = {}
    targets = {ref: lookup.renamed(cid.path, ref.revision) for ref, cid in gone.items()}
    unpaired = _renamed_unseen(gone, targets, lookup)
    targets |= {ref: [path] for ref, (path, _, _) in unpaired.items()}
    lookup.load({path for paths in targets.values() for path in paths})
    for ref, cid in gone.items():
        caveat = lookup.history_gap(cid.path, ref.revision)
        result = match_renamed(cid, targets[ref], lookup)
        if ref in unpaired:
            path, how, weighed = unpaired[ref]
            assert ref.revision is not None  # a pairing needs the revision's listing
            if not weighed:
                # What follows the ID's name (its type renamed, its spelling changed) then
                # searches that file as one git paired. Not a pairing weighed for each ID:
                # one ID's pass would open the file to the others it failed.
                lookup.pair(cid.path, ref.revision, path)
            elif not _holds(cid, ref, result.new_chunk_id, lookup):
                result = match_renamed(cid, [], lookup)
            if result.new_chunk_id is not None:
                evidence = f"same name in {path}, its file {how}"
                result = dataclasses.replace(result, evidence=evidence)
        if result.status.missing:
            result = inline_module_moved(cid, lookup) or result
        results[ref] = dataclasses.replace(result, caveat=caveat)
    return results


def _holds(cid: ChunkId, ref: GoldRef, chunk_id: str | None, lookup: Lookup) -> bool:
    """The one name found in a file its path alone paired with the ID's is the ID's: it
    kept at least half of the old body, and no definition elsewhere is more alike (a
    function split into a module of its own, a demo's variant of it left at the old
    path's end)."""
    old = old_body(cid, ref, lookup)
    if chunk_id is None or old is None:
        return False
    score = kept(old, chunk_id, lookup)
    if score == 1.0:
        return True  # nothing elsewhere can be more alike
    if score < HOLLOW_BELOW:
        return False
    index = lookup.bodies()
    if index is None:
        return False
    here = parse_chunk_id(chunk_id).path
    if any(body.path != here for body in index.exact(old)):
        return False
    found, complete = index.near(old, score, complete=True)
    return complete and not any(alike > score and body.path != here for alike, body in found)


def _renamed_unseen(
    gone: Mapping[GoldRef, ChunkId], targets: Mapping[GoldRef, list[str]], lookup: Lookup
) -> dict[GoldRef, tuple[str, str, bool]]:
    """Gone files git saw renamed nowhere, too changed for git to pair them, in a file new
    since the revision: under another extension of their language (date-fns 2.29: its
    locales' `index.js` rewritten as `index.ts`; `suffix_changes`, the rename a plain
    tree's set shows), else under folders added or taken at the start of their path
    (`folder_changes`), the history saying which files were there: the file, how its
    path changed, and whether the name found there must have kept half of the body (a
    path with folders added or taken is a weaker sign than a stem kept whole), for each
    ID."""
    known: set[Place] = set()
    there: set[Place] = set()
    listed: set[tuple[str, int]] = set()  # a repository's listing, read once a revision
    for ref, cid in gone.items():
        if cid.symbol is None or targets[ref] or not ref.revision:
            continue  # a span of lines says nothing in a file git could not pair
        # An unknown revision lists nothing: nothing then says which files are new.
        old = lookup.old_paths(cid.path, ref.revision)
        if cid.path in old:
            known.add((ref.revision, cid.path))
            if (ref.revision, id(old)) not in listed:
                listed.add((ref.revision, id(old)))
                there.update((ref.revision, path) for path in old)
    changed = {
        place: (path, f"under another extension ({how})", False)
        for place, (path, how) in suffix_changes(known, there, lookup).items()
    }
    moved = folder_changes(known.difference(changed), there, lookup)
    changed |= {place: (path, f"moved {how}", True) for place, (path, how) in moved.items()}
    return {
        ref: changed[place]
        for ref, cid in gone.items()
        if (place := (ref.revision, cid.path)) in changed
    }


def add_candidates(
    ids: dict[GoldRef, ChunkId], results: dict[GoldRef, Resolution], lookup: Lookup
) -> None:
    """Candidates for IDs a person must resolve: similar names, the same name elsewhere."""
    open_refs = [ref for ref, result in results.items() if result.status.missing]
    if not open_refs:
        return
    leaves = {leaf_of(symbol) for ref in open_refs if (symbol := ids[ref].symbol)}
    elsewhere: dict[str, list[Entry]] = {}
    for _path, entry in lookup.holding(leaves) if leaves else []:
        if entry.leaf is not None:
            elsewhere.setdefault(entry.leaf, []).append(entry)
    by_basename: dict[str, list[str]] = {}
    for path in lookup.paths():
        by_basename.setdefault(path.rpartition("/")[2], []).append(path)
    for ref in open_refs:
        cid, result = ids[ref], results[ref]
        if result.status is not Status.MISSING_FILE:
            exists = lookup.get(cid.path) is not None
            places = [cid.path] if exists else lookup.renamed(cid.path, ref.revision)
        else:
            places = by_basename.get(cid.path.rpartition("/")[2], [])
        local = [(p, found) for p in places if (found := lookup.get(p)) is not None]
        tiers: list[Iterable[str]]
        if cid.symbol is None:
            tiers = [_windows(cid, path, found) for path, found in local]
        else:
            tiers = _symbol_tiers(cid, cid.symbol, local, elsewhere.get(leaf_of(cid.symbol), []))
        similar, complete = _body_candidates(cid, ref, lookup)
        # Bodies lead, unless they are a sample of thousands alike (generated code).
        tiers.insert(0 if complete else len(tiers), similar)
        results[ref] = dataclasses.replace(
            result, new_chunk_id=None, candidates=_first_distinct(tiers, ref.chunk_id)
        )


def _first_distinct(tiers: Iterable[Iterable[str]], written: str) -> tuple[str, ...]:
    """The first MAX_CANDIDATES distinct IDs of the tiers, in order, but `written`; a tier
    is read only as far as needed (the similarity ranking is lazy)."""
    ranked: dict[str, None] = {}
    for tier in tiers:
        for chunk_id in tier:
            if chunk_id != written:
                ranked[chunk_id] = None
                if len(ranked) == MAX_CANDIDATES:
                    return tuple(ranked)
    return tuple(ranked)


def _name(entry: Entry) -> str:
    return entry.name or ""


def _symbol_tiers(
    cid: ChunkId, symbol: str, local: list[tuple[str, FileEntries]], elsewhere: list[Entry]
) -> list[Iterable[str]]:
    """Most likely first: the same method name in the file (renamed class), the same
    qualified name in another file (moved), the same last name elsewhere (files nearer the
    old path first), what now covers the old lines (renamed in place), similar names in
    the file (renamed);
    for an index, its nearest chunks. A shared `Class.` prefix makes every method of a
    class close by string distance, so that tier comes after the last-name ones."""
    here = [e for _, found in local for e in found.entries if e.name is not None]
    leaf = leaf_of(symbol)
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
    # The same name in the ID's own package or module first: where the language looks.
    scope = scope_of(cid.path)
    namesakes = sorted(
        (e for e in elsewhere if e.name == symbol),
        key=lambda e: scope_of(e.path) != scope,
    )
    return [
        [e.chunk_id for e in here if e.leaf == leaf],
        [e.chunk_id for e in namesakes],
        (e.chunk_id for e in _by_similarity(cid.path, symbol, others)),
        [e.chunk_id for e in innermost],
        [names[n].chunk_id for n in close],
        nearest,
    ]


def _by_similarity(path: str, symbol: str, entries: list[Entry]) -> Iterator[Entry]:
    """`TokenService.store` before `IndexService.store`, and among equals a file nearer
    `path` (`app.py` -> `core/app.py`) first; common names are capped. Lazy: the ranking
    costs only as much as the caller reads."""
    folder, _, name = path.rpartition("/")

    def nearness(entry: Entry) -> int:
        other = entry.path
        return int(other.rpartition("/")[2] == name) + int(other.startswith(folder))

    # by_similarity keeps input order among equal ratios: nearer files first.
    return by_similarity(symbol, sorted(entries[:200], key=nearness, reverse=True), _name)


def _windows(cid: ChunkId, path: str, found: FileEntries) -> list[str]:
    if found.line_count is None:
        return [e.chunk_id for e in _nearest(cid, found.entries)]
    return [] if cid.end > found.line_count else [str(cid.with_path(path))]


def _nearest(cid: ChunkId, entries: Iterable[Entry]) -> list[Entry]:
    """Chunks by distance from the old span (0 when they overlap): an index's neighbours."""

    def distance(entry: Entry) -> int:
        return max(0, entry.start - cid.end, cid.start - entry.end)

    return sorted(entries, key=lambda e: (distance(e), e.start))[:MAX_CANDIDATES]


def _body_candidates(cid: ChunkId, ref: GoldRef, lookup: Lookup) -> tuple[Iterable[str], bool]:
    """Definitions whose bodies resemble the ID's old one, most similar first, and whether
    the search is complete. An incomplete one (a sample of many alike: weaker than names)
    is searched only when read: its tier comes last, often past the candidates kept."""
    if cid.symbol is None:
        return [], True
    old = old_body(cid, ref, lookup)
    index = lookup.bodies() if old is not None else None
    if old is None or index is None:
        return [], True
    # What `follow._by_body` asked (cached): cut short at its floor, it is cut short at a lower one.
    if not index.near(old, NEAR_BODY - BODY_MARGIN, complete=True)[1]:
        return (b.chunk_id for _, b in index.near(old)[0]), False
    found, complete = index.near(old)
    return [b.chunk_id for _, b in found], complete
