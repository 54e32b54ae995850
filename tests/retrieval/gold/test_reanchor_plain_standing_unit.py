"""A namesake in another build unit (a crate, a package) that the set shows stood at its
revision, while the ID's own file still stands, in a plain tree: rand 0.8 deleted
`log_gamma` from `src/distributions/utils.rs`, and `rand_distr`, a crate of the workspace
all along, has its own copy. With that unit new (env_logger 0.11 moved its filter into a
new `crates/env_filter`), the name alone still places it."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.retrieval.gitrepo import GitRepo
from tests.retrieval.gold.reanchor_repo import chunk_id, gold_check, plain_copy
from tests.retrieval.gold.test_reanchor_twins import repo

__all__ = ["repo"]  # the fixture

# language: (manifest, the file of a unit under `{u}`, a function `{n}`, a function `{n}`
# of another body)
CASES = {
    "rust": (
        "Cargo.toml",
        "{u}src/utils.rs",
        "pub fn {n}(x: f64) -> f64 {{\n    let y = x * 2.0;\n    y.ln() + 1.0\n}}\n",
        "pub fn {n}(s: &str) -> usize {{\n    s.len()\n}}\n",
    ),
    "python": (
        "pyproject.toml",
        "{u}src/pkg/utils.py",
        "def {n}(x):\n    y = x * 2.0\n    return math.log(y) + 1.0\n",
        "def {n}(s):\n    return len(s)\n",
    ),
    "typescript": (
        "package.json",
        "{u}src/utils.ts",
        "export function {n}(x: number): number {{\n"
        "  const y = x * 2;\n  return Math.log(y) + 1;\n}}\n",
        "export function {n}(s: string): number {{\n  return s.length;\n}}\n",
    ),
}


def checked(
    language: str,
    unit_stood: bool,
    repo: GitRepo,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> tuple[str, dict[str, object]]:
    """`log_gamma` deleted from the main unit's file (which keeps `width`), and standing in
    the `distr` unit's file of the same name, that unit there at the old revision, the set
    naming another file of it (`unit_stood`), or new. The namesake's chunk ID and the ID's
    verdict."""
    manifest, path, heavy, light = CASES[language]
    main, distr = path.format(u=""), path.format(u="distr/")
    other = f"distr/more/shapes.{path.rpartition('.')[2]}"  # another package of that unit
    repo.write(manifest, "")
    repo.write(main, heavy.format(n="log_gamma") + "\n" + light.format(n="width"))
    if unit_stood:
        repo.write(f"distr/{manifest}", "")
        repo.write(distr, heavy.format(n="log_gamma"))
        repo.write(other, light.format(n="height"))
    old = repo.commit("two units")
    gold = [chunk_id(repo, main, "log_gamma"), chunk_id(repo, main, "width")]
    if unit_stood:
        gold.append(chunk_id(repo, other, "height"))
    repo.write(main, light.format(n="width"))
    repo.write(f"distr/{manifest}", "")
    repo.write(distr, heavy.format(n="log_gamma"))
    repo.write(other, light.format(n="height"))
    repo.commit("the main unit's copy deleted")
    code, got = gold_check(repo, tmp_path, capsys, gold, old, root=plain_copy(repo, tmp_path))
    assert code == 1
    return chunk_id(repo, distr, "log_gamma"), got[gold[0]]


@pytest.mark.parametrize("language", list(CASES))
def test_a_namesake_in_a_unit_the_set_shows_stood_is_no_new_home(
    language: str, repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    left, verdict = checked(language, True, repo, tmp_path, capsys)
    assert (verdict["kind"], verdict["new_chunk_id"]) == ("missing_symbol", None)
    assert left in verdict["candidates"]  # type: ignore[operator]


@pytest.mark.parametrize("language", list(CASES))
def test_a_namesake_in_a_new_unit_is_where_the_name_went(
    language: str, repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    left, verdict = checked(language, False, repo, tmp_path, capsys)
    assert (verdict["kind"], verdict["new_chunk_id"]) == ("relocated", left)
