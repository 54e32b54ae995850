"""A wrapper dissolved in place (execa 6: `declare namespace execa { ... }` of
`index.d.ts` became top-level declarations; a Python class of static helpers became module
functions): `X.rest` follows to `rest` in its own file, with history and in a plain tree,
when `rest` is new there, about as long, and keeps half of the old body."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.retrieval.gitrepo import GitRepo
from tests.retrieval.gold.reanchor_repo import chunk_id, gold_check, plain_copy
from tests.retrieval.gold.test_reanchor_twins import repo

__all__ = ["repo"]  # the fixture

TS_MEMBERS = """	type StdioOption =
		| 'pipe'
		| 'ipc'
		| 'ignore'
		| 'inherit'
		| Stream
		| number
		| undefined;

	interface NodeOptions {
		readonly nodePath?: string;
		readonly nodeOptions?: string[];
	}
"""
PY_MEMBERS = """    def quote(text):
        escaped = text.replace("'", "'\\\\''")
        return "'" + escaped + "'"

    def join(parts):
        quoted = [Shell.quote(part) for part in parts]
        return " ".join(quoted)
"""
# language: path, the old file, the new one, the IDs' names, the names they take
CASES = {
    "ts": (
        "index.d.ts",
        '/// <reference types="node"/>\n\ndeclare namespace execa {\n'
        + TS_MEMBERS
        + "}\n\ndeclare const execa: {\n\t(file: string): void;\n};\n\nexport = execa;\n",
        '/// <reference types="node"/>\n'
        + TS_MEMBERS.replace("\n\t", "\n").removeprefix("\t").replace("type ", "export type ", 1)
        + "\nexport function execa(file: string): void;\n",
        ["execa.StdioOption", "execa.NodeOptions"],
        ["StdioOption", "NodeOptions"],
    ),
    "python": (
        "shell.py",
        '"""Shell words."""\n\n\nclass Shell:\n' + PY_MEMBERS,
        '"""Shell words."""\n\n\n'
        + PY_MEMBERS.replace("\n    ", "\n")
        .removeprefix("    ")
        .replace("Shell.quote", "quote")
        .replace("\ndef join", "\n\ndef join"),
        ["Shell.quote", "Shell.join"],
        ["quote", "join"],
    ),
}


@pytest.mark.parametrize("history", [True, False], ids=["git", "plain"])
@pytest.mark.parametrize("language", CASES)
def test_members_of_a_dissolved_wrapper_follow_their_names(
    language: str,
    history: bool,
    repo: GitRepo,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    path, old_text, new_text, names, news = CASES[language]
    repo.write(path, old_text)
    old = repo.commit("wrapped")
    gold = [chunk_id(repo, path, name) for name in names]
    repo.write(path, new_text)
    repo.commit("the wrapper dissolved")
    root = None if history else plain_copy(repo, tmp_path)
    code, got = gold_check(repo, tmp_path, capsys, gold, old, root=root)
    assert code == 1
    assert [got[g]["new_chunk_id"] for g in gold] == [chunk_id(repo, path, n) for n in news]
    wrapper = names[0].partition(".")[0]
    assert got[gold[0]]["evidence"] == f"its wrapper {wrapper} dissolved in {path}"


@pytest.mark.parametrize("history", [True, False], ids=["git", "plain"])
def test_a_name_there_beside_the_wrapper_is_no_new_home(
    history: bool, repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # `quote` stood at the top level all along (git says so, or the set names it): the
    # method is gone, though its sibling `join` did come out of the class
    helper = 'def quote(text):\n    return "\'" + text.replace("\'", "") + "\'"\n\n\n'
    old_text = '"""Shell words."""\n\n\n' + helper + "class Shell:\n" + PY_MEMBERS
    repo.write("shell.py", old_text)
    old = repo.commit("wrapped")
    gold = [chunk_id(repo, "shell.py", "Shell.quote"), chunk_id(repo, "shell.py", "Shell.join")]
    if not history:  # the set is all a plain tree knows of the old one
        gold.append(chunk_id(repo, "shell.py", "quote"))
    join = PY_MEMBERS.split("\n\n", maxsplit=1)[1].replace("\n    ", "\n").removeprefix("    ")
    repo.write("shell.py", '"""Shell words."""\n\n\n' + helper + join.replace("Shell.", ""))
    repo.commit("the class dissolved, its quote dropped for the helper")
    root = None if history else plain_copy(repo, tmp_path)
    code, got = gold_check(repo, tmp_path, capsys, gold, old, root=root)
    assert code == 1
    assert got[gold[0]]["new_chunk_id"] is None


def test_a_wrapper_still_there_dissolved_nothing(
    repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    repo.write("shell.py", '"""Shell words."""\n\n\nclass Shell:\n' + PY_MEMBERS)
    old = repo.commit("wrapped")
    gold = [chunk_id(repo, "shell.py", "Shell.quote")]
    moved_out = PY_MEMBERS.split("\n\n", maxsplit=1)[0].replace("\n    ", "\n").removeprefix("    ")
    kept = "\n" + "\n".join(PY_MEMBERS.split("\n\n")[1:])
    repo.write("shell.py", f'"""Shell words."""\n\n\n{moved_out}\n\n\nclass Shell:{kept}')
    repo.commit("one method out of the class")
    code, got = gold_check(repo, tmp_path, capsys, gold, old, root=plain_copy(repo, tmp_path))
    assert code == 1
    # the class is still there: its method left it, not a wrapper dissolved (a person
    # chooses; another rule may say so, this one does not)
    assert "dissolved" not in (got[gold[0]].get("evidence") or "")


@pytest.mark.parametrize("history", [True, False], ids=["git", "plain"])
def test_one_short_member_alone_is_not_enough(
    history: bool, repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # a class deleted and a function of its method's name written: a replacement as
    # likely as a move (short bodies share their shape; one name proves nothing)
    old_text = '"""Hosts."""\n\n\nclass Machine:\n    def name(self):\n        return self._name\n'
    new_text = '"""Hosts."""\n\n\ndef name():\n    return os.uname().nodename\n'
    repo.write("host.py", old_text)
    old = repo.commit("a class")
    gold = [chunk_id(repo, "host.py", "Machine.name")]
    repo.write("host.py", new_text)
    repo.commit("a function")
    root = None if history else plain_copy(repo, tmp_path)
    code, got = gold_check(repo, tmp_path, capsys, gold, old, root=root)
    assert code == 1
    assert got[gold[0]]["new_chunk_id"] is None


def test_a_receiver_defined_in_another_file_is_no_wrapper(
    repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Go: `Server.Open` and `Server.Close` in conn.go, their type in server.go, replaced by
    # free functions of those names: the type was never in conn.go to dissolve there
    repo.write("server.go", "package srv\n\ntype Server struct {\n\tconn Conn\n}\n")
    methods = "package srv\n\n" + "\n".join(
        f"func (s *Server) {name}() error {{\n\treturn s.conn.{name}()\n}}\n"
        for name in ("Open", "Close")
    )
    repo.write("conn.go", methods)
    old = repo.commit("methods")
    gold = [chunk_id(repo, "conn.go", f"Server.{name}") for name in ("Open", "Close")]
    functions = "package srv\n\n" + "\n".join(
        f"func {name}() error {{\n\treturn pool.{name}All()\n}}\n" for name in ("Open", "Close")
    )
    repo.write("conn.go", functions)
    repo.commit("functions of a pool")
    code, got = gold_check(repo, tmp_path, capsys, gold, old)
    assert code == 1
    assert [got[g]["new_chunk_id"] for g in gold] == [None, None]


def test_a_long_body_that_kept_little_outweighs_its_siblings(
    repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # with history, two methods whose long bodies became something else entirely, under
    # the same names at the top level: the bodies tell, and they say no
    def member(name: str, body: str) -> str:
        return f"    def {name}(self, items, limit=None):\n{body}\n"

    first = (
        "        total = 0\n        for item in items[:limit]:\n"
        "            if item.weight is not None and item.active:\n"
        "                total += item.weight * item.count\n        return total\n"
    )
    second = (
        "        seen = set()\n        for item in items[:limit]:\n"
        "            if item.key and not item.key.startswith('_'):\n"
        "                seen.add(item.key.lower().strip())\n        return sorted(seen)\n"
    )
    repo.write("stats.py", "class Stats:\n" + member("weigh", first) + member("keys", second))
    old = repo.commit("a class")
    gold = [chunk_id(repo, "stats.py", f"Stats.{name}") for name in ("weigh", "keys")]
    other = (
        "    params = {'q': query, 'n': limit or 10}\n"
        "    response = requests.get(URL, params=params, timeout=30)\n"
        "    response.raise_for_status()\n    return response.json()['results']\n"
    )
    repo.write(
        "stats.py",
        "".join(f"def {name}(query, limit=None):\n{other}\n\n" for name in ("weigh", "keys")),
    )
    repo.commit("functions that fetch")
    code, got = gold_check(repo, tmp_path, capsys, gold, old)
    assert code == 1
    assert [got[g]["new_chunk_id"] for g in gold] == [None, None]


def _unittest(names: list[str]) -> str:
    return "class NumberTestCase(TestCase):\n" + "".join(
        f"    def test_{n}(self):\n"
        f"        self.assertEqual(humanize.{n}('1'), '1st {n}')\n"
        f"        self.assertEqual(humanize.{n}('22'), '22nd {n}')\n"
        f"        self.assertEqual(humanize.{n}(None), None)\n\n"
        for n in names
    )


def _pytest(names: list[str]) -> str:
    return "".join(
        f"@pytest.mark.parametrize('test_input, expected', [('1', '1st'), ('22', '22nd')])\n"
        f"def test_{n}(test_input, expected):\n"
        f"    assert humanize.{n}(test_input) == expected + ' {n}'\n\n\n"
        for n in names
    )


def _long_pytest(names: list[str]) -> str:
    # a table of a case a line: over twice the old test's span
    rows = "".join(f"        ('{n}', '{n}th'),\n" for n in range(12))
    return "".join(
        f"@pytest.mark.parametrize(\n    'test_input, expected',\n    [\n{rows}    ],\n)\n"
        f"def test_{n}(test_input, expected):\n"
        f"    assert humanize.{n}(test_input) == expected + ' {n}'\n\n\n"
        for n in names
    )


# case: the class's tests, those of them in the new file, what the ID's test became, and
# what else is written beside (a module-level test there all along, a helper elsewhere).
CASES_DISSOLVED = {
    "4 of 4 land": (4, 4, "table", ""),
    "2 of 4 land": (4, 2, "table", ""),
    "4 of 9 land": (9, 4, "table", ""),
    "a stub": (4, 4, "stub", ""),
    "2 stood there": (4, 4, "table", "stood"),
    "its code elsewhere": (4, 4, "table", "elsewhere"),
    "grown, 4 of 4 land": (4, 4, "long table", ""),
    "grown, 2 of 4 land": (4, 2, "long table", ""),
    "siblings grown, 4 of 4 land": (4, 4, "table", "grown"),
}
NAMES = [
    "ordinal",
    "intcomma",
    "intword",
    "apnumber",
    "scientific",
    "clamp",
    "metric",
    "fraction",
    "naturalsize",
]


@pytest.mark.parametrize("case", list(CASES_DISSOLVED))
def test_a_test_rewritten_as_its_class_dissolved_in_place_follows_its_name(
    case: str, repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """humanize 3: `NumberTestCase`'s tests became pytest functions of the same file, each
    rewritten as a table of cases (under half of its body kept): with half of the class's
    tests, and at least 4, landing under names new there, whatever their length, the name
    says it, even when the test grew past twice its span. Not with 2 of 4 or 4 of 9 (nor
    grown, with 2 of 4), not onto a stub, not counting tests whose module-level names were there
    already, and not when most of its code is in a new helper elsewhere (`hollowed`)."""
    members, landed, became, beside = CASES_DISSOLVED[case]
    names = NAMES[:members]
    stood = _pytest(names[1:3]) if beside == "stood" else ""
    repo.write("tests/test_number.py", "import humanize\n\n\n" + stood + _unittest(names))
    old = repo.commit("unittest")
    gold = chunk_id(repo, "tests/test_number.py", "NumberTestCase.test_ordinal")
    new = _pytest(names[1:landed] if beside != "stood" else names[3:landed])
    if beside == "grown":
        new = _long_pytest(names[1:landed])
    heir = {"table": _pytest(["ordinal"]), "long table": _long_pytest(["ordinal"])}.get(
        became, "def test_ordinal():\n    pass\n"
    )
    repo.write("tests/test_number.py", "import humanize\n\n\n" + stood + heir + "\n\n" + new)
    if beside == "elsewhere":
        # its checks, two more beside them: 0.66 alike, too little to place it by body alone
        checks = [("1", "1st"), ("22", "22nd"), ("3", "3rd"), ("4", "4th")]
        repo.write(
            "tests/helpers.py",
            "def ordinal_checks(check):\n"
            + "".join(f"    check(humanize.ordinal('{n}'), '{s} ordinal')\n" for n, s in checks)
            + "    check(humanize.ordinal(None), None)\n",
        )
    repo.commit("pytest")
    code, got = gold_check(repo, tmp_path, capsys, [gold], old)
    assert code == 1
    if case in ("4 of 4 land", "grown, 4 of 4 land", "siblings grown, 4 of 4 land"):
        assert got[gold]["new_chunk_id"] == chunk_id(repo, "tests/test_number.py", "test_ordinal")
        assert got[gold]["evidence"] == (
            "its wrapper NumberTestCase dissolved in tests/test_number.py with 4 of its "
            "members, rewritten"
        )
    elif beside == "elsewhere":
        assert (got[gold]["kind"], got[gold]["new_chunk_id"]) == ("hollowed", None)
    else:
        assert got[gold]["new_chunk_id"] is None


def _short_unittest(names: list[str]) -> str:
    # bodies under 80 characters: too short to tell anything by
    return "class NumberTestCase(TestCase):\n" + "".join(
        f"    def test_{n}(self):\n        check(humanize.{n})\n\n" for n in names
    )


def _commented(names: list[str], *, short: bool) -> str:
    # the old test's code as it was, under ten lines of comments: past twice its span, with
    # all of its body
    code = (
        "    check(humanize.{n})\n"
        if short
        else "".join(
            f"    self.assertEqual(humanize.{{n}}({v!r}), '{s} {{n}}')\n"
            for v, s in (("1", "1st"), ("22", "22nd"))
        )
        + "    self.assertEqual(humanize.{n}(None), None)\n"
    )
    comments = "".join(f"    # case {k}\n" for k in range(10))
    return "".join(f"def test_{n}(self):\n{comments}{code.format(n=n)}\n\n" for n in names)


# case: whether the old bodies are short, how the ID's test grew, and how many of the four
# tests land (the others are gone); whether it lands
CASES_GROWN = {
    "kept its body, 1 of 4 land": (False, "commented", 1, True),
    "short, grown, 4 of 4 land": (True, "table", 4, True),
    "short, grown, 2 of 4 land": (True, "table", 2, False),
    "short, kept its body, 2 of 4 land": (True, "commented", 2, False),
    "shrunk, 4 of 4 land": (False, "shrunk", 4, False),
}


@pytest.mark.parametrize("case", list(CASES_GROWN))
def test_a_test_grown_past_twice_its_span_lands_by_its_body_or_its_members(
    case: str, repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Past twice its span, a test of a class dissolved in place lands by its body (kept
    half), or with half of the class's tests and 4 landing; a body too short to tell needs
    the tests; a test shrunk past half its span does not land."""
    short, became, landed, lands = CASES_GROWN[case]
    names = NAMES[:4]
    old_tests = _short_unittest(names) if short else _unittest(names)
    repo.write("tests/test_number.py", "import humanize\n\n\n" + old_tests)
    old = repo.commit("unittest")
    gold = chunk_id(repo, "tests/test_number.py", "NumberTestCase.test_ordinal")
    heir = {
        "table": _long_pytest(["ordinal"]),
        "commented": _commented(["ordinal"], short=short),
        "shrunk": "def test_ordinal(test_input, expected): "
        "assert humanize.ordinal(test_input) == expected, 'the ordinal of the input'\n",
    }[became]
    others = _pytest(names[1:landed])
    repo.write("tests/test_number.py", "import humanize\n\n\n" + heir + "\n\n" + others)
    repo.commit("pytest")
    code, got = gold_check(repo, tmp_path, capsys, [gold], old)
    assert code == 1
    want = chunk_id(repo, "tests/test_number.py", "test_ordinal") if lands else None
    assert got[gold]["new_chunk_id"] == want


def test_without_history_a_test_grown_past_twice_its_span_does_not_land(
    repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """In a plain tree the name is the only evidence: its siblings landing about as long
    do not carry a test grown past twice its span."""
    names = NAMES[:4]
    repo.write("tests/test_number.py", "import humanize\n\n\n" + _unittest(names))
    old = repo.commit("unittest")
    gold = [chunk_id(repo, "tests/test_number.py", f"NumberTestCase.test_{n}") for n in names]
    new = _long_pytest(names[:1]) + _pytest(names[1:])
    repo.write("tests/test_number.py", "import humanize\n\n\n" + new)
    repo.commit("pytest")
    code, got = gold_check(repo, tmp_path, capsys, gold, old, root=plain_copy(repo, tmp_path))
    assert code == 1
    assert got[gold[0]]["new_chunk_id"] is None
    assert got[gold[1]]["new_chunk_id"] == chunk_id(repo, "tests/test_number.py", "test_intcomma")
