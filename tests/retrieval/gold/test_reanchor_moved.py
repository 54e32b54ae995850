"""A file moved alone and a type renamed on the way, checked in a plain tree (a copy
without `.git`: no history, no old bodies): the set's other IDs of the old file (or type)
standing in one new file (or type) take an ID there; two that could be it take it nowhere."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.retrieval.gitrepo import GitRepo
from tests.retrieval.gold.reanchor_repo import chunk_id, gold_check, plain_copy
from tests.retrieval.gold.test_reanchor_split import ENCLOSED, NAMES, indent, write
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


def rust_file(functions: tuple[str, ...], tests: tuple[str, ...]) -> str:
    """Functions, and a test module of `tests` (each test's body names it)."""
    member = RETYPED["rust"][3].replace("&self", "").replace(" + self.data.len()", "")
    text = "\n".join(member.format(n=n).replace("    ", "", 1) for n in functions)
    cases = "".join(
        f'    #[test]\n    fn {t}() {{\n        assert_eq!("{t}".len(), {len(t)});\n    }}\n'
        for t in tests
    )
    return text + f"\n#[cfg(test)]\nmod tests {{\n{cases}}}\n"


@pytest.mark.parametrize("moved", [3, 1])
def test_a_rust_test_module_goes_with_its_files_split_when_its_tests_do(
    moved: int, repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`store.rs` gave two functions and its tests to `ext.rs`: three tests of the module
    went there together, so each goes; a test alone there (the others staying) may be
    another module's test of the same name, and stays for a person."""
    tests = ("splits_bytes", "trims_start", "reverses_chars")
    repo.write("src/store.rs", rust_file(("keep", *HELPERS), tests))
    old = repo.commit("store")
    gold = [chunk_id(repo, "src/store.rs", n) for n in HELPERS]
    gold += [chunk_id(repo, "src/store.rs", f"tests.{t}") for t in tests]
    repo.write("src/store.rs", rust_file(("keep",), tests[moved:]))
    repo.write("src/ext.rs", rust_file(HELPERS, tests[:moved]))
    repo.commit("two functions and some tests to ext.rs")
    code, got = gold_check(repo, tmp_path, capsys, gold, old, root=plain_copy(repo, tmp_path))
    assert code == 1
    first = gold[2]
    if moved == 3:
        assert (got[first]["kind"], got[first]["new_chunk_id"]) == (
            "relocated",
            chunk_id(repo, "src/ext.rs", f"tests.{tests[0]}"),
        )
        assert got[first]["evidence"] == (
            "same name in src/ext.rs, where 4 other names of src/store.rs went"
        )
    else:
        assert (got[first]["kind"], got[first]["new_chunk_id"]) == ("missing_symbol", None)


# Per language: a file of three namesakes (`{0}`, `{1}`, `{2}`: the lines of each body
# past the first), the header a namesake's body line repeats, and their name.
IN_ORDER = {
    "java": (
        "src/Paths.java",
        "public class Paths {{\n"
        "    public static String join(String a) {{\n        String s = a;\n{0}    }}\n\n"
        "    public static String join(String a, int b) {{\n        String s = a + b;\n{1}"
        "    }}\n\n"
        "    public static String join(int b) {{\n        String s = String.valueOf(b);\n{2}"
        "    }}\n"
        "}}\n",
        "        s = s.trim();\n",
        "Paths.join",
    ),
    "python": (
        "paths.py",
        "import sys\n\nif sys.platform == 'win32':\n    def home_dir():\n        home = 'C:'\n{0}"
        "elif sys.platform == 'darwin':\n    def home_dir():\n        home = '/Users'\n{1}"
        "else:\n    def home_dir():\n        home = '/home'\n{2}",
        "        home = home.strip()\n",
        "home_dir",
    ),
    "rust": (
        "src/name.rs",
        "pub struct Name(String);\n\n"
        "impl From<&str> for Name {{\n    fn from(s: &str) -> Name {{\n        let t = s;\n{0}"
        "    }}\n}}\n\n"
        "impl From<String> for Name {{\n    fn from(s: String) -> Name {{\n        let t = &s;\n{1}"
        "    }}\n}}\n\n"
        "impl From<char> for Name {{\n    fn from(c: char) -> Name {{\n        let t = c;\n{2}"
        "    }}\n}}\n",
        "        let t = t;\n",
        "Name.from",
    ),
}


def namesakes(language: str, lines: tuple[int, int, int]) -> str:
    """The file of three namesakes, each body `lines` lines past its first."""
    text, line, _ = IN_ORDER[language][1:]
    return text.format(*(line * n for n in lines))


@pytest.mark.parametrize("language", list(IN_ORDER))
def test_namesakes_moved_apart_keep_their_order_and_lengths(
    language: str, repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The first and last of three namesakes (as long as each other, the middle one
    longer) in the set; the middle one grew by a line, so they moved apart: in order and
    each as long, there is one way to place them."""
    path, *_, symbol = IN_ORDER[language]
    repo.write(path, namesakes(language, (1, 2, 1)))
    old = repo.commit("three namesakes")
    gold = [chunk_id(repo, path, symbol, n) for n in (0, 2)]
    repo.write(path, namesakes(language, (1, 3, 1)))
    repo.commit("the middle one grew")
    code, got = gold_check(repo, tmp_path, capsys, gold, old, root=plain_copy(repo, tmp_path))
    assert code == 1
    assert [(got[g]["kind"], got[g]["new_chunk_id"]) for g in gold] == [
        ("ok", None),
        ("moved", chunk_id(repo, path, symbol, 2)),
    ]
    assert got[gold[1]]["evidence"] == (
        "in order with 1 namesake, each as long: the one way to place them"
    )


def test_namesakes_placed_in_order_two_ways_stay_ambiguous(
    repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """As above, but all three as long: the last one may be the second or the third now."""
    path, *_, symbol = IN_ORDER["java"]
    repo.write(path, namesakes("java", (1, 1, 1)))
    old = repo.commit("three namesakes")
    gold = [chunk_id(repo, path, symbol, n) for n in (0, 2)]
    repo.write(path, namesakes("java", (1, 1, 1)).replace("    }\n\n", "    }\n\n\n", 1))
    repo.commit("a blank line after the first")
    code, got = gold_check(repo, tmp_path, capsys, gold, old, root=plain_copy(repo, tmp_path))
    assert code == 1
    assert got[gold[1]]["kind"] == "ambiguous"
    assert got[gold[1]]["new_chunk_id"] is None


@pytest.mark.parametrize("language", list(ENCLOSED))
def test_a_name_respelled_with_a_trailing_underscore_follows_its_moved_file(
    language: str, repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """As a moved file's functions went inside one function, the last was marked for
    mangling (`onSocket_`): its name but for the underscore, once in the moved file."""
    name, outer, wrapper, function, inner, scope = ENCLOSED[language]
    old_path, new_path = f"src/utils/{name}", f"src/{name}"
    repo.write(old_path, outer.format(inner="\n".join(function.format(n=n) for n in inner)))
    old = repo.commit("utils")
    gold = [chunk_id(repo, old_path, n) for n in inner]
    respelled = (*inner[:-1], inner[-1] + "_")
    functions = "\n".join(function.format(n=n) for n in respelled)
    repo.rm(old_path)
    repo.write(new_path, wrapper.format(inner=indent(functions, language)))
    repo.commit("timed-out moved up, its functions into one, the last respelled")
    code, got = gold_check(repo, tmp_path, capsys, gold, old, root=plain_copy(repo, tmp_path))
    assert code == 1
    new = chunk_id(repo, new_path, f"{scope}.{respelled[-1]}")
    assert (got[gold[-1]]["kind"], got[gold[-1]]["new_chunk_id"]) == ("relocated", new)
    assert got[gold[-1]]["evidence"] == (
        f"its name respelled `{scope}.{respelled[-1]}` in {new_path}, "
        f"the file {old_path} moved to, with 2 other names of it"
    )


def test_a_go_function_unexported_in_a_split_follows_the_others(
    repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Three functions of `core` went to `wire`, the last one unexported on the way."""
    keep, *moved = NAMES["go"][:4]
    core = write(repo, "go", "core", (keep, *moved))
    old = repo.commit("one file")
    gold = [chunk_id(repo, core, name) for name in moved]
    write(repo, "go", "core", (keep,))
    lowered = (*moved[:-1], moved[-1][0].lower() + moved[-1][1:])
    wire = write(repo, "go", "wire", lowered)
    repo.commit("core split, render unexported")
    code, got = gold_check(repo, tmp_path, capsys, gold, old, root=plain_copy(repo, tmp_path))
    assert code == 1
    new = chunk_id(repo, wire, lowered[-1])
    assert (got[gold[-1]]["kind"], got[gold[-1]]["new_chunk_id"]) == ("relocated", new)
    assert got[gold[-1]]["evidence"] == (
        f"its name respelled `{lowered[-1]}` in {wire}, where 2 other names of {core} went"
    )


@pytest.mark.parametrize("language", list(ENCLOSED))
@pytest.mark.parametrize("distinctive", [True, False])
def test_a_file_merged_into_a_function_of_another_takes_its_distinctive_names(
    language: str,
    distinctive: bool,
    repo: GitRepo,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """`utils/timed-out`'s three functions now inside `timedOut` of `plugins/timers`; a
    name another file of the tree also defines says nothing of where it went: with one,
    only two distinctive names stand there, and none of them moves."""
    name, outer, wrapper, function, inner, scope = ENCLOSED[language]
    old_path = f"src/utils/{name}"
    new_path = f"src/plugins/timers.{name.rpartition('.')[2]}"
    functions = "\n".join(function.format(n=n) for n in inner)
    repo.write(old_path, outer.format(inner=functions).replace("noop", "nothing"))
    old = repo.commit("utils")
    gold = [chunk_id(repo, old_path, n) for n in inner]
    repo.rm(old_path)
    repo.write(new_path, wrapper.format(inner=indent(functions, language)))
    if not distinctive:
        repo.write(f"src/other.{name.rpartition('.')[2]}", function.format(n=inner[0]))
    repo.commit("timed-out folded into the timers plugin")
    code, got = gold_check(repo, tmp_path, capsys, gold, old, root=plain_copy(repo, tmp_path))
    assert code == 1
    if distinctive:
        assert [(got[g]["kind"], got[g]["new_chunk_id"]) for g in gold] == [
            ("relocated", chunk_id(repo, new_path, f"{scope}.{n}")) for n in inner
        ]
        assert got[gold[0]]["evidence"] == (
            f"its name inside `{scope}` in {new_path}, with 2 other names of {old_path}"
        )
    else:
        assert [got[g]["new_chunk_id"] for g in gold] == [None] * 3
