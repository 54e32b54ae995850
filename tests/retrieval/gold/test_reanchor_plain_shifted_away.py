"""Namesakes that left their file together for another one, in a plain tree (no old
bodies): the one shift that places all of the set's namesakes of the old file in the one
file now holding the name places each (arrayvec 0.7 moved `ArrayVec`'s three
`IntoIterator` impls from `lib.rs` to `arrayvec.rs`), unless that file stood at the
revision or the name is now in two files."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.retrieval.gitrepo import GitRepo
from tests.retrieval.gold.reanchor_repo import chunk_id, gold_check, plain_copy
from tests.retrieval.gold.test_reanchor_plain import NAMESAKES, comment
from tests.retrieval.gold.test_reanchor_twins import repo

__all__ = ["repo"]  # the fixture

# Where each language's namesakes go, and what their old file keeps (Java's is gone).
MOVES = {
    "javascript": ("parse.test.js", "function keep () {}\n"),
    "python": ("settings.py", "def keep():\n    pass\n"),
    "go": ("conf_init.go", "package conf\n\nfunc keep() {}\n"),
    "rust": ("env.rs", "pub fn keep() {}\n"),
    "java": ("model/Box.java", None),
}


def _move_away(repo: GitRepo, language: str, above: int = 4) -> tuple[str, list[str], str]:
    """The namesakes committed, then moved to their new file below `above` comment lines
    (and above what it held): the old revision, their gold IDs and the new file."""
    path, text, symbol = NAMESAKES[language]
    new_path, keep = MOVES[language]
    repo.write(path, text)
    old = repo.commit("two namesakes")
    gold = [chunk_id(repo, path, symbol, 0), chunk_id(repo, path, symbol, 1)]
    if keep is None:
        repo.rm(path)
    else:
        repo.write(path, keep)
    held = repo.read(new_path) if (repo.path / new_path).exists() else ""
    repo.write(new_path, comment(language, above) + text + held)
    repo.commit("the namesakes moved")
    return old, gold, new_path


@pytest.mark.parametrize("language", list(MOVES))
def test_namesakes_moved_together_to_another_file_follow_their_shift(
    language: str, repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    old, gold, new_path = _move_away(repo, language)
    symbol = NAMESAKES[language][2]
    code, got = gold_check(repo, tmp_path, capsys, gold, old, root=plain_copy(repo, tmp_path))
    assert code == 1
    assert [got[g]["new_chunk_id"] for g in gold] == [
        chunk_id(repo, new_path, symbol, 0),
        chunk_id(repo, new_path, symbol, 1),
    ]
    evidence = f"shifted +4 lines together with 1 namesake into {new_path}, their one file"
    assert got[gold[1]]["evidence"] == evidence


def test_a_file_the_set_shows_stood_at_the_revision_takes_none(
    repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`env.rs` stood then (a gold ID of the revision names it, still there): its
    namesakes may have been there all along under their own name."""
    repo.write("env.rs", "pub fn var() {}\n")
    old, gold, new_path = _move_away(repo, "rust")
    standing = chunk_id(repo, new_path, "var")
    code, got = gold_check(
        repo, tmp_path, capsys, [*gold, standing], old, root=plain_copy(repo, tmp_path)
    )
    assert code == 1
    assert [got[g]["new_chunk_id"] for g in gold] == [None, None]
    assert [got[g]["kind"] for g in gold] == ["missing_symbol"] * 2


def test_namesakes_now_in_two_files_are_placed_by_none(
    repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    old, gold, _ = _move_away(repo, "rust")
    repo.write("home_copy.rs", NAMESAKES["rust"][1])
    repo.commit("a copy")
    code, got = gold_check(repo, tmp_path, capsys, gold, old, root=plain_copy(repo, tmp_path))
    assert code == 1
    assert [got[g]["new_chunk_id"] for g in gold] == [None, None]


def test_code_does_not_follow_its_namesakes_into_a_test_file(
    repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path, text, symbol = NAMESAKES["go"]
    repo.write(path, text)
    old = repo.commit("two namesakes")
    gold = [chunk_id(repo, path, symbol, 0), chunk_id(repo, path, symbol, 1)]
    repo.write(path, "package conf\n\nfunc keep() {}\n")
    repo.write("conf_test.go", comment("go", 4) + text)
    repo.commit("the namesakes now in a test file")
    code, got = gold_check(repo, tmp_path, capsys, gold, old, root=plain_copy(repo, tmp_path))
    assert code == 1
    assert [got[g]["new_chunk_id"] for g in gold] == [None, None]
