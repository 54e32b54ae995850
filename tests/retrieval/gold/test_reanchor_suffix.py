"""A file renamed to another extension of its language (`usage.js` -> `usage.cjs`, a test
in TypeScript now in JavaScript), checked in a plain tree: its IDs follow their names
into the one file of its path but for the extension (yargs 16)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.retrieval.gitrepo import GitRepo
from tests.retrieval.gold.reanchor_repo import chunk_id, gold_check
from tests.retrieval.gold.test_reanchor_plain import plain_copy
from tests.retrieval.gold.test_reanchor_twins import repo

__all__ = ["repo"]  # the fixture

STEP = "  step()\n"
# Three tests, each a line longer than the one before: one shift places their `foo`s.
TESTS = "".join(
    f"it('case {n}', function () {{\n  function foo (x) {{\n    return x + {n}\n  }}\n"
    + STEP * n
    + "  run(foo)\n})\n\n"
    for n in range(3)
)
NOOP = "function noop () {}\n\n"


@pytest.mark.parametrize(
    ("old_path", "new_path"),
    [("test/usage.js", "test/usage.cjs"), ("test/usage.ts", "test/usage.cjs")],
)
def test_a_file_under_another_extension_takes_its_ids(
    old_path: str, new_path: str, repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    repo.write(old_path, NOOP + TESTS)
    old = repo.commit("tests")
    gold = [
        chunk_id(repo, old_path, "noop"),
        *(chunk_id(repo, old_path, "foo", n) for n in range(3)),
    ]
    repo.rm(old_path)
    repo.write(new_path, "'use strict'\n" + NOOP + TESTS)
    repo.commit("tests as CommonJS")
    code, got = gold_check(repo, tmp_path, capsys, gold, old, root=plain_copy(repo, tmp_path))
    assert code == 1
    want = [
        chunk_id(repo, new_path, "noop"),
        *(chunk_id(repo, new_path, "foo", n) for n in range(3)),
    ]
    assert [(got[g]["kind"], got[g]["new_chunk_id"]) for g in gold] == [
        ("relocated", w) for w in want
    ]
    suffixes = f"{old_path.rpartition('.')[2]} -> .cjs"
    assert (
        got[gold[0]]["evidence"]
        == f"same name in {new_path}, its file under another extension (.{suffixes})"
    )


def test_two_files_under_other_extensions_take_none(
    repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    repo.write("lib/usage.js", NOOP)
    old = repo.commit("lib")
    gold = [chunk_id(repo, "lib/usage.js", "noop")]
    repo.rm("lib/usage.js")
    repo.write("lib/usage.cjs", NOOP)
    repo.write("lib/usage.mjs", NOOP)
    repo.commit("two builds")
    code, got = gold_check(repo, tmp_path, capsys, gold, old, root=plain_copy(repo, tmp_path))
    assert code == 1
    assert got[gold[0]]["kind"] == "missing_file"


def test_a_file_the_set_shows_was_there_is_no_new_home(
    repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    repo.write("lib/usage.js", NOOP)
    repo.write("lib/usage.ts", "function helper () {}\n\n" + NOOP)
    old = repo.commit("both")
    gold = [chunk_id(repo, "lib/usage.js", "noop"), chunk_id(repo, "lib/usage.ts", "helper")]
    repo.rm("lib/usage.js")
    repo.commit("the JavaScript one deleted")
    code, got = gold_check(repo, tmp_path, capsys, gold, old, root=plain_copy(repo, tmp_path))
    assert code == 1
    assert got[gold[0]]["kind"] == "missing_file"
