"""A namesake in a file the set shows stood at its revision, in a plain tree: rand 0.8
deleted `src/distributions/gamma.rs`, a deprecated copy of `rand_distr/src/gamma.rs`, which
stood beside it all along. The copy's `Gamma.sample` went nowhere; the one `Gamma.sample`
left, in a file a gold ID of the same revision names, may have been there then, so the ID
is left to a person. With nothing naming that file, the name alone still places it."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.retrieval.gitrepo import GitRepo
from tests.retrieval.gold.reanchor_repo import chunk_id, gold_check, plain_copy
from tests.retrieval.gold.test_reanchor_twins import repo

__all__ = ["repo"]  # the fixture


def rust(package: str) -> str:
    del package
    return (
        "pub struct Gamma {\n    shape: f64,\n}\n\n"
        "impl Gamma {\n    pub fn sample(&self, x: f64) -> f64 {\n"
        "        self.shape * x\n    }\n}\n\n"
        "pub struct ChiSquared {\n    k: f64,\n}\n\n"
        "impl ChiSquared {\n    pub fn new(k: f64) -> ChiSquared {\n"
        "        ChiSquared { k }\n    }\n}\n"
    )


def go(package: str) -> str:
    return (
        f"package {package}\n\ntype Gamma struct {{\n\tShape float64\n}}\n\n"
        "func (g Gamma) Sample(x float64) float64 {\n\treturn g.Shape * x\n}\n\n"
        "type ChiSquared struct {\n\tK float64\n}\n\n"
        "func NewChiSquared(k float64) ChiSquared {\n\treturn ChiSquared{K: k}\n}\n"
    )


# language: (the deleted copy, the file that stood, its text, the method, another name)
CASES = {
    "rust": (
        "src/distributions/gamma.rs",
        "rand_distr/src/gamma.rs",
        rust,
        "Gamma.sample",
        "ChiSquared.new",
    ),
    "go": ("distributions/gamma.go", "distr/gamma.go", go, "Gamma.Sample", "NewChiSquared"),
}


def checked(
    language: str,
    named: bool,
    repo: GitRepo,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> tuple[str, dict[str, object]]:
    """The copy deleted; `named`: the set also names another definition of the file that
    stood. The chunk ID of the namesake left, and the copy's ID's verdict."""
    copy, stood, text, method, other = CASES[language]
    for path in (copy, stood):
        repo.write(path, text(path.split("/")[-2]))
    old = repo.commit("a deprecated copy beside the distributions")
    gold = [chunk_id(repo, copy, method)]
    if named:
        gold.append(chunk_id(repo, stood, other))
    repo.rm(copy)
    repo.commit("the copy deleted")
    code, got = gold_check(repo, tmp_path, capsys, gold, old, root=plain_copy(repo, tmp_path))
    assert code == 1
    return chunk_id(repo, stood, method), got[gold[0]]


@pytest.mark.parametrize("language", list(CASES))
def test_a_namesake_in_a_file_the_set_shows_stood_is_no_new_home(
    language: str, repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    left, verdict = checked(language, True, repo, tmp_path, capsys)
    assert verdict["new_chunk_id"] is None
    assert left in verdict["candidates"]  # type: ignore[operator]


@pytest.mark.parametrize("language", list(CASES))
def test_with_nothing_naming_that_file_the_name_places_it(
    language: str, repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    left, verdict = checked(language, False, repo, tmp_path, capsys)
    assert verdict["new_chunk_id"] == left
