"""A tree's bodies from the definition cache, or computed (in worker processes when
there are enough of them) and stored there for the next run."""

from __future__ import annotations

import json
import zlib
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from evaltools.parallel.processes import Cost, batch_size, parallel_map, worker_count
from evaltools.retrieval.code.symbols import grammar_of
from evaltools.retrieval.gold.bodies import BODIES_KEY, BODIES_VERSION, Body, file_bodies

if TYPE_CHECKING:
    from evaltools.retrieval.code.definition_cache import DefinitionCache

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
    grammar = grammar_of(path)
    make = Body._make
    return [
        make((path, chunk_id, name, size, fingerprint, grammar, tuple(line.split(" "))))
        if line
        else make((path, chunk_id, name, size, fingerprint, grammar, ()))
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
    cache: DefinitionCache | None,
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
