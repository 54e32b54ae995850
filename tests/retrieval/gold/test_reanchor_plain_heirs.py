"""Several IDs of one revision that their names alone send to one definition, in a plain
tree (no old bodies): those exactly as long as it are its heirs, the others other
definitions of the name in other modules (env_logger 0.11: `filter/mod.rs`' `Filter.fmt`
went to the new crate's `filter.rs`; the `Filter.fmt` of `filter/regex.rs` and
`filter/string.rs`, the cfg alternatives of a matcher, became `FilterOp.fmt`)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.retrieval.gitrepo import GitRepo
from tests.retrieval.gold.reanchor_repo import chunk_id, gold_check, plain_copy
from tests.retrieval.gold.test_reanchor_twins import repo

__all__ = ["repo"]  # the fixture


def rust_display(owner: str, lines: int) -> str:
    body = "".join(f"        let _x{n} = {n};\n" for n in range(lines - 3))
    return (
        f"pub struct {owner} {{\n    inner: String,\n}}\n\n"
        f"impl fmt::Display for {owner} {{\n"
        f"    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {{\n{body}"
        "        self.inner.fmt(f)\n    }\n}\n"
    )


def go_string(owner: str, lines: int) -> str:
    body = "".join(f"\t_ = {n}\n" for n in range(lines - 3))
    return (
        f"package {{}}\n\ntype {owner} struct {{\n\tinner string\n}}\n\n"
        f"func (f {owner}) String() string {{\n{body}\treturn f.inner\n}}\n"
    )


# language: (the method's symbol, a file of one type with it `lines` long, the old modules
# (the long one first), where the long one goes, where the short ones go)
CASES = {
    "rust": (
        "Filter.fmt",
        rust_display,
        ["src/filter/mod.rs", "src/filter/regex.rs", "src/filter/string.rs"],
        "crates/env_filter/src/filter.rs",
        "crates/env_filter/src/op.rs",
    ),
    "go": (
        "Filter.String",
        go_string,
        ["filter/filter.go", "filter/regex/filter.go", "filter/plain/filter.go"],
        "envfilter/filter.go",
        "envfilter/op.go",
    ),
}


@pytest.mark.parametrize("language", list(CASES))
def test_of_ids_sent_by_name_to_one_definition_the_one_as_long_is_its_heir(
    language: str, repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    symbol, text, modules, heir, op = CASES[language]

    def write(path: str, owner: str, lines: int) -> None:
        package = path.rpartition("/")[0].rpartition("/")[2]
        repo.write(path, text(owner, lines).replace("package {}", f"package {package}"))

    write(modules[0], "Filter", 6)
    for path in modules[1:]:
        write(path, "Filter", 3)
    old = repo.commit("a filter and two matchers")
    gold = [chunk_id(repo, path, symbol) for path in modules]
    for path in modules:
        repo.rm(path)
    write(heir, "Filter", 6)
    write(op, "FilterOp", 3)
    repo.commit("a crate of its own; the matchers are one FilterOp")
    code, got = gold_check(repo, tmp_path, capsys, gold, old, root=plain_copy(repo, tmp_path))
    assert code == 1
    assert got[gold[0]]["new_chunk_id"] == chunk_id(repo, heir, symbol)
    for short in gold[1:]:
        assert got[short]["new_chunk_id"] is None
        assert chunk_id(repo, heir, symbol) in got[short]["candidates"]


@pytest.mark.parametrize("language", list(CASES))
def test_ids_as_long_as_the_one_definition_all_go_there(
    language: str, repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Cfg alternatives merged into one file (env_logger 0.11's `buffer/plain.rs` and
    `buffer/termcolor.rs`): all as long, all its heirs."""
    symbol, text, modules, heir, _ = CASES[language]

    def write(path: str, lines: int) -> None:
        package = path.rpartition("/")[0].rpartition("/")[2]
        repo.write(path, text("Filter", lines).replace("package {}", f"package {package}"))

    for path in modules[1:]:
        write(path, 5)
    old = repo.commit("two alternatives")
    gold = [chunk_id(repo, path, symbol) for path in modules[1:]]
    for path in modules[1:]:
        repo.rm(path)
    write(heir, 5)
    repo.commit("one file")
    code, got = gold_check(repo, tmp_path, capsys, gold, old, root=plain_copy(repo, tmp_path))
    assert code == 1
    assert [got[g]["new_chunk_id"] for g in gold] == [chunk_id(repo, heir, symbol)] * 2
