"""A file rewritten past git's rename threshold and split (aho-corasick 0.7.20 -> 1.0.0:
`src/nfa.rs` -> `src/nfa/noncontiguous.rs` and `src/nfa/contiguous.rs`, issue 29): git
pairs the old file with nothing, and a method name is now in both new files. Where the
old file's other definitions went says which new file took it over (its successor): the
name there is the ID's new home, and a method renamed inside its moved type is the one
new member of the type there whose body is alike."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.retrieval.gitrepo import GitRepo
from tests.retrieval.gold.reanchor_repo import chunk_id, gold_check
from tests.retrieval.gold.test_reanchor_twins import repo

__all__ = ["repo"]  # the fixture

# A body is statements `name = expression` and a returned expression; `S.` is the type's
# own fields (`self.`, `this.`, `m.`).
Body = tuple[list[tuple[str, str]], str]

MACHINE: dict[str, Body] = {
    "next_state": (
        [("slot", "S.base + x * 256"), ("found", "S.table_get(slot)"), ("dead", "S.fail_id + 1")],
        "found + dead * 2",
    ),
    "match_kind": ([], "S.kind"),
    "pattern_len": ([("n", "S.patterns_len + x")], "n * 3"),
    "state_count": ([("total", "S.states_len + S.dead_len")], "total - 1"),
    "memory_usage": ([("bytes", "S.states_len * 64"), ("extra", "S.heap + x")], "bytes + extra"),
}
# `next_state` rewritten in the successor: half of it kept.
NEXT_STATE_NEW: Body = (
    [
        ("slot", "S.base + x * 256"),
        ("sparse", "S.sparse_find(slot, x)"),
        ("link", "S.links_get(sparse)"),
        ("fallback", "S.fallback_for(link)"),
    ],
    "fallback + S.offset",
)
# The other new file's `next_state`: nothing like it.
NEXT_STATE_DENSE: Body = ([], "S.rows_get(x) << S.stride_shift")
COMPILER: dict[str, Body] = {
    "compile": ([("trie", "S.build_trie(x)"), ("filled", "S.fill_failures(trie)")], "filled"),
    "add_start_loop": (
        [
            ("start", "S.start_state_id"),
            ("looped", "S.set_transition(start, x, start)"),
            ("counted", "S.loop_count + looped"),
            ("marked", "S.mark_start(start, counted)"),
        ],
        "marked + counted",
    ),
    "queued": ([("seen", "S.queue_len + x")], "seen"),
}
# The renamed method: edited (0.5 to 0.8 alike, under a near body's 0.8), and a new
# sibling that is less alike.
RENAMED: dict[str, Body] = {
    "add_unanchored_start_loop": (
        [
            ("start", "S.unanchored_start_id"),
            ("looped", "S.set_transition(start, x, start)"),
            ("anchored", "S.is_anchored(start)"),
            ("depth", "S.depth_of(anchored)"),
        ],
        "S.mark_start(start, depth)",
    ),
    "close_start_loop": ([("gone", "S.remove_loop(S.anchored_start_id, x)")], "gone"),
}
PADDING = {f"helper_{i}": ([("v", f"x * {i + 3} + {i}")], f"v - {i}") for i in range(14)}

# Per language: the old file, the successor, the other new file.
PATHS = {
    "rust": ("src/nfa.rs", "src/nfa/sparse.rs", "src/nfa/dense.rs"),
    "python": ("pkg/nfa.py", "pkg/nfa/sparse.py", "pkg/nfa/dense.py"),
    "go": ("nfa/nfa.go", "nfa/sparse/sparse.go", "nfa/dense/dense.go"),
    "typescript": ("src/nfa.ts", "src/nfa/sparse.ts", "src/nfa/dense.ts"),
    "java": (
        "src/main/java/org/ex/nfa/Nfa.java",
        "src/main/java/org/ex/nfa/sparse/Nfa.java",
        "src/main/java/org/ex/nfa/dense/Nfa.java",
    ),
}
LANGUAGES = list(PATHS)


def _camel(name: str) -> str:
    head, *rest = name.split("_")
    return head + "".join(word.title() for word in rest)


def _name(language: str, name: str) -> str:
    return _camel(name) if language in ("typescript", "java") else name


def _method(language: str, name: str, body: Body) -> str:
    lines, result = body
    me = {"rust": "self.", "python": "self.", "go": "m."}.get(language, "this.")
    name = _name(language, name)

    def expr(text: str) -> str:
        return text.replace("S.", me)

    if language == "rust":
        stmts = "".join(f"        let {v} = {expr(e)};\n" for v, e in lines)
        sig = f"    pub fn {name}(&self, x: usize) -> usize"
        return f"{sig} {{\n{stmts}        {expr(result)}\n    }}\n"
    if language == "python":
        stmts = "".join(f"        {v} = {expr(e)}\n" for v, e in lines)
        return f"    def {name}(self, x):\n{stmts}        return {expr(result)}\n"
    if language == "go":
        stmts = "".join(f"\t{v} := {expr(e)}\n" for v, e in lines)
        return f"func (m *TYPE) {name}(x int) int {{\n{stmts}\treturn {expr(result)}\n}}\n"
    decl = "const" if language == "typescript" else "int"
    sig = f"{name}(x: number): number" if language == "typescript" else f"int {name}(int x)"
    stmts = "".join(f"    {decl} {v} = {expr(e)};\n" for v, e in lines)
    return f"  {sig} {{\n{stmts}    return {expr(result)};\n  }}\n"


def _type(language: str, type_name: str, methods: dict[str, Body]) -> str:
    bodies = [_method(language, name, body) for name, body in methods.items()]
    if language == "rust":
        return (
            f"pub struct {type_name} {{\n    base: usize,\n}}\n\n"
            f"impl {type_name} {{\n" + "\n".join(bodies) + "}\n"
        )
    if language == "python":
        return f"class {type_name}:\n" + "\n".join(bodies)
    if language == "go":
        methods_text = "\n".join(b.replace("TYPE", type_name) for b in bodies)
        return f"type {type_name} struct {{\n\tbase int\n}}\n\n" + methods_text
    if language == "typescript":
        return f"export class {type_name} {{\n  base = 0;\n" + "\n".join(bodies) + "}\n"
    return f"class {type_name} {{\n  int base;\n" + "\n".join(bodies) + "}\n"


def _file(language: str, path: str, types: dict[str, dict[str, Body]]) -> str:
    package = path.rpartition("/")[0].rpartition("/")[2]
    head = {
        "go": f"package {package}\n\n",
        "java": f"package org.ex.{'.'.join(path.split('/')[5:-1])};\n\n",
    }.get(language, "")
    return head + "\n\n".join(_type(language, t, m) for t, m in types.items())


# A one-line alias whose name a long new type took (got v12: `interface Hooks extends
# PromiseOnly.Hooks, PlainHooks {}` -> the 270-line `interface Hooks`, PlainHooks' rename).
_FIELDS = range(12)
ALIAS = {
    "rust": (
        "pub type Hooks = Machine;\n",
        "pub struct Hooks {\n" + "".join(f"    hook{i}: usize,\n" for i in _FIELDS) + "}\n",
    ),
    "python": (
        "class Hooks(Machine):\n    pass\n",
        "class Hooks:\n" + "".join(f"    hook{i} = {i}\n" for i in _FIELDS),
    ),
    "go": (
        "type Hooks = Machine\n",
        "type Hooks struct {\n" + "".join(f"\thook{i} int\n" for i in _FIELDS) + "}\n",
    ),
    "typescript": (
        "export interface Hooks extends Machine {}\n",
        "export interface Hooks {\n" + "".join(f"  hook{i}: number;\n" for i in _FIELDS) + "}\n",
    ),
    "java": (
        "interface Hooks extends Runnable {}\n",
        "interface Hooks {\n" + "".join(f"  int hook{i}();\n" for i in _FIELDS) + "}\n",
    ),
}


def _split(
    repo: GitRepo,
    language: str,
    siblings: bool,
    renamed: dict[str, Body] = RENAMED,
    alias: bool = False,
) -> tuple[str, list[str]]:
    """The old revision and the gold IDs; the work tree has the old file split in two new
    files (committed); `siblings`: the successor took the old file's other definitions;
    `alias`: the old file had a one-line `Hooks` whose name a long new type took."""
    old_path, sparse, dense = PATHS[language]
    before, after = ALIAS[language] if alias else ("", "")
    old_types = {"Machine": MACHINE, "Compiler": COMPILER}
    repo.write(old_path, _file(language, old_path, old_types) + f"\n{before}")
    old = repo.commit("one file")
    ids = [
        chunk_id(repo, old_path, f"Machine.{_name(language, 'next_state')}"),
        chunk_id(repo, old_path, f"Compiler.{_name(language, 'add_start_loop')}"),
    ] + ([chunk_id(repo, old_path, "Hooks")] if alias else [])
    kept = {k: v for k, v in MACHINE.items() if siblings and k != "next_state"}
    compiled = {k: v for k, v in COMPILER.items() if siblings and k != "add_start_loop"}
    repo.rm(old_path)
    types = {
        "Machine": {"next_state": NEXT_STATE_NEW, **kept},
        "Compiler": {**compiled, **renamed},
        "Padding": PADDING,
    }
    repo.write(sparse, _file(language, sparse, types) + f"\n{after}")
    dense_types = {"Machine": {"next_state": NEXT_STATE_DENSE, "stride": ([], "S.stride")}}
    repo.write(dense, _file(language, dense, dense_types))
    repo.commit("split, rewritten")
    # git pairs the old file with neither new one: that is the case.
    assert not repo.git("diff", "--name-status", "-M", "HEAD~1", "HEAD").startswith("R")
    return old, ids


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_split_files_successor_takes_its_ambiguous_name_and_renamed_method(
    language: str, repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    old, (next_state, add_loop) = _split(repo, language, siblings=True)
    old_path, sparse, _ = PATHS[language]
    code, got = gold_check(repo, tmp_path, capsys, [next_state, add_loop], old)
    assert code == 1
    want_next = chunk_id(repo, sparse, f"Machine.{_name(language, 'next_state')}")
    want_loop = chunk_id(repo, sparse, f"Compiler.{_name(language, 'add_unanchored_start_loop')}")
    assert got[next_state]["new_chunk_id"] == want_next
    assert got[add_loop]["new_chunk_id"] == want_loop
    # The successor took the other 4 + 2 methods and (where a type's body is not its
    # methods') the `Compiler` type; `Machine` is in both new files, the IDs nowhere.
    took = f"which took {7 if language in ('rust', 'go') else 6} of 10 definitions of {old_path}"
    assert got[next_state]["evidence"].startswith(f"same name in {sparse}, {took}, body 0.")
    assert got[add_loop]["evidence"].startswith(
        f"`Compiler` moved to {sparse} ({took}), a new member of it 0."
    )
    code, _ = gold_check(repo, tmp_path, capsys, [next_state, add_loop], old, "--fix")
    assert code == 0
    text = (tmp_path / "set.jsonl").read_text(encoding="utf-8")
    assert want_next in text and want_loop in text


# A new sibling as alike as the renamed method (within 0.1): the name that keeps every word
# of the old one (`add`, `start`, `loop`) tells them apart.
AS_ALIKE: dict[str, Body] = {
    "add_unanchored_start_loop": RENAMED["add_unanchored_start_loop"],
    "close_start_loop": (
        [
            ("start", "S.anchored_start_id"),
            ("looped", "S.set_transition(start, x, start)"),
            ("anchored", "S.is_anchored(start)"),
            ("depth", "S.depth_of(anchored)"),
        ],
        "S.unmark_start(start, depth)",
    ),
}


@pytest.mark.parametrize("language", LANGUAGES)
def test_of_members_as_alike_the_one_keeping_the_old_names_words_is_the_rename(
    language: str, repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    old, (_, add_loop) = _split(repo, language, siblings=True, renamed=AS_ALIKE)
    _, sparse, _ = PATHS[language]
    code, got = gold_check(repo, tmp_path, capsys, [add_loop], old)
    assert code == 1
    want = chunk_id(repo, sparse, f"Compiler.{_name(language, 'add_unanchored_start_loop')}")
    assert got[add_loop]["new_chunk_id"] == want
    # Without the words to tell them apart, nothing is rewritten.
    repo.write(sparse, repo.read(sparse).replace("addUnanchored", "openUnanchored"))
    repo.write(sparse, repo.read(sparse).replace("add_unanchored", "open_unanchored"))
    repo.commit("renamed again")
    code, got = gold_check(repo, tmp_path, capsys, [add_loop], old)
    assert (code, got[add_loop]["new_chunk_id"]) == (1, None)


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_new_member_alike_under_other_words_is_not_the_rename(
    language: str, repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """commons-cli 1.3: a test's `buildCommandLineOptions` went, its work taken over by a
    new `setUp` (half alike): not its rename, whose name would keep the old words."""
    other = {"open_unanchored_start_loop": RENAMED["add_unanchored_start_loop"]}
    old, (_, add_loop) = _split(repo, language, siblings=True, renamed=other)
    code, got = gold_check(repo, tmp_path, capsys, [add_loop], old)
    assert (code, got[add_loop]["new_chunk_id"]) == (1, None)


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_short_definition_is_not_moved_onto_a_long_namesake_in_a_successor(
    language: str, repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    old, (next_state, add_loop, hooks) = _split(repo, language, siblings=True, alias=True)
    code, got = gold_check(repo, tmp_path, capsys, [next_state, add_loop, hooks], old)
    assert code == 1
    assert got[next_state]["new_chunk_id"] is not None  # the successor is known
    assert got[hooks]["new_chunk_id"] is None
    gold_check(repo, tmp_path, capsys, [next_state, add_loop, hooks], old, "--fix")
    records = (tmp_path / "set.jsonl").read_text(encoding="utf-8").splitlines()
    assert hooks in records[2]  # the others are rewritten, it is kept as it was


@pytest.mark.parametrize("language", LANGUAGES)
def test_without_its_siblings_evidence_a_split_files_id_is_not_rewritten(
    language: str, repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    old, ids = _split(repo, language, siblings=False)
    code, got = gold_check(repo, tmp_path, capsys, ids, old)
    assert code == 1
    assert [got[i]["new_chunk_id"] for i in ids] == [None, None]
    before = (tmp_path / "set.jsonl").read_bytes()
    gold_check(repo, tmp_path, capsys, ids, old, "--fix")
    assert (tmp_path / "set.jsonl").read_bytes() == before


# A file that stays, three of whose short definitions (no body evidence alone) moved to a
# new file with an edit (aho-corasick's `mod buffer;` in `src/lib.rs` became
# `pub(crate) mod buffer;` in `src/util/mod.rs`): per language, the file that stays, the
# new file, the old and the new text of a definition (`NAME`, `N`), and what stays.
CARRIED = {
    "rust": (
        "src/lib.rs",
        "src/util/mod.rs",
        "mod NAME;\n",
        "pub(crate) mod NAME;\n",
        "mod keep;\n",
    ),
    "python": (
        "pkg/core.py",
        "pkg/util/helpers.py",
        "def NAME(x):\n    return x + N\n\n\n",
        "def NAME(x, step=N):\n    return x + step\n\n\n",
        "def keep():\n    return 0\n",
    ),
    "go": (
        "core/core.go",
        "core/util/util.go",
        "func NAME(x int) int {\n\treturn x + N\n}\n\n",
        "func NAME(x int, step int) int {\n\treturn step + x*N\n}\n\n",
        "func keep() int {\n\treturn 0\n}\n",
    ),
    "typescript": (
        "src/core.ts",
        "src/util/helpers.ts",
        "export function NAME(x: number): number {\n  return x + N;\n}\n\n",
        "export function NAME(x: number, step = N): number {\n  return step * x;\n}\n\n",
        "export function keep(): number {\n  return 0;\n}\n",
    ),
}
CARRIED_NAMES = ["alpha", "beta", "gamma"]


def _carried(language: str, which: int, names: list[str]) -> str:
    path, new_path, *texts, _ = CARRIED[language]
    head = {"go": f"package {(path if which == 0 else new_path).split('/')[-2]}\n\n"}
    text = "".join(
        texts[which].replace("NAME", name).replace("N", str(i + 1)) for i, name in enumerate(names)
    )
    return head.get(language, "") + text


@pytest.mark.parametrize("language", list(CARRIED))
def test_definitions_carried_out_of_a_file_that_stays_follow_their_siblings(
    language: str, repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path, new_path, _, _, keep = CARRIED[language]
    repo.write(path, _carried(language, 0, CARRIED_NAMES) + keep)
    old = repo.commit("one file")
    gold = chunk_id(repo, path, "beta")
    repo.write(path, _carried(language, 0, []) + keep)
    repo.write(new_path, _carried(language, 1, CARRIED_NAMES))
    repo.commit("three carried to util")
    code, got = gold_check(repo, tmp_path, capsys, [gold], old)
    assert code == 1
    assert got[gold]["new_chunk_id"] == chunk_id(repo, new_path, "beta")
    assert got[gold]["evidence"].startswith(
        f"same name in {new_path}, which took 2 of 3 definitions that left {path}, body 0."
    )


@pytest.mark.parametrize("language", list(CARRIED))
def test_a_definition_carried_alone_is_not_placed_by_its_name(
    language: str, repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Its own move is no evidence of where it went: with no sibling along, it stays for a
    person to place."""
    path, new_path, _, _, keep = CARRIED[language]
    repo.write(path, _carried(language, 0, CARRIED_NAMES) + keep)
    old = repo.commit("one file")
    gold = chunk_id(repo, path, "beta")
    repo.write(path, _carried(language, 0, ["alpha", "gamma"]) + keep)
    repo.write(new_path, _carried(language, 1, ["beta"]))
    repo.commit("one carried to util")
    code, got = gold_check(repo, tmp_path, capsys, [gold], old)
    assert code == 1
    assert got[gold]["new_chunk_id"] is None


REWRITTEN = {
    "rust": (
        "src/hir/literal/mod.rs",
        "src/hir/literal.rs",
        "pub fn {name}(x: u32) -> u32 {{\n    let y = x * {a} + {b};\n    let z = y ^ (x >> {a});\n"
        "    z.wrapping_add({b})\n}}\n",
        "mod tests {{\n    use super::*;\n\n{tests}}}\n",
        "    #[test]\n    fn {name}() {{\n        assert_eq!({call}, {want});\n    }}\n",
        "    #[test]\n    fn {name}() {{\n"
        "        let got: Vec<u32> = (0..{want}).map({fn}).collect();\n"
        '        assert!(got.iter().all(|&v| v != {want}), "{name}: {{:?}}", got);\n    }}\n',
    ),
    "python": (
        "pkg/literal/__init__.py",
        "pkg/literal.py",
        "def {name}(x):\n    y = x * {a} + {b}\n    z = y ^ (x >> {a})\n    return z + {b}\n",
        "class tests:\n{tests}",
        "    def {name}(self):\n        assert {call} == {want}\n",
        "    def {name}(self):\n        got = [{fn}(v) for v in range({want})]\n"
        '        assert all(v != {want} for v in got), f"{name}: {{got}}"\n',
    ),
}


@pytest.mark.parametrize("language", sorted(REWRITTEN))
def test_a_rewritten_body_does_not_follow_its_name_into_a_rewrite_that_kept_a_few_names(
    language: str, repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """regex-syntax 0.7: `hir/literal/mod.rs` rewritten as `hir/literal.rs`, 2 of its 83
    definitions kept there: its `tests`, all new, is not the old one."""
    path, new_path, function, module, test, new_test = REWRITTEN[language]

    def functions(names: list[str], seed: int) -> str:
        return "\n".join(
            function.format(name=n, a=i + seed, b=3 * i + seed) for i, n in enumerate(names)
        )

    def tests(template: str, prefix: str, calls: list[str]) -> str:
        body = "".join(
            template.format(name=f"{prefix}_{i}", call=f"{c}({i})", fn=c, want=i * 7)
            for i, c in enumerate(calls)
        )
        return module.format(tests=body)

    kept = ["prefix_len", "suffix_len"]
    old_names = [*kept, *(f"extract_{i}" for i in range(10))]
    repo.write(path, functions(old_names, 1) + "\n" + tests(test, "old", old_names[2:8]))
    old = repo.commit("old")
    gold = [chunk_id(repo, path, "tests")]
    repo.rm(path)
    new_names = [f"seq_{i}" for i in range(10)]
    text = functions(kept, 1) + "\n" + functions(new_names, 40) + "\n"
    repo.write(new_path, text + tests(new_test, "seq", new_names[::2]))
    repo.commit("rewritten")
    code, got = gold_check(repo, tmp_path, capsys, gold, old)
    assert code == 1
    assert got[gold[0]]["new_chunk_id"] is None
    assert chunk_id(repo, new_path, "tests") in got[gold[0]]["candidates"]


# A server's `Config` and a client's, with the same getters (review of issue 29).
GETTERS = (
    "    pub fn name(&self) -> &str {\n        &self.name\n    }\n\n"
    "    pub fn port(&self) -> u16 {\n        self.port\n    }\n\n"
    "    pub fn host(&self) -> &str {\n        &self.host\n    }\n"
)
SERVER = "pub struct Server {\n    ports: Vec<u16>,\n}\n\nimpl Server {\n"
SERVER += "    pub fn bind(&mut self, port: u16) {\n        self.ports.push(port);\n    }\n}\n"
CLIENT = (
    "pub struct Config {\n    name: String,\n    port: u16,\n    host: String,\n"
    "    timeout_ms: u64,\n}\n\nimpl Config {\n" + GETTERS + "MORE}\n"
)


def test_a_file_renamed_since_the_revision_is_no_successor_of_what_stood_in_it(
    repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The server's `Config` deleted while the client's file, whose getters stood there
    all along, was renamed and gained a `validate`: that file took nothing of the server's."""
    validate = "    pub fn validate(&self) -> Result<(), String> {\n"
    validate += '        if self.port < 1024 {\n            return Err("privileged".into());\n'
    validate += "        }\n        Ok(())\n    }\n"
    config = CLIENT.replace("timeout_ms: u64,\n", "backlog: u32,\n").replace("MORE", validate)
    repo.write("src/server.rs", f"{SERVER}\n{config}")
    repo.write("src/client/config.rs", CLIENT.replace("MORE", ""))
    old = repo.commit("two configs")
    gold = [chunk_id(repo, "src/server.rs", "Config.validate")]
    repo.write("src/server.rs", SERVER)
    repo.mv("src/client/config.rs", "src/client/settings.rs")
    checked = "    pub fn validate(&self) -> bool {\n        self.timeout_ms > 0\n    }\n"
    repo.write("src/client/settings.rs", CLIENT.replace("MORE", checked))
    repo.commit("the server's config removed, the client's renamed")
    _, got = gold_check(repo, tmp_path, capsys, gold, old)
    assert got[gold[0]]["new_chunk_id"] is None
