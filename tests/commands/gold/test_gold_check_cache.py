"""`gold check` keeps parsed definitions in a cache folder: same answers, fewer parses."""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

import pytest

from evaltools.__main__ import main
from evaltools.parallel import processes
from evaltools.retrieval.code import definition_cache, parsing
from evaltools.retrieval.code.cache_store import DB_NAME, FOLDER_NAME
from evaltools.retrieval.code.symbols import SPANS_VERSION
from tests.commands.gold._concurrent import two_runs_at_once_agree
from tests.commands.gold._layers import without_result_cache
from tests.conftest import REPO
from tests.retrieval.gitrepo import GO, SESSION_PY, GitRepo

REPO_ROOT = REPO

TS = """\
export function loadUser(id: number): number {
  return id;
}

export class UserStore {
  get(key: string): number {
    return 1;
  }
}
"""


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A code repository, refactored after its gold IDs were written, and the set."""
    repo = GitRepo(tmp_path / "code")
    repo.write("auth/session.py", SESSION_PY)
    repo.write("web/user.ts", TS)
    repo.write("store/store.go", GO)
    repo.write("old/name.py", "def old_name():\n    return 1\n")
    repo.commit("initial")
    repo.write("auth/session.py", '"""Sessions."""\n\n' + SESSION_PY)  # moved
    repo.mv("old/name.py", "new/name.py")  # renamed_file
    repo.write("store/store.go", GO.replace("Helper", "Assist"))  # missing_symbol
    repo.commit("refactor")
    gold = [
        "auth/session.py:4-6:kill_session",
        "auth/session.py:13-15:SessionStore.kill",
        "web/user.ts:1-3:loadUser",
        "web/user.ts:6-8:UserStore.get",
        "store/store.go:7-9:Store.Get",
        "store/store.go:11-13:Helper",
        "old/name.py:1-2:old_name",
        "gone/away.py:1-2:away",
    ]
    lines = [
        f'{{"qid": "q{i}", "query": "q", "type": "intent", "gold": {{"{g}": 3}}}}'
        for i, g in enumerate(gold)
    ]
    (tmp_path / "set.jsonl").write_text("\n".join(lines) + "\n")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("EVALTOOLS_CACHE_DIR", str(tmp_path / "cache"))
    return tmp_path


def gold_check(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    main(["gold", "check", "--format", "json", "--jobs", "1", *args])
    return capsys.readouterr().out


def counting_parses(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The files parsed in this process (`--jobs 1` parses in it) are recorded here."""
    parsed: list[str] = []
    real = parsing.parse_source

    def parse_source(path: str, source: bytes) -> parsing.ParsedFile:
        parsed.append(path)
        return real(path, source)

    monkeypatch.setattr(parsing, "parse_source", parse_source)
    return parsed


def rows(cache: Path, table: str) -> list[tuple[object, ...]]:
    with sqlite3.connect(cache / DB_NAME) as db:
        return list(db.execute(f"SELECT * FROM {table}"))


@pytest.mark.parametrize("rev", [[], ["--rev", "HEAD"]], ids=["work-tree", "rev"])
def test_cold_and_warm_runs_agree_with_no_cache_on_a_generated_tree(
    project: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    rev: list[str],
) -> None:
    args = ["set.jsonl", "--root", "code", *rev]
    uncached = gold_check(capsys, *args, "--no-cache")
    parsed = counting_parses(monkeypatch)
    cold = gold_check(capsys, *args)
    cold_parses = len(parsed)
    warm = gold_check(capsys, *args)
    assert '"moved"' in uncached and '"renamed_file"' in uncached
    assert '"missing_symbol"' in uncached and '"missing_file"' in uncached
    assert cold == uncached
    assert warm == uncached
    assert cold_parses >= 4  # every referenced file was parsed once...
    assert len(parsed) == cold_parses  # ... and not again


@pytest.mark.parametrize("rev", [[], ["--rev", "HEAD"]], ids=["work-tree", "rev"])
def test_cache_agrees_with_no_cache_on_the_repositorys_own_eval_set(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    rev: list[str],
) -> None:
    monkeypatch.chdir(REPO_ROOT)
    monkeypatch.setenv("EVALTOOLS_CACHE_DIR", str(tmp_path / "cache"))
    args = ["evals/retrieval.jsonl", "--root", ".", *rev]
    uncached = gold_check(capsys, *args, "--no-cache")
    assert gold_check(capsys, *args) == uncached
    assert gold_check(capsys, *args) == uncached
    assert rows(tmp_path / "cache", "definitions")


def test_a_corrupt_entry_is_recomputed(
    project: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(definition_cache, "RACY_SECONDS", -3600)  # every file gets a stat row
    without_result_cache(monkeypatch)
    expected = gold_check(capsys, "set.jsonl", "--root", "code", "--no-cache")
    gold_check(capsys, "set.jsonl", "--root", "code")
    assert len(rows(project / "cache", "stats")) >= 4
    with sqlite3.connect(project / "cache" / DB_NAME) as db:
        # Garbage bytes in one entry, a truncated JSON value in another, a stat row that
        # names another file's content: none checks out against its MAC.
        keys = [row[0] for row in db.execute("SELECT key FROM definitions ORDER BY key")]
        db.execute("UPDATE definitions SET value = ? WHERE key = ?", (b"\x00\xff junk", keys[0]))
        db.execute("UPDATE definitions SET value = substr(value, 1, 5) WHERE key = ?", (keys[1],))
        db.execute("UPDATE stats SET oid = ?", (keys[2].partition(":")[2],))
    parsed = counting_parses(monkeypatch)
    assert gold_check(capsys, "set.jsonl", "--root", "code") == expected
    assert parsed  # the bad entries were parsed again
    parsed.clear()
    assert gold_check(capsys, "set.jsonl", "--root", "code") == expected
    assert parsed == []  # and stored again, good this time


@pytest.mark.parametrize("damage", ["truncate", "garbage"])
def test_a_corrupt_database_file_is_replaced(
    project: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, damage: str
) -> None:
    expected = gold_check(capsys, "set.jsonl", "--root", "code", "--no-cache")
    gold_check(capsys, "set.jsonl", "--root", "code")
    database = project / "cache" / DB_NAME
    data = database.read_bytes()
    if damage == "truncate":
        database.write_bytes(data[: len(data) // 2 + 100])
    else:
        database.write_bytes(b"not a database at all " * 300)
    parsed = counting_parses(monkeypatch)
    assert gold_check(capsys, "set.jsonl", "--root", "code") == expected
    assert parsed
    parsed.clear()
    assert gold_check(capsys, "set.jsonl", "--root", "code") == expected
    assert parsed == []


def test_a_database_of_another_schema_is_not_read(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    expected = gold_check(capsys, "set.jsonl", "--root", "code", "--no-cache")
    (project / "cache").mkdir()
    with sqlite3.connect(project / "cache" / DB_NAME) as db:
        db.execute("CREATE TABLE definitions (key TEXT, crc INTEGER, value BLOB)")
        db.execute("PRAGMA user_version=99")
    assert gold_check(capsys, "set.jsonl", "--root", "code") == expected
    assert rows(project / "cache", "definitions")


def test_two_runs_at_once_on_one_cache_both_succeed(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    expected = gold_check(capsys, "set.jsonl", "--root", "code", "--no-cache")
    two_runs_at_once_agree(project, expected)
    assert rows(project / "cache", "definitions")


def test_no_cache_writes_nothing(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    gold_check(capsys, "set.jsonl", "--root", "code", "--no-cache")
    gold_check(capsys, "set.jsonl", "--root", "code", "--rev", "HEAD", "--no-cache")
    assert not (project / "cache").exists()
    assert not (project / FOLDER_NAME).exists()


def test_the_cache_folder_is_next_to_the_configuring_pyproject(
    project: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("EVALTOOLS_CACHE_DIR")
    (project / "pyproject.toml").write_text('[tool.evaltools.retrieval]\nroot = "code"\n')
    (project / "sub").mkdir()
    monkeypatch.chdir(project / "sub")
    gold_check(capsys, "../set.jsonl")
    folder = project / FOLDER_NAME
    assert rows(folder, "definitions")
    assert (folder / ".gitignore").read_text().splitlines()[-1] == "*"
    assert not (project / "sub" / FOLDER_NAME).exists()
    # git ignores the whole folder (the project is not a repository: make it one).
    repo = GitRepo(project)
    assert repo.git("status", "--porcelain", "--untracked-files=all", FOLDER_NAME) == ""


def test_evaltools_cache_dir_is_honoured(
    project: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("EVALTOOLS_CACHE_DIR", str(project / "elsewhere" / "c"))
    gold_check(capsys, "set.jsonl", "--root", "code")
    assert rows(project / "elsewhere" / "c", "definitions")
    assert (project / "elsewhere" / "c" / ".gitignore").is_file()
    assert not (project / FOLDER_NAME).exists()
    assert not (project / "cache").exists()


def test_check_takes_no_cache(
    project: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    (project / "pyproject.toml").write_text(
        '[tool.evaltools.retrieval]\nsets = ["set.jsonl"]\nroot = "code"\n'
    )
    assert main(["check", "--no-cache"]) == 1
    uncached = capsys.readouterr().out
    assert not (project / "cache").exists()
    assert main(["check"]) == 1
    assert capsys.readouterr().out == uncached
    assert rows(project / "cache", "definitions")


def test_a_new_parser_version_invalidates_the_entries(
    project: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    expected = gold_check(capsys, "set.jsonl", "--root", "code")
    parsed = counting_parses(monkeypatch)
    gold_check(capsys, "set.jsonl", "--root", "code")
    assert parsed == []
    monkeypatch.setattr(definition_cache, "SPANS_VERSION", SPANS_VERSION + 1)
    monkeypatch.setattr(definition_cache, "_TAGS", {})
    assert gold_check(capsys, "set.jsonl", "--root", "code") == expected
    assert len(parsed) >= 4


def test_a_file_rewritten_with_the_same_size_and_time_is_parsed_again(
    project: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # Every file counts as settled: stat rows are written for all of them.
    monkeypatch.setattr(definition_cache, "RACY_SECONDS", -3600)
    gold_check(capsys, "set.jsonl", "--root", "code")
    assert len(rows(project / "cache", "stats")) >= 4
    go = project / "code" / "store" / "store.go"
    before = go.stat()
    go.write_text(GO.replace("Helper", "Assist").replace("Get(", "Put("))
    os.utime(go, ns=(before.st_atime_ns, before.st_mtime_ns))
    assert go.stat().st_size == before.st_size
    out = gold_check(capsys, "set.jsonl", "--root", "code")
    assert out == gold_check(capsys, "set.jsonl", "--root", "code", "--no-cache")
    assert '"store/store.go:7-9:Store.Get"' in out and "Store.Put" in out


@pytest.mark.parametrize("rev", [[], ["--rev", "HEAD"]], ids=["work-tree", "rev"])
def test_a_warm_run_starts_no_workers_for_gold_files_that_are_gone(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    rev: list[str],
) -> None:
    """Deleted files are known missing without a parse: with the cache warm, nothing is
    left to parse, and the default --jobs must not pay for a worker pool."""
    repo = GitRepo(tmp_path / "code")
    repo.write("kept.py", "def kept():\n    return 1\n")
    repo.commit("initial")
    gold = ["kept.py:1-2:kept"] + [f"gone/f{i:03}.py:1-2:f" for i in range(200)]
    lines = [f'{{"qid": "q{i}", "gold": {{"{g}": 3}}}}' for i, g in enumerate(gold)]
    (tmp_path / "set.jsonl").write_text("\n".join(lines) + "\n")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("EVALTOOLS_CACHE_DIR", str(tmp_path / "cache"))
    args = ["gold", "check", "set.jsonl", "--root", "code", "--format", "json", *rev]
    main([*args, "--jobs", "1"])
    expected = capsys.readouterr().out
    assert expected.count('"status": "missing_file"') == 200 and '"ok"' in expected
    monkeypatch.setattr(processes, "available_cores", lambda: 4)
    assert processes.worker_count(None, items=200, cost=parsing.PARSE_COST) > 1  # else moot

    def no_pool(*_args: object, **_kwargs: object) -> None:
        raise AssertionError("a worker pool was started")

    monkeypatch.setattr("evaltools.parallel._workers.start_pool", no_pool)
    main(args)  # the default --jobs
    assert capsys.readouterr().out == expected
