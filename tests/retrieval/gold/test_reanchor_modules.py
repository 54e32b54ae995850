"""A Rust inline module moved out to its own file (`mod tests { ... }` -> `mod tests;` and
`src/map/tests.rs`): its definitions follow, their `tests.` prefix dropped, with history
and in a plain tree. Python, Go, TypeScript and Java have no such move: a module there is
its file already."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from evaltools.__main__ import main
from evaltools.retrieval.gold.reanchor.modules import other_module_file
from tests.retrieval.gitrepo import GitRepo
from tests.retrieval.gold.reanchor_repo import chunk_id, gold_check, plain_copy
from tests.retrieval.gold.test_reanchor_twins import repo

__all__ = ["repo"]  # the fixture

CODE = """pub struct Map {
    items: Vec<u32>,
}

impl Map {
    pub fn new() -> Self {
        Map { items: Vec::new() }
    }

    pub fn len(&self) -> usize {
        self.items.len()
    }
}
"""

TESTS = """use super::*;

#[test]
fn new() {
    let map = Map::new();
    assert_eq!(map.len(), 0);
    assert!(map.items.is_empty());
}

#[test]
fn it_works() {
    let mut map = Map::new();
    map.items.push(1);
    assert_eq!(map.len(), 1);
}
"""


def inline(tests: str) -> str:
    body = "".join(f"    {line}\n" if line else "\n" for line in tests.splitlines())
    return f"{CODE}\n#[cfg(test)]\nmod tests {{\n{body}}}\n"


def moved(repo: GitRepo, path: str, home: str, tests: str = TESTS) -> tuple[str, list[str]]:
    """The module inline in `path`, then moved to `home`: the old revision and its IDs."""
    repo.write(path, inline(tests))
    old = repo.commit("inline tests")
    gold = [chunk_id(repo, path, "tests.new"), chunk_id(repo, path, "tests.it_works")]
    repo.write(path, f"{CODE}\n#[cfg(test)]\nmod tests;\n")
    repo.write(home, tests)
    repo.commit("tests moved to their own file")
    return old, gold


@pytest.mark.parametrize("history", [True, False], ids=["git", "plain"])
@pytest.mark.parametrize(
    "files", [("src/map.rs", "src/map/tests.rs"), ("src/lib.rs", "src/tests/mod.rs")]
)
def test_an_inline_module_moved_to_its_file_takes_its_definitions_along(
    history: bool,
    files: tuple[str, str],
    repo: GitRepo,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    path, home = files
    old, gold = moved(repo, path, home)
    root = None if history else plain_copy(repo, tmp_path)
    code, got = gold_check(repo, tmp_path, capsys, gold, old if history else None, root=root)
    assert code == 1
    news = [chunk_id(repo, home, "new"), chunk_id(repo, home, "it_works")]
    assert [got[g]["new_chunk_id"] for g in gold] == news


def test_fix_rewrites_a_moved_module_and_shows_the_evidence(
    repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _, gold = moved(repo, "src/map.rs", "src/map/tests.rs")
    plain_copy(repo, tmp_path)
    record = json.dumps({"qid": "q1", "gold": {gold[0]: 3}}) + "\n"
    eval_set = tmp_path / "set.jsonl"
    eval_set.write_text(record, encoding="utf-8")
    argv = ["gold", "check", "set.jsonl", "--root", "plain", "--no-cache"]
    new = chunk_id(repo, "src/map/tests.rs", "new")
    evidence = "inline module tests moved to src/map/tests.rs"
    assert main([*argv, "--fix"]) == 0
    assert (
        f"set.jsonl:1:24: RG012 [info] {gold[0]} -> {new} (relocated: it is now {new}; "
        f"evidence: {evidence})" in capsys.readouterr().out.splitlines()
    )
    assert eval_set.read_text(encoding="utf-8") == record.replace(gold[0], new)


def test_a_module_file_not_declared_takes_nothing(
    repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The inline module deleted, a file of its name written but not declared (`mod
    tests;` absent): rustc never reads that file, so nothing says the module moved there."""
    _, gold = moved(repo, "src/map.rs", "src/map/tests.rs")
    repo.write("src/map.rs", CODE)
    repo.commit("tests declared no more")
    code, got = gold_check(repo, tmp_path, capsys, gold, None, root=plain_copy(repo, tmp_path))
    assert code == 1
    assert [got[g]["new_chunk_id"] for g in gold] == [None, None]


@pytest.mark.parametrize("history", [True, False], ids=["git", "plain"])
@pytest.mark.parametrize(
    "files",
    [
        ("src/map.rs", "src/map/mod.rs", "src/map/tests.rs"),
        ("src/map/mod.rs", "src/map.rs", "src/map/tests/mod.rs"),
    ],
)
def test_an_inline_module_moved_out_as_its_file_became_the_other_module_file(
    history: bool,
    files: tuple[str, str, str],
    repo: GitRepo,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """chrono 0.4.20: `src/datetime.rs` became `src/datetime/mod.rs` as its inline `mod
    serde` moved to `src/datetime/serde.rs`; the module is the same whichever of its two
    files holds it, so the declaration is read there."""
    path, declaring, home = files
    repo.write(path, inline(TESTS))
    old = repo.commit("inline tests")
    gold = [chunk_id(repo, path, "tests.new"), chunk_id(repo, path, "tests.it_works")]
    repo.rm(path)
    repo.write(declaring, f"{CODE}\n#[cfg(test)]\nmod tests;\n")
    repo.write(home, TESTS)
    repo.commit("module folder; tests in their own file")
    root = None if history else plain_copy(repo, tmp_path)
    code, got = gold_check(repo, tmp_path, capsys, gold, old if history else None, root=root)
    assert code == 1
    news = [chunk_id(repo, home, "new"), chunk_id(repo, home, "it_works")]
    assert [got[g]["new_chunk_id"] for g in gold] == news


@pytest.mark.parametrize(
    ("path", "other"),
    [
        ("src/map.rs", ["src/map/mod.rs"]),
        ("src/map/mod.rs", ["src/map.rs"]),
        ("mod.rs", []),  # the top of the tree: no `.rs` beside it
        ("lib.rs", []),
        ("src/main.rs", []),
        ("src/lib.rs", []),
    ],
)
def test_the_other_file_of_a_module_stays_inside_the_tree(path: str, other: list[str]) -> None:
    """(A review's case.) A crate root at the top of the tree has no other file: none is
    read outside the root (`/mod.rs`)."""
    assert other_module_file(path) == other
