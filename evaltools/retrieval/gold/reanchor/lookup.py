"""Where gold IDs are resolved: a parsed code tree (the index's chunk list is `metas_lookup`)."""

from __future__ import annotations

from collections.abc import Collection, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, NamedTuple, Protocol

from evaltools.fileio import read_regular
from evaltools.retrieval.code.parsing import FileParser, ParsedFile
from evaltools.retrieval.code.symbols import is_supported
from evaltools.retrieval.sources.source import CodeTree

if TYPE_CHECKING:
    from evaltools.retrieval.code.cache_store import CacheStore
    from evaltools.retrieval.gold.cache.body_cache import RememberedSearch
    from evaltools.retrieval.gold.reanchor.history.bodies import Body, BodyIndex, BodySearch

# A missing file or symbol triggers a scan of the tree for files holding it; past this
# many files the scan would cost more than the candidates are worth.
MAX_SCAN_FILES = 50_000


# Name-only evidence (no old body): the new span's length within this factor of the old.
NAME_LENGTH_FACTOR = 2.0


def about_as_long(span: tuple[int, int], other: tuple[int, int], factor: float) -> bool:
    """Two spans (first and last lines) within `factor` of each other's length (a one-line
    alias is not the 300-line type that took its name)."""
    one, two = span[1] - span[0] + 1, other[1] - other[0] + 1
    return max(one, two) <= factor * min(one, two)


class Entry(NamedTuple):
    """A definition (or, from metas, a chunk) and the chunk ID that names it."""

    name: str | None
    start: int
    end: int
    chunk_id: str

    @property
    def leaf(self) -> str | None:
        return None if self.name is None else self.name.rpartition(".")[2]

    @property
    def path(self) -> str:
        return self.chunk_id.rsplit(":", 2)[0]

    def about_as_long(self, start: int, end: int, factor: float) -> bool:
        return about_as_long((start, end), (self.start, self.end), factor)


@dataclass(frozen=True)
class FileEntries:
    entries: tuple[Entry, ...]
    line_count: int | None  # None: not known (metas)
    note: str | None = None  # why the definitions are not known (unsupported language)


class Lookup(Protocol):
    def known(self, chunk_id: str) -> bool:
        """The ID is resolved as it is (it is in the index)."""

    def load(self, paths: Collection[str]) -> None:
        """Make `get` cheap for these paths (parse them, in parallel)."""

    def get(self, path: str) -> FileEntries | None:
        """The file's entries, None when there is no such file."""

    def renamed(self, path: str, since: str | None) -> list[str]:
        """Existing paths that git rename evidence says `path` became."""

    def history_gap(self, path: str, since: str | None) -> str | None:
        """Why the rename evidence for `path` may be incomplete (a shallow clone), or None."""

    def paths(self) -> list[str]:
        """Every path entries can be looked up for."""

    def holding(self, leaves: Collection[str]) -> list[tuple[str, Entry]]:
        """(path, entry) for every entry anywhere whose last name component is in `leaves`."""

    def absent(self, path: str) -> str:
        """Why `path` (which `get` does not know, and no rename explains) resolves nothing."""

    def moved_to(self, path: str, since: str | None) -> list[str]:
        """Existing paths git says `path` was renamed or copied to, whether it exists or not
        (a file moved into a subpackage, its old path re-created as a thin shell)."""

    def renamed_from(self, path: str, since: str, *, copies: bool = True) -> list[str]:
        """The paths git says became `path` since the revision `since` (renamed, or with
        `copies` also copied)."""

    def pair(self, path: str, since: str, new: str) -> None:
        """`path` became `new` since `since`, though git saw no rename (too rewritten; its
        path told): `moved_to` says so from now on, as it says git's."""

    def paired(self, path: str, since: str | None) -> list[str]:
        """The files `pair` said `path` became (not git)."""

    def old_paths(self, path: str, since: str) -> list[str]:
        """Every file of `path`'s repository at the revision `since` (none when unknown)."""

    def old_text(self, path: str, since: str | None) -> bytes | None:
        """The file at the revision the gold was verified against, None when unknown."""

    def text(self, path: str) -> bytes | None:
        """The file's bytes in the tree checked, None when unknown (metas, no file)."""

    def bodies(self) -> BodySearch | None:
        """Every definition of the tree by body (built once), None when bodies are unknown."""

    def read_ahead(self, paths: Collection[str], old: Collection[tuple[str, str]]) -> None:
        """Make `text` of these paths, and `old_text` of these (path, revision) pairs, cheap:
        read them in one batch each (git answers one request at a time otherwise)."""

    def save(self) -> None:
        """Keep what this run computed that the next one can use (body searches)."""


def _entries(path: str, parsed: ParsedFile | None) -> FileEntries | None:
    if parsed is None:
        return None
    # Tuple unpacking, not attribute access: a warm gold check does this for every
    # definition of every referenced file.
    entries = tuple(
        [
            Entry(name, start, end, f"{path}:{start}-{end}:{name}")
            for name, start, end in parsed.definitions
        ]
    )
    return FileEntries(entries, parsed.line_count, parsed.error)


class TreeLookup:
    """Definitions parsed from a code tree, each file once; with a `cache`, parsed files
    are looked up in it first (see `definition_cache`)."""

    def __init__(self, tree: CodeTree, pool: FileParser, cache: CacheStore | None = None) -> None:
        self.tree = tree
        self.pool = pool
        self.cache = cache
        self._cache: dict[str, FileEntries | None] = {}
        self._outside: dict[str, str | None] = {}
        self._texts: dict[str, bytes | None] = {}
        self._old_texts: dict[tuple[str, str], bytes | None] = {}
        self._bodies: BodySearch | None = None
        self._remembered: tuple[str, RememberedSearch] | None = None
        self._paired: dict[tuple[str, str], list[str]] = {}
        # Asked once per ID by some rules: the answer for a set of names, kept.
        self._holding: dict[frozenset[str], list[tuple[str, Entry]]] = {}

    def known(self, chunk_id: str) -> bool:
        return False

    def absent(self, path: str) -> str:
        if not self.outside(path) and self.tree.other_form(path) is not None:
            return (
                f"{path} does not exist; a file of that name does, its accents written in "
                "another Unicode form"
            )
        if (outside := self.outside(path)) is not None:
            return outside
        if self.tree.mount(path) is None:
            return f"{path} does not exist, and no git repository holds it to say where it went"
        return f"{path} does not exist and git records no rename of it"

    def outside(self, path: str) -> str | None:
        """Why `path` names no file below the root (a link out of it): then it has no
        entries, no renames, and is never a candidate."""
        if path not in self._outside:
            self._outside[path] = self.tree.outside(path)
        return self._outside[path]

    def load(self, paths: Collection[str]) -> None:
        todo = []
        for path in sorted(set(paths).difference(self._cache)):
            if self.outside(path):
                self._cache[path] = None
            else:
                todo.append(path)
        if not todo:
            return
        if self.cache is not None:
            from evaltools.retrieval.code import definition_cache

            load = (
                definition_cache.load_at_rev
                if self.tree.from_git
                else definition_cache.load_work_tree
            )
            results: Iterable[tuple[str, ParsedFile | None]] = load(
                self.cache, self.pool, self.tree, todo
            )
        elif self.tree.from_git:
            results = self.pool.map_blobs(self.tree.read_blobs(todo), len(todo))
        else:
            results = self.pool.map_paths([(p, str(self.tree.local_path(p))) for p in todo])
        for path, parsed in results:
            self._cache[path] = _entries(path, parsed)

    def get(self, path: str) -> FileEntries | None:
        if path not in self._cache:
            self.load([path])
        return self._cache[path]

    def renamed(self, path: str, since: str | None) -> list[str]:
        return [] if self.outside(path) else self.tree.renamed(path, since)

    def history_gap(self, path: str, since: str | None) -> str | None:
        return None if self.outside(path) else self.tree.history_gap(path, since)

    def paths(self) -> list[str]:
        return self.tree.files()

    def moved_to(self, path: str, since: str | None) -> list[str]:
        if self.outside(path):
            return []
        return self.tree.renamed(path, since, copies=True) + self.paired(path, since)

    def paired(self, path: str, since: str | None) -> list[str]:
        return self._paired.get((path, since), []) if since is not None else []

    def pair(self, path: str, since: str, new: str) -> None:
        paired = self._paired.setdefault((path, since), [])
        if new not in paired:
            paired.append(new)

    def renamed_from(self, path: str, since: str, *, copies: bool = True) -> list[str]:
        return [] if self.outside(path) else self.tree.renamed_from(path, since, copies=copies)

    def old_paths(self, path: str, since: str) -> list[str]:
        return [] if self.outside(path) else self.tree.old_files(path, since)

    def old_text(self, path: str, since: str | None) -> bytes | None:
        if since is None or self.outside(path):
            return None
        key = (path, since)
        if key not in self._old_texts:
            self._old_texts[key] = self.tree.read_old(path, since)
        return self._old_texts[key]

    def text(self, path: str) -> bytes | None:
        if path not in self._texts:
            self._texts.update(self._read([path]))
        return self._texts[path]

    def read_ahead(self, paths: Collection[str], old: Collection[tuple[str, str]]) -> None:
        self._texts.update(self._read(sorted(set(paths).difference(self._texts))))
        by_revision: dict[str, set[str]] = {}
        for path, since in old:
            if (path, since) not in self._old_texts and not self.outside(path):
                by_revision.setdefault(since, set()).add(path)
        for since, wanted in by_revision.items():
            for path, data in self.tree.read_old_many(sorted(wanted), since):
                self._old_texts[(path, since)] = data

    def bodies(self) -> BodySearch | None:
        """Every definition of the tree by body. With a cache, what earlier runs asked of
        the same contents is answered from it (see `gold.cache.body_cache`), and the index is built
        only for a new question; bodies come from the cache when it has them."""
        if self._bodies is None:
            files = [p for p in self.tree.files() if is_supported(p) and not self.outside(p)]
            files = files[:MAX_SCAN_FILES]
            if self.cache is None:
                self._bodies = self._body_index(files, {})
            else:
                from evaltools.retrieval.gold.cache.body_cache import RememberedSearch, searches_key

                keys = self._content_keys(files)
                key = searches_key((p, keys[p]) for p in files if p in keys)
                stored = self.cache.get_values([key]).get(key)
                remembered = RememberedSearch(stored, lambda: self._body_index(files, keys))
                self._bodies, self._remembered = remembered, (key, remembered)
        return self._bodies

    def save(self) -> None:
        if self.cache is not None and self._remembered is not None:
            key, remembered = self._remembered
            value = remembered.encode()
            if value is not None:
                self.cache.put_values({key: value})

    def _content_keys(self, files: list[str]) -> dict[str, str]:
        """Path -> what names its content in the cache (see `definition_cache.entry_key`),
        for the files that can be read; without reading those git or a stat row names."""
        from evaltools.retrieval.code import definition_cache
        from evaltools.retrieval.code.definition_cache import blob_id, entry_key
        from evaltools.retrieval.code.symbols import grammar_of

        assert self.cache is not None
        if self.tree.from_git:
            oids = self.tree.blob_ids(files)
            for path, data in self._read([p for p in files if p not in oids]):
                self._texts[path] = data
                if data is not None:
                    oids[path] = blob_id(data)
        else:
            oids, read = definition_cache.work_tree_ids(self.cache, self.tree, files)
            self._texts.update(read)
        return {
            path: entry_key(grammar, oids[path])
            for path in files
            if path in oids and (grammar := grammar_of(path)) is not None
        }

    def _body_index(self, files: list[str], keys: dict[str, str]) -> BodyIndex:
        """Read every file of `files` and parse those not parsed yet, for their bodies;
        `keys`: their content keys, under which bodies are cached."""
        from evaltools.gcpause import no_cycle_collection
        from evaltools.retrieval.gold.reanchor.history.bodies import BodyIndex

        unread = [p for p in files if p not in self._texts]
        self._texts.update(self._read(unread))
        todo = [
            (p, data)
            for p in files
            if p not in self._cache and (data := self._texts.get(p)) is not None
        ]
        for path, parsed in self._parse_read(todo):
            self._cache[path] = _entries(path, parsed)
        if keys and not self.tree.from_git:
            keys = self._keys_of_read(files, keys)
        with no_cycle_collection():  # tens of thousands of bodies, millions of tokens
            return BodyIndex(self._file_bodies(files, keys))

    def _keys_of_read(self, files: list[str], keys: dict[str, str]) -> dict[str, str]:
        """The content keys of the work tree's files as read now. Bodies are stored under
        these, not under the stat rows' (a file rewritten during the run must not store
        its new bodies as its old content's); and if any differs, the tree is not the one
        `bodies` keyed its searches by: they are not stored."""
        from evaltools.retrieval.code.definition_cache import blob_id, entry_key
        from evaltools.retrieval.code.symbols import grammar_of

        read: dict[str, str] = {}
        for path in files:
            data, grammar = self._texts.get(path), grammar_of(path)
            if data is not None and grammar is not None and self._cache.get(path) is not None:
                read[path] = entry_key(grammar, blob_id(data))
        if read != keys:
            self._remembered = None
        return read

    def _file_bodies(self, files: list[str], content_keys: dict[str, str]) -> list[Body]:
        from evaltools.retrieval.gold.cache.body_cache import cached_bodies

        named: dict[str, tuple[bytes, list[tuple[str, int, int, str]]]] = {}
        for path in files:
            data, entries = self._texts.get(path), self._cache.get(path)
            if data is not None and entries is not None:
                rows = [
                    (name, start, end, chunk_id)
                    for name, start, end, chunk_id in entries.entries
                    if name is not None
                ]
                named[path] = (data, rows)
        return cached_bodies(self.cache, named, content_keys, self.pool.jobs)

    def holding(self, leaves: Collection[str]) -> list[tuple[str, Entry]]:
        key = frozenset(leaves)
        if key not in self._holding:
            self._holding[key] = self._holding_now(key)
        return self._holding[key]

    def _holding_now(self, leaves: Collection[str]) -> list[tuple[str, Entry]]:
        needles = [leaf.encode("utf-8") for leaf in leaves]
        files = [p for p in self.tree.files() if is_supported(p)][:MAX_SCAN_FILES]
        unparsed = [p for p in files if p not in self._cache and not self.outside(p)]
        # Reading is cheap and parsing is not: parse only files that hold one of the names.
        hits = [
            (path, data)
            for path, data in self._read(unparsed)
            if data is not None and any(needle in data for needle in needles)
        ]
        for path, parsed in self._parse_read(hits):
            self._cache[path] = _entries(path, parsed)
        found: list[tuple[str, Entry]] = []
        for path in files:
            entries = self._cache.get(path)
            if entries is None:
                continue
            # `Entry.leaf`, inlined: this visits every definition of the tree.
            for entry in entries.entries:
                name = entry[0]
                if name is not None and name.rpartition(".")[2] in leaves:
                    found.append((path, entry))
        return found

    def _parse_read(self, hits: list[tuple[str, bytes]]) -> Iterable[tuple[str, ParsedFile | None]]:
        if self.cache is None:
            return self.pool.map_blobs(hits, len(hits))
        from evaltools.retrieval.code.definition_cache import parse_read

        oids = self.tree.blob_ids(p for p, _ in hits) if self.tree.from_git else None
        return parse_read(self.cache, self.pool, hits, oids)

    def _read(self, paths: list[str]) -> Iterable[tuple[str, bytes | None]]:
        if self.tree.from_git:
            yield from self.tree.read_blobs(paths)
            return
        for path in paths:
            try:
                yield path, read_regular(self.tree.local_path(path))
            except OSError:
                yield path, None
