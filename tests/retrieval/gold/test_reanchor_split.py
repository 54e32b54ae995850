"""A file split, checked in a plain tree (a copy without `.git`: no history, no old bodies),
in every supported language: the set's IDs of one old file whose names went together to a
few new files make those its successors, and an ID goes to its one namesake there. With
history too, where bodies too short and alike tell nothing (the last test)."""

from __future__ import annotations

from pathlib import Path

import pytest

from evaltools.__main__ import main
from tests.retrieval.gitrepo import GitRepo
from tests.retrieval.gold.reanchor_repo import chunk_id, gold_check, plain_copy
from tests.retrieval.gold.test_reanchor_twins import repo

__all__ = ["repo"]  # the fixture

# Per language: the file of a folder (`{f}` the folder), its header, a definition named
# `{n}` (its body says `{n}` too), and the spelling of the names below.
DEFINE = {
    "python": (
        "{f}/{f}.py",
        "",
        'def {n}(data):\n    out = data.strip()\n    return out + "{n}"\n',
    ),
    "typescript": (
        "{f}/{f}.ts",
        "",
        "export function {n}(data: string): string {{\n"
        '  const out = data.trim();\n  return out + "{n}";\n}}\n',
    ),
    "go": (
        "{f}/{f}.go",
        "package {f}\n\n",
        "func {n}(data string) string {{\n"
        '\tout := strings.TrimSpace(data)\n\treturn out + "{n}"\n}}\n',
    ),
    "rust": (
        "src/{f}.rs",
        "",
        "pub fn {n}(data: &str) -> String {{\n"
        '    let out = data.trim();\n    format!("{{}}{n}", out)\n}}\n',
    ),
    "java": (
        "src/{f}/{f}.java",
        "package {f};\n\n",
        "class {n} {{\n    String run(String data) {{\n"
        '        return data.trim() + "{n}";\n    }}\n}}\n',
    ),
}
LANGUAGES = list(DEFINE)
NAMES = {
    "python": ("keep", "parse_header", "parse_body", "render", "encode", "decode"),
    "typescript": ("keep", "parseHeader", "parseBody", "render", "encode", "decode"),
    "go": ("Keep", "ParseHeader", "ParseBody", "Render", "Encode", "Decode"),
    "rust": ("keep", "parse_header", "parse_body", "render", "encode", "decode"),
    "java": ("Keep", "HeaderParser", "BodyParser", "Renderer", "Encoder", "Decoder"),
}


def write(
    repo: GitRepo, language: str, folder: str, names: tuple[str, ...], note: bool = False
) -> str:
    """A file of `folder` defining `names` (a comment line first with `note`); its path."""
    path, header, body = DEFINE[language]
    comment = ("# " if language == "python" else "// ") + "split off\n" if note else ""
    text = header.format(f=folder) + comment + "\n".join(body.format(n=n) for n in names)
    repo.write(path.format(f=folder), text)
    return path.format(f=folder)


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_split_files_ids_go_to_their_names_in_its_successor(
    language: str, repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`core` keeps one definition and gives three to a new file of another folder; a
    newcomer elsewhere defines the third name too: there it is in the successor only."""
    keep, *moved = NAMES[language][:4]
    core = write(repo, language, "core", (keep, *moved))
    old = repo.commit("one file")
    gold = [chunk_id(repo, core, name) for name in (keep, *moved)]
    write(repo, language, "core", (keep,))
    wire = write(repo, language, "wire", tuple(moved), note=True)
    write(repo, language, "cli", (moved[-1],))
    repo.commit("core split: wire/ took three")
    code, got = gold_check(repo, tmp_path, capsys, gold, old, root=plain_copy(repo, tmp_path))
    assert code == 1
    assert got[gold[0]]["kind"] == "ok"
    assert [(got[g]["kind"], got[g]["new_chunk_id"]) for g in gold[1:]] == [
        ("relocated", chunk_id(repo, wire, name)) for name in moved
    ]
    assert got[gold[-1]]["evidence"] == f"same name in {wire}, where 2 other names of {core} went"


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_name_in_two_successors_stays_for_a_person(
    language: str, repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Two names each to `head` and `body`, the fifth to both: both are successors, the
    fifth is ambiguous between them, and the others still go (one other name each, and
    their length kept)."""
    keep, *names, both = NAMES[language]
    core = write(repo, language, "core", (keep, *names, both))
    old = repo.commit("one file")
    gold = [chunk_id(repo, core, name) for name in (*names, both)]
    write(repo, language, "core", (keep,))
    head = write(repo, language, "head", (*names[:2], both))
    body = write(repo, language, "body", (*names[2:], both), note=True)
    repo.commit("core split in two")
    code, got = gold_check(repo, tmp_path, capsys, gold, old, root=plain_copy(repo, tmp_path))
    assert code == 1
    homes = [head, head, body, body]
    assert [(got[g]["kind"], got[g]["new_chunk_id"]) for g in gold[:4]] == [
        ("relocated", chunk_id(repo, home, name)) for home, name in zip(homes, names, strict=True)
    ]
    assert got[gold[4]]["kind"] == "missing_symbol"
    assert set(got[gold[4]]["candidates"]) >= {
        chunk_id(repo, head, both),
        chunk_id(repo, body, both),
    }


@pytest.mark.parametrize("language", ["typescript", "python"])
def test_names_scattered_one_a_file_are_no_split(
    language: str, repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """One name in each of two new files: each a namesake elsewhere, as a removed
    function's may be; neither goes."""
    keep, first, second, *_ = NAMES[language]
    core = write(repo, language, "core", (keep, first, second))
    old = repo.commit("one file")
    gold = [chunk_id(repo, core, name) for name in (first, second)]
    write(repo, language, "core", (keep,))
    write(repo, language, "head", (first,))
    write(repo, language, "body", (second,))
    repo.commit("two removed, namesakes elsewhere")
    code, got = gold_check(repo, tmp_path, capsys, gold, old, root=plain_copy(repo, tmp_path))
    assert code == 1
    assert [got[g]["kind"] for g in gold] == ["missing_symbol"] * 2


def test_a_one_line_alias_is_not_moved_onto_a_long_namesake(
    repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`type Hooks = ...` gone from a split file; the successor's `Hooks` is a 12-line
    interface (what another definition became): another definition under the name."""
    keep, *moved = NAMES["typescript"][:4]
    core = write(repo, "typescript", "core", (keep, *moved))
    repo.write(core, repo.read(core) + "export type Hooks = Record<string, string>;\n")
    old = repo.commit("one file")
    gold = [chunk_id(repo, core, name) for name in (*moved, "Hooks")]
    write(repo, "typescript", "core", (keep,))
    wire = write(repo, "typescript", "wire", tuple(moved))
    fields = "".join(f"  hook{n}: string;\n" for n in range(10))
    repo.write(wire, repo.read(wire) + "export interface Hooks {\n" + fields + "}\n")
    repo.commit("core split")
    code, got = gold_check(repo, tmp_path, capsys, gold, old, root=plain_copy(repo, tmp_path))
    assert code == 1
    assert [got[g]["kind"] for g in gold] == ["relocated"] * 3 + ["missing_symbol"]


ENCLOSED = {
    "typescript": (
        "timed-out.ts",
        "export function noop() {{}}\n\nexport class TimeoutError extends Error {{\n"
        "  constructor(m: string) {{\n    super(m);\n  }}\n}}\n\n{inner}",
        "export function timedOut(ms: number) {{\n{inner}  return ms;\n}}\n",
        'function {n}(delay: number) {{\n  const label = "{n}";\n  return label + delay;\n}}\n',
        ("addTimeout", "cancelTimeouts", "onSocket"),
        "timedOut",
    ),
    "python": (
        "timed_out.py",
        "def noop():\n    pass\n\n\nclass TimeoutError(Exception):\n"
        "    def __init__(self, m):\n        super().__init__(m)\n\n\n{inner}",
        "def timed_out(ms):\n{inner}    return ms\n",
        'def {n}(delay):\n    label = "{n}"\n    return label + str(delay)\n',
        ("add_timeout", "cancel_timeouts", "on_socket"),
        "timed_out",
    ),
    "rust": (
        "timed_out.rs",
        "pub fn noop() {{}}\n\npub struct TimeoutError {{\n    m: String,\n}}\n\n{inner}",
        "pub fn timed_out(ms: u64) -> u64 {{\n{inner}    ms\n}}\n",
        "fn {n}(delay: u64) -> String {{\n"
        '    let label = "{n}";\n    format!("{{}}{{}}", label, delay)\n}}\n',
        ("add_timeout", "cancel_timeouts", "on_socket"),
        "timed_out",
    ),
}


def indent(text: str, language: str) -> str:
    pad = "  " if language == "typescript" else "    "
    return "".join(pad + line if line.strip() else line for line in text.splitlines(True))


@pytest.mark.parametrize("language", list(ENCLOSED))
def test_a_file_moved_alone_takes_its_functions_into_a_new_scope(
    language: str, repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`utils/timed-out` moved up a folder: the file of its name holds two of its names
    (the second, the error, is also in a new `errors` file: the file of its name has it);
    its three functions are now inside one function there."""
    name, outer, wrapper, function, inner, scope = ENCLOSED[language]
    old_path, new_path = f"src/utils/{name}", f"src/{name}"
    functions = "\n".join(function.format(n=n) for n in inner)
    repo.write(old_path, outer.format(inner=functions))
    old = repo.commit("utils")
    error = "TimeoutError"
    gold = [chunk_id(repo, old_path, n) for n in ("noop", error, *inner)]
    repo.rm(old_path)
    moved = wrapper.format(inner=indent(functions, language))
    repo.write(new_path, outer.format(inner=moved))
    errors = new_path.replace(name.rpartition(".")[0], "errors")
    repo.write(errors, outer.format(inner="").replace("noop", "fail"))
    repo.commit("timed-out moved up, its functions into one")
    code, got = gold_check(repo, tmp_path, capsys, gold, old, root=plain_copy(repo, tmp_path))
    assert code == 1
    names = ("noop", error, *(f"{scope}.{n}" for n in inner))
    assert [(got[g]["kind"], got[g]["new_chunk_id"]) for g in gold] == [
        ("relocated", chunk_id(repo, new_path, n)) for n in names
    ]
    assert got[gold[1]]["evidence"] == (
        f"same name in {new_path}, the file {old_path} moved to, with 4 other names of it"
    )
    assert got[gold[2]]["evidence"] == (
        f"its name inside `{scope}` in {new_path}, with 2 other names of {old_path}"
    )


def moved_into_one_function(repo: GitRepo, language: str) -> tuple[str, str, list[str]]:
    """`utils/<name>`'s functions moved up a folder, inside one function there: the new
    path, the old commit and the functions' gold IDs (the removal is not committed)."""
    name, outer, wrapper, function, inner, _ = ENCLOSED[language]
    old_path, new_path = f"src/utils/{name}", f"src/{name}"
    functions = "\n".join(function.format(n=n) for n in inner)
    repo.write(old_path, outer.format(inner=functions))
    old = repo.commit("utils")
    gold = [chunk_id(repo, old_path, n) for n in inner]
    repo.rm(old_path)
    repo.write(new_path, outer.format(inner=wrapper.format(inner=indent(functions, language))))
    return new_path, old, gold


@pytest.mark.parametrize("language", list(ENCLOSED))
def test_a_namesake_where_no_other_names_went_gives_way_to_the_new_scope(
    language: str, repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """immer 6: es5.ts's functions went inside `enableES5` of plugins/es5.ts, and two of
    them also stand, rewritten, at the top of another new file: that file holds no other
    name of the old one, so the scope the others went into is where they are."""
    name, _, _, function, inner, scope = ENCLOSED[language]
    new_path, old, gold = moved_into_one_function(repo, language)
    comment = "# " if language == "python" else "// "
    # the first two, each a line longer, at the top of a new core file
    rewritten = "\n".join(
        function.format(n=n).replace("\n", f"\n{comment}rewritten\n", 1) for n in inner[:2]
    )
    core = new_path.replace(name.rpartition(".")[0], "core")
    repo.write(core, rewritten)
    repo.commit("moved up, into one function, two rewritten in core")
    code, got = gold_check(repo, tmp_path, capsys, gold, old, root=plain_copy(repo, tmp_path))
    assert code == 1
    assert [(got[g]["kind"], got[g]["new_chunk_id"]) for g in gold] == [
        ("relocated", chunk_id(repo, new_path, f"{scope}.{n}")) for n in inner
    ]


def test_fix_rewrites_a_split_files_ids_and_says_why(
    repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    keep, *moved = NAMES["typescript"][:4]
    core = write(repo, "typescript", "core", (keep, *moved))
    old = repo.commit("one file")
    gold = [chunk_id(repo, core, name) for name in moved]
    write(repo, "typescript", "core", (keep,))
    wire = write(repo, "typescript", "wire", tuple(moved), note=True)
    repo.commit("core split")
    plain_copy(repo, tmp_path)
    keys = ", ".join(f'"{g}": 3' for g in gold)
    record = f'{{"qid": "q1", "gold": {{{keys}}}, "revision": "{old}"}}\n'
    eval_set = tmp_path / "set.jsonl"
    eval_set.write_text(record, encoding="utf-8")
    argv = ["gold", "check", "set.jsonl", "--root", "plain", "--no-cache"]
    assert main([*argv, "--fix"]) == 0
    news = [chunk_id(repo, wire, name) for name in moved]
    evidence = f"same name in {wire}, where 2 other names of {core} went"
    assert (
        f"set.jsonl:1:24: RG012 [info] {gold[0]} -> {news[0]} (relocated: it is now {news[0]}; "
        f"evidence: {evidence})" in capsys.readouterr().out.splitlines()
    )
    fixed = record
    for before, after in zip(gold, news, strict=True):
        fixed = fixed.replace(before, after)
    assert eval_set.read_text(encoding="utf-8") == fixed


@pytest.mark.parametrize("language", LANGUAGES)
def test_one_other_name_is_evidence_only_for_a_span_of_the_same_length(
    language: str, repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Two names of a file in a new one, the second now shorter (a new definition of that
    name, as an interface took a struct's name): the first goes, the second stays."""
    keep, first, second, *_ = NAMES[language]
    core = write(repo, language, "core", (keep, first, second))
    old = repo.commit("one file")
    gold = [chunk_id(repo, core, name) for name in (first, second)]
    write(repo, language, "core", (keep,))
    wire = write(repo, language, "wire", (first, second))
    text = repo.read(wire)
    body = DEFINE[language][2].format(n=second)
    lines = body.splitlines(True)
    repo.write(wire, text.replace(body, "".join(lines[:1] + lines[2:])))
    repo.commit("core split, the second rewritten shorter")
    code, got = gold_check(repo, tmp_path, capsys, gold, old, root=plain_copy(repo, tmp_path))
    assert code == 1
    assert (got[gold[0]]["kind"], got[gold[0]]["new_chunk_id"]) == (
        "relocated",
        chunk_id(repo, wire, first),
    )
    assert got[gold[0]]["evidence"] == (
        f"same name and length in {wire}, where 1 other name of {core} went"
    )
    assert got[gold[1]]["kind"] == "missing_symbol"


# Where a function's module of its own is: a file named for it, or its folder's index.
OWN_MODULE = {
    "file": "src/functions/{stem}.{suffix}",
    "folder": "src/functions/{stem}/{index}.{suffix}",
    "test": "test/{stem}.{suffix}",  # a test file is no home of code
}
INDEX = {"typescript": "index", "python": "__init__", "rust": "mod"}


@pytest.mark.parametrize("layout", list(OWN_MODULE))
@pytest.mark.parametrize("language", list(ENCLOSED))
def test_a_name_that_stands_in_a_module_of_its_own_does_not_go_into_the_new_scope(
    language: str, layout: str, repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """node-semver 7: semver.js became a file a function (`functions/inc.js`) beside a class
    whose methods share their names (`SemVer.inc`); a module of its own (a file named for
    it, kebab-case or snake_case, or its folder's index) is as good a home as the scope
    the others went into, so a person chooses. A test file of that name is no such home."""
    name, _, _, function, inner, scope = ENCLOSED[language]
    new_path, old, gold = moved_into_one_function(repo, language)
    suffix = name.rpartition(".")[2]
    own = {}
    for n in inner[:2]:
        stem = "".join(f"-{c.lower()}" if c.isupper() else c for c in n)
        if language == "typescript" and layout == "test":
            suffix = "test.ts"
        own[n] = OWN_MODULE[layout].format(stem=stem, suffix=suffix, index=INDEX[language])
        repo.write(own[n], function.format(n=n))
    repo.commit("moved up, into one function; two also in modules of their own")
    code, got = gold_check(repo, tmp_path, capsys, gold, old, root=plain_copy(repo, tmp_path))
    assert code == 1
    for n, g in zip(inner[:2], gold, strict=False):
        if layout == "test":
            inside = chunk_id(repo, new_path, f"{scope}.{n}")
            assert (got[g]["kind"], got[g]["new_chunk_id"]) == ("relocated", inside)
        else:
            assert (got[g]["kind"], got[g]["new_chunk_id"]) == ("missing_file", None)
            assert chunk_id(repo, own[n], n) in got[g]["candidates"]
    last = chunk_id(repo, new_path, f"{scope}.{inner[2]}")
    assert (got[gold[2]]["kind"], got[gold[2]]["new_chunk_id"]) == ("relocated", last)


def one_file_of(repo: GitRepo, language: str, names: tuple[str, ...]) -> tuple[str, list[str]]:
    """`src/utils/<name>` holding a function of each name, committed, then removed (not
    committed): the commit and the gold IDs."""
    name, outer, _, function, _, _ = ENCLOSED[language]
    old_path = f"src/utils/{name}"
    repo.write(old_path, outer.format(inner="\n".join(function.format(n=n) for n in names)))
    old = repo.commit("utils")
    gold = [chunk_id(repo, old_path, n) for n in names]
    repo.rm(old_path)
    return old, gold


def module_for(name: str, language: str, folder: str = "src/lib") -> str:
    """The path of a module named for `name` (kebab-case), in the language's suffix."""
    stem = "".join(f"-{c.lower()}" if c.isupper() else c for c in name)
    return f"{folder}/{stem}.{ENCLOSED[language][0].rpartition('.')[2]}"


@pytest.mark.parametrize("language", list(ENCLOSED))
@pytest.mark.parametrize("kept", [3, 2])
def test_a_file_split_a_function_a_module_sends_each_to_its_own(
    language: str, kept: int, repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """node-semver 7: semver.js became a module a function (`functions/major.js`,
    `ranges/max-satisfying.js`); each name goes to the module named for it when at least
    two other names of the old file went each to theirs (with one, it is a coincidence of
    names, and a person chooses)."""
    name, _, _, function, inner, _ = ENCLOSED[language]
    old_path = f"src/utils/{name}"
    old, gold = one_file_of(repo, language, inner)
    own = {n: module_for(n, language, "src" if n == inner[0] else "src/lib") for n in inner}
    for n in inner[:kept]:
        repo.write(own[n], function.format(n=n))
    repo.commit("a module a function")
    code, got = gold_check(repo, tmp_path, capsys, gold, old, root=plain_copy(repo, tmp_path))
    assert code == 1
    for n, g in zip(inner[:kept], gold, strict=False):
        if kept == 3:
            assert (got[g]["kind"], got[g]["new_chunk_id"]) == (
                "relocated",
                chunk_id(repo, own[n], n),
            )
            assert got[g]["evidence"] == (
                f"same name in {own[n]}, the module named for it, as 2 other names of "
                f"{old_path} went each to theirs"
            )
        else:
            assert (got[g]["kind"], got[g]["new_chunk_id"]) == ("missing_file", None)


# A scope of the first function's name, holding its code and more: (language, its text).
BECAME_A_SCOPE = {
    "typescript": "export class {n} {{\n  constructor(delay: number) {{\n"
    '    const label = "{n}";\n  }}\n'
    + "".join(f"  m{i}(): number {{{{\n    return {i};\n  }}}}\n" for i in range(4))
    + "}}\n",
    "python": "class {n}:\n    def __init__(self, delay):\n        label = '{n}'\n\n"
    + "".join(f"    def m{i}(self):\n        return {i}\n\n" for i in range(4)),
}


@pytest.mark.parametrize("language", list(BECAME_A_SCOPE))
def test_a_function_become_a_much_longer_scope_in_its_module_is_left_to_a_person(
    language: str, repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """node-semver 7: the constructor function `Comparator` became a class four times as
    long in `classes/comparator.js`; its code is the class's constructor's as much as the
    class's, so the module's namesake is only a candidate."""
    _, _, _, function, inner, _ = ENCLOSED[language]
    old, gold = one_file_of(repo, language, inner)
    for n in inner:
        text = BECAME_A_SCOPE[language] if n == inner[0] else function
        repo.write(module_for(n, language), text.format(n=n))
    repo.commit("a module a function, the first now a class")
    code, got = gold_check(repo, tmp_path, capsys, gold, old, root=plain_copy(repo, tmp_path))
    assert code == 1
    assert (got[gold[0]]["kind"], got[gold[0]]["new_chunk_id"]) == ("missing_file", None)
    assert [got[g]["kind"] for g in gold[1:]] == ["relocated", "relocated"]


@pytest.mark.parametrize("language", list(ENCLOSED))
def test_names_in_modules_of_their_own_leave_the_shared_file_a_successor(
    language: str, repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """node-semver 7: most of semver.js went a function a module, a dozen helpers into
    `classes/range.js`; the modules of their own are the split's other pattern, so the
    shared file is still a successor (it took all the other names)."""
    _, _, _, function, inner, _ = ENCLOSED[language]
    extra = ("readAll", "writeAll") if language == "typescript" else ("read_all", "write_all")
    old, gold = one_file_of(repo, language, (*inner, *extra))
    for n in inner:
        repo.write(module_for(n, language), function.format(n=n))
    shared = module_for("streams", language)
    repo.write(shared, "\n".join(function.format(n=n) for n in extra))
    repo.commit("a module a function, two in one shared file")
    code, got = gold_check(repo, tmp_path, capsys, gold, old, root=plain_copy(repo, tmp_path))
    assert code == 1
    assert [(got[g]["kind"], got[g]["new_chunk_id"]) for g in gold[3:]] == [
        ("relocated", chunk_id(repo, shared, n)) for n in extra
    ]
    assert [got[g]["kind"] for g in gold[:3]] == ["relocated"] * 3


# One-line functions alike but for their names, as they were and as rewritten in their
# modules: no body tells them apart.
ONE_LINERS = {
    "python": (
        "semver.py",
        "def {n}(v):\n    return parse(v).{n}\n",
        "def {n}(version, loose=False):\n    return SemVer(version, loose).{n}\n",
    ),
    "typescript": (
        "semver.ts",
        "export function {n}(v: string) {{\n  return parse(v).{n};\n}}\n",
        "export const {n} = (a: string, loose?: boolean) => new SemVer(a, loose).{n};\n",
    ),
    "rust": (
        "semver.rs",
        "pub fn {n}(v: &str) -> u64 {{\n    parse(v).{n}\n}}\n",
        "pub fn {n}(version: &str, loose: bool) -> u64 {{\n"
        "    SemVer::new(version, loose).{n}\n}}\n",
    ),
}


@pytest.mark.parametrize("language", list(ONE_LINERS))
@pytest.mark.parametrize("stood", [False, True])
def test_with_history_short_bodies_go_each_to_their_module_if_new_there(
    language: str, stood: bool, repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """node-semver 7 with its history: `major`, `minor` and `patch`, one line each and
    rewritten as arrow functions, each in its module (`functions/major.js`): bodies this
    short and alike tell nothing, the split does, as in a plain tree. Not where the module
    stood already at the revision (`stood`): then it was no new home."""
    name, before, after = ONE_LINERS[language]
    names = ("major", "minor", "patch")
    old_path = f"src/utils/{name}"
    own = {n: f"src/functions/{n}.{name.rpartition('.')[2]}" for n in names}
    repo.write(old_path, "\n".join(before.format(n=n) for n in names))
    if stood:
        repo.write(own["major"], after.format(n="major"))
    old = repo.commit("one file")
    gold = [chunk_id(repo, old_path, n) for n in names]
    repo.rm(old_path)
    for n in names:
        repo.write(own[n], after.format(n=n))
    repo.commit("a module a function")
    code, got = gold_check(repo, tmp_path, capsys, gold, old)
    assert code == 1
    for n, g in zip(names, gold, strict=True):
        if stood and n == "major":
            assert (got[g]["kind"], got[g]["new_chunk_id"]) == ("missing_file", None)
        else:
            assert (got[g]["kind"], got[g]["new_chunk_id"]) == (
                "relocated",
                chunk_id(repo, own[n], n),
            )
