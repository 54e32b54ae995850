"""A TypeScript declaration file (`@types/index.d.ts`) holds signatures, no code: a class
moved to another file is not also "there" (node-fetch 3 moved `src/abort-error.js` to
`src/errors/abort-error.js` and declares `AbortError` in `@types/index.d.ts`), so its name
is still defined once in the code."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.retrieval.gitrepo import GitRepo
from tests.retrieval.gold.reanchor_repo import chunk_id, gold_check, plain_copy
from tests.retrieval.gold.test_reanchor_twins import repo

__all__ = ["repo"]  # the fixture

ABORT_ERROR = (
    "export class AbortError extends Error {\n  constructor (message) {\n"
    "    super(message)\n    this.type = 'aborted'\n  }\n}\n"
)
DECLARED = "export class AbortError extends Error {\n  type: string\n}\n"


def _moved_and_declared(repo: GitRepo) -> tuple[str, str]:
    repo.write("src/abort-error.js", ABORT_ERROR)
    old = repo.commit("the class")
    gold = chunk_id(repo, "src/abort-error.js", "AbortError")
    repo.rm("src/abort-error.js")
    repo.write("src/errors/abort-error.js", "// errors\n" + ABORT_ERROR)
    repo.write("@types/index.d.ts", DECLARED)
    repo.commit("moved, and declared")
    return old, gold


def test_a_declaration_file_is_no_second_home(
    repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    old, gold = _moved_and_declared(repo)
    code, got = gold_check(repo, tmp_path, capsys, [gold], old, root=plain_copy(repo, tmp_path))
    assert code == 1
    assert got[gold]["new_chunk_id"] == chunk_id(repo, "src/errors/abort-error.js", "AbortError")
    assert got[gold]["evidence"] == "name defined once in the tree"


def test_a_declaration_is_placed_among_declarations(
    repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A gold ID of a declaration file follows its name into declaration files only."""
    repo.write("index.d.ts", DECLARED)
    repo.write("src/abort-error.js", ABORT_ERROR)
    old = repo.commit("declared")
    gold = chunk_id(repo, "index.d.ts", "AbortError")
    repo.rm("index.d.ts")
    repo.write("@types/index.d.ts", "// types\n" + DECLARED)
    repo.commit("declarations moved")
    code, got = gold_check(repo, tmp_path, capsys, [gold], old, root=plain_copy(repo, tmp_path))
    assert code == 1
    assert got[gold]["new_chunk_id"] == chunk_id(repo, "@types/index.d.ts", "AbortError")
