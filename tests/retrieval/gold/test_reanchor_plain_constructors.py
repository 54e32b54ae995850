"""A Java constructor in a plain tree (no old bodies), its package moved: its name is its
class's, so the one constructor left there says nothing of which of the old ones the ID
was (commons-beanutils 2.0 dropped deprecated constructors as it moved to `beanutils2`),
while a method's name still places it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.retrieval.gitrepo import GitRepo
from tests.retrieval.gold.reanchor_repo import chunk_id, gold_check, plain_copy
from tests.retrieval.gold.test_reanchor_twins import repo

__all__ = ["repo"]  # the fixture


def converter(constructors: list[str]) -> str:
    """A class `Conv` with constructors of the given parameters (a line each) and a method
    `convert`."""
    return (
        "package p;\n\npublic class Conv {\n"
        + "".join(
            f"    public Conv({c}) {{\n"
            + "".join(f"        this.init({p.split()[-1]});\n" for p in c.split(", "))
            + "    }\n\n"
            for c in constructors
        )
        + "    public Object convert(Object value) {\n        return value;\n    }\n}\n"
    )


def checked(
    repo: GitRepo,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    change: tuple[list[str], list[str], str],
    *,
    line: str,
    name: str,
) -> dict[str, Any]:
    """`Conv` in package `p` with the constructors `change[0]`, then in package `p2` with
    `change[1]` under the lines `change[2]`: the verdict, in a plain tree, on the ID of the
    definition opening at `line` and called `name`."""
    before, after, above = change
    others = "".join(
        f"package p;\n\npublic class Other{n} {{\n    void run() {{\n    }}\n}}\n" for n in range(2)
    )
    repo.write("src/p/Conv.java", converter(before))
    repo.write("src/p/Other0.java", others)
    old = repo.commit("package p")
    for path in ("src/p/Conv.java", "src/p/Other0.java"):
        (repo.path / path).unlink()
    repo.write("src/p2/Conv.java", above + converter(after).replace("package p;", "package p2;"))
    repo.write("src/p2/Other0.java", others.replace("package p;", "package p2;"))
    repo.commit("package p2")
    start = converter(before).splitlines().index(line) + 1
    gold = f"src/p/Conv.java:{start}-{start + 2}:{name}"
    code, got = gold_check(repo, tmp_path, capsys, [gold], old, root=plain_copy(repo, tmp_path))
    assert code == 1
    return got[gold]


THREE = ["int n", "String s", "long l"]


def test_the_one_constructor_left_of_another_length_is_no_match(
    repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    change = (THREE, ["int n, int m"], "")
    got = checked(
        repo, tmp_path, capsys, change, line="    public Conv(String s) {", name="Conv.Conv"
    )
    assert (got["kind"], got["new_chunk_id"]) == ("missing_file", None)


def test_a_method_of_the_moved_file_follows_its_name(
    repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    line = "    public Object convert(Object value) {"
    got = checked(repo, tmp_path, capsys, (THREE, ["int n"], ""), line=line, name="Conv.convert")
    assert got["new_chunk_id"] == chunk_id(repo, "src/p2/Conv.java", "Conv.convert")


@pytest.mark.parametrize("above", ["", "// a\n" * 3])
def test_a_constructor_as_long_in_the_moved_file_follows(
    above: str, repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The one constructor left, as long, at the ID's lines or not (its file's header
    changed): its name and length say it is it."""
    change = (["String s"], ["String s"], above)
    got = checked(
        repo, tmp_path, capsys, change, line="    public Conv(String s) {", name="Conv.Conv"
    )
    assert got["new_chunk_id"] == chunk_id(repo, "src/p2/Conv.java", "Conv.Conv")
