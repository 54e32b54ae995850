"""Bodies kept in the definition cache: what is stored decodes to what was computed, a bad
entry to nothing, and bodies computed in worker processes are those computed in process."""

from __future__ import annotations

import zlib
from pathlib import Path
from typing import Any

import pytest

from evaltools.parallel.processes import parallel_map as real_parallel_map
from evaltools.retrieval.code.cache_store import CacheStore
from evaltools.retrieval.gold.cache import body_cache
from evaltools.retrieval.gold.cache.body_cache import cached_bodies, decode_bodies, encode_bodies
from evaltools.retrieval.gold.reanchor.history import bodies
from evaltools.retrieval.gold.reanchor.history.bodies import file_bodies


def test_cached_bodies_decode_to_the_bodies_computed() -> None:
    data = b"def f(a):\n    return a + 1  # one\n\n\nclass C:\n    def g(self):\n        pass\n"
    data += b"def h():\n    # only a comment\n"
    named = [("f", 1, 2, "m.py:1-2:f"), ("C.g", 6, 7, "m.py:6-7:C.g")]
    named.append(("h", 9, 9, "m.py:9-9:h"))  # no tokens at all
    computed = file_bodies("m.py", data, named)
    assert decode_bodies("m.py", named, encode_bodies(computed)) == computed
    assert decode_bodies("e.py", [], encode_bodies([])) == []


V = bodies.BODIES_VERSION


@pytest.mark.parametrize(
    "value",
    [
        zlib.compress(b"not json"),
        zlib.compress(f'[{V}, [1, 2], [1, 2], "a\\nb"]'.encode()),
        zlib.compress(f'[{V + 1}, ["x", "y"], [1, 2], "a\\nb"]'.encode()),
        zlib.compress(f'[{V}, ["x", "y"], [1, 2], "a"]'.encode()),
        zlib.compress(f'[{V}, ["x"], [1], "a"]'.encode()),
        f'[{V}, ["x", "y"], [1, 2], "a\\nb"]'.encode(),
        zlib.compress(f'[{V}, 1, 2, "a\\nb"]'.encode()),
        zlib.compress(f'[{V}, null, null, "a\\nb"]'.encode()),
    ],
    ids=[
        "garbage",
        "wrong-types",
        "other-version",
        "fewer-bodies",
        "short-columns",
        "not-compressed",
        "numbers-for-columns",
        "null-columns",
    ],
)
def test_a_bad_cached_entry_decodes_to_none(value: bytes) -> None:
    named = [("f", 1, 2, "m.py:1-2:f"), ("g", 3, 4, "m.py:3-4:g")]
    assert decode_bodies("m.py", named, value) is None
    # The same entry, right but for what is wrong with it, decodes: the test is sharp.
    good = zlib.compress(f'[{V}, ["x", "y"], [1, 2], "a\\nb"]'.encode())
    assert decode_bodies("m.py", named, good) is not None


def some_files(count: int) -> dict[str, tuple[bytes, list[tuple[str, int, int, str]]]]:
    files = {}
    for i in range(count):
        path = f"m{i}.py"
        data = f"def f{i}(a):\n    return a + {i}\n\n\nclass C{i}:\n    def g(self):\n"
        data += f"        return self.x * {i}  # the {i}th\n"
        named = [(f"f{i}", 1, 2, f"{path}:1-2:f{i}"), (f"C{i}", 5, 7, f"{path}:5-7:C{i}")]
        named.append((f"C{i}.g", 6, 7, f"{path}:6-7:C{i}.g"))
        files[path] = (data.encode(), named)
    return files


def stored(folder: Path, keys: list[str]) -> dict[str, bytes]:
    cache = CacheStore(folder)
    try:
        return cache.get_values(keys)
    finally:
        cache.close()


def test_bodies_computed_in_workers_are_those_computed_in_process(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    files = some_files(6)
    keys = {path: f"py:{number:040x}" for number, path in enumerate(files)}
    pools: list[int] = []

    def parallel_map(func: Any, items: Any, *, workers: int, batch: int = 1) -> Any:
        pools.append(workers)
        return real_parallel_map(func, items, workers=workers, batch=batch)

    monkeypatch.setattr(body_cache, "parallel_map", parallel_map)
    found = {}
    for jobs in (1, 2):
        cache = CacheStore(tmp_path / str(jobs))
        try:
            found[jobs] = cached_bodies(cache, files, keys, jobs)
        finally:
            cache.close()
    assert pools == [2]  # --jobs 1 in process, --jobs 2 in two workers
    assert found[2] == found[1]
    assert [b.chunk_id for b in found[1]] == [row[3] for _, n in files.values() for row in n]
    rows = [f"{bodies.BODIES_KEY}:{key}" for key in keys.values()]
    assert stored(tmp_path / "1", rows) == stored(tmp_path / "2", rows)
    assert len(stored(tmp_path / "2", rows)) == len(files)

    # What the workers stored is taken from the cache the next time: nothing is computed,
    # in process or in workers.
    def computed(*args: object, **kwargs: object) -> object:
        raise AssertionError("bodies computed again")

    monkeypatch.setattr(body_cache, "file_bodies", computed)
    monkeypatch.setattr(body_cache, "parallel_map", computed)
    for jobs in (1, 2):
        cache = CacheStore(tmp_path / "2")
        try:
            assert cached_bodies(cache, files, keys, jobs) == found[1]
        finally:
            cache.close()


def test_a_worker_result_that_does_not_decode_is_computed_and_stored_as_computed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    files = some_files(3)
    keys = {path: f"py:{number:040x}" for number, path in enumerate(files)}

    def junk(func: Any, items: Any, *, workers: int, batch: int = 1) -> Any:
        return (b"junk" for _ in items)  # as if a worker had sent something else

    monkeypatch.setattr(body_cache, "parallel_map", junk)
    cache = CacheStore(tmp_path)
    try:
        found = cached_bodies(cache, files, keys, 2)
    finally:
        cache.close()
    assert found == cached_bodies(None, files, {}, 1)
    rows = stored(tmp_path, [f"{bodies.BODIES_KEY}:{key}" for key in keys.values()])
    assert sorted(rows.values()) == sorted(encode_bodies(file_bodies(p, *files[p])) for p in files)


def test_without_a_cache_bodies_are_computed_and_nothing_is_kept(tmp_path: Path) -> None:
    files = some_files(3)
    assert cached_bodies(None, files, {}, 2) == cached_bodies(None, files, {}, 1)
    assert not list(tmp_path.iterdir())
