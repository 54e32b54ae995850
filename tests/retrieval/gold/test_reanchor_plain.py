"""Gold IDs across refactors checked in a plain tree (a copy without `.git`: no history, no
old bodies), in every supported language: what the set itself says of the old tree, a
folder moved with its files, namesakes shifted together, and the definitions it shows were
there all along."""

from __future__ import annotations

from pathlib import Path

import pytest

from evaltools.__main__ import main
from tests.retrieval.gitrepo import GitRepo
from tests.retrieval.gold.reanchor_repo import chunk_id, gold_check, plain_copy
from tests.retrieval.gold.test_reanchor_renames import OVERLOADS
from tests.retrieval.gold.test_reanchor_twins import LANGUAGES, TWIN, named, repo

__all__ = ["repo"]  # the fixture

TYPES = (("Alpha", "alpha"), ("Beta", "beta"), ("Gamma", "gamma"))


def write_types(repo: GitRepo, folder: str, language: str, count: int = 3) -> list[str]:
    """One file per type (`Alpha`, `Beta`, `Gamma`) in `folder`; their paths."""
    path, text, _ = TWIN[language]
    for upper, lower in TYPES[:count]:
        repo.write(f"{folder}/{named(path, upper, lower)}", named(text, upper, lower))
    return [f"{folder}/{named(path, upper, lower)}" for upper, lower in TYPES[:count]]


def ids_of(repo: GitRepo, paths: list[str], language: str) -> list[str]:
    symbol = TWIN[language][2]
    return [
        chunk_id(repo, path, named(symbol, upper, lower))
        for path, (upper, lower) in zip(paths, TYPES[: len(paths)], strict=True)
    ]


def rewrite(language: str, text: str) -> str:
    """Another version of a file: a comment line first, so that nothing is where it was."""
    return ("# " if language == "python" else "// ") + "version 4\n" + text


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_folder_moved_takes_its_files_gold_along(
    language: str, repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    old_paths = write_types(repo, "src", language)
    old = repo.commit("three types")
    gold = ids_of(repo, old_paths, language)
    for path in old_paths:
        repo.mv(path, path.replace("src/", "lib/v3/", 1))
    # A new version of one file elsewhere: `Alpha`'s method is no longer once in the tree.
    repo.write(
        old_paths[0].replace("src/", "lib/v4/", 1),
        rewrite(language, repo.read(old_paths[0].replace("src/", "lib/v3/", 1))),
    )
    repo.commit("src/ moved to lib/v3/, lib/v4/ started")
    code, got = gold_check(repo, tmp_path, capsys, gold, old, root=plain_copy(repo, tmp_path))
    assert code == 1
    new = ids_of(repo, [p.replace("src/", "lib/v3/", 1) for p in old_paths], language)
    assert [(got[g]["kind"], got[g]["new_chunk_id"]) for g in gold] == [
        ("relocated", n) for n in new
    ]
    assert got[gold[0]]["evidence"] == (
        "same name in the file its folder moved to (src/ -> lib/v3/ with 3 files)"
    )


@pytest.mark.parametrize("language", list(OVERLOADS))
def test_namesakes_in_a_moved_folder_are_told_apart_as_in_their_own_file(
    language: str, repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path, text, symbol, comment = OVERLOADS[language]
    old_paths = [*write_types(repo, "src", language), f"src/{path}"]
    repo.write(old_paths[-1], text)
    old = repo.commit("three types and two namesakes")
    gold = [chunk_id(repo, old_paths[-1], symbol, n) for n in (0, 1)]
    others = ids_of(repo, old_paths[:-1], language)  # the evidence that src/ moved
    for moved in old_paths:
        repo.mv(moved, moved.replace("src/", "lib/", 1))
    repo.write(f"lib/{path}", comment + text)
    repo.commit("src/ moved to lib/, a line above the namesakes")
    ids = [*gold, *others]
    code, got = gold_check(repo, tmp_path, capsys, ids, old, root=plain_copy(repo, tmp_path))
    assert code == 1
    new = [chunk_id(repo, f"lib/{path}", symbol, n) for n in (0, 1)]
    assert [(got[g]["kind"], got[g]["new_chunk_id"]) for g in gold] == [
        ("relocated", n) for n in new
    ]
    assert got[gold[0]]["evidence"] == (
        "the only namesake as long in the file its folder moved to (src/ -> lib/ with 4 files)"
    )


@pytest.mark.parametrize("language", ["typescript", "python"])
def test_a_folder_copied_to_two_places_moves_nowhere(
    language: str, repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    old_paths = write_types(repo, "src", language)
    old = repo.commit("three types")
    gold = ids_of(repo, old_paths, language)
    for path in old_paths:
        text = repo.read(path)
        repo.write(path.replace("src/", "lib/v3/", 1), text)
        repo.write(path.replace("src/", "lib/v4/", 1), rewrite(language, text))
        repo.rm(path)
    repo.commit("src/ copied to lib/v3/ and lib/v4/")
    code, got = gold_check(repo, tmp_path, capsys, gold, old, root=plain_copy(repo, tmp_path))
    assert code == 1
    assert [(got[g]["kind"], got[g]["new_chunk_id"]) for g in gold] == [("missing_file", None)] * 3


@pytest.mark.parametrize("language", ["typescript", "python"])
def test_two_files_are_not_a_folder_moved(
    language: str, repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    old_paths = write_types(repo, "src", language, 2)
    old = repo.commit("two types")
    gold = ids_of(repo, old_paths, language)
    for path in old_paths:
        repo.mv(path, path.replace("src/", "lib/v3/", 1))
    repo.write(
        old_paths[0].replace("src/", "lib/v4/", 1),
        rewrite(language, repo.read(old_paths[0].replace("src/", "lib/v3/", 1))),
    )
    repo.commit("moved")
    code, got = gold_check(repo, tmp_path, capsys, gold, old, root=plain_copy(repo, tmp_path))
    assert code == 1
    assert got[gold[0]]["kind"] == "missing_file"


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_twin_the_set_shows_was_there_is_no_new_home(
    language: str, repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`lib/` held the same types all along (the set names them at the revision): when
    `src/` is deleted, its IDs are not moved onto them, by folder or by a name now unique."""
    old_paths = write_types(repo, "src", language)
    twins = write_types(repo, "lib", language)
    old = repo.commit("two copies")
    gold = ids_of(repo, old_paths, language)
    there = ids_of(repo, twins, language)
    for path in old_paths:
        repo.rm(path)
    repo.commit("src/ deleted")
    ids = [*gold, *there]
    code, got = gold_check(repo, tmp_path, capsys, ids, old, root=plain_copy(repo, tmp_path))
    assert code == 1
    assert [(got[g]["kind"], got[g]["new_chunk_id"]) for g in gold] == [("missing_file", None)] * 3
    assert [got[t]["kind"] for t in there] == ["ok"] * 3
    assert got[gold[0]]["candidates"][0] == there[0]


# Two definitions of one name and one length in one file (callbacks' helpers, a property's
# getter and setter, `init` functions, `#[cfg]` variants, overloads); `//` or `#` comments.
NAMESAKES = {
    "javascript": (
        "json.test.js",
        "describe('json', function () {\n  it('parses when true', function () {\n"
        "    function accept (req) {\n      return true\n    }\n    run(accept)\n  })\n\n"
        "  it('skips when false', function () {\n    function accept (req) {\n"
        "      return false\n    }\n    run(accept)\n  })\n})\n",
        "accept",
    ),
    "python": (
        "config.py",
        "class Config:\n    @property\n    def name(self):\n        return self._name\n\n"
        "    @name.setter\n    def name(self, value):\n        self._name = value\n",
        "Config.name",
    ),
    "go": (
        "conf.go",
        'package conf\n\nfunc init() {\n\tregister("json")\n}\n\n'
        'func init() {\n\tregister("yaml")\n}\n',
        "init",
    ),
    "rust": (
        "home.rs",
        '#[cfg(unix)]\npub fn home() -> String {\n    env("HOME")\n}\n\n'
        '#[cfg(windows)]\npub fn home() -> String {\n    env("USERPROFILE")\n}\n',
        "home",
    ),
    "java": (
        "Box.java",
        "package box;\n\nclass Box {\n    void put(int v) {\n        store(v);\n    }\n\n"
        "    void put(String v) {\n        store(v);\n    }\n}\n",
        "Box.put",
    ),
}


def comment(language: str, lines: int) -> str:
    return "".join(("# " if language == "python" else "// ") + f"note {i}\n" for i in range(lines))


@pytest.mark.parametrize("language", list(NAMESAKES))
def test_namesakes_shifted_together_follow_their_shift(
    language: str, repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path, text, symbol = NAMESAKES[language]
    repo.write(path, text)
    old = repo.commit("two namesakes")
    gold = [chunk_id(repo, path, symbol, 0), chunk_id(repo, path, symbol, 1)]
    repo.write(path, comment(language, 3) + text)
    repo.commit("three lines above")
    code, got = gold_check(repo, tmp_path, capsys, gold, old, root=plain_copy(repo, tmp_path))
    assert code == 1
    assert [(got[g]["kind"], got[g]["new_chunk_id"]) for g in gold] == [
        ("moved", chunk_id(repo, path, symbol, 0)),
        ("moved", chunk_id(repo, path, symbol, 1)),
    ]
    assert got[gold[0]]["evidence"] == "shifted +3 lines together with 1 namesake"


def test_namesakes_that_two_shifts_fit_stay_ambiguous(
    repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path, text, symbol = NAMESAKES["javascript"]
    repo.write(path, text)
    old = repo.commit("two namesakes")
    gold = [chunk_id(repo, path, symbol, 0), chunk_id(repo, path, symbol, 1)]
    # A third test of the same spacing above both, and a line above all: +1 and +8 fit.
    third = "  it('parses twice', function () {\n    function accept (req) {\n      return 1\n"
    third += "    }\n    run(accept)\n  })\n\n"
    head = "describe('json', function () {\n"
    repo.write(path, "// note\n" + text.replace(head, head + third, 1))
    repo.commit("a test above")
    code, got = gold_check(repo, tmp_path, capsys, gold, old, root=plain_copy(repo, tmp_path))
    assert code == 1
    assert [(got[g]["kind"], got[g]["new_chunk_id"]) for g in gold] == [("ambiguous", None)] * 2


def test_blocks_alike_are_not_shifted_one_block_up(
    repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Four tests alike, three in the set; the first is deleted: one block up, the three
    fit the three left exactly, but their own shift places two of them as well."""
    path, symbol = "json.test.js", "accept"

    def block(n: int) -> str:
        return (
            f"  it('case {n}', function () {{\n    function accept (req) {{\n"
            f"      return {n}\n    }}\n    run(accept)\n  }})\n\n"
        )

    head = "describe('json', function () {\n"
    repo.write(path, head + "".join(block(n) for n in range(4)) + "})\n")
    old = repo.commit("four tests")
    gold = [chunk_id(repo, path, symbol, n) for n in range(3)]
    repo.write(path, "// note\n" + head + "".join(block(n) for n in range(1, 4)) + "})\n")
    repo.commit("the first test deleted")
    code, got = gold_check(repo, tmp_path, capsys, gold, old, root=plain_copy(repo, tmp_path))
    assert code == 1
    assert [(got[g]["kind"], got[g]["new_chunk_id"]) for g in gold] == [("ambiguous", None)] * 3


def test_fix_rewrites_a_folder_move_and_shows_the_evidence(
    repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    old_paths = write_types(repo, "src", "typescript")
    old = repo.commit("three types")
    gold = ids_of(repo, old_paths, "typescript")
    for path in old_paths:
        repo.mv(path, path.replace("src/", "lib/v3/", 1))
    repo.write("lib/v4/alpha.ts", rewrite("typescript", repo.read("lib/v3/alpha.ts")))
    repo.commit("src/ moved to lib/v3/, lib/v4/ started")
    plain_copy(repo, tmp_path)
    keys = ", ".join(f'"{g}": 3' for g in gold)
    record = f'{{"qid": "q1", "gold": {{{keys}}}, "revision": "{old}"}}\n'
    eval_set = tmp_path / "set.jsonl"
    eval_set.write_text(record, encoding="utf-8")
    argv = ["gold", "check", "set.jsonl", "--root", "plain", "--no-cache"]
    assert main(argv) == 1
    new = chunk_id(repo, "lib/v3/alpha.ts", "Alpha.render")
    evidence = "same name in the file its folder moved to (src/ -> lib/v3/ with 3 files)"
    assert capsys.readouterr().out.splitlines()[0] == (
        f"set.jsonl:1:24: RG009 [error] gold `{gold[0]}` of q1 is stale (it is now {new}; "
        f"evidence: {evidence}): run `evaltools gold check set.jsonl --root plain --fix` to "
        f"rewrite it to `{new}`"
    )
    assert main([*argv, "--fix"]) == 0
    assert (
        f"set.jsonl:1:24: RG012 [info] {gold[0]} -> {new} (relocated: it is now {new}; "
        f"evidence: {evidence})" in capsys.readouterr().out.splitlines()
    )
    news = ids_of(repo, [p.replace("src/", "lib/v3/", 1) for p in old_paths], "typescript")
    fixed = record
    for before, after in zip(gold, news, strict=True):
        fixed = fixed.replace(before, after)
    assert eval_set.read_text(encoding="utf-8") == fixed


# A definition whose body went to a respelling of its name beside it, the name kept as a
# short wrapper calling it (zap 1.26: `ServeHTTP` -> `serveHTTP`): old text, new text, name.
WRAPPED = {
    "go": (
        "level.go",
        "package zap\n\nfunc (l *Level) ServeHTTP(w Writer, r *Request) {\n"
        + "".join(f'\tw.Header().Set("X-Step-{n}", r.Get("{n}"))\n' for n in range(10))
        + "}\n",
        "package zap\n\nfunc (l *Level) ServeHTTP(w Writer, r *Request) {\n"
        "\tif err := l.serveHTTP(w, r); err != nil {\n\t\tw.Fail(err)\n\t}\n}\n\n"
        "func (l *Level) serveHTTP(w Writer, r *Request) error {\n"
        + "".join(f'\tw.Header().Set("X-Step-{n}", r.Get("{n}"))\n' for n in range(10))
        + "\treturn nil\n}\n",
        "Level.ServeHTTP",
    ),
    "python": (
        "level.py",
        "class Level:\n    def serve(self, request):\n"
        + "".join(f'        request.set("x-step-{n}", request.get("{n}"))\n' for n in range(10)),
        "class Level:\n    def serve(self, request):\n        return self._serve(request)\n\n"
        "    def _serve(self, request):\n"
        + "".join(f'        request.set("x-step-{n}", request.get("{n}"))\n' for n in range(10))
        + "        return None\n",
        "Level.serve",
    ),
    "typescript": (
        "level.ts",
        "export class Level {\n  serve(request: Request): void {\n"
        + "".join(f'    request.set("x-step-{n}", request.get("{n}"));\n' for n in range(10))
        + "  }\n}\n",
        "export class Level {\n  serve(request: Request): void {\n"
        "    this._serve(request);\n  }\n\n"
        "  _serve(request: Request): void {\n"
        + "".join(f'    request.set("x-step-{n}", request.get("{n}"));\n' for n in range(10))
        + "    request.done();\n  }\n}\n",
        "Level.serve",
    ),
}


@pytest.mark.parametrize("language", list(WRAPPED))
def test_a_name_kept_as_a_short_wrapper_of_its_respelling_is_hollowed(
    language: str, repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path, before, after, symbol = WRAPPED[language]
    repo.write(path, before)
    old = repo.commit("one method")
    gold = chunk_id(repo, path, symbol)
    repo.write(path, "// moved\n" * (language != "python") + after)
    repo.commit("its body into a respelling")
    code, got = gold_check(repo, tmp_path, capsys, [gold], old, root=plain_copy(repo, tmp_path))
    assert code == 1
    respelled = "Level.serveHTTP" if language == "go" else "Level._serve"
    assert (got[gold]["kind"], got[gold]["new_chunk_id"]) == ("hollowed", None)
    assert got[gold]["candidates"] == [
        chunk_id(repo, path, symbol),
        chunk_id(repo, path, respelled),
    ]


@pytest.mark.parametrize("shrank", [False, True])
def test_a_name_beside_a_respelling_it_does_not_wrap_keeps_its_place(
    shrank: bool, repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A function that grew, or shrank without calling the respelling of its name beside
    it (`load` and an unrelated `_load`), is where it is."""
    steps = "".join(f'    config.set("k{n}", source.get("{n}"))\n' for n in range(8))
    helper = "def _load(path):\n" + steps.replace("config.set", "path.add") + "\n\n"
    repo.write("config.py", helper + "def load(config, source):\n" + steps)
    old = repo.commit("load")
    gold = chunk_id(repo, "config.py", "load")
    body = "    config.update(source)\n" if shrank else steps * 3
    repo.write("config.py", "# config\n" + helper + "def load(config, source):\n" + body)
    repo.commit("load rewritten")
    code, got = gold_check(repo, tmp_path, capsys, [gold], old, root=plain_copy(repo, tmp_path))
    assert code == 1
    assert (got[gold]["kind"], got[gold]["new_chunk_id"]) == (
        "moved",
        chunk_id(repo, "config.py", "load"),
    )
