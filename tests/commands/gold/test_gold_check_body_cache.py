"""`gold check` keeps the bodies of the tree (for records with a `revision`) in the
definition cache: same answers, no body computed twice, bad entries recomputed."""

from __future__ import annotations

import json
import sqlite3
import zlib
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import pytest

from evaltools.__main__ import main
from evaltools.retrieval.code import definition_cache
from evaltools.retrieval.code.cache_store import DB_NAME, CacheStore
from evaltools.retrieval.gold.cache import body_cache
from evaltools.retrieval.gold.cache.body_cache import SEARCHES_KEY
from evaltools.retrieval.gold.reanchor.history import bodies
from evaltools.retrieval.gold.reanchor.history.bodies import BODIES_KEY
from tests.commands.gold._concurrent import two_runs_at_once_agree
from tests.commands.gold._layers import without_result_cache
from tests.retrieval.gitrepo import GitRepo

HELPERS_PY = '''\
import json


def load_settings(path, defaults=None):
    """Read the settings file, falling back to the defaults."""
    with open(path, encoding="utf-8") as handle:
        found = json.load(handle)
    merged = dict(defaults or {})
    merged.update(found)
    return merged


def save_settings(path, settings):
    with open(path, "w", encoding="utf-8") as handle:
        json.dump(settings, handle, indent=2, sort_keys=True)
'''


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Gold IDs with the revision they were written at; then one function moved to
    another file under another name (found by its body) and one file deleted."""
    repo = GitRepo(tmp_path / "code")
    repo.write("app/helpers.py", HELPERS_PY)
    repo.write("app/gone.py", "def vanished(a, b):\n    return a * b + 1\n")
    old = repo.commit("initial")
    repo.write("app/helpers.py", HELPERS_PY.split("\n\n\ndef save_settings", maxsplit=1)[0] + "\n")
    moved = HELPERS_PY.rsplit("\n\n\n", maxsplit=1)[-1].replace("save_settings", "store_settings")
    repo.write("app/config/store.py", "import json\n\n\n" + moved)
    repo.rm("app/gone.py")
    repo.commit("refactor")
    gold = ["app/helpers.py:4-10:load_settings", "app/helpers.py:13-15:save_settings"]
    gold.append("app/gone.py:1-2:vanished")
    lines = [
        json.dumps({"qid": f"q{i}", "query": "q", "gold": {g: 3}, "revision": old})
        for i, g in enumerate(gold)
    ]
    (tmp_path / "set.jsonl").write_text("\n".join(lines) + "\n")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("EVALTOOLS_CACHE_DIR", str(tmp_path / "cache"))
    without_result_cache(monkeypatch)
    return tmp_path


def gold_check(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    main(["gold", "check", "--format", "json", "--jobs", "1", "set.jsonl", "--root", "code", *args])
    return capsys.readouterr().out


def counting_bodies(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The files whose bodies are computed (not taken from the cache) are recorded here."""
    computed: list[str] = []
    real = bodies.file_bodies

    def file_bodies(path: str, data: bytes, named: list[tuple[str, int, int, str]]) -> object:
        computed.append(path)
        return real(path, data, named)

    monkeypatch.setattr(body_cache, "file_bodies", file_bodies)
    return computed


def body_rows(cache: Path, prefix: str = BODIES_KEY) -> dict[str, bytes]:
    with sqlite3.connect(cache / DB_NAME) as db:
        found = db.execute("SELECT key, value FROM definitions WHERE key LIKE ?", (prefix + ":%",))
        return dict(found)


def forget_searches(cache: Path) -> None:
    """Drop the remembered answers, so that the next run builds the body index again."""
    with sqlite3.connect(cache / DB_NAME) as db:
        db.execute("DELETE FROM definitions WHERE key LIKE ?", (SEARCHES_KEY + ":%",))


@pytest.mark.parametrize("rev", [[], ["--rev", "HEAD"]], ids=["work-tree", "rev"])
def test_warm_runs_take_bodies_from_the_cache_and_agree(
    project: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    rev: list[str],
) -> None:
    uncached = gold_check(capsys, *rev, "--no-cache")
    # (q0, all ok at HEAD, is behind it: RG017 says --fix would move its revision.)
    found = [item for item in json.loads(uncached) if item["code"] != "RG017"]
    statuses = [(item["status"], item["kind"]) for item in found]
    assert statuses == [
        ("ok", "ok"),
        ("missing_symbol", "relocated"),  # its old file is still there
        ("missing_file", "missing_file"),
    ]
    computed = counting_bodies(monkeypatch)
    assert gold_check(capsys, *rev) == uncached
    assert sorted(computed) == ["app/config/store.py", "app/helpers.py"]
    assert len(body_rows(project / "cache")) == 2
    computed.clear()
    forget_searches(project / "cache")
    assert gold_check(capsys, *rev) == uncached
    assert computed == []


def counting_indexes(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """One item is appended here for each body index built."""
    built: list[int] = []

    class Counted(bodies.BodyIndex):
        def __init__(self, found: Iterable[bodies.Body]) -> None:
            built.append(1)
            super().__init__(found)

    monkeypatch.setattr(bodies, "BodyIndex", Counted)
    return built


@pytest.mark.parametrize("rev", [[], ["--rev", "HEAD"]], ids=["work-tree", "rev"])
def test_a_warm_run_answers_from_the_searches_it_remembers(
    project: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    rev: list[str],
) -> None:
    uncached = gold_check(capsys, *rev, "--no-cache")
    built = counting_indexes(monkeypatch)
    assert gold_check(capsys, *rev) == uncached
    assert built == [1]
    assert len(body_rows(project / "cache", SEARCHES_KEY)) == 1
    built.clear()
    assert gold_check(capsys, *rev) == uncached
    assert built == []  # every question was asked before, of the same contents


def test_a_changed_tree_is_searched_again(
    project: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    gold_check(capsys)
    # The moved function now has a copy elsewhere: the remembered answer no longer holds.
    store = (project / "code/app/config/store.py").read_text()
    (project / "code/app/backup.py").write_text(store)
    built = counting_indexes(monkeypatch)
    expected = gold_check(capsys, "--no-cache")
    found = [item for item in json.loads(expected) if item["code"] != "RG017"]
    assert [item["kind"] for item in found][1] == "copied"
    assert gold_check(capsys) == expected
    assert built == [1, 1]
    assert len(body_rows(project / "cache", SEARCHES_KEY)) == 2


def test_a_corrupt_searches_row_is_recomputed(
    project: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    expected = gold_check(capsys, "--no-cache")
    gold_check(capsys)
    ((key, value),) = body_rows(project / "cache", SEARCHES_KEY).items()
    # A row whose MAC checks out but that is not what this version writes (a bug could
    # leave it): it is ignored, and the answers are searched and stored again. The last
    # one answers every question, but with bodies named by places that are not in it.
    version, found, exact, near = json.loads(value)
    assert any(exact.values())
    elsewhere = {k: [-1 for _ in places] for k, places in exact.items()}
    wrong_rows = [b"[1,[],{},{", b'[1,[["a"]],{"x None":[0]},{}]', b'{"near":1}']
    wrong_rows.append(json.dumps([version, found, elsewhere, near]).encode())
    for wrong in wrong_rows:
        with sqlite3.connect(project / "cache" / DB_NAME) as db:
            db.execute(
                "UPDATE definitions SET value = ?, crc = ? WHERE key = ?",
                (wrong, CacheStore(project / "cache").mac(key, wrong), key),
            )
        built = counting_indexes(monkeypatch)
        assert gold_check(capsys) == expected
        assert built == [1]
        built.clear()
        assert gold_check(capsys) == expected
        assert built == []  # stored again, good this time


def test_a_file_changed_during_the_run_keys_nothing_by_its_old_content(
    project: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    expected = gold_check(capsys, "--no-cache")
    real = definition_cache.work_tree_ids
    stale = "0" * 40

    def rewritten(*args: Any) -> tuple[dict[str, str], dict[str, bytes]]:
        # A stat row still names the content the file had when the run looked at it.
        oids, read = real(*args)
        oids["app/helpers.py"] = stale
        return oids, read

    monkeypatch.setattr(definition_cache, "work_tree_ids", rewritten)
    assert gold_check(capsys) == expected
    assert body_rows(project / "cache", SEARCHES_KEY) == {}
    rows = body_rows(project / "cache")
    assert len(rows) == 2
    assert not any(key.endswith(stale) for key in rows)


def test_a_corrupt_body_entry_is_recomputed(
    project: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    expected = gold_check(capsys, "--no-cache")
    gold_check(capsys)
    keys = sorted(body_rows(project / "cache"))
    with sqlite3.connect(project / "cache" / DB_NAME) as db:
        # One value that fails its MAC; one whose MAC checks out but whose rows do not
        # fit the file's definitions (as a bug could leave it): more rows than those.
        db.execute("UPDATE definitions SET value = ? WHERE key = ?", (b"junk", keys[0]))
        rows = json.dumps([bodies.BODIES_VERSION, ["0" * 32] * 5, [1] * 5, "x\n" * 4])
        wrong = zlib.compress(rows.encode())
        db.execute(
            "UPDATE definitions SET value = ?, crc = ? WHERE key = ?",
            (wrong, CacheStore(project / "cache").mac(keys[1], wrong), keys[1]),
        )
    forget_searches(project / "cache")
    computed = counting_bodies(monkeypatch)
    assert gold_check(capsys) == expected
    assert len(computed) == 2
    computed.clear()
    forget_searches(project / "cache")
    assert gold_check(capsys) == expected
    assert computed == []  # stored again, good this time


def test_no_cache_stores_no_bodies(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    gold_check(capsys, "--no-cache")
    assert not (project / "cache").exists()


def test_two_runs_at_once_share_the_body_cache(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    expected = gold_check(capsys, "--no-cache")
    two_runs_at_once_agree(project, expected)
    assert len(body_rows(project / "cache")) == 2
