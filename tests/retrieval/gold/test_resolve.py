from __future__ import annotations

from pathlib import Path

import pytest

from evaltools.retrieval.code import parsing
from evaltools.retrieval.code.chunk_id import ChunkIdError, parse_chunk_id
from evaltools.retrieval.code.parsing import FileParser
from evaltools.retrieval.code.symbols import find_definitions
from evaltools.retrieval.gold.reanchor.anchor import resolve_all
from evaltools.retrieval.gold.reanchor.lookup import TreeLookup
from evaltools.retrieval.gold.reanchor.metas_lookup import MetasLookup
from evaltools.retrieval.gold.reanchor.resolve import GoldRef, Resolution, Status
from evaltools.retrieval.sources.git import GitError
from evaltools.retrieval.sources.metas import MetaChunk, MetasIndex, chunk_from_line, read_metas
from evaltools.retrieval.sources.source import CodeTree, RepoMount
from tests.retrieval.gitrepo import SESSION_PY, GitRepo


def resolve(
    root: Path, *ids: str, rev: str | None = None, revision: str | None = None, jobs: int = 1
) -> dict[str, Resolution]:
    with CodeTree(root, rev) as tree, FileParser(jobs) as pool:
        results = resolve_all([GoldRef(i, revision) for i in ids], TreeLookup(tree, pool))
    return {ref.chunk_id: result for ref, result in results.items()}


def one(root: Path, chunk_id: str, **kwargs: str | None) -> Resolution:
    return resolve(root, chunk_id, **kwargs)[chunk_id]  # type: ignore[arg-type]


@pytest.fixture
def repo(tmp_path: Path) -> GitRepo:
    repo = GitRepo(tmp_path / "repo")
    repo.write("auth/session.py", SESSION_PY)
    repo.commit("add session")
    return repo


def test_ok_when_the_symbol_is_exactly_at_the_span(repo: GitRepo) -> None:
    got = resolve(
        repo.path,
        "auth/session.py:4-6:kill_session",
        "auth/session.py:9-15:SessionStore",
        "auth/session.py:13-15:SessionStore.kill",
        "auth/session.py:1-3",
    )
    assert {r.status for r in got.values()} == {Status.OK}


def test_a_function_moved_down_the_file(repo: GitRepo) -> None:
    repo.write("auth/session.py", '"""Sessions."""\n\nimport sys\n' + SESSION_PY)
    got = one(repo.path, "auth/session.py:4-6:kill_session")
    assert got == Resolution(
        Status.MOVED, "auth/session.py:7-9:kill_session", (), "`kill_session` is now at lines 7-9"
    )


def test_a_method_inside_a_class_moved(repo: GitRepo) -> None:
    repo.write(
        "auth/session.py", SESSION_PY.replace("        self.items = {}\n", "        pass\n\n" * 2)
    )
    got = one(repo.path, "auth/session.py:13-15:SessionStore.kill")
    assert (got.status, got.new_chunk_id) == (
        Status.MOVED,
        "auth/session.py:16-18:SessionStore.kill",
    )


def test_a_file_renamed_with_git_mv(repo: GitRepo) -> None:
    repo.mv("auth/session.py", "auth/sessions.py")
    repo.commit("rename")
    got = one(repo.path, "auth/session.py:4-6:kill_session")
    assert got.status is Status.RENAMED_FILE
    assert got.new_chunk_id == "auth/sessions.py:4-6:kill_session"
    assert got.detail == "auth/session.py was renamed to auth/sessions.py"


def test_a_renamed_and_edited_file_rewrites_the_span_too(repo: GitRepo) -> None:
    repo.mv("auth/session.py", "core/session.py")
    repo.write("core/session.py", "# moved\n" + SESSION_PY)
    # Not committed: the work tree's rename (staged by git mv) is evidence too.
    got = one(repo.path, "auth/session.py:13-15:SessionStore.kill")
    assert (got.status, got.new_chunk_id) == (
        Status.RENAMED_FILE,
        "core/session.py:14-16:SessionStore.kill",
    )


def test_a_renamed_function_is_missing_with_similar_names(repo: GitRepo) -> None:
    repo.write("auth/session.py", SESSION_PY.replace("def kill_session", "def kill_sessions"))
    got = one(repo.path, "auth/session.py:4-6:kill_session")
    assert got.status is Status.MISSING_SYMBOL
    assert got.new_chunk_id is None
    assert got.candidates == ("auth/session.py:4-6:kill_sessions",)
    assert got.detail == "auth/session.py defines no `kill_session`"


def test_a_method_moved_to_another_class_is_found_by_its_leaf(repo: GitRepo) -> None:
    repo.write("auth/other.py", "class Cache:\n    def kill(self):\n        pass\n")
    repo.write("auth/session.py", SESSION_PY.replace("def kill(key)", "def drop(key)"))
    got = one(repo.path, "auth/session.py:13-15:SessionStore.kill")
    assert got.status is Status.MISSING_SYMBOL
    # The same last name elsewhere (moved: issue 15), then what covers the old lines
    # (renamed in place), before names that are merely close by string distance.
    assert got.candidates == (
        "auth/other.py:2-3:Cache.kill",
        "auth/session.py:13-15:SessionStore.drop",
        "auth/session.py:10-11:SessionStore.__init__",
    )


def test_a_deleted_function(repo: GitRepo) -> None:
    repo.write("auth/session.py", SESSION_PY[: SESSION_PY.index("def revoke_token")])
    got = one(repo.path, "auth/session.py:18-19:revoke_token")
    assert got.status is Status.MISSING_SYMBOL
    assert got.candidates == ()


def test_a_deleted_file(repo: GitRepo) -> None:
    repo.write("old/session.py", "def unrelated():\n    pass\n")
    repo.write("tokens.py", "def revoke_token(t):\n    return t\n")
    repo.commit()
    repo.rm("auth/session.py")
    repo.commit("delete")
    got = one(repo.path, "auth/session.py:18-19:revoke_token")
    assert got.status is Status.MISSING_FILE
    assert got.detail == "auth/session.py does not exist and git records no rename of it"
    # Same-named files (a similar name there) first, then the symbol wherever it is defined.
    assert got.candidates == ("tokens.py:1-2:revoke_token",)
    assert one(repo.path, "auth/session.py:1-2").candidates == ("old/session.py:1-2",)


def test_a_deleted_file_in_a_plain_tree_blames_no_git_history(tmp_path: Path) -> None:
    """No repository holds the tree: the message does not say git looked."""
    (tmp_path / "tokens.py").write_text("def revoke_token(t):\n    return t\n")
    got = one(tmp_path, "auth/session.py:18-19:revoke_token")
    assert got.status is Status.MISSING_FILE
    assert got.detail == (
        "auth/session.py does not exist, and no git repository holds it to say where it went"
    )
    assert got.candidates == ("tokens.py:1-2:revoke_token",)


def test_a_file_renamed_without_the_symbol(repo: GitRepo) -> None:
    repo.mv("auth/session.py", "auth/s.py")
    repo.write("auth/s.py", SESSION_PY.replace("revoke_token", "revoke_tokens"))
    got = one(repo.path, "auth/session.py:18-19:revoke_token")
    assert got.status is Status.MISSING_SYMBOL
    assert got.detail == "auth/session.py was renamed to auth/s.py, which has no `revoke_token`"
    assert got.candidates == ("auth/s.py:18-19:revoke_tokens",)


def test_two_definitions_with_the_same_name_are_ambiguous(repo: GitRepo) -> None:
    repo.write(
        "util.py",
        "if X:\n    def pick():\n        return 1\nelse:\n    def pick():\n        return 2\n",
    )
    got = one(repo.path, "util.py:1-1:pick")
    assert got.status is Status.AMBIGUOUS
    assert got.candidates == ("util.py:2-3:pick", "util.py:5-6:pick")
    assert got.new_chunk_id is None
    # The exact span picks one: that is not ambiguous.
    assert one(repo.path, "util.py:5-6:pick").status is Status.OK


def test_a_renamed_file_with_two_candidates_is_ambiguous(repo: GitRepo) -> None:
    repo.mv("auth/session.py", "a/session.py")
    repo.write("a/session.py", SESSION_PY + "\n\ndef kill_session():\n    pass\n")
    got = one(repo.path, "auth/session.py:3-5:kill_session")
    assert got.status is Status.AMBIGUOUS
    assert got.candidates == ("a/session.py:4-6:kill_session", "a/session.py:22-23:kill_session")
    # The exact span still picks one of them.
    assert one(repo.path, "auth/session.py:4-6:kill_session").new_chunk_id == (
        "a/session.py:4-6:kill_session"
    )


def test_go_method_and_typescript_function(tmp_path: Path) -> None:
    repo = GitRepo(tmp_path / "r")
    repo.write(
        "store.go",
        "package s\n\ntype Store struct{}\n\nfunc (s *Store) Get() int {\n\treturn 1\n}\n",
    )
    repo.write("web/api.ts", "export function fetchUser(id: string) {\n  return id;\n}\n")
    repo.commit()
    repo.write(
        "store.go",
        "package s\n\n// Store keeps things.\ntype Store struct{}\n\n"
        "func (s *Store) Get() int {\n\treturn 1\n}\n",
    )
    repo.write(
        "web/api.ts",
        "import x from 'x';\n\nexport function fetchUser(id: string) {\n  return id;\n}\n",
    )
    got = resolve(
        repo.path, "store.go:5-7:Store.Get", "web/api.ts:1-3:fetchUser", "store.go:3-3:Store"
    )
    assert got["store.go:5-7:Store.Get"].new_chunk_id == "store.go:6-8:Store.Get"
    assert got["web/api.ts:1-3:fetchUser"].new_chunk_id == "web/api.ts:3-5:fetchUser"
    assert got["store.go:3-3:Store"].new_chunk_id == "store.go:4-4:Store"


def test_windows_and_unsupported_files(repo: GitRepo) -> None:
    repo.write("notes.c", "int main() {}\n")
    got = resolve(repo.path, "auth/session.py:18-40", "notes.c:1-1:main", "notes.c:1-1")
    assert got["auth/session.py:18-40"].status is Status.MISSING_LINES  # a window: no symbol
    assert got["auth/session.py:18-40"].detail == (
        "auth/session.py has 19 lines, fewer than the span's end 40"
    )
    assert got["notes.c:1-1:main"].status is Status.MISSING_SYMBOL
    assert "no parser for .c files" in got["notes.c:1-1:main"].detail
    assert got["notes.c:1-1"].status is Status.OK


def test_a_window_in_a_renamed_file(repo: GitRepo) -> None:
    repo.mv("auth/session.py", "auth/s.py")
    got = resolve(repo.path, "auth/session.py:1-3", "auth/session.py:1-99")
    assert got["auth/session.py:1-3"] == Resolution(
        Status.RENAMED_FILE,
        "auth/s.py:1-3",
        (),
        "auth/session.py was renamed to auth/s.py",
        file_gone=True,
    )
    assert got["auth/session.py:1-99"].status is Status.MISSING_LINES


def test_zero_padded_span_is_normalised(repo: GitRepo) -> None:
    got = one(repo.path, "auth/session.py:04-6:kill_session")
    assert (got.status, got.new_chunk_id) == (Status.MOVED, "auth/session.py:4-6:kill_session")
    got = one(repo.path, "auth/session.py:1-03")
    assert (got.status, got.new_chunk_id) == (Status.MOVED, "auth/session.py:1-3")


def test_reading_a_revision_ignores_the_work_tree(repo: GitRepo) -> None:
    first = repo.head()
    repo.write("auth/session.py", "\n\n" + SESSION_PY)
    second = repo.commit()
    repo.write("auth/session.py", "# uncommitted\n")
    assert one(repo.path, "auth/session.py:4-6:kill_session", rev=first).status is Status.OK
    assert one(repo.path, "auth/session.py:6-8:kill_session", rev="HEAD").status is Status.OK
    assert one(repo.path, "auth/session.py:6-8:kill_session", rev=second).status is Status.OK
    assert one(repo.path, "auth/session.py:6-8:kill_session").status is Status.MISSING_SYMBOL
    assert one(repo.path, "nothing.py:1-1:x", rev="HEAD").status is Status.MISSING_FILE
    with pytest.raises(GitError, match="names no commit"):
        CodeTree(repo.path, "no-such-branch")


def test_renames_at_a_revision_and_the_record_revision(repo: GitRepo) -> None:
    labelled = repo.head()
    repo.mv("auth/session.py", "b.py")
    repo.commit()
    repo.write("auth/session.py", "def other():\n    pass\n")
    repo.commit("a new file at the old path")
    repo.rm("auth/session.py")
    repo.commit("and gone again")
    got = one(repo.path, "auth/session.py:4-6:kill_session", rev="HEAD")
    assert got.new_chunk_id == "b.py:4-6:kill_session"
    # The record's revision narrows the search; an unknown one is ignored.
    assert one(repo.path, "auth/session.py:4-6:kill_session", revision=labelled).status is (
        Status.RENAMED_FILE
    )
    assert one(repo.path, "auth/session.py:4-6:kill_session", revision="f" * 40).status is (
        Status.RENAMED_FILE
    )
    # Narrowed to after the rename: no evidence is left.
    since = repo.git("rev-parse", "HEAD~1").strip()
    assert one(repo.path, "auth/session.py:4-6:kill_session", revision=since).status is (
        Status.MISSING_FILE
    )


def test_root_below_the_repository(repo: GitRepo) -> None:
    got = one(repo.path / "auth", "session.py:4-6:kill_session")
    assert got.status is Status.OK
    repo.mv("auth/session.py", "auth/login.py")
    got = one(repo.path / "auth", "session.py:4-6:kill_session")
    assert (got.status, got.new_chunk_id) == (Status.RENAMED_FILE, "login.py:4-6:kill_session")
    # Renamed out of the root: no chunk ID can name it, so the file is missing.
    repo.mv("auth/login.py", "elsewhere/login.py")
    assert one(repo.path / "auth", "session.py:4-6:kill_session").status is Status.MISSING_FILE


def test_root_holding_the_repository(repo: GitRepo, tmp_path: Path) -> None:
    assert one(tmp_path, "repo/auth/session.py:4-6:kill_session").status is Status.OK
    repo.mv("auth/session.py", "auth/s.py")
    repo.commit()
    got = one(tmp_path, "repo/auth/session.py:4-6:kill_session", rev="HEAD")
    assert got.new_chunk_id == "repo/auth/s.py:4-6:kill_session"
    assert one(tmp_path, "elsewhere/x.py:1-2:f").status is Status.MISSING_FILE
    with CodeTree(tmp_path, "HEAD") as tree:
        assert tree.files() == ["repo/auth/s.py"]
        assert not tree.exists("loose.py")
        assert list(tree.read_blobs(["loose.py"])) == [("loose.py", None)]


def test_root_outside_any_repository(tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text("def f():\n    pass\n")
    (tmp_path / "node_modules").mkdir()
    (tmp_path / "node_modules" / "a.py").write_text("def f():\n    pass\n")
    got = resolve(tmp_path, "a.py:1-2:f", "gone/b.py:1-2:f")
    assert got["a.py:1-2:f"].status is Status.OK
    assert got["gone/b.py:1-2:f"].status is Status.MISSING_FILE
    assert got["gone/b.py:1-2:f"].candidates == ("a.py:1-2:f",)


def test_each_file_is_parsed_once(repo: GitRepo, monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[str] = []
    real = find_definitions

    def counting(path: str, source: bytes) -> object:
        calls.append(path)
        return real(path, source)

    monkeypatch.setattr("evaltools.retrieval.code.symbols.find_definitions", counting)
    repo.write("auth/session.py", "\n" + SESSION_PY)
    ids = [
        f"auth/session.py:{a}-{b}:{s}"
        for a, b, s in [(4, 6, "kill_session"), (13, 15, "SessionStore.kill"), (1, 2, "nope")]
    ]
    got = resolve(repo.path, *ids)
    assert [r.status for r in got.values()] == [Status.MOVED, Status.MOVED, Status.MISSING_SYMBOL]
    assert calls == ["auth/session.py"]


def test_parallel_and_serial_agree(tmp_path: Path) -> None:
    repo = GitRepo(tmp_path / "r")
    ids = []
    for i in range(40):
        repo.write(f"m{i}.py", "\n" * (i % 3) + f"def f{i}():\n    return {i}\n")
        ids.append(f"m{i}.py:1-2:f{i}")
    repo.commit()
    serial = resolve(repo.path, *ids, jobs=1)
    assert resolve(repo.path, *ids, jobs=2) == serial
    assert resolve(repo.path, *ids, jobs=2, rev="HEAD") == serial
    assert sum(r.status is Status.MOVED for r in serial.values()) == 26


def test_unreadable_file_is_reported_not_crashed(repo: GitRepo) -> None:
    (repo.path / "dir.py").mkdir()
    assert one(repo.path, "dir.py:1-1:x").status is Status.MISSING_FILE
    result = parsing.read_and_parse(("x.py", str(repo.path / "auth/session.py/x")))
    assert result == ("x.py", None)


def test_ids_that_name_no_file_below_the_root_are_refused() -> None:
    assert parse_chunk_id("a/b.py:1-2:f").path == "a/b.py"
    for bad in ("/etc/passwd:1-2:f", "../x.py:1-2:f", "a//b.py:1-2", "a\\b.py:1-2", "a/./b:1-1"):
        with pytest.raises(ChunkIdError):
            resolve_all([GoldRef(bad)], MetasLookup(MetasIndex(), None))


def test_repo_mount_paths() -> None:
    mount = RepoMount(Path("/r"), "demo/", "")
    assert mount.to_repo("demo/a.py") == "a.py"
    assert mount.to_id("a.py") == "demo/a.py"
    inner = RepoMount(Path("/r"), "", "sub/")
    assert inner.to_repo("a.py") == "sub/a.py"
    assert inner.to_id("other/a.py") is None


# --- against the index's chunk list ------------------------------------------------------------


def metas_lookup(lines: list[str], tree: CodeTree | None = None) -> MetasLookup:
    index = MetasIndex()
    for line in lines:
        chunk = chunk_from_line(line.encode())
        assert isinstance(chunk, MetaChunk)
        index.add(chunk)
    return MetasLookup(index, tree)


def test_metas_statuses() -> None:
    lookup = metas_lookup(
        [
            '{"chunk_id": "a.py:1-5:f"}',
            '{"chunk_id": "a.py:6-9:g"}',
            '{"chunk_id": "a.py:10-20"}',
            '{"chunk_id": "c1", "path": "b.py", "start_line": 1, "end_line": 4, "symbol": "h"}',
            '{"chunk_id": "c2", "path": "b.py", "start_line": 5, "end_line": 9, "symbol": null}',
            '{"chunk_id": "c3", "path": "b.py", "start_line": 10, "end_line": 12, "symbol": "h"}',
            '{"chunk_id": "opaque"}',
        ]
    )
    ids = [
        "a.py:1-5:f",  # in the index
        "a.py:2-6:f",  # f is there at other lines
        "b.py:1-4:h",  # the index calls it c1: same path, span, symbol
        "b.py:5-9",  # a window the index calls c2
        "b.py:2-3:h",  # two chunks of h
        "a.py:1-5:ff",  # no such symbol: similar names, then the nearest chunks
        "a.py:12-14",  # no such window: nearest chunks
        "gone.py:1-2:g",  # no such file
    ]
    results = resolve_all([GoldRef(i) for i in ids], lookup)
    got = {r.chunk_id: (s.status.value, s.new_chunk_id, s.candidates) for r, s in results.items()}
    assert got == {
        "a.py:1-5:f": ("ok", None, ()),
        "a.py:2-6:f": ("moved", "a.py:1-5:f", ()),
        "b.py:1-4:h": ("moved", "c1", ()),
        "b.py:5-9": ("moved", "c2", ()),
        "b.py:2-3:h": ("ambiguous", None, ("c1", "c3")),
        "a.py:1-5:ff": ("missing_symbol", None, ("a.py:1-5:f", "a.py:6-9:g", "a.py:10-20")),
        "a.py:12-14": ("missing_lines", None, ("a.py:10-20", "a.py:6-9:g", "a.py:1-5:f")),
        "gone.py:1-2:g": ("missing_file", None, ("a.py:6-9:g",)),
    }


def test_metas_with_git_renames(repo: GitRepo) -> None:
    repo.mv("auth/session.py", "auth/s.py")
    repo.commit()
    with CodeTree(repo.path) as tree:
        lookup = metas_lookup(['{"chunk_id": "auth/s.py:4-6:kill_session"}'], tree)
        results = resolve_all([GoldRef("auth/session.py:4-6:kill_session")], lookup)
    (result,) = results.values()
    assert (result.status, result.new_chunk_id) == (
        Status.RENAMED_FILE,
        "auth/s.py:4-6:kill_session",
    )
    # Without a tree there is no rename evidence.
    alone = metas_lookup(['{"chunk_id": "auth/s.py:4-6:kill_session"}'])
    assert alone.renamed("auth/session.py", None) == []


def test_metas_lines_are_read_as_strictly_as_records(tmp_path: Path) -> None:
    path = tmp_path / "metas.jsonl"
    path.write_bytes(
        b'{"chunk_id": "a.py:1-2:f", "chunk_id": "b.py:1-2:g"}\n'
        b'{"chunk_id": "a.py:1-2:f", "start_line": NaN}\n'
        b'{"chunk_id": "a.py:1-2:f", "end_line": Infinity}\n'
        b'{"chunk_id": "a.py:3-4:h"}\n'
    )
    index, problems = read_metas(path)
    assert index.ids == {"a.py:3-4:h"}
    assert [(p.code, p.line, p.column) for p in problems] == [
        ("RG007", 1, 1),
        ("IO008", 2, 42),  # invalid JSON has one code everywhere
        ("IO008", 3, 40),
    ]
    assert problems[0].message.startswith("line repeats a key in one object")
    assert problems[1].message.startswith("NaN is not JSON")
    assert problems[2].message.startswith("Infinity is not JSON")


def test_read_metas(tmp_path: Path) -> None:
    path = tmp_path / "metas.jsonl"
    path.write_bytes(
        b'{"chunk_id": "a.py:1-2:f"}\n\n[1]\nnot json\n{"chunk_id": 3}\n'
        b'{"chunk_id": "x", "start_line": true, "symbol": 5}\n'
    )
    index, problems = read_metas(path)
    assert index.ids == {"a.py:1-2:f", "x"}
    assert index.by_path == {"a.py": [MetaChunk("a.py:1-2:f", "a.py", 1, 2, "f")]}
    assert [(p.code, p.line) for p in problems] == [("RG007", 3), ("IO008", 4), ("RG007", 5)]
    assert problems[1].message.startswith("not valid JSON (expecting value)")
    empty = tmp_path / "empty.jsonl"
    empty.write_bytes(b"")
    assert [p.code for p in read_metas(empty)[1]] == ["IO004"]
