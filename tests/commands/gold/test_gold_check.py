from __future__ import annotations

import json
from pathlib import Path

import pytest

from evaltools.__main__ import main
from tests.retrieval.gitrepo import SESSION_PY, GitRepo

STORE_GO = """\
package store

type Store struct{}

func (s *Store) Get(key string) string {
	return key
}
"""
API_TS = """\
export function fetchUser(id: string): string {
  return id;
}
"""


@pytest.fixture
def workspace(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """tmp/demo_repo (a git repository) and tmp/evals/set.jsonl; the root is tmp."""
    monkeypatch.chdir(tmp_path)
    repo = GitRepo(tmp_path / "demo_repo")
    repo.write("auth/session.py", SESSION_PY)
    repo.write("store/store.go", STORE_GO)
    repo.write("web/api.ts", API_TS)
    repo.commit("initial")
    (tmp_path / "evals").mkdir()
    return tmp_path


def repo_of(workspace: Path) -> GitRepo:
    repo = GitRepo.__new__(GitRepo)
    repo.path = workspace / "demo_repo"
    return repo


def write_set(workspace: Path, *records: dict[str, object]) -> Path:
    path = workspace / "evals" / "set.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return path


def record(qid: str, *ids: str, **extra: object) -> dict[str, object]:
    return {
        "qid": qid,
        "query": f"query {qid}",
        "type": "intent",
        "gold": dict.fromkeys(ids, 3),
        **extra,
    }


def check_json(
    capsys: pytest.CaptureFixture[str], *args: str
) -> tuple[int, list[dict[str, object]]]:
    code = main(["gold", "check", *args, "--format", "json"])
    return code, json.loads(capsys.readouterr().out)


def by_id(items: list[dict[str, object]]) -> dict[object, tuple[object, object]]:
    return {i["chunk_id"]: (i["status"], i["new_chunk_id"]) for i in items}


def test_all_ok_exits_0_with_a_summary(workspace: Path, capsys: pytest.CaptureFixture[str]) -> None:
    write_set(
        workspace,
        record("q1", "demo_repo/auth/session.py:4-6:kill_session"),
        record(
            "q2", "demo_repo/store/store.go:5-7:Store.Get", "demo_repo/web/api.ts:1-3:fetchUser"
        ),
    )
    assert main(["gold", "check", "evals", "--root", "."]) == 0
    assert capsys.readouterr().out == "3 gold IDs in 1 file: 3 ok.\n"


def test_every_status_in_json(workspace: Path, capsys: pytest.CaptureFixture[str]) -> None:
    repo = repo_of(workspace)
    repo.write("auth/session.py", "# header\n\n" + SESSION_PY)  # everything moves down 2 lines
    repo.mv("store/store.go", "store/kv.go")
    repo.write(
        "web/api.ts", "import { x } from './x';\n\n" + API_TS.replace("fetchUser", "loadUser")
    )
    repo.write(
        "util.py", "if A:\n    def pick():\n        pass\nelse:\n    def pick():\n        pass\n"
    )
    write_set(
        workspace,
        record(
            "q1",
            "demo_repo/auth/session.py:4-6:kill_session",
            "demo_repo/auth/session.py:13-15:SessionStore.kill",
            "demo_repo/store/store.go:5-7:Store.Get",
        ),
        record("q2", "demo_repo/web/api.ts:1-3:fetchUser", "demo_repo/gone.py:1-2:revoke_token"),
        record("q3", "demo_repo/util.py:1-1:pick", "demo_repo/auth/session.py:20-21:revoke_token"),
    )
    code, items = check_json(capsys, "evals/set.jsonl", "--root", ".")
    assert code == 1
    assert items[0] == {
        "path": "evals/set.jsonl",
        "line": 1,
        "column": 63,
        "qid": "q1",
        "chunk_id": "demo_repo/auth/session.py:4-6:kill_session",
        "status": "moved",
        "kind": "moved",
        "new_chunk_id": "demo_repo/auth/session.py:6-8:kill_session",
        "candidates": [],
        "caveat": None,
        "evidence": "the same name, once in the file",
        "fixed": False,
        "code": "RG001",
        "name": "gold-moved",
        "severity": "error",
        "message": "gold `demo_repo/auth/session.py:4-6:kill_session` of q1 is stale "
        "(`kill_session` is now at lines 6-8; evidence: the same name, once in the file): "
        "run `evaltools gold check evals/set.jsonl --root . "
        "--fix` to rewrite it "
        "to `demo_repo/auth/session.py:6-8:kill_session`",
    }
    assert by_id(items) == {
        "demo_repo/auth/session.py:4-6:kill_session": (
            "moved",
            "demo_repo/auth/session.py:6-8:kill_session",
        ),
        "demo_repo/auth/session.py:13-15:SessionStore.kill": (
            "moved",
            "demo_repo/auth/session.py:15-17:SessionStore.kill",
        ),
        "demo_repo/store/store.go:5-7:Store.Get": (
            "renamed_file",
            "demo_repo/store/kv.go:5-7:Store.Get",
        ),
        "demo_repo/web/api.ts:1-3:fetchUser": ("missing_symbol", None),
        "demo_repo/gone.py:1-2:revoke_token": ("missing_file", None),
        "demo_repo/util.py:1-1:pick": ("ambiguous", None),
        "demo_repo/auth/session.py:20-21:revoke_token": ("ok", None),
    }
    candidates = {i["chunk_id"]: i["candidates"] for i in items}
    assert candidates["demo_repo/web/api.ts:1-3:fetchUser"] == ["demo_repo/web/api.ts:3-5:loadUser"]
    assert candidates["demo_repo/gone.py:1-2:revoke_token"] == [
        "demo_repo/auth/session.py:20-21:revoke_token"
    ]
    assert candidates["demo_repo/util.py:1-1:pick"] == [
        "demo_repo/util.py:2-3:pick",
        "demo_repo/util.py:5-6:pick",
    ]
    assert [i["line"] for i in items] == [1, 1, 1, 2, 2, 3, 3]


def test_text_output_lines_and_summary(workspace: Path, capsys: pytest.CaptureFixture[str]) -> None:
    repo = repo_of(workspace)
    repo.write("auth/session.py", "\n" + SESSION_PY.replace("def revoke_token", "def revoke"))
    path = workspace / "evals" / "set.jsonl"
    path.write_text(
        '{"qid": "q1", "gold": {"demo_repo/auth/session.py:4-6:kill_session": 3, '
        '"demo_repo/auth/session.py:18-19:revoke_token": 1}}\n'
    )
    assert main(["gold", "check", "evals/set.jsonl", "--root", "."]) == 1
    assert capsys.readouterr().out == (
        "evals/set.jsonl:1:24: RG001 [error] gold `demo_repo/auth/session.py:4-6:kill_session` "
        "of q1 is stale (`kill_session` is now at lines 5-7; evidence: the same name, once in "
        "the file): run `evaltools gold check "
        "evals/set.jsonl --root . --fix` to rewrite it to "
        "`demo_repo/auth/session.py:5-7:kill_session`\n"
        "evals/set.jsonl:1:73: RG003 [error] gold `demo_repo/auth/session.py:18-19:revoke_token` "
        "of q1 does not resolve (demo_repo/auth/session.py defines no `revoke_token`): replace it "
        "with one of `demo_repo/auth/session.py:19-20:revoke`, or remove it\n"
        "2 gold IDs in 1 file: 1 moved, 1 missing_symbol.\n"
    )


def test_fix_rewrites_only_the_stale_keys_byte_for_byte(
    workspace: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    repo = repo_of(workspace)
    repo.write("auth/session.py", "# header\n\n" + SESSION_PY)
    repo.mv("store/store.go", "store/kv.go")
    repo.commit("refactor")
    path = workspace / "evals" / "set.jsonl"
    original = (
        '{"gold":{"demo_repo/auth/session.py:4-6:kill_session":3 ,  "demo_repo/nope.py:1-2:x": 1},'
        '"qid":"q1","notes":"caf\\u00e9 \\/ keep","extra":[1.50, {"z": null}]}\n'
        "\n"
        '{ "qid" : "q2", "gold" : { "demo_repo\\/store\\/store.go:5-7:Store.Get" : 2 },'
        ' "revision": "' + "0" * 40 + '" }'
    )
    path.write_bytes(original.encode())
    assert main(["gold", "check", "evals/set.jsonl", "--root", ".", "--fix"]) == 1
    out = capsys.readouterr().out
    assert "RG004" in out and "RG001" not in out and "RG002" not in out
    assert out.endswith(
        "3 gold IDs in 1 file: 1 moved, 1 renamed_file, 1 missing_file; 2 fixed; 1 note.\n"
    )
    # q2's gold all resolves at HEAD once rewritten: its revision moves there; q1 has a
    # missing file, so it has none to move (and no revision).
    assert (
        path.read_bytes()
        == original.replace(
            "demo_repo/auth/session.py:4-6:kill_session",
            "demo_repo/auth/session.py:6-8:kill_session",
        )
        .replace(
            '"demo_repo\\/store\\/store.go:5-7:Store.Get"', '"demo_repo/store/kv.go:5-7:Store.Get"'
        )
        .replace("0" * 40, repo.head())
        .encode()
    )
    # Nothing stale is left; the missing file still fails the check.
    assert main(["gold", "check", "evals/set.jsonl", "--root", "."]) == 1
    assert capsys.readouterr().out.splitlines()[-1] == "3 gold IDs in 1 file: 2 ok, 1 missing_file."


def test_fix_go_method_and_typescript_function(
    workspace: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    repo = repo_of(workspace)
    repo.write("store/store.go", STORE_GO.replace("package store\n", "package store\n\n// Doc.\n"))
    repo.write("web/api.ts", "// header\n" + API_TS)
    path = workspace / "evals" / "set.jsonl"
    original = (
        '{"qid":"q1","gold":{"demo_repo/store/store.go:5-7:Store.Get":3,'
        '"demo_repo/web/api.ts:1-3:fetchUser":2},"split":"holdout"}\n'
    )
    path.write_text(original)
    assert main(["gold", "check", "evals", "--root", ".", "--fix"]) == 0
    assert capsys.readouterr().out == (
        "evals/set.jsonl:1:21: RG012 [info] demo_repo/store/store.go:5-7:Store.Get -> "
        "demo_repo/store/store.go:7-9:Store.Get (moved: `Store.Get` is now at lines 7-9; "
        "evidence: the same name, once in the file)\n"
        "evals/set.jsonl:1:64: RG012 [info] demo_repo/web/api.ts:1-3:fetchUser -> "
        "demo_repo/web/api.ts:2-4:fetchUser (moved: `fetchUser` is now at lines 2-4; "
        "evidence: the same name, once in the file)\n"
        "2 gold IDs in 1 file: 2 moved; 2 fixed.\n"
    )
    assert path.read_text() == (
        '{"qid":"q1","gold":{"demo_repo/store/store.go:7-9:Store.Get":3,'
        '"demo_repo/web/api.ts:2-4:fetchUser":2},"split":"holdout"}\n'
    )


def test_fix_of_everything_stale_exits_0(
    workspace: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    repo = repo_of(workspace)
    repo.write("auth/session.py", "\n" + SESSION_PY)
    path = write_set(
        workspace, record("q1", "demo_repo/auth/session.py:4-6:kill_session", split="tune")
    )
    clean = workspace / "evals" / "clean.jsonl"
    clean.write_text('{"qid": "q2", "gold": {"demo_repo/web/api.ts:1-3:fetchUser": 1}}\n')
    assert main(["gold", "check", "evals", str(path), "--root", ".", "--fix"]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == (
        "2 gold IDs in 2 files: 1 ok, 1 moved; 1 fixed."
    )
    assert path.read_text() == (
        '{"qid": "q1", "query": "query q1", "type": "intent", '
        '"gold": {"demo_repo/auth/session.py:5-7:kill_session": 3}, "split": "tune"}\n'
    )
    assert main(["gold", "check", "evals", "--root", "."]) == 0


def test_fix_leaves_a_read_only_set_alone_even_as_root(
    workspace: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # The mode bits decide, not os.access: as root (this suite's CI user) too.
    repo = repo_of(workspace)
    repo.write("auth/session.py", "\n" + SESSION_PY)
    path = write_set(
        workspace, record("q1", "demo_repo/auth/session.py:4-6:kill_session", split="tune")
    )
    before = path.read_bytes()
    path.chmod(0o444)
    assert main(["gold", "check", str(path), "--root", ".", "--fix"]) == 1
    assert "the file is read-only (mode 0444, no write permission" in capsys.readouterr().out
    assert path.read_bytes() == before


def test_fix_keeps_bom_crlf_and_non_ascii(
    workspace: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    repo = repo_of(workspace)
    repo.write("auth/session.py", "\n" + SESSION_PY)
    path = workspace / "evals" / "set.jsonl"
    original = (
        '\ufeff{"qid": "é", "gold": {"demo_repo/auth/session.py:4-6:kill_session": 3}}\r\n'
        '{"qid": "q\\u00e9", "gold": {"demo_repo/auth/session.py:13-15:SessionStore.kill": 3}}'
    ).encode()
    path.write_bytes(original)
    assert main(["gold", "check", str(path), "--root", ".", "--fix", "--format", "json"]) == 0
    items = json.loads(capsys.readouterr().out)
    assert [i["qid"] for i in items] == ["é", "qé"]
    assert path.read_bytes() == original.replace(b":4-6:", b":5-7:").replace(b":13-15:", b":14-16:")


def test_fix_refuses_to_merge_two_keys(workspace: Path, capsys: pytest.CaptureFixture[str]) -> None:
    repo = repo_of(workspace)
    repo.write("auth/session.py", "\n" + SESSION_PY)
    path = write_set(
        workspace,
        record(
            "q1",
            "demo_repo/auth/session.py:4-6:kill_session",
            "demo_repo/auth/session.py:5-7:kill_session",
        ),
        record(
            "q2",
            "demo_repo/auth/session.py:3-5:kill_session",
            "demo_repo/auth/session.py:4-6:kill_session",
        ),
    )
    before = path.read_bytes()
    assert main(["gold", "check", "evals", "--root", ".", "--fix"]) == 1
    out = capsys.readouterr().out
    assert out.count("would then be a gold key twice in this record") == 3
    assert path.read_bytes() == before


def test_rev_reads_the_commit_not_the_work_tree(
    workspace: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    repo = repo_of(workspace)
    repo.write("auth/session.py", "# uncommitted edit\n")
    write_set(workspace, record("q1", "demo_repo/auth/session.py:4-6:kill_session"))
    assert main(["gold", "check", "evals", "--root", ".", "--rev", "HEAD"]) == 0
    assert main(["gold", "check", "evals", "--root", ".", "--rev", "no-such-rev"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("evaltools gold check: error: 'no-such-rev' names no commit in ")


def test_rev_without_any_repository_is_a_usage_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "code").mkdir()
    (tmp_path / "code" / "s.py").write_text("def f():\n    return 1\n")
    (tmp_path / "set.jsonl").write_text(json.dumps(record("q1", "code/s.py:1-2:f")) + "\n")
    assert main(["gold", "check", "set.jsonl", "--root", "."]) == 0
    capsys.readouterr()
    assert main(["gold", "check", "set.jsonl", "--root", ".", "--rev", "HEAD"]) == 2
    assert capsys.readouterr().err == (
        "evaltools gold check: error: --rev 'HEAD' needs a git repository, and . is in none "
        "and holds none: drop --rev to check the files as they are\n"
    )


def test_metas(workspace: Path, capsys: pytest.CaptureFixture[str]) -> None:
    metas = workspace / "metas.jsonl"
    metas.write_text(
        '{"chunk_id": "demo_repo/auth/session.py:4-6:kill_session",'
        ' "path": "demo_repo/auth/session.py"}\n'
        '{"chunk_id": "demo_repo/auth/session.py:9-15:SessionStore"}\n'
        "oops\n"
    )
    write_set(
        workspace,
        record("q1", "demo_repo/auth/session.py:4-6:kill_session"),
        record("q2", "demo_repo/auth/session.py:13-15:SessionStore.kill"),
    )
    assert main(["gold", "check", "evals", "--metas", "metas.jsonl", "--format", "json"]) == 1
    captured = capsys.readouterr()
    found = json.loads(captured.out)
    # The metas line that is no chunk is a finding of the same array, without a status.
    others = [i for i in found if i["path"] != "evals/set.jsonl"]
    assert [(i["path"], i["line"], i["code"], i["status"]) for i in others] == [
        ("metas.jsonl", 3, "IO008", None)
    ]
    items = [i for i in found if i["path"] == "evals/set.jsonl"]
    assert by_id(items) == {
        "demo_repo/auth/session.py:4-6:kill_session": ("ok", None),
        "demo_repo/auth/session.py:13-15:SessionStore.kill": ("missing_symbol", None),
    }
    assert items[1]["candidates"] == [
        "demo_repo/auth/session.py:9-15:SessionStore",
        "demo_repo/auth/session.py:4-6:kill_session",
    ]
    assert captured.err == ""


def test_configuration_gives_root_and_metas(
    workspace: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    (workspace / "pyproject.toml").write_text('[tool.evaltools.retrieval]\nroot = "."\n')
    write_set(workspace, record("q1", "demo_repo/auth/session.py:4-6:kill_session"))
    monkeypatch.chdir(workspace / "evals")
    assert main(["gold", "check", "set.jsonl"]) == 0
    (workspace / "metas.jsonl").write_text('{"chunk_id": "other:1-2:x"}\n')
    (workspace / "pyproject.toml").write_text(
        '[tool.evaltools.retrieval]\nroot = "."\nmetas = "metas.jsonl"\n'
    )
    assert main(["gold", "check", "set.jsonl"]) == 1
    assert "RG004" in capsys.readouterr().out
    (workspace / "pyproject.toml").write_text("[tool.evaltools.retrieval]\nroot = 3\n")
    assert main(["gold", "check", "set.jsonl"]) == 2
    assert "pyproject.toml:2:8: [tool.evaltools.retrieval] root must be a path" in (
        capsys.readouterr().err
    )


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ([], "gold check needs --root DIR"),
        (["--root", "missing"], "--root missing is not a directory"),
        (["--root", ".", "--metas", "missing.jsonl"], "--metas missing.jsonl is not a file"),
        (["--metas", "m.jsonl", "--rev", "HEAD"], "--rev needs --root"),
        (
            ["--root", ".", "--jobs", "-1"],
            "--jobs must be 0 (every core), 1 (no worker processes) or more; got -1",
        ),
    ],
)
def test_usage_errors(
    workspace: Path, capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    (workspace / "m.jsonl").write_text('{"chunk_id": "a:1-1"}\n')
    write_set(workspace, record("q1", "demo_repo/auth/session.py:4-6:kill_session"))
    assert main(["gold", "check", "evals", *args]) == 2
    assert message in capsys.readouterr().err


@pytest.mark.parametrize("command", [["check"], ["gold", "check", "set.jsonl"]])
def test_a_configured_root_that_is_missing_is_named_as_configured(
    in_tmp: Path, capsys: pytest.CaptureFixture[str], command: list[str]
) -> None:
    (in_tmp / "set.jsonl").write_text(json.dumps(record("q1", "a.py:1-2:f")) + "\n")
    (in_tmp / "pyproject.toml").write_text(
        '[tool.evaltools.retrieval]\nsets = ["set.jsonl"]\nroot = "nope"\n'
    )
    assert main(command) == 2
    assert capsys.readouterr().err.endswith(
        ": error: pyproject.toml:3:8: `root` of [tool.evaltools.retrieval] names nope: no such "
        "folder (create it, or fix `root`)\n"
    )


def test_bad_records_and_ids_are_errors_not_skips(
    workspace: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = workspace / "evals" / "set.jsonl"
    path.write_bytes(
        b'{"qid": "q1", "gold": {"no-span": 3, "../up.py:1-2:f": 1,'
        b' "demo_repo/auth/session.py:4-6:kill_session": 2}}\n'
        b"\n"
        b"{not json\n"
        b'{"qid": "q2", "gold": {}}\n'
        b"[1, 2]\n"
        b"\xff\n"
    )
    assert main(["gold", "check", str(path), "--root", "."]) == 1
    lines = capsys.readouterr().out.splitlines()
    assert [line.split(" [")[0] for line in lines[:-1]] == [
        "evals/set.jsonl:1:24: RG006",
        "evals/set.jsonl:1:38: RG006",
        "evals/set.jsonl:3:2: IO008",  # invalid JSON: the code every command gives it
        "evals/set.jsonl:4:1: RG008",
        "evals/set.jsonl:5:1: RG008",
        "evals/set.jsonl:6:1: IO001",  # not UTF-8: likewise
    ]
    assert lines[-1] == "1 gold IDs in 1 file: 1 ok; 6 other errors."


def test_json_output_holds_every_finding_on_stdout(
    workspace: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A CI step that parses stdout sees the lines that are no records and the keys that
    are no chunk IDs, not only the IDs that resolved (they went to stderr as text)."""
    repo_of(workspace).mv("store/store.go", "store/kv.go")
    path = workspace / "evals" / "set.jsonl"
    path.write_text(
        '{"qid": "q1", "gold": {"demo_repo/auth/session.py:4-6:kill_session": 3, '
        '"no-span": 2, "../outside.py:1-2:f": 1}}\n'
        "not json\n"
        '{"qid": "q2", "gold": {"demo_repo/store/store.go:5-7:Store.Get": 3}}\n'
    )
    assert main(["gold", "check", str(path), "--root", ".", "--format", "json"]) == 1
    captured = capsys.readouterr()
    assert captured.err == ""
    found = json.loads(captured.out)
    assert [(o["line"], o["column"], o["code"], o["status"], o["chunk_id"]) for o in found] == [
        (1, 24, None, "ok", "demo_repo/auth/session.py:4-6:kill_session"),
        (1, 73, "RG006", None, "no-span"),
        (1, 87, "RG006", None, "../outside.py:1-2:f"),
        (2, 1, "IO008", None, None),
        (3, 24, "RG002", "renamed_file", "demo_repo/store/store.go:5-7:Store.Get"),
    ]
    # Every object has the keys of both shapes: cli.md's for gold IDs, lint's for findings.
    assert all(set(o) == set(found[0]) for o in found)
    assert found[1]["qid"] == "q1" and found[1]["severity"] == "error"
    assert "no `:start-end` span" in str(found[1]["message"])
    for fmt in ("github", "sarif"):
        assert main(["gold", "check", str(path), "--root", ".", "--format", fmt]) == 1
        out = capsys.readouterr().out
        assert out.count("RG006") >= 2 and "IO008" in out and "RG002" in out


def test_github_and_sarif(workspace: Path, capsys: pytest.CaptureFixture[str]) -> None:
    repo_of(workspace).write("auth/session.py", "\n" + SESSION_PY)
    write_set(workspace, record("q1", "demo_repo/auth/session.py:4-6:kill_session"))
    assert main(["gold", "check", "evals", "--root", ".", "--format", "github"]) == 1
    out = capsys.readouterr().out
    assert out.startswith("::error file=evals/set.jsonl,line=1,col=63,title=RG001 gold-moved::")
    assert main(["gold", "check", "evals", "--root", ".", "--format", "sarif"]) == 1
    sarif = json.loads(capsys.readouterr().out)
    assert sarif["runs"][0]["results"][0]["ruleId"] == "RG001"


def test_a_directory_argument_and_an_unreadable_file(
    workspace: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write_set(workspace, record("q1", "demo_repo/auth/session.py:4-6:kill_session"))
    (workspace / "evals" / "sub.jsonl").mkdir()
    assert main(["gold", "check", "evals/set.jsonl", "evals/sub.jsonl", "--root", "."]) == 1
    out = capsys.readouterr().out
    first = out.splitlines()[0]
    assert first.startswith("evals/sub.jsonl:1:1: IO007 [error] is a directory, not a file")
    assert out.splitlines()[-1] == "1 gold IDs in 1 file: 1 ok; 1 other error."


def test_fix_does_not_write_a_file_that_changed(
    workspace: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from evaltools.retrieval.gold import gold_check

    repo_of(workspace).write("auth/session.py", "\n" + SESSION_PY)
    stale = "demo_repo/auth/session.py:4-6:kill_session"
    path = write_set(workspace, record("q1", stale), record("q2", stale))
    real = gold_check._resolve

    def resolve_then_edit(*args: object, **kwargs: object) -> None:
        real(*args, **kwargs)  # type: ignore[arg-type]
        path.write_text(path.read_text() + "\n")

    monkeypatch.setattr(gold_check, "_resolve", resolve_then_edit)
    assert main(["gold", "check", "evals", "--root", ".", "--fix"]) == 1
    out = capsys.readouterr().out.splitlines()
    # The file's refusal once, not once per key: each key is still stale, to fix on a rerun.
    refused = [line for line in out if "IO021" in line]
    assert refused == [
        "evals/set.jsonl:1:1: IO021 [error] file changed while evaltools was working on it; "
        "nothing was written, run again"
    ]
    stale_lines = [line for line in out if "is stale" in line]
    assert len(stale_lines) == 2
    assert all("run `evaltools gold check evals --root . --fix`" in line for line in stale_lines)
    assert path.read_text().endswith("}\n\n")


def test_a_window_past_the_end_of_its_file_is_missing_lines(
    workspace: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A window (no symbol) names lines, not a definition: not RG003's missing symbol."""
    write_set(workspace, record("q1", "demo_repo/auth/session.py:20-30"))
    assert main(["gold", "check", "evals", "--root", "."]) == 1
    out = capsys.readouterr().out
    assert out.startswith(
        "evals/set.jsonl:1:63: RG016 [error] gold `demo_repo/auth/session.py:20-30` of q1 "
        "names lines that are gone (demo_repo/auth/session.py has 19 lines, fewer than the "
        "span's end 30)"
    )
    assert out.splitlines()[-1] == "1 gold IDs in 1 file: 1 missing_lines."
    code, items = check_json(capsys, "evals", "--root", ".")
    assert code == 1
    assert (items[0]["status"], items[0]["kind"], items[0]["code"]) == (
        "missing_symbol",
        "missing_lines",
        "RG016",
    )
