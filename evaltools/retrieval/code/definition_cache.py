"""The definition cache: what `gold check` parses, kept between runs, keyed by content.

Parsing is nearly all of a gold check's work, and most files do not change between two
runs. An entry is keyed by what decides the definitions of a file: its content (the git
blob id: read from `git ls-tree` at `--rev`, computed from the bytes in a work tree), its
grammar, and the versions of the parser, the grammar and evaltools' span conventions
(`symbols.SPANS_VERSION`): `version_tag`. A new parser or convention therefore never
meets an old entry. In a work tree a stat row (`cache_store`) maps a file's (path, size,
mtime, ctime, inode, device) to its blob id, so a warm run stats files instead of reading
and hashing them.

The loaders parse a code tree's files through the cache: what it holds is taken from it,
only the rest is read and parsed, and what was parsed is stored. The results are those of
parsing every file (`TreeLookup` without a cache): a file the cache cannot key (an
unsupported extension, one that cannot be stat'ed or read) goes the uncached way, so that
it reports as it always did. Rows live in the one store (`cache_store.CacheStore`); an
entry that does not decode as this version wrote it is a miss and is recomputed.
"""

from __future__ import annotations

import contextlib
import json
import os
import stat
import sys
import time
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import Protocol

from evaltools.blake2 import blake2b
from evaltools.fileio import read_regular
from evaltools.retrieval.code.cache_store import RACY_SECONDS, CacheStore, stat_signature
from evaltools.retrieval.code.grammars import GRAMMARS
from evaltools.retrieval.code.parsing import FileParser, ParsedFile
from evaltools.retrieval.code.spans import Definition
from evaltools.retrieval.code.symbols import SPANS_VERSION, grammar_of

Parsed = list[tuple[str, "ParsedFile | None"]]


class Tree(Protocol):
    """What the loaders ask of a code tree (`sources.source.CodeTree`)."""

    @property
    def root(self) -> Path: ...

    def local_path(self, id_path: str) -> Path: ...

    def blob_ids(self, id_paths: Iterable[str]) -> dict[str, str]: ...

    def read_blobs(self, id_paths: Iterable[str]) -> Iterator[tuple[str, bytes | None]]: ...


def blob_id(data: bytes) -> str:
    """The id git gives these bytes as a blob (SHA-1 object format)."""
    import hashlib  # not at the top: loading OpenSSL costs a cached `gold check` ~5 ms

    digest = hashlib.sha1(b"blob %d\0" % len(data), usedforsecurity=False)
    digest.update(data)
    return digest.hexdigest()


_TAGS: dict[str, str] = {}


def version_tag(grammar: str) -> str:
    """A short digest of everything besides the content that decides a file's definitions:
    the span conventions, the grammar, and the installed tree-sitter and grammar packages."""
    tag = _TAGS.get(grammar)
    if tag is None:
        parts = [f"spans {SPANS_VERSION}", f"grammar {grammar}"]
        parts += [_installed("tree_sitter"), _installed(GRAMMARS[grammar][0])]
        text = "\n".join(parts).encode()
        tag = _TAGS[grammar] = blake2b(text, digest_size=8).hexdigest()
    return tag


_INSTALLED: dict[str, str] = {}
_LISTINGS: dict[Path, list[str]] = {}


def _installed(module: str) -> str:
    """What identifies the installed package `module`: its dist-info folder (name and
    version) and its compiled files (name, size, time), found without importing it, which
    would cost a warm run more than its lookups (importlib.metadata costs as much).
    Asked once per module and site folder per run: every grammar's tag names tree_sitter."""
    found = _INSTALLED.get(module)
    if found is None:
        found = _INSTALLED[module] = _find_installed(module)
    return found


def _find_installed(module: str) -> str:
    for entry in sys.path:
        folder = Path(entry or ".") / module
        if not (folder / "__init__.py").is_file():
            continue
        found = [str(folder)]
        prefix = module.lower() + "-"
        with contextlib.suppress(OSError):
            names = _LISTINGS.get(folder.parent)
            if names is None:
                names = _LISTINGS[folder.parent] = [item.name for item in folder.parent.iterdir()]
            found += sorted(
                name
                for name in names
                if name.lower().startswith(prefix) and name.endswith(".dist-info")
            )
            for item in sorted(os.scandir(folder), key=lambda item: item.name):
                if item.name.endswith((".so", ".pyd", ".dylib")):
                    st = item.stat()
                    found.append(f"{item.name} {st.st_size} {st.st_mtime_ns}")
        return " ".join(found)
    return f"{module} not found"


def entry_key(grammar: str, oid: str) -> str:
    return f"{version_tag(grammar)}:{oid}"


def encode(parsed: ParsedFile) -> bytes:
    rows = [[d.name, d.start, d.end] for d in parsed.definitions]
    return json.dumps([parsed.line_count, rows], separators=(",", ":")).encode()


def decode(value: bytes) -> ParsedFile | None:
    """The entry, or None when it is not one this version wrote (then it is recomputed)."""
    try:
        line_count, rows = json.loads(value)
        # A warm gold check decodes every referenced file's entry: one plain loop checks
        # the rows before any Definition is built.
        for name, start, end in rows:
            if not (isinstance(name, str) and isinstance(start, int) and isinstance(end, int)):
                return None
    except (ValueError, TypeError):
        return None
    if not isinstance(line_count, int):
        return None
    return ParsedFile(tuple(map(Definition._make, rows)), line_count)


def get_parsed(cache: CacheStore, keys: Iterable[str]) -> dict[str, ParsedFile]:
    """The entries found for `keys` (a missing or bad one is simply not there)."""
    found: dict[str, ParsedFile] = {}
    for key, value in cache.get_values(keys).items():
        parsed = decode(value)
        if parsed is not None:
            found[key] = parsed
    return found


def put_parsed(
    cache: CacheStore,
    entries: Mapping[str, ParsedFile],
    stats: Iterable[tuple[str, str, str]] = (),
) -> None:
    """Store `key -> parsed` and `(path, signature, blob id)` rows in one transaction."""
    cache.put_values({key: encode(parsed) for key, parsed in entries.items()}, stats)


def code_versions() -> list[str]:
    """What identifies the code that made a whole result: evaltools' version, Python's,
    every grammar's `version_tag`, and the stat of each of evaltools' modules. An
    editable install (or a checkout on PYTHONPATH) is edited without a version bump, and
    a result replayed from before the edit would be the old code's verdict."""
    from evaltools import __version__

    parts = [__version__, sys.version, *map(version_tag, sorted(GRAMMARS))]
    package = os.path.dirname(os.path.dirname(os.path.dirname(__file__)))  # noqa: PTH120
    for folder, dirnames, filenames in os.walk(package):
        dirnames[:] = sorted(d for d in dirnames if d != "__pycache__")
        for name in sorted(filenames):
            if name.endswith(".py"):
                st = os.stat(os.path.join(folder, name))  # noqa: PTH116, PTH118
                parts.append(f"{folder}/{name}:{st.st_size}:{st.st_mtime_ns}")
    return parts


def load_work_tree(cache: CacheStore, pool: FileParser, tree: Tree, paths: Iterable[str]) -> Parsed:
    """Work-tree files: an unchanged stat signature names the content without reading it."""
    results, uncached, signatures = _stat_files(tree, paths)
    oids, read, stat_rows, unreadable = _work_tree_oids(cache, signatures)
    uncached += unreadable
    keys = {path: _key(path, oid) for path, oid in oids.items()}
    found = get_parsed(cache, keys.values())
    todo: list[tuple[str, bytes | None]] = []
    for path in oids:
        parsed = found.get(keys[path])
        if parsed is not None:
            results.append((path, parsed))
            continue
        data = read.get(path)
        if data is None:  # named by its stat row, its definitions not kept: read it now
            try:
                data = read_regular(signatures[path][0])
            except OSError:
                uncached.append(path)
                continue
            keys[path] = _key(path, blob_id(data))
        todo.append((path, data))
    results.extend(_parse_and_store(cache, pool, todo, len(todo), keys, stat_rows=stat_rows))
    results.extend(pool.map_paths([(p, str(tree.local_path(p))) for p in uncached]))
    return results


def work_tree_ids(
    cache: CacheStore, tree: Tree, paths: Iterable[str]
) -> tuple[dict[str, str], dict[str, bytes]]:
    """The blob ids of the work tree's regular files among `paths` (of a known grammar),
    named by their stat rows when unchanged, else read and hashed (and a stat row kept for
    the next run); and the bytes of those read. A file that cannot be read has no id."""
    _, _, signatures = _stat_files(tree, paths)
    oids, read, stat_rows, _ = _work_tree_oids(cache, signatures)
    cache.put_values({}, stat_rows)
    return oids, read


def _work_tree_oids(
    cache: CacheStore, signatures: Mapping[str, tuple[str, str, bool]]
) -> tuple[dict[str, str], dict[str, bytes], list[tuple[str, str, str]], list[str]]:
    """The blob ids of `signatures`' files (see `_stat_files`): named by their stat rows
    when unchanged, else read and hashed. Also the bytes of those read, the stat rows to
    keep for the next run (of those old enough), and the paths that could not be read."""
    known = cache.oids_by_stat({local: sig for local, sig, _ in signatures.values()})
    oids: dict[str, str] = {}
    read: dict[str, bytes] = {}
    stat_rows: list[tuple[str, str, str]] = []
    unreadable: list[str] = []
    for path, (local, sig, storable) in signatures.items():
        oid = known.get(local)
        if oid is None:
            try:
                data = read[path] = read_regular(local)
            except OSError:
                unreadable.append(path)
                continue
            oid = blob_id(data)
            if storable:
                stat_rows.append((local, sig, oid))
        oids[path] = oid
    return oids, read, stat_rows, unreadable


def _stat_files(
    tree: Tree, paths: Iterable[str]
) -> tuple[Parsed, list[str], dict[str, tuple[str, str, bool]]]:
    """What a stat says of each path: the parse of those it settles (no file, a folder),
    those the cache cannot key (no grammar, not a regular file), and the signature of the
    rest: path -> (file, signature, whether it is old enough to be kept)."""
    racy_after = time.time_ns() - RACY_SECONDS * 1_000_000_000
    uncached: list[str] = []
    signatures: dict[str, tuple[str, str, bool]] = {}
    # os.path, not pathlib: this runs for every file, and a warm run does little else.
    root = os.path.abspath(tree.root)  # noqa: PTH100
    results: Parsed = []
    for path in paths:
        local = os.path.join(root, path)  # noqa: PTH118
        try:
            st = os.stat(local) if grammar_of(path) is not None else None  # noqa: PTH116
        except (FileNotFoundError, NotADirectoryError):
            # No file: what `read_and_parse` says, without a worker pool to say it (a
            # warm run's only uncached paths are often the gold's deleted files).
            results.append((path, None))
            continue
        except OSError:
            st = None
        if st is not None and stat.S_ISDIR(st.st_mode):
            results.append((path, None))  # as reading it would (IsADirectoryError)
            continue
        if st is None or not stat.S_ISREG(st.st_mode):
            uncached.append(path)
            continue
        storable = max(st.st_mtime_ns, st.st_ctime_ns) < racy_after
        signatures[path] = (local, stat_signature(st), storable)
    return results, uncached, signatures


def load_at_rev(cache: CacheStore, pool: FileParser, tree: Tree, paths: Iterable[str]) -> Parsed:
    """Files at `--rev`: git names each blob, so a hit reads nothing."""
    wanted = list(paths)
    oids = tree.blob_ids(wanted)
    keys = {path: _key(path, oids[path]) for path in wanted if path in oids and grammar_of(path)}
    found = get_parsed(cache, keys.values())
    results: Parsed = []
    todo: list[str] = []
    for path in wanted:
        key = keys.get(path)
        if key is not None and key in found:
            results.append((path, found[key]))
        else:
            todo.append(path)
    # A path with no blob (a gold file deleted since) parses to None, as `parse_blob` says,
    # in this process: a warm run then starts no worker pool for its missing files.
    absent: list[str] = []

    def blobs() -> Iterator[tuple[str, bytes | None]]:
        for path, data in tree.read_blobs(todo):
            if data is None:
                absent.append(path)
            else:
                yield path, data

    expected = sum(1 for path in todo if path in oids)
    results.extend(_parse_and_store(cache, pool, blobs(), expected, keys))
    results.extend((path, None) for path in absent)
    return results


def parse_read(
    cache: CacheStore,
    pool: FileParser,
    items: list[tuple[str, bytes]],
    oids: Mapping[str, str] | None = None,
) -> Parsed:
    """Files already read; `oids` their blob ids when git gave them (else they are hashed)."""
    keys = {
        path: _key(path, oids[path] if oids and path in oids else blob_id(data))
        for path, data in items
        if grammar_of(path) is not None
    }
    found = get_parsed(cache, keys.values())
    results: Parsed = []
    todo: list[tuple[str, bytes | None]] = []
    others: list[tuple[str, bytes | None]] = []
    for path, data in items:
        key = keys.get(path)
        if key is None:
            others.append((path, data))
        elif key in found:
            results.append((path, found[key]))
        else:
            todo.append((path, data))
    results.extend(_parse_and_store(cache, pool, todo, len(todo), keys))
    results.extend(pool.map_blobs(others, len(others)))
    return results


def _key(path: str, oid: str) -> str:
    grammar = grammar_of(path)
    assert grammar is not None
    return entry_key(grammar, oid)


def _parse_and_store(
    cache: CacheStore,
    pool: FileParser,
    blobs: Iterable[tuple[str, bytes | None]],
    count: int,
    keys: Mapping[str, str],
    *,
    stat_rows: Iterable[tuple[str, str, str]] = (),
) -> Parsed:
    """Parse `count` blobs; store, with `stat_rows`, those that parsed cleanly and have a key."""
    results: Parsed = []
    fresh: dict[str, ParsedFile] = {}
    for path, parsed in pool.map_blobs(blobs, count):
        results.append((path, parsed))
        key = keys.get(path)
        if key is not None and parsed is not None and parsed.error is None:
            fresh[key] = parsed
    put_parsed(cache, fresh, stat_rows)
    return results
