"""A tree's bodies and its body searches, kept in the cache between runs.

Bodies (tokens and fingerprints of every definition, for cross-file search) are derived
from a file's content: each file's are a row keyed by its content key
(`definition_cache.entry_key`), computed (in worker processes when there are enough of
them) and stored when missing.

Building the body index (every definition of the tree, its tokens, an inverted index) and
searching it costs a revision set more than the rest of a warm check. What a search
answers depends only on the old body (its fingerprint and language), the floor, and the
tree's bodies, which the contents of its files decide. So the answers are kept as one row
keyed by the tree: every (path, content key) of the files the index covers, the body
normalisation's version and the search's parameters. A run whose questions were all asked
before, on the same contents, reads that row and builds nothing; the first new question
builds the index (`build`), and the row is stored again with its answer. A row that does
not decode as this version wrote it is ignored (recomputed).
"""

from __future__ import annotations

import hashlib
import json
import zlib
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from evaltools.parallel.processes import Cost, batch_size, parallel_map, worker_count
from evaltools.retrieval.code.symbols import language_of
from evaltools.retrieval.gold.reanchor.history import bodies as body_search
from evaltools.retrieval.gold.reanchor.history.bodies import (
    BODIES_KEY,
    BODIES_VERSION,
    SEARCH_FLOOR,
    Body,
    BodyIndex,
    file_bodies,
)

if TYPE_CHECKING:
    from evaltools.retrieval.code.cache_store import CacheStore

# One core's cost of a file's bodies, computed and encoded (benchmarks/bench_gold_check.py
# --revision: 1.15 s for 15 MB); decoding them and the trip to and from a worker stay in
# the caller (0.5 s: decoding 0.35 s, the rest the trip). Workers then pay from about
# 17 MB of code (6,000 files) on two cores.
BODY_COST = Cost(per_byte=7.7e-8, parent=0.45)
# A file's named definitions: (name, start, end, chunk ID).
Named = Sequence[tuple[str, int, int, str]]


def encode_bodies(bodies: Sequence[Body]) -> bytes:
    """A file's bodies for the definition cache: what they cost to compute (the tokens
    and fingerprint); where they are comes from the file's definitions. No token holds
    white space: a space joins a body's tokens and a newline the bodies, so that a warm
    run decodes a file with one `json.loads` and C-fast splits. Compressed (zlib's
    fastest level): a class's tokens are its methods' again, and storing five times the
    bytes cost more than compressing them."""
    prints = [b.fingerprint for b in bodies]
    sizes = [b.size for b in bodies]
    text = "\n".join(" ".join(b.tokens) for b in bodies)
    value = json.dumps([BODIES_VERSION, prints, sizes, text], separators=(",", ":"))
    return zlib.compress(value.encode(), 1)


def decode_bodies(path: str, named: Named, value: bytes) -> list[Body] | None:
    """The bodies `encode_bodies` stored for a file with these definitions, or None when
    the entry is not one this version wrote (then they are computed again)."""
    try:
        version, prints, sizes, text = json.loads(zlib.decompress(value))
        lines = text.split("\n") if named else []
    except (zlib.error, ValueError, TypeError, AttributeError):
        return None
    if version != BODIES_VERSION or type(prints) is not list or type(sizes) is not list:
        return None
    if not len(prints) == len(sizes) == len(lines) == len(named):
        return None
    if not (all(type(p) is str for p in prints) and all(type(n) is int for n in sizes)):
        return None
    language = language_of(path)
    make = Body._make
    return [
        make((path, chunk_id, name, size, fingerprint, language, tuple(line.split(" "))))
        if line
        else make((path, chunk_id, name, size, fingerprint, language, ()))
        for (name, _, _, chunk_id), fingerprint, size, line in zip(
            named, prints, sizes, lines, strict=True
        )
    ]


def encoded_bodies(task: tuple[str, bytes, Named]) -> bytes:
    """Worker: (path, bytes, named definitions) -> the file's bodies, as the cache keeps
    them (compact, and decoded faster than bodies unpickle)."""
    path, data, named = task
    return encode_bodies(file_bodies(path, data, named))


def cached_bodies(
    cache: CacheStore | None,
    files: Mapping[str, tuple[bytes, Named]],
    content_keys: dict[str, str],
    jobs: int | None = None,
) -> list[Body]:
    """The bodies of files (path -> bytes and named definitions), in their order, from
    the cache when it has them under the file's content key (see
    `definition_cache.entry_key`), else computed (`jobs`: see `worker_count`) and stored
    there."""
    keys = {p: f"{BODIES_KEY}:{content_keys[p]}" for p in files if p in content_keys}
    stored = cache.get_values(keys.values()) if cache is not None else {}
    found: dict[str, list[Body]] = {}
    for path, (_, named) in files.items():
        value = stored.get(keys[path]) if path in keys else None
        bodies = decode_bodies(path, named, value) if value is not None else None
        if bodies is not None:
            found[path] = bodies
    todo = [path for path in files if path not in found]
    size = sum(len(files[path][0]) for path in todo)
    workers = worker_count(jobs, items=len(todo), size=size, cost=BODY_COST)
    fresh: dict[str, bytes] = {}
    if workers == 1:
        for path in todo:
            found[path] = file_bodies(path, *files[path])
            if path in keys:
                fresh[keys[path]] = encode_bodies(found[path])
    else:
        tasks = ((path, *files[path]) for path in todo)
        batch = batch_size(len(todo), workers)
        encoded = parallel_map(encoded_bodies, tasks, workers=workers, batch=batch)
        for path, sent in zip(todo, encoded, strict=True):
            bodies = decode_bodies(path, files[path][1], sent)
            # Never None for our own encoding; if ever, what is computed here is stored.
            found[path] = file_bodies(path, *files[path]) if bodies is None else bodies
            if path in keys:
                fresh[keys[path]] = sent if bodies is not None else encode_bodies(found[path])
    if cache is not None:
        cache.put_values(fresh)
    return [body for path in files for body in found[path]]


# The format of the row, and of what it remembers: raise it when a search's answers change.
SEARCHES_VERSION = 1
SEARCHES_KEY = f"searches{SEARCHES_VERSION}"
# A row past this many answers starts over with this run's (a tree checked against many
# sets would otherwise grow it for ever).
MAX_REMEMBERED = 20_000

_Near = tuple[list[tuple[float, Body]], bool]


def searches_key(contents: Iterable[tuple[str, str]]) -> str:
    """The row's key for a tree whose indexed files are these (path, content key) pairs,
    in index order: what decides every body, and so every answer."""
    parameters = [
        body_search.BODIES_VERSION,
        body_search.MAX_SCORED,
        body_search.MAX_POSTINGS,
        body_search.MAX_BOUNDED,
        body_search.INEXACT_SCORED,
    ]
    digest = hashlib.blake2b(json.dumps(parameters).encode(), digest_size=20)
    for path, key in contents:
        digest.update(f"{path}\0{key}\n".encode("utf-8", "surrogateescape"))
    return f"{SEARCHES_KEY}:{digest.hexdigest()}"


class RememberedSearch:
    """`BodyIndex.exact` and `near` answered from a stored row when it has them, else by
    the index (`build`, called once, only if needed); `encode` gives the row to store."""

    def __init__(self, stored: bytes | None, build: Callable[[], BodyIndex]) -> None:
        self._build = build
        self._index: BodyIndex | None = None
        self._exact: dict[str, list[Body]] = {}
        self._near: dict[str, _Near] = {}
        self._new = False
        if stored is not None:
            self._load(stored)

    def exact(self, old: Body) -> list[Body]:
        key = f"{old.fingerprint} {old.language}"
        found = self._exact.get(key)
        if found is None:
            found = self._exact[key] = self.index().exact(old)
            self._new = True
        return found

    def near(self, old: Body, floor: float = SEARCH_FLOOR, *, complete: bool = False) -> _Near:
        key = f"{old.fingerprint} {old.language} {floor!r} {int(complete)}"
        found = self._near.get(key)
        if found is None:
            found = self._near[key] = self.index().near(old, floor, complete=complete)
            self._new = True
        return found

    def index(self) -> BodyIndex:
        if self._index is None:
            self._index = self._build()
        return self._index

    def encode(self) -> bytes | None:
        """The row to store: every answer known, None when this run added none."""
        if not self._new:
            return None
        places: dict[Body, int] = {}
        for same in self._exact.values():
            for body in same:
                places.setdefault(body, len(places))
        for scored, _ in self._near.values():
            for _, body in scored:
                places.setdefault(body, len(places))
        rows = [[*body[:6], " ".join(body.tokens)] for body in places]
        exact = {key: [places[b] for b in found] for key, found in self._exact.items()}
        near = {
            key: [[[score, places[b]] for score, b in found], done]
            for key, (found, done) in self._near.items()
        }
        row = [SEARCHES_VERSION, rows, exact, near]
        return json.dumps(row, separators=(",", ":")).encode()  # ASCII: non-ASCII is escaped

    def _load(self, stored: bytes) -> None:
        try:
            version, rows, exact, near = json.loads(stored)
            if version != SEARCHES_VERSION or len(exact) + len(near) > MAX_REMEMBERED:
                return
            bodies = [_body(row) for row in rows]

            def known(i: object) -> Body:
                if type(i) is not int or i < 0:
                    raise IndexError("a body is named by its place in the row")
                return bodies[i]

            self._exact = {str(key): [known(i) for i in found] for key, found in exact.items()}
            self._near = {
                str(key): ([(float(score), known(i)) for score, i in found], bool(done))
                for key, (found, done) in near.items()
            }
        except (ValueError, TypeError, AttributeError, IndexError, KeyError):
            self._exact, self._near = {}, {}  # not a row this version wrote: ask again


def _body(row: list[Any]) -> Body:
    path, chunk_id, name, size, fingerprint, language, text = row
    if not all(isinstance(s, str) for s in (path, chunk_id, name, fingerprint, text)):
        raise TypeError("a body's text fields are strings")
    if type(size) is not int or not (language is None or isinstance(language, str)):
        raise TypeError("a body's size is a number and its language a name")
    tokens = tuple(text.split(" ")) if text else ()
    return Body(path, chunk_id, name, size, fingerprint, language, tokens)
