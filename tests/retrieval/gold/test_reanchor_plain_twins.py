"""A name found at its own lines among namesakes as long, in a plain tree (no old body):
when the ID placed for sure above it moved, the match at its own lines is chance (bstr
0.2's `impl Index` blocks, two blocks down: another block's `index` slid onto the ID's
lines), and a person chooses; when nothing above moved, it stands."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

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


def checked(
    language: str,
    repo: GitRepo,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    edit: Callable[[str, str], str],
) -> tuple[int, list[dict[str, Any]]]:
    """`helper` and the third `index` as gold, the file edited by `edit(text, comment
    mark)`, checked in a plain copy: the exit code and each ID's verdict."""
    path, head, blocks, symbol, mark = CASES[language]
    repo.write(path, head + blocks)
    old = repo.commit("four namesakes")
    helper = "helper" if language == "rust" else "S.helper"
    gold = [chunk_id(repo, path, helper), chunk_id(repo, path, symbol, 2)]
    repo.write(path, edit(head + blocks, mark))
    repo.commit("edited")
    code, got = gold_check(repo, tmp_path, capsys, gold, old, root=plain_copy(repo, tmp_path))
    return code, [got[g] for g in gold]


@pytest.mark.parametrize("language", list(CASES))
def test_a_namesake_slid_onto_the_ids_lines_is_no_match_when_the_lines_above_moved(
    language: str, repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    block = len(CASES[language][2].splitlines()) // 4
    # One block's worth of lines above everything: each `index` now sits where the one
    # before it was, and the third one's old lines hold the second.
    code, (helper, index) = checked(
        language,
        repo,
        tmp_path,
        capsys,
        lambda text, mark: "".join(f"{mark} note {i}\n" for i in range(block)) + text,
    )
    assert code == 1
    assert helper["kind"] == "moved"
    assert (index["kind"], index["new_chunk_id"]) == ("ambiguous", None)


@pytest.mark.parametrize("language", list(CASES))
def test_a_namesake_at_the_ids_lines_stands_when_nothing_above_moved(
    language: str, repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, got = checked(
        language, repo, tmp_path, capsys, lambda text, mark: text + f"{mark} a note below\n"
    )
    assert code == 0
    assert [g["kind"] for g in got] == ["ok", "ok"]
