"""Overloads in a plain tree (no old bodies), where lengths and lines are all there is: a
file reformatted changes the lengths, so the one namesake as long is not the ID's unless it
is also the nearest to where the ID's lines went; and the class around an ID says where
those lines went when nothing above it in the class is placed (commons-net 3.9)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.retrieval.gitrepo import GitRepo
from tests.retrieval.gold.reanchor_repo import chunk_id, gold_check, plain_copy
from tests.retrieval.gold.test_reanchor_plain import ids_of, write_types
from tests.retrieval.gold.test_reanchor_twins import repo

__all__ = ["repo"]  # the fixture

# Two overloads, braces on their own lines, then joined: the first one shrinks to two
# lines, the second to the first's old length. (path, before, after, name)
REFORMATTED = {
    "java": (
        "Conn.java",
        "class Conn {\n  Conn()\n  {\n  }\n\n  Conn(String m)\n  {\n    super(m);\n  }\n}\n",
        "class Conn {\n  Conn() {\n  }\n\n  Conn(String m) {\n    super(m);\n  }\n}\n",
        "Conn.Conn",
    ),
    "rust": (
        "conn.rs",
        "impl A for Conn {\n    fn open(&self)\n    {\n    }\n}\n\n"
        "impl B for Conn {\n    fn open(&self, m: u8)\n    {\n        send(m);\n    }\n}\n",
        "impl A for Conn {\n    fn open(&self) {\n    }\n}\n\n"
        "impl B for Conn {\n    fn open(&self, m: u8) {\n        send(m);\n    }\n}\n",
        "Conn.open",
    ),
}


@pytest.mark.parametrize("language", list(REFORMATTED))
def test_the_one_namesake_as_long_is_no_match_when_another_is_as_near(
    language: str, repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """commons-net 3.9 reformatted `FTPConnectionClosedException`: its no-argument
    constructor, nothing else of the file in the set, took two lines, and the other one
    its old three. With nothing placed around it, its own lines are where it was: the
    other, as near them, is as likely, and a person chooses."""
    path, before, after, name = REFORMATTED[language]
    repo.write(path, before)
    old = repo.commit("overloads")
    gold = [chunk_id(repo, path, name, 0)]
    repo.write(path, after)
    repo.commit("reformatted")
    code, got = gold_check(repo, tmp_path, capsys, gold, old, root=plain_copy(repo, tmp_path))
    assert code == 1
    assert (got[gold[0]]["kind"], got[gold[0]]["new_chunk_id"]) == ("ambiguous", None)
    assert got[gold[0]]["candidates"][:2] == [
        chunk_id(repo, path, name, 0),
        chunk_id(repo, path, name, 1),
    ]


@pytest.mark.parametrize("language", list(REFORMATTED))
def test_the_one_namesake_as_long_and_nearest_is_the_match(
    language: str, repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Lines added above, none reformatted: the namesake as long is also the nearest to
    the ID's old lines, and its length places it."""
    path, before, _, name = REFORMATTED[language]
    repo.write(path, before)
    old = repo.commit("overloads")
    gold = [chunk_id(repo, path, name, 0)]
    repo.write(path, "// a note\n" * 5 + before)
    repo.commit("notes")
    code, got = gold_check(repo, tmp_path, capsys, gold, old, root=plain_copy(repo, tmp_path))
    assert code == 1
    assert (got[gold[0]]["kind"], got[gold[0]]["new_chunk_id"]) == (
        "moved",
        chunk_id(repo, path, name, 0),
    )
    assert got[gold[0]]["evidence"] == "the only namesake as long"


# Three lines of comments above a scope of three namesakes as long: (path, text, the
# scope's name, the namesakes' name).
ENCLOSED = {
    "java": (
        "E.java",
        "class E {\n"
        + "".join(f"  E({t} a) {{\n    use(a);\n  }}\n" for t in ("int", "String", "long"))
        + "}\n",
        "E",
        "E.E",
    ),
    "rust": (
        "e.rs",
        "mod e {\n"
        + "".join(
            f'    #[cfg(feature = "{t}")]\n    fn run() {{\n        go();\n    }}\n' for t in "abc"
        )
        + "}\n",
        "e",
        "e.run",
    ),
}


@pytest.mark.parametrize("language", list(ENCLOSED))
def test_a_namesake_slid_onto_the_ids_lines_is_no_match_when_its_class_moved(
    language: str, repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """commons-net 3.9 joined `TFTPPacketException`'s header lines: the class moved up,
    and its second constructor's old lines hold another one now. The class, placed by its
    name, says its members' lines moved: the match at the old lines is chance, and the one
    as long where the class's shift puts the ID is the match."""
    path, text, scope, name = ENCLOSED[language]
    mark = "// note\n" * 3
    repo.write(path, mark + text)
    old = repo.commit("three namesakes")
    gold = [chunk_id(repo, path, scope), chunk_id(repo, path, name, 1)]
    repo.write(path, text)
    repo.commit("notes gone")
    code, got = gold_check(repo, tmp_path, capsys, gold, old, root=plain_copy(repo, tmp_path))
    assert code == 1
    assert (got[gold[0]]["kind"], got[gold[0]]["new_chunk_id"]) == (
        "moved",
        chunk_id(repo, path, scope),
    )
    assert (got[gold[1]]["kind"], got[gold[1]]["new_chunk_id"]) == (
        "moved",
        chunk_id(repo, path, name, 1),
    )
    assert got[gold[1]]["evidence"] == "as long, -3 lines like the ID above it"


@pytest.mark.parametrize("language", list(ENCLOSED))
def test_a_namesake_at_the_ids_lines_stands_when_its_class_did_not_move(
    language: str, repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path, text, scope, name = ENCLOSED[language]
    repo.write(path, text)
    old = repo.commit("three namesakes")
    gold = [chunk_id(repo, path, scope), chunk_id(repo, path, name, 1)]
    repo.write(path, text + "// a note below\n")
    repo.commit("a note")
    code, got = gold_check(repo, tmp_path, capsys, gold, old, root=plain_copy(repo, tmp_path))
    assert code == 0
    assert [got[g]["kind"] for g in gold] == ["ok", "ok"]


def constructors(above: str, fields: str, string_lines: int, int_lines: int) -> str:
    """A class `C` with two constructors of the given lengths and a method `m` after them."""
    return (
        f"package p;\n\n{above}public class C {{\n{fields}"
        + "  public C(String s) {\n"
        + "".join(f"    this.s{j} = s;\n" for j in range(string_lines - 2))
        + "  }\n\n  public C(int n) {\n"
        + "".join(f"    this.n{j} = n;\n" for j in range(int_lines - 2))
        + "  }\n\n  public int m() {\n    return 1;\n  }\n}\n"
    )


def test_the_id_placed_below_outweighs_the_class_around(
    repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Fields added inside the class move its members more than its start: the method
    placed below says where the constructor's lines went, and there the one as long is
    not the nearest (a person chooses), though by the class's start it would be."""
    repo.write("C.java", constructors("", "", 3, 5))
    old = repo.commit("two constructors")
    gold = [chunk_id(repo, "C.java", n, i) for n, i in (("C", 0), ("C.C", 1), ("C.m", 0))]
    fields = "".join(f"  int {f};\n" for f in "abcd")
    repo.write("C.java", constructors("// a\n// b\n", fields, 5, 6))
    repo.commit("fields and notes")
    code, got = gold_check(repo, tmp_path, capsys, gold, old, root=plain_copy(repo, tmp_path))
    assert code == 1
    assert [got[g]["kind"] for g in gold] == ["moved", "ambiguous", "moved"]


def test_the_only_namesake_as_long_at_the_ids_lines_is_no_match_when_the_class_moved(
    repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """commons-net 3.9's `TFTPPacketException`: a line above the class went, the first
    constructor's braces were joined, and the second one, as long as the first was, now has
    its old lines; the first, nearer where the class's shift puts it, is as likely."""
    before = "// a\n// b\nclass E {\n  E()\n  {\n  }\n\n  E(String m) {\n    use(m);\n  }\n}\n"
    after = "// a\nclass E {\n  E() {}\n  E(String m) {\n    use(m);\n  }\n}\n"
    repo.write("E.java", before)
    old = repo.commit("two constructors")
    gold = [chunk_id(repo, "E.java", "E"), chunk_id(repo, "E.java", "E.E", 0)]
    repo.write("E.java", after)
    repo.commit("a note gone, braces joined")
    assert chunk_id(repo, "E.java", "E.E", 1) == gold[1]  # the second has the first's lines
    code, got = gold_check(repo, tmp_path, capsys, gold, old, root=plain_copy(repo, tmp_path))
    assert code == 1
    assert got[gold[0]]["kind"] == "moved"
    assert (got[gold[1]]["kind"], got[gold[1]]["new_chunk_id"]) == ("ambiguous", None)
    assert chunk_id(repo, "E.java", "E.E", 0) in got[gold[1]]["candidates"]


# A unique method, then three namesakes of one shape: (path, text, the method's name, the
# namesakes' name, comment mark).
SHAPED = {
    "java": (
        "Hex.java",
        "class Hex {\n  void head() {\n    a();\n  }\n\n"
        + "".join(f"  void run({t} a) {{\n    use(a);\n  }}\n\n" for t in ("int", "String", "long"))
        + "}\n",
        "Hex.head",
        "Hex.run",
        "//",
    ),
    "rust": (
        "conn.rs",
        "fn head() {\n    a();\n}\n\n"
        + "".join(
            f"impl {t} for Conn {{\n    fn run(&self) {{\n        use();\n    }}\n}}\n\n"
            for t in "ABC"
        ),
        "head",
        "Conn.run",
        "//",
    ),
    "python": (
        "spec.py",
        "class Spec:\n    def head(self):\n        return 1\n\n"
        "    @property\n    def value(self):\n        return self._v\n\n"
        "    @value.setter\n    def value(self, v):\n        self._v = v\n\n"
        "    @value.deleter\n    def value(self):\n        del self._v\n",
        "Spec.head",
        "Spec.value",
        "#",
    ),
}


@pytest.mark.parametrize("language", list(SHAPED))
def test_of_namesakes_as_long_the_one_where_the_shift_above_puts_it_is_the_match(
    language: str, repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """commons-codec 1.16 added two lines above `Hex`'s nine `encodeHex` overloads, two of
    them six lines long: the method above, placed by its name, moved two lines, and one of
    the two as long is exactly two lines below the ID's old lines."""
    path, text, above, name, mark = SHAPED[language]
    repo.write(path, text)
    old = repo.commit("namesakes")
    gold = [chunk_id(repo, path, above), chunk_id(repo, path, name, 1)]
    repo.write(path, f"{mark} one\n{mark} two\n" + text)
    repo.commit("notes")
    code, got = gold_check(repo, tmp_path, capsys, gold, old, root=plain_copy(repo, tmp_path))
    assert code == 1
    assert got[gold[0]]["kind"] == "moved"
    assert (got[gold[1]]["kind"], got[gold[1]]["new_chunk_id"]) == (
        "moved",
        chunk_id(repo, path, name, 1),
    )
    assert got[gold[1]]["evidence"] == "as long, +2 lines like the ID above it"


@pytest.mark.parametrize("language", list(SHAPED))
def test_of_namesakes_as_long_none_is_the_match_where_the_shift_above_puts_none(
    language: str, repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The notes went between the method above and the namesakes: its shift (none) puts
    the ID where no namesake starts now, and a person chooses."""
    path, text, above, name, mark = SHAPED[language]
    repo.write(path, text)
    old = repo.commit("namesakes")
    gold = [chunk_id(repo, path, above), chunk_id(repo, path, name, 1)]
    first = chunk_id(repo, path, name, 0)
    start = int(first.split(":")[1].split("-")[0])
    lines = text.splitlines(keepends=True)
    repo.write(
        path, "".join([*lines[: start - 1], f"{mark} one\n", f"{mark} two\n", *lines[start - 1 :]])
    )
    repo.commit("notes between")
    code, got = gold_check(repo, tmp_path, capsys, gold, old, root=plain_copy(repo, tmp_path))
    assert code == 1
    assert got[gold[0]]["kind"] == "ok"
    assert (got[gold[1]]["kind"], got[gold[1]]["new_chunk_id"]) == ("ambiguous", None)


def chained(language: str) -> tuple[str, str, str, str]:
    """Two `first` namesakes of two lengths, then three `run` ones of one shape: (path,
    text, the first's name, the others' name)."""
    if language == "java":
        body = "".join(
            f"  void first({t}) {{\n{b}  }}\n\n"
            for t, b in (("int a", "    a();\n"), ("String s", "    b();\n    c();\n    d();\n"))
        )
        runs = "".join(
            f"  void run({t} a) {{\n    use(a);\n  }}\n\n" for t in ("int", "String", "long")
        )
        return "C.java", "class C {\n" + body + runs + "}\n", "C.first", "C.run"
    body = "".join(
        f"impl {t} for C {{\n    fn first(&self) {{\n{b}    }}\n}}\n\n"
        for t, b in (("A", "        a();\n"), ("B", "        b();\n        c();\n        d();\n"))
    )
    runs = "".join(
        f"impl {t} for C {{\n    fn run(&self) {{\n        go();\n    }}\n}}\n\n" for t in "XYZ"
    )
    return "c.rs", body + runs, "C.first", "C.run"


@pytest.mark.parametrize("language", ["java", "rust"])
def test_a_namesake_placed_by_its_length_places_the_ones_below_it_by_its_shift(
    language: str, repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """commons-codec 1.16: `decodeHex`, the only overload of its length, placed by it;
    then the `encodeHex` below it, among several as long, by how far it moved."""
    path, text, first, name = chained(language)
    repo.write(path, text)
    old = repo.commit("namesakes")
    gold = [chunk_id(repo, path, name, 1), chunk_id(repo, path, first, 1)]
    repo.write(path, "// one\n// two\n" + text)
    repo.commit("notes")
    code, got = gold_check(repo, tmp_path, capsys, gold, old, root=plain_copy(repo, tmp_path))
    assert code == 1
    assert (got[gold[1]]["new_chunk_id"], got[gold[1]]["evidence"]) == (
        chunk_id(repo, path, first, 1),
        "the only namesake as long",
    )
    assert (got[gold[0]]["new_chunk_id"], got[gold[0]]["evidence"]) == (
        chunk_id(repo, path, name, 1),
        "as long, +2 lines like the ID above it",
    )


@pytest.mark.parametrize("neighbour", [True, False])
def test_in_a_moved_folder_the_one_namesake_as_long_must_be_where_its_neighbour_moved(
    neighbour: bool, repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """commons-dbcp 2.0 moved its package and reordered a test double's `execute`
    overloads: the one as long as the ID was another. A gold ID above it in the file, its
    name once there, says where the ID's lines went; without one, length alone decides."""
    head = "  void head() {\n    a();\n  }\n"
    mine = "  void run(int n) {\n    b(n);\n    c(n);\n  }\n"
    other = "  void run(String s) {\n    d(s);\n  }\n"
    old_paths = [*write_types(repo, "src", "java"), "src/T.java"]
    repo.write("src/T.java", "class T {\n" + head + "\n" + mine + "\n" + other + "}\n")
    old = repo.commit("three types, and a class with two overloads")
    gold = [chunk_id(repo, "src/T.java", "T.run", 0)]
    if neighbour:
        gold.append(chunk_id(repo, "src/T.java", "T.head"))
    evidence = ids_of(repo, old_paths[:-1], "java")  # that src/ moved
    for path in old_paths:
        repo.mv(path, path.replace("src/", "lib/", 1))
    grown = mine.replace("    c(n);\n", "    c(n);\n    f(n);\n")
    longer = other.replace("    d(s);\n", "    d(s);\n    e(s);\n")
    repo.write(
        "lib/T.java", "// moved\n\nclass T {\n" + head + "\n" + grown + "\n" + longer + "}\n"
    )
    repo.commit("src/ moved to lib/; both overloads grew a line")
    plain = plain_copy(repo, tmp_path)
    code, got = gold_check(repo, tmp_path, capsys, [*gold, *evidence], old, root=plain)
    assert code == 1
    as_long = chunk_id(repo, "lib/T.java", "T.run", 1)
    if neighbour:
        assert got[gold[0]]["new_chunk_id"] is None
        assert got[gold[1]]["new_chunk_id"] == chunk_id(repo, "lib/T.java", "T.head")
    else:
        assert got[gold[0]]["new_chunk_id"] == as_long  # a plain tree's guess, as before
