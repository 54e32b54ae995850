"""A name found at its own lines among namesakes as long, in a plain tree (no old body):
when the ID placed for sure above it moved, the match at its own lines is chance (bstr
0.2's `impl Index` blocks, two blocks down: another block's `index` slid onto the ID's
lines), and a person chooses; when nothing above moved, it stands."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.retrieval.gitrepo import GitRepo
from tests.retrieval.gold.reanchor_repo import chunk_id, gold_check
from tests.retrieval.gold.test_reanchor_plain import plain_copy
from tests.retrieval.gold.test_reanchor_twins import repo

__all__ = ["repo"]  # the fixture

RUST = (
    "lib.rs",
    "pub fn helper() -> u32 {\n    let x = 1;\n    x + 1\n}\n\n",
    "".join(
        f"impl Index<{t}> for S {{\n    fn index(&self) -> u32 {{\n        {n}\n    }}\n}}\n\n"
        for n, t in enumerate("ABCD")
    ),
    "S.index",
    "//",
)
JAVA = (
    "S.java",
    "class S {\n  static int helper() {\n    int x = 1;\n    return x + 1;\n  }\n\n",
    "".join(f"  int index({t} t) {{\n    return {n};\n  }}\n\n" for n, t in enumerate("ABCD"))
    + "}\n",
    "S.index",
    "//",
)
CASES = {"rust": RUST, "java": JAVA}


@pytest.mark.parametrize("language", list(CASES))
def test_a_namesake_slid_onto_the_ids_lines_is_no_match_when_the_lines_above_moved(
    language: str, repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path, head, blocks, symbol, mark = CASES[language]
    repo.write(path, head + blocks)
    old = repo.commit("four namesakes")
    gold = [
        chunk_id(repo, path, "helper" if language == "rust" else "S.helper"),
        chunk_id(repo, path, symbol, 2),
    ]
    block = len(blocks.splitlines()) // 4
    # One block's worth of lines above everything: each `index` now sits where the one
    # before it was, and the third one's old lines hold the second.
    repo.write(path, "".join(f"{mark} note {i}\n" for i in range(block)) + head + blocks)
    repo.commit("lines above")
    code, got = gold_check(repo, tmp_path, capsys, gold, old, root=plain_copy(repo, tmp_path))
    assert code == 1
    assert got[gold[0]]["kind"] == "moved"
    assert got[gold[1]]["kind"] == "ambiguous"
    assert got[gold[1]]["new_chunk_id"] is None


@pytest.mark.parametrize("language", list(CASES))
def test_a_namesake_at_the_ids_lines_stands_when_nothing_above_moved(
    language: str, repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path, head, blocks, symbol, mark = CASES[language]
    repo.write(path, head + blocks)
    old = repo.commit("four namesakes")
    gold = [
        chunk_id(repo, path, "helper" if language == "rust" else "S.helper"),
        chunk_id(repo, path, symbol, 2),
    ]
    repo.write(path, head + blocks + f"{mark} a note below\n")
    repo.commit("a line below")
    code, got = gold_check(repo, tmp_path, capsys, gold, old, root=plain_copy(repo, tmp_path))
    assert code == 0
    assert [got[g]["kind"] for g in gold] == ["ok", "ok"]
