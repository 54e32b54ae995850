"""Of several copies of a body, the only one in the ID's own file is where it went: the
others are copies elsewhere (axios 1.0 moved `lib/core/mergeConfig.js`'s helpers inside
`mergeConfig`, and its bundles in `dist/` hold a copy of each)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.retrieval.gitrepo import GitRepo
from tests.retrieval.gold.reanchor_repo import chunk_id, gold_check
from tests.retrieval.gold.test_reanchor_twins import repo

__all__ = ["repo"]  # the fixture

CASES = {
    "javascript": (
        "lib/core/mergeConfig.js",
        "dist/axios.js",
        "function getMergedValue (target, source) {\n"
        "  if (isPlainObject(target) && isPlainObject(source)) {\n"
        "    return merge(target, source)\n  } else if (isArray(source)) {\n"
        "    return source.slice()\n  }\n  return source\n}\n",
        "export default function mergeConfig (config1, config2) {{\n{inner}  return config1\n}}\n",
        "  ",
        "mergeConfig.getMergedValue",
    ),
    "python": (
        "lib/core/merge_config.py",
        "build/lib/core/merge_config.py",
        "def get_merged_value(target, source):\n"
        "    if is_plain_object(target) and is_plain_object(source):\n"
        "        return merge(target, source)\n    elif isinstance(source, list):\n"
        "        return source[:]\n    return source\n",
        "class MergeConfig:\n{inner}",
        "    ",
        "MergeConfig.get_merged_value",
    ),
}


@pytest.mark.parametrize("language", list(CASES))
def test_of_copies_the_one_in_its_own_file_is_where_it_went(
    language: str, repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path, bundle, function, wrapper, pad, inside = CASES[language]
    old_name = function.split("(")[0].split()[-1]
    repo.write(path, function)
    old = repo.commit("a helper")
    gold = [chunk_id(repo, path, old_name)]
    nested = "".join(pad + line if line.strip() else line for line in function.splitlines(True))
    moved = wrapper.format(inner=nested)
    repo.write(path, moved)
    repo.write(bundle, "// generated\n" * (language == "javascript") + moved)
    repo.commit("into its function, and a bundle")
    code, got = gold_check(repo, tmp_path, capsys, gold, old)
    assert code == 1
    new = chunk_id(repo, path, inside)
    assert (got[gold[0]]["kind"], got[gold[0]]["new_chunk_id"]) == ("relocated", new)
    assert got[gold[0]]["evidence"] == f"body identical, the only one in {path}"
