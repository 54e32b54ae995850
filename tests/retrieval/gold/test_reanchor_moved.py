"""A file moved alone and a type renamed on the way, checked in a plain tree (a copy
without `.git`: no history, no old bodies): the set's other IDs of the old file (or type)
standing in one new file (or type) take an ID there; two that could be it take it nowhere."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.retrieval.gitrepo import GitRepo
from tests.retrieval.gold.reanchor_repo import chunk_id, gold_check
from tests.retrieval.gold.test_reanchor_plain import plain_copy
from tests.retrieval.gold.test_reanchor_split import ENCLOSED, indent
from tests.retrieval.gold.test_reanchor_twins import repo

__all__ = ["repo"]  # the fixture


def errors_file(path: str) -> str:
    """`src/errors.ts` beside `src/timed-out.ts`."""
    folder, _, name = path.rpartition("/")
    return f"{folder}/errors.{name.rpartition('.')[2]}"


@pytest.mark.parametrize("language", list(ENCLOSED))
def test_a_moved_file_takes_its_functions_though_a_split_took_its_other_names(
    language: str, repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`utils/timed-out` moved up a folder, its functions inside one function there; its
    two other names went to a new `errors` file (which the set sees as a split of it):
    the file of its name, holding its three functions, is where they went all the same."""
    name, outer, wrapper, function, inner, scope = ENCLOSED[language]
    old_path, new_path = f"src/utils/{name}", f"src/{name}"
    functions = "\n".join(function.format(n=n) for n in inner)
    repo.write(old_path, outer.format(inner=functions))
    old = repo.commit("utils")
    gold = [chunk_id(repo, old_path, n) for n in ("noop", "TimeoutError", *inner)]
    repo.rm(old_path)
    repo.write(new_path, wrapper.format(inner=indent(functions, language)))
    repo.write(errors_file(new_path), outer.format(inner=""))
    repo.commit("timed-out moved up, its functions into one, the rest to errors")
    code, got = gold_check(repo, tmp_path, capsys, gold, old, root=plain_copy(repo, tmp_path))
    assert code == 1
    assert [(got[g]["kind"], got[g]["new_chunk_id"]) for g in gold[2:]] == [
        ("relocated", chunk_id(repo, new_path, f"{scope}.{n}")) for n in inner
    ]
    assert got[gold[2]]["evidence"] == (
        f"its name inside `{scope}` in {new_path}, with 2 other names of {old_path}"
    )


@pytest.mark.parametrize("language", ["typescript", "python"])
def test_two_files_of_its_name_holding_its_functions_take_them_nowhere(
    language: str, repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """As above, but `lib/` got a copy of the moved file too: either may be where the
    functions went, and a person chooses."""
    name, outer, wrapper, function, inner, _ = ENCLOSED[language]
    old_path, new_path = f"src/utils/{name}", f"src/{name}"
    functions = "\n".join(function.format(n=n) for n in inner)
    repo.write(old_path, outer.format(inner=functions))
    old = repo.commit("utils")
    gold = [chunk_id(repo, old_path, n) for n in ("noop", "TimeoutError", *inner)]
    repo.rm(old_path)
    moved = wrapper.format(inner=indent(functions, language))
    repo.write(new_path, moved)
    repo.write(f"lib/{name}", moved)
    repo.write(errors_file(new_path), outer.format(inner=""))
    repo.commit("timed-out moved up and copied to lib/")
    code, got = gold_check(repo, tmp_path, capsys, gold, old, root=plain_copy(repo, tmp_path))
    assert code == 1
    for g in gold[2:]:
        assert got[g]["kind"] == "missing_file"
        assert got[g]["new_chunk_id"] is None


# Per language: the old file (`{t}` the type's name, `{m}` its members), the file a
# renamed type lands in, and the name of each member (`{t}`, `{n}`).
RETYPED = {
    "rust": (
        "src/store.rs",
        "pub struct {t} {{\n    data: Vec<u8>,\n}}\n\nimpl {t} {{\n{m}}}\n",
        "src/ext.rs",
        "    pub fn {n}(&self) -> usize {{\n"
        '        let label = "{n}";\n        label.len() + self.data.len()\n    }}\n',
    ),
    "python": (
        "pkg/store.py",
        "class {t}:\n{m}",
        "pkg/ext.py",
        '    def {n}(self):\n        label = "{n}"\n        return len(label) + len(self.data)\n',
    ),
    "typescript": (
        "src/store.ts",
        "export class {t} {{\n  data: string[] = [];\n{m}}}\n",
        "src/ext.ts",
        '  {n}(): number {{\n    const label = "{n}";\n'
        "    return label.length + this.data.length;\n  }}\n",
    ),
    "go": (
        "store/store.go",
        "package store\n\ntype {t} struct {{\n\tdata []byte\n}}\n\n{m}",
        "store/ext.go",
        'func (s *{t}) {n}() int {{\n\tlabel := "{n}"\n\treturn len(label) + len(s.data)\n}}\n',
    ),
    "java": (
        "src/main/java/store/Store.java",
        "package store;\n\npublic class {t} {{\n    int[] data;\n\n{m}}}\n",
        "src/main/java/store/StoreExt.java",
        '    public int {n}() {{\n        String label = "{n}";\n'
        "        return label.length() + data.length;\n    }}\n",
    ),
}
MEMBERS = ("fieldsWith", "trimStart", "reverseChars")
HELPERS = ("encodeAll", "decodeAll")


def members(language: str, type_name: str, names: tuple[str, ...] = MEMBERS) -> str:
    member = RETYPED[language][3]
    return "\n".join(member.format(t=type_name, n=n) for n in names)


def type_file(language: str, type_name: str, names: tuple[str, ...] = MEMBERS) -> str:
    """The type with `names` as its members (Go: methods after it)."""
    text = RETYPED[language][1]
    return text.format(t=type_name, m=members(language, type_name, names))


def helpers(language: str) -> str:
    """Two free functions (Java: two more classes' worth, as static methods of `Helpers`)."""
    return members(language, "Helpers", HELPERS).replace("(self)", "()")


@pytest.mark.parametrize("language", list(RETYPED))
def test_a_types_members_follow_it_renamed_into_the_successor(
    language: str, repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`Store` keeps its data; its three methods went to a new file, as members of
    `StoreExt`, with two other names of the old file (that make the new file its
    successor): each method goes to its namesake in `StoreExt`."""
    old_path, _, new_path, _ = RETYPED[language]
    helper = "Helpers"
    repo.write(old_path, type_file(language, "Store") + "\n" + type_file(language, helper, HELPERS))
    old = repo.commit("store")
    gold = [chunk_id(repo, old_path, f"Store.{n}") for n in MEMBERS]
    gold += [chunk_id(repo, old_path, f"{helper}.{n}") for n in HELPERS]
    repo.write(old_path, type_file(language, "Store", ()))
    moved = type_file(language, "StoreExt") + "\n" + type_file(language, helper, HELPERS)
    repo.write(new_path, moved)
    repo.commit("Store's methods to StoreExt")
    code, got = gold_check(repo, tmp_path, capsys, gold, old, root=plain_copy(repo, tmp_path))
    assert code == 1
    assert [(got[g]["kind"], got[g]["new_chunk_id"]) for g in gold[:3]] == [
        ("relocated", chunk_id(repo, new_path, f"StoreExt.{n}")) for n in MEMBERS
    ]
    assert got[gold[0]]["evidence"] == (
        f"`Store` became `StoreExt` in {new_path}, with 2 other members of it in {old_path}"
    )


@pytest.mark.parametrize("language", ["rust", "java"])
def test_two_new_types_holding_its_members_take_them_nowhere(
    language: str, repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """As above, but `StoreView` in the same new file has the three methods too: either
    may be what `Store` became, and a person chooses."""
    old_path, _, new_path, _ = RETYPED[language]
    helper = "Helpers"
    repo.write(old_path, type_file(language, "Store") + "\n" + type_file(language, helper, HELPERS))
    old = repo.commit("store")
    gold = [chunk_id(repo, old_path, f"Store.{n}") for n in MEMBERS]
    gold += [chunk_id(repo, old_path, f"{helper}.{n}") for n in HELPERS]
    repo.write(old_path, type_file(language, "Store", ()))
    both = type_file(language, "StoreExt") + "\n" + type_file(language, "StoreView")
    repo.write(new_path, both + "\n" + type_file(language, helper, HELPERS))
    repo.commit("Store's methods to StoreExt and StoreView")
    code, got = gold_check(repo, tmp_path, capsys, gold, old, root=plain_copy(repo, tmp_path))
    assert code == 1
    for g in gold[:3]:
        assert got[g]["kind"] == "missing_symbol"
        assert got[g]["new_chunk_id"] is None


def test_java_tests_outside_a_test_folder_move_with_it_into_one(
    repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A Maven module of tests (`lib-unit-test/src/main/java`: no `test` folder, the
    classes named `*Test`) merged into `lib/src/test/java`: test code on both sides, the
    folder moved with its three files."""
    old_folder, new_folder = "lib-unit-test/src/main/java/org/lib", "lib/src/test/java/org/lib"
    names = ("AlphaTest", "BetaTest", "GammaTest")
    for name in names:
        repo.write(
            f"{old_folder}/{name}.java",
            f"package org.lib;\n\npublic class {name} {{\n    public void testRenders() {{\n"
            f'        String label = "{name}";\n        assert label.length() > 0;\n    }}\n}}\n',
        )
    old = repo.commit("tests module")
    gold = [chunk_id(repo, f"{old_folder}/{n}.java", f"{n}.testRenders") for n in names]
    for name in names:
        repo.mv(f"{old_folder}/{name}.java", f"{new_folder}/{name}.java")
    repo.commit("modules merged into lib/")
    code, got = gold_check(repo, tmp_path, capsys, gold, old, root=plain_copy(repo, tmp_path))
    assert code == 1
    assert [(got[g]["kind"], got[g]["new_chunk_id"]) for g in gold] == [
        ("relocated", chunk_id(repo, f"{new_folder}/{n}.java", f"{n}.testRenders")) for n in names
    ]
    assert got[gold[0]]["evidence"] == (
        "same name in the file its folder moved to "
        "(lib-unit-test/src/main/ -> lib/src/test/ with 3 files)"
    )
