"""commons-jexl 3 moved every file from `jexl2/` to `jexl3/` and rewrote most of them past
what git calls a rename: a gone file and a new one, the only files of their name in each
tree, are one file moved, as a person pairs them; the ID's name there is where it went,
whatever its body became (unless the body went elsewhere)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.retrieval.gitrepo import GitRepo
from tests.retrieval.gold.reanchor_repo import chunk_id, gold_check
from tests.retrieval.gold.test_reanchor_twins import repo

__all__ = ["repo"]  # the fixture


def _class_map(style: int) -> str:
    """`ClassMap` then (0) and rewritten (1): as long, under half of its code kept."""
    if style == 0:
        body = (
            "    private final Map<String, Method> byName = new HashMap<>();\n\n"
            "    public Method find(String name) {\n"
            "        synchronized (byName) {\n"
            "            return byName.get(name);\n        }\n    }\n\n"
            "    public void add(Method method) {\n"
            "        synchronized (byName) {\n"
            "            byName.put(method.getName(), method);\n        }\n    }\n"
        )
    else:
        body = (
            "    private final ConcurrentMap<MethodKey, Method[]> cache;\n\n"
            "    Method[] lookup(final MethodKey key) {\n"
            "        final Method[] found = cache.get(key);\n"
            "        return found == null ? CACHE_MISS : found;\n    }\n\n"
            "    void populate(final Class<?> clazz, final Log log) {\n"
            "        for (final Method m : clazz.getMethods()) {\n"
            "            cache.merge(new MethodKey(m), new Method[] {m}, ClassMap::concat);\n"
            "        }\n    }\n"
        )
    return f"package lib;\n\nfinal class ClassMap {{\n{body}}}\n"


@pytest.mark.parametrize("guard", [None, "two files of its name", "there before"])
def test_a_rewritten_file_moved_by_its_name_takes_its_definitions(
    guard: str | None, repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The class rewritten past half of its body in the one new file of its file's name:
    its name there. Not when the tree has another file of that name now (which one?), nor
    when the new file was there at the revision (another class's own file)."""
    old_path, new_path = "v2/internal/ClassMap.java", "v3/introspection/ClassMap.java"
    repo.write(old_path, _class_map(0))
    if guard == "there before":
        repo.write(new_path, "package lib;\n\nfinal class Other {\n}\n")
    old = repo.commit("old")
    gold = chunk_id(repo, old_path, "ClassMap")
    repo.rm(old_path)
    repo.write(new_path, _class_map(1))
    if guard == "two files of its name":
        repo.write("v3/cache/ClassMap.java", "package cache;\n\nfinal class Index {\n}\n")
    repo.commit("moved and rewritten")
    code, got = gold_check(repo, tmp_path, capsys, [gold], old)
    assert code == 1
    if guard is None:
        assert got[gold]["new_chunk_id"] == chunk_id(repo, new_path, "ClassMap")
        assert got[gold]["evidence"] == (
            f"same name in {new_path}, the one file of its file's name then and now"
        )
    else:
        assert got[gold]["new_chunk_id"] is None
