"""Bodies compared across TypeScript and JavaScript, with history: code moves between them
(yargs 16 turned its TypeScript tests into CommonJS), and of identical bodies in test code
and in the rest, the one of the ID's own kind is where it went (immer 6's test copy)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.retrieval.gitrepo import GitRepo
from tests.retrieval.gold.reanchor_repo import chunk_id, gold_check
from tests.retrieval.gold.test_reanchor_twins import repo

__all__ = ["repo"]  # the fixture


def function(name: str) -> str:
    return (
        f"function {name} (items) {{\n  let total = 0\n  for (const item of items) {{\n"
        "    total += item.price * item.quantity - item.discount\n  }\n"
        "  return Math.round(total * 100) / 100\n}\n"
    )


OTHER = "function render (x) {\n  return `<p>${x}</p>`\n}\n"


def test_a_typescript_function_renamed_into_a_javascript_file_is_followed_by_its_body(
    repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    repo.write("src/totals.ts", function("computeTotals") + "\n" + OTHER)
    old = repo.commit("TypeScript")
    gold = [chunk_id(repo, "src/totals.ts", "computeTotals")]
    repo.rm("src/totals.ts")
    repo.write("lib/sums.cjs", "'use strict'\n\n" + function("sumTotals"))
    repo.commit("CommonJS, renamed")
    code, got = gold_check(repo, tmp_path, capsys, gold, old)
    assert code == 1
    assert got[gold[0]]["kind"] == "relocated"
    assert got[gold[0]]["new_chunk_id"] == chunk_id(repo, "lib/sums.cjs", "sumTotals")


def test_of_identical_bodies_in_a_test_and_in_the_code_the_code_s_is_where_it_went(
    repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    repo.write("src/common.ts", function("totals") + "\n" + OTHER)
    old = repo.commit("common")
    gold = [chunk_id(repo, "src/common.ts", "totals")]
    repo.write("src/common.ts", OTHER)
    steps = "".join(
        f"export function step{n} (x) {{\n  return x * {n} + {n}\n}}\n" for n in range(30)
    )
    plugin = "export function enableCart () {\n" + function("totals") + "}\n"
    repo.write("src/plugins/cart.ts", steps + plugin)
    cases = "".join(
        f"test('case {n}', () => {{\n  expect(run({n})).toBe({n})\n}})\n" for n in range(40)
    )
    repo.write("__tests__/base.js", function("totals") + "\n" + cases)
    repo.commit("into a plugin, a copy in the tests")
    code, got = gold_check(repo, tmp_path, capsys, gold, old)
    assert code == 1
    assert got[gold[0]]["kind"] == "relocated"
    assert got[gold[0]]["new_chunk_id"] == chunk_id(
        repo, "src/plugins/cart.ts", "enableCart.totals"
    )
