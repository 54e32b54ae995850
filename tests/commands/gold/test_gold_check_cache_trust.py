"""A poisoned cache never makes the gate pass: rows another hand rewrote (with a checksum it
can recompute) are recomputed, and a cache another user can write is not used at all."""

from __future__ import annotations

import json
import os
import sqlite3
import zlib
from collections.abc import Callable
from pathlib import Path

import pytest

from evaltools.__main__ import main
from evaltools.retrieval.code.cache_store import DB_NAME
from evaltools.retrieval.gold.cache import result_key
from tests.retrieval.gitrepo import GO, GitRepo

GONE = "store/store.go:11-13:Helper"
# One gold ID that no longer resolves: `Helper` was renamed to `Assist`.
STALE = (
    '{"qid": "q1", "query": "q", "type": "intent", "gold": {"store/store.go:11-13:Helper": 3}}\n'
)
NOBODY = 65534
SECRET_NAME = "rows.key"  # the key of the rows' MACs (`cache_store.SECRET_NAME`)


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    repo = GitRepo(tmp_path / "code")
    repo.write("store/store.go", GO.replace("Helper", "Assist"))
    repo.commit()
    (tmp_path / "set.jsonl").write_text(STALE)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("EVALTOOLS_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(result_key, "RACY_SECONDS", -3600)  # every file old enough to key
    return tmp_path


def gold_check(capsys: pytest.CaptureFixture[str], *extra: str) -> tuple[int, str, str]:
    code = main(["gold", "check", "set.jsonl", "--root", "code", "--jobs", "1", *extra])
    found = capsys.readouterr()
    return code, found.out, found.err


def checksum(*parts: str | bytes) -> int:
    """What anyone can compute for a row: a CRC32 of its parts (the rows' old guard)."""
    crc = 0
    for part in parts:
        data = part.encode() if isinstance(part, str) else part
        crc = zlib.crc32(data + b"\0", crc)
    return crc


def rewrite(cache: Path, like: str, change: Callable[[bytes], bytes]) -> None:
    """Rewrite every row whose key is LIKE `like` with `change(value)`, and a checksum."""
    with sqlite3.connect(cache / DB_NAME) as db:
        rows = db.execute("SELECT key, value FROM definitions WHERE key LIKE ?", (like,))
        for key, value in rows.fetchall():
            new = change(value)
            db.execute(
                "UPDATE definitions SET value = ?, crc = ? WHERE key = ?",
                (new, checksum(key, new), key),
            )


def passing_result(value: bytes) -> bytes:
    head, _, _rest = value.partition(b"\n")
    header = json.loads(head)
    out = b"1 gold IDs in 1 file: 1 ok.\n"
    header.update(code=0, stdout=len(out), stderr=0)
    return json.dumps(header).encode() + b"\n" + out


def test_a_rewritten_result_row_does_not_pass_the_gate(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert gold_check(capsys)[0] == 1  # stores the result
    rewrite(project / "cache", "goldcheck%", passing_result)
    code, out, _ = gold_check(capsys)
    assert code == 1
    assert "RG003" in out or "RG002" in out
    assert gold_check(capsys, "--fix")[0] == 1


def test_a_rewritten_definitions_row_does_not_resolve_a_stale_id(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert gold_check(capsys)[0] == 1  # stores the file's definitions
    with sqlite3.connect(project / "cache" / DB_NAME) as db:
        db.execute("DELETE FROM definitions WHERE key LIKE 'goldcheck%'")

    def defines_helper(value: bytes) -> bytes:
        return value.replace(b'"Assist"', b'"Helper"')

    rewrite(project / "cache", "%", defines_helper)
    assert gold_check(capsys)[0] == 1


@pytest.mark.parametrize("what", ["database-0666", "database-of-another-user", "folder-0777"])
def test_a_cache_another_user_can_write_is_not_used(
    project: Path, capsys: pytest.CaptureFixture[str], what: str
) -> None:
    assert gold_check(capsys)[0] == 1
    cache = project / "cache"
    rewrite(cache, "goldcheck%", passing_result)
    # Another user could hold the secret too (a shared folder): then its rows would check out.
    if what == "database-0666":
        (cache / DB_NAME).chmod(0o666)
    elif what == "database-of-another-user":
        os.chown(cache / DB_NAME, NOBODY, NOBODY)
    else:
        cache.chmod(0o777)
    code, _, err = gold_check(capsys)
    assert code == 1
    assert err.count("evaltools: not using the cache:") <= 1
    assert "not using the cache" in err and "running without it" in err


def test_the_secret_and_the_database_are_this_users_alone(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    old = os.umask(0o002)  # a group-writable umask must not make the cache untrusted
    try:
        assert gold_check(capsys)[0] == 1
    finally:
        os.umask(old)
    cache = project / "cache"
    assert (cache / SECRET_NAME).stat().st_mode & 0o777 == 0o600
    assert (cache / DB_NAME).stat().st_mode & 0o022 == 0
    assert cache.stat().st_mode & 0o022 == 0
    code, _, err = gold_check(capsys)
    assert (code, err) == (1, "")


def test_a_short_key_a_killed_run_left_is_replaced_and_the_cache_used(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A run killed while it made the key left 5 bytes of it: the next run makes a whole
    one (0600) and keeps its rows, instead of running without the cache for good."""
    cache = project / "cache"
    cache.mkdir(mode=0o755)
    (cache / SECRET_NAME).write_bytes(b"short")
    (cache / SECRET_NAME).chmod(0o600)
    assert gold_check(capsys)[0] == 1
    key = cache / SECRET_NAME
    assert len(key.read_bytes()) == 32
    assert key.stat().st_mode & 0o777 == 0o600
    with sqlite3.connect(cache / DB_NAME) as db:
        assert db.execute("SELECT count(*) FROM definitions").fetchone()[0] > 0
    assert [p.name for p in cache.iterdir() if p.name.startswith(".")] == [".gitignore"]
