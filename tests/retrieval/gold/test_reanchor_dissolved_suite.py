"""A test suite dissolved into top-level tests in a new file (go-billy 6 turned its gocheck
suites' methods into testify functions; a unittest class becomes pytest functions): each
method goes to the one new definition of its last name there, where its siblings went the
same way, its body rewritten but at least half kept."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from tests.retrieval.gitrepo import GitRepo
from tests.retrieval.gold.reanchor_repo import chunk_id, gold_check
from tests.retrieval.gold.test_reanchor_twins import repo

__all__ = ["repo"]  # the fixture

CHECKS = ("Read", "Write", "Rename", "Remove")


def go_suite(method: bool, names: tuple[str, ...] = CHECKS) -> str:
    head = (
        "func (s *BasicSuite) Test{0}(c *C) {{\n" if method else "func Test{0}(t *testing.T) {{\n"
    )
    ok = "\tc.Assert(err, IsNil)\n" if method else "\trequire.NoError(t, err)\n"
    fs = "s.FS" if method else "newFS(t)"
    return "package test\n\n" + "".join(
        head.format(name)
        + f'\tf, err := {fs}.Open("{name.lower()}.txt")\n'
        + ok
        + f'\tdata, err := f.{name}([]byte("{name.lower()} payload"), 0o644, true)\n'
        + ok
        + f'\tcheckContent({fs}, "{name.lower()}.txt", data, len(data))\n}}\n\n'
        for name in names
    )


def python_suite(method: bool) -> str:
    out = "class BasicSuite(TestCase):\n" if method else ""
    pad = "    " if method else ""
    fs = "self.fs" if method else "fs"
    for name in CHECKS:
        low = name.lower()
        out += f"{pad}def test_{low}({'self' if method else 'fs'}):\n"
        out += f"{pad}    f = {fs}.open('{low}.txt')\n"
        out += f"{pad}    data = f.{low}(b'{low} payload', 0o644, True)\n"
        if method:
            out += f"{pad}    self.assertEqual(check_content({fs}, '{low}.txt'), data)\n\n"
        else:
            out += f"{pad}    assert not f.closed, 'still open'\n"
            out += f"{pad}    assert check_content({fs}, '{low}.txt') == data\n"
            out += f"{pad}    f.close()\n\n"
    return out


# language: (old file, new file, the suite before and after, the ID's symbol and its heir's)
SUITES = {
    "go": ("test/basic.go", "test/basic_test.go", go_suite, "BasicSuite.TestRename", "TestRename"),
    "python": (
        "tests/suite.py",
        "tests/test_basic.py",
        python_suite,
        "BasicSuite.test_rename",
        "test_rename",
    ),
}


def with_heir(top: str, heir: str, text: str) -> str:
    """The top-level tests `top` with the definition of `heir` replaced by `text`."""
    begin = top.rindex("\n", 0, top.index(heir)) + 1
    return top[:begin] + text + top[top.index("\n\n", begin) :]


# TestRename rewritten as a table of cases: about as long, under half of its body kept.
GO_TABLE = (
    "func TestRename(t *testing.T) {\n"
    '\tfor _, tc := range []struct{ from, to string }{{"a", "b"}, {"c", "d"}} {\n'
    "\t\tfs := newFS(t)\n"
    "\t\trequire.NoError(t, util.WriteFile(fs, tc.from, nil, 0o644))\n"
    "\t\trequire.NoError(t, fs.Rename(tc.from, tc.to))\n\t}\n}"
)


def dissolved(language: str, repo: GitRepo, edit: Callable[[str], str]) -> tuple[str, str]:
    """The suite committed, then its file gone and `edit` of its top-level tests new: the
    old revision and the gold ID."""
    old_path, new_path, suite, symbol, _ = SUITES[language]
    repo.write(old_path, suite(True))
    old = repo.commit("a suite")
    gold = chunk_id(repo, old_path, symbol)
    (repo.path / old_path).unlink()
    repo.write(new_path, edit(suite(False)))
    repo.commit("top-level tests")
    return old, gold


@pytest.mark.parametrize("language", list(SUITES))
def test_a_method_of_a_dissolved_suite_goes_to_the_test_of_its_name(
    language: str, repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _, new_path, _, _, heir = SUITES[language]
    old, gold = dissolved(language, repo, lambda top: top)
    code, got = gold_check(repo, tmp_path, capsys, [gold], old)
    assert code == 1
    assert (got[gold]["kind"], got[gold]["new_chunk_id"]) == (
        "relocated",
        chunk_id(repo, new_path, heir),
    )
    assert got[gold]["evidence"].startswith(f"`BasicSuite` dissolved in {new_path} with 3 of")


@pytest.mark.parametrize("language", list(SUITES))
def test_a_test_of_its_name_rewritten_past_half_is_no_match(
    language: str, repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The suite dissolved, but the test of the ID's name does something else now."""
    heir = SUITES[language][4]
    other = (
        f"func {heir}(t *testing.T) {{\n\tt.Skip()\n}}"
        if language == "go"
        else f"def {heir}():\n    pytest.skip('later')"
    )
    old, gold = dissolved(language, repo, lambda top: with_heir(top, heir, other))
    code, got = gold_check(repo, tmp_path, capsys, [gold], old)
    assert code == 1
    assert got[gold]["new_chunk_id"] is None


def test_of_two_suites_with_one_test_name_neither_is_the_dissolved_one(
    repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Two suites of one file named their tests alike: one dissolved, the other dropped.
    Which one each top-level test comes from, the names do not say."""
    other = go_suite(True).replace("BasicSuite", "ChrootSuite").replace("s.FS", "s.Chroot")
    repo.write("test/basic.go", go_suite(True) + other.removeprefix("package test\n\n"))
    old = repo.commit("two suites")
    gold = [
        chunk_id(repo, "test/basic.go", f"{s}.TestRename") for s in ("BasicSuite", "ChrootSuite")
    ]
    (repo.path / "test/basic.go").unlink()
    repo.write("test/basic_test.go", go_suite(False))
    repo.commit("one dissolved, one dropped")
    code, got = gold_check(repo, tmp_path, capsys, gold, old)
    assert code == 1
    assert [got[g]["new_chunk_id"] for g in gold] == [None, None]


@pytest.mark.parametrize("language", list(SUITES))
def test_a_test_rewritten_with_its_suite_dissolved_goes_by_its_name(
    language: str, repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """go-billy 6: the suite dissolved, its siblings' bodies kept, the ID's own rewritten
    as long (a table of cases now): its name, with all its siblings there, says it is it,
    whatever its body became; a stub (above) or code grown to another thing is not."""
    _, new_path, _, _, heir = SUITES[language]
    other = (
        GO_TABLE
        if language == "go"
        else f"@pytest.mark.parametrize('pair', [('a', 'b'), ('c', 'd')])\n"
        f"def {heir}(fs, pair):\n    write_file(fs, pair[0], b'')\n"
        "    fs.rename(*pair)"
    )
    old, gold = dissolved(language, repo, lambda top: with_heir(top, heir, other))
    code, got = gold_check(repo, tmp_path, capsys, [gold], old)
    assert code == 1
    assert got[gold]["new_chunk_id"] == chunk_id(repo, new_path, heir)
    assert got[gold]["evidence"].startswith(f"`BasicSuite` dissolved in {new_path} with 3 of")


def test_a_rewritten_test_whose_code_went_elsewhere_is_hollowed(
    repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The name says the dissolved suite's test; its old code, most of it in a new helper
    elsewhere, says otherwise: nothing is fixed, both are listed."""
    repo.write("test/basic.go", go_suite(True))
    old = repo.commit("a suite")
    gold = chunk_id(repo, "test/basic.go", "BasicSuite.TestRename")
    method = go_suite(True)
    begin = method.index("func (s *BasicSuite) TestRename")
    helper = method[begin : method.index("\n}\n", begin) + 3]
    helper = helper.replace("(s *BasicSuite) TestRename", "(s *Checks) RenameChecked")
    # its checks now returned: 0.77 alike, too little to place it by its body alone
    helper = helper.replace("s.FS", "fs").replace(
        "c.Assert(err, IsNil)", "if err != nil {\n\t\treturn err\n\t}"
    )
    (repo.path / "test/basic.go").unlink()
    repo.write("test/basic_test.go", with_heir(go_suite(False), "TestRename", GO_TABLE))
    repo.write("test/checks.go", "package test\n\n" + helper)
    repo.commit("top-level tests, the old code a helper")
    code, got = gold_check(repo, tmp_path, capsys, [gold], old)
    assert code == 1
    assert (got[gold]["kind"], got[gold]["new_chunk_id"]) == ("hollowed", None)
    assert chunk_id(repo, "test/checks.go", "Checks.RenameChecked") in got[gold]["candidates"]


@pytest.mark.parametrize("guard", ["few went", "grown"])
def test_a_rewritten_test_needs_most_of_its_suite_and_its_length(
    guard: str, repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Of a suite of 4, only 2 tests and the ID's went to the new file (3, under the 4
    the name needs beside it); or all went, but the ID's test grew past twice its length
    (another thing now): neither is followed by its name alone."""
    repo.write("test/basic.go", go_suite(True))
    old = repo.commit("a suite")
    gold = chunk_id(repo, "test/basic.go", "BasicSuite.TestRename")
    (repo.path / "test/basic.go").unlink()
    went = ("Read", "Write", "Rename") if guard == "few went" else CHECKS
    table = GO_TABLE
    if guard == "grown":
        table = GO_TABLE.replace("\t}\n}", "\t}\n" + "\trequire.NoError(t, fs.Sync())\n" * 9 + "}")
    repo.write("test/basic_test.go", with_heir(go_suite(False, went), "TestRename", table))
    repo.commit("top-level tests")
    code, got = gold_check(repo, tmp_path, capsys, [gold], old)
    assert code == 1
    assert got[gold]["new_chunk_id"] is None


def test_nested_helpers_are_no_members_of_the_suite(
    repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A suite of 3 tests, each with a nested helper: 2 siblings went with their bodies,
    the ID's rewritten; the helpers do not make up the 4 members it takes."""

    def suite(method: bool) -> str:
        out = "class BasicSuite(TestCase):\n" if method else ""
        pad = "    " if method else ""
        for name in ("read", "write", "rename"):
            out += f"{pad}def test_{name}({'self' if method else 'fs'}):\n"
            out += f"{pad}    def check(data):\n{pad}        assert data, '{name}'\n"
            out += f"{pad}    f = open_fs().open('{name}.txt')\n"
            out += f"{pad}    check(f.{name}(b'{name} payload', 0o644, True))\n\n"
        return out

    repo.write("tests/suite.py", suite(True))
    old = repo.commit("a suite")
    gold = chunk_id(repo, "tests/suite.py", "BasicSuite.test_rename")
    (repo.path / "tests/suite.py").unlink()
    rewritten = (
        "@pytest.mark.parametrize('pair', [('a', 'b'), ('c', 'd')])\n"
        "def test_rename(fs, pair):\n    write_file(fs, pair[0], b'')\n"
        "    fs.rename(*pair)\n    assert fs.exists(pair[1])\n"
    )
    repo.write("tests/test_basic.py", with_heir(suite(False), "test_rename", rewritten))
    repo.commit("top-level tests")
    code, got = gold_check(repo, tmp_path, capsys, [gold], old)
    assert code == 1
    assert got[gold]["new_chunk_id"] is None


def test_a_rewritten_test_whose_suite_went_two_ways_is_ambiguous(
    repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A suite of 7 split into two modules of 3 tests each, both with a `test_rename`
    rewritten: a body under half alike tells neither apart, whichever is nearer."""
    names = ("read", "write", "stat", "remove", "chmod", "link", "rename")

    def body(name: str, pad: str, fs: str) -> str:
        return (
            f"{pad}    f = {fs}.open('{name}.txt')\n"
            f"{pad}    data = f.{name}(b'{name} payload', 0o644, True)\n"
            f"{pad}    assert check_content({fs}, '{name}.txt') == data\n\n"
        )

    suite = "class BasicSuite(TestCase):\n" + "".join(
        f"    def test_{n}(self):\n" + body(n, "    ", "self.fs") for n in names
    )
    repo.write("tests/suite.py", suite)
    old = repo.commit("a suite")
    gold = chunk_id(repo, "tests/suite.py", "BasicSuite.test_rename")
    (repo.path / "tests/suite.py").unlink()
    # 0.31 and 0.17 alike: apart by more than 0.1, both rewritten past half
    checked = "    assert check_content(fs, pair[1]) == b''\n"
    for module, part, cases, more in (("a", names[:3], 1, checked), ("b", names[3:6], 6, "")):
        pairs = ", ".join(f"('x{i}', 'y{i}')" for i in range(cases))
        rename = (
            f"@pytest.mark.parametrize('pair', [{pairs}])\n"
            "def test_rename(fs, pair):\n    write_file(fs, pair[0], b'')\n"
            "    fs.rename(*pair)\n" + more + "\n"
        )
        tests = "".join(f"def test_{n}(fs):\n" + body(n, "", "fs") for n in part)
        repo.write(f"tests/test_{module}.py", tests + rename)
    repo.commit("two modules")
    code, got = gold_check(repo, tmp_path, capsys, [gold], old)
    assert code == 1
    assert (got[gold]["kind"], got[gold]["new_chunk_id"]) == ("ambiguous", None)
    assert set(got[gold]["candidates"]) == {
        chunk_id(repo, "tests/test_a.py", "test_rename"),
        chunk_id(repo, "tests/test_b.py", "test_rename"),
    }
