"""Two gold IDs among several namesakes as long, evenly spaced (a class's overloads,
`impl From<T>` blocks), in a plain tree: one shift that lands both on namesakes is chance
as often as not (commons-text 1.10 sorted `StrBuilderWriter`'s `write` overloads while it
moved the class 2,800 lines up), so it places neither; all of them shifted together still
place each."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.retrieval.gitrepo import GitRepo
from tests.retrieval.gold.reanchor_repo import chunk_id, gold_check, plain_copy
from tests.retrieval.gold.test_reanchor_twins import repo

__all__ = ["repo"]  # the fixture

KINDS = ["int", "char", "long", "short", "byte"]


def java(kinds: list[str]) -> str:
    methods = "".join(
        f"    @Override\n    public void write(final {k} c) {{\n        append(c);\n    }}\n\n"
        for k in kinds
    )
    return f"class Writer {{\n{methods}}}\n"


def rust(kinds: list[str]) -> str:
    return "".join(
        f"impl From<{k}> for Value {{\n    fn from(v: {k}) -> Self {{\n"
        f"        Value::new(v)\n    }}\n}}\n\n"
        for k in kinds
    )


# language: (file, the text of its namesakes in an order, their symbol, comment mark)
CASES = {
    "java": ("Writer.java", java, "Writer.write", "//"),
    "rust": ("value.rs", rust, "Value.from", "//"),
}


@pytest.mark.parametrize("language", list(CASES))
def test_two_of_several_overloads_reordered_are_not_placed_by_one_shift(
    language: str, repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path, text, symbol, mark = CASES[language]
    repo.write(path, "".join(f"{mark} {n}\n" for n in range(40)) + text(KINDS))
    old = repo.commit("overloads below a long header")
    gold = [chunk_id(repo, path, symbol, 0), chunk_id(repo, path, symbol, 4)]
    repo.write(path, text(sorted(KINDS)))  # byte, char, int, long, short
    repo.commit("header gone, overloads sorted")
    code, got = gold_check(repo, tmp_path, capsys, gold, old, root=plain_copy(repo, tmp_path))
    assert code == 1
    # `int` is third now, not first; `byte`, last then, is first now.
    assert [(got[g]["kind"], got[g]["new_chunk_id"]) for g in gold] == [("ambiguous", None)] * 2


@pytest.mark.parametrize("language", list(CASES))
def test_all_namesakes_shifted_together_are_placed(
    language: str, repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path, text, symbol, mark = CASES[language]
    kinds = KINDS[:2]
    repo.write(path, "".join(f"{mark} {n}\n" for n in range(40)) + text(kinds))
    old = repo.commit("two overloads below a long header")
    gold = [chunk_id(repo, path, symbol, n) for n in range(2)]
    repo.write(path, text(kinds))
    repo.commit("header gone")
    code, got = gold_check(repo, tmp_path, capsys, gold, old, root=plain_copy(repo, tmp_path))
    assert code == 1
    assert [got[g]["new_chunk_id"] for g in gold] == [
        chunk_id(repo, path, symbol, n) for n in range(2)
    ]
