"""Parsing a code tree's files through the definition cache: what the cache holds is
taken from it, only the rest is read and parsed, and what was parsed is stored.

The results are those of parsing every file (`TreeLookup` without a cache): a file the
cache cannot key (an unsupported extension, one that cannot be stat'ed or read) goes the
uncached way, so that it reports as it always did.
"""

from __future__ import annotations

import os
import stat
import time
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path

from evaltools.retrieval.code.definition_cache import (
    RACY_SECONDS,
    DefinitionCache,
    blob_id,
    entry_key,
    stat_signature,
)
from evaltools.retrieval.code.parsing import FileParser, ParsedFile
from evaltools.retrieval.code.symbols import grammar_of
from evaltools.retrieval.sources.source import CodeTree

Parsed = list[tuple[str, "ParsedFile | None"]]


def load_work_tree(
    cache: DefinitionCache, pool: FileParser, tree: CodeTree, paths: Iterable[str]
) -> Parsed:
    """Work-tree files: an unchanged stat signature names the content without reading it."""
    results, uncached, signatures = _stat_files(tree, paths)
    known = cache.oids_by_stat({local: sig for local, sig, _ in signatures.values()})
    keys = {
        path: _key(path, known[local])
        for path, (local, _, _) in signatures.items()
        if local in known
    }
    found = cache.get(keys.values())
    read: list[tuple[str, bytes]] = []
    stat_rows: list[tuple[str, str, str]] = []
    for path, (local, sig, storable) in signatures.items():
        key = keys.get(path)
        if key is not None and key in found:
            results.append((path, found[key]))
            continue
        try:
            data = Path(local).read_bytes()
        except OSError:
            uncached.append(path)
            continue
        oid = blob_id(data)
        keys[path] = _key(path, oid)
        if storable:
            stat_rows.append((local, sig, oid))
        read.append((path, data))
    results.extend(_parse_missing(cache, pool, read, keys, stat_rows))
    results.extend(pool.map_paths([(p, str(tree.local_path(p))) for p in uncached]))
    return results


def work_tree_ids(
    cache: DefinitionCache, tree: CodeTree, paths: Iterable[str]
) -> tuple[dict[str, str], dict[str, bytes]]:
    """The blob ids of the work tree's regular files among `paths` (of a known grammar),
    named by their stat rows when unchanged, else read and hashed (and a stat row kept for
    the next run); and the bytes of those read. A file that cannot be read has no id."""
    _, _, signatures = _stat_files(tree, paths)
    known = cache.oids_by_stat({local: sig for local, sig, _ in signatures.values()})
    oids: dict[str, str] = {}
    read: dict[str, bytes] = {}
    stat_rows: list[tuple[str, str, str]] = []
    for path, (local, sig, storable) in signatures.items():
        oid = known.get(local)
        if oid is None:
            try:
                data = read[path] = Path(local).read_bytes()
            except OSError:
                continue
            oid = blob_id(data)
            if storable:
                stat_rows.append((local, sig, oid))
        oids[path] = oid
    cache.put_values({}, stat_rows)
    return oids, read


def _stat_files(
    tree: CodeTree, paths: Iterable[str]
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


def load_at_rev(
    cache: DefinitionCache, pool: FileParser, tree: CodeTree, paths: Iterable[str]
) -> Parsed:
    """Files at `--rev`: git names each blob, so a hit reads nothing."""
    wanted = list(paths)
    oids = tree.blob_ids(wanted)
    keys = {path: _key(path, oids[path]) for path in wanted if path in oids and grammar_of(path)}
    found = cache.get(keys.values())
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

    def blobs() -> Iterator[tuple[str, bytes]]:
        for path, data in tree.read_blobs(todo):
            if data is None:
                absent.append(path)
            else:
                yield path, data

    fresh: dict[str, ParsedFile] = {}
    expected = sum(1 for path in todo if path in oids)
    for path, parsed in pool.map_blobs(blobs(), expected):
        results.append((path, parsed))
        key = keys.get(path)
        if key is not None and parsed is not None and parsed.error is None:
            fresh[key] = parsed
    results.extend((path, None) for path in absent)
    cache.put(fresh)
    return results


def parse_read(
    cache: DefinitionCache,
    pool: FileParser,
    items: list[tuple[str, bytes]],
    oids: Mapping[str, str] | None = None,
) -> Parsed:
    """Files already read; `oids` their blob ids when git gave them (else they are hashed)."""
    keyed = [(path, data) for path, data in items if grammar_of(path) is not None]
    keys = {
        path: _key(path, oids[path] if oids and path in oids else blob_id(data))
        for path, data in keyed
    }
    others = [(path, data) for path, data in items if path not in keys]
    results = _parse_missing(cache, pool, keyed, keys, [])
    results.extend(pool.map_blobs(others, len(others)))
    return results


def _key(path: str, oid: str) -> str:
    grammar = grammar_of(path)
    assert grammar is not None
    return entry_key(grammar, oid)


def _parse_missing(
    cache: DefinitionCache,
    pool: FileParser,
    items: list[tuple[str, bytes]],
    keys: Mapping[str, str],
    stat_rows: list[tuple[str, str, str]],
) -> Parsed:
    """Parse those of `items` the cache has no entry for (by content), and store them."""
    found = cache.get(keys[path] for path, _ in items)
    results: Parsed = []
    todo: list[tuple[str, bytes | None]] = []
    for path, data in items:
        parsed = found.get(keys[path])
        if parsed is not None:
            results.append((path, parsed))
        else:
            todo.append((path, data))
    fresh: dict[str, ParsedFile] = {}
    for path, parsed in pool.map_blobs(todo, len(todo)):
        results.append((path, parsed))
        if parsed is not None and parsed.error is None:
            fresh[keys[path]] = parsed
    cache.put(fresh, stat_rows)
    return results
