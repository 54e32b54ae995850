"""`gold check` keeps whole results: a run on an unchanged tree prints, byte for byte, what
the run before it printed, without resolving; any change to what the check reads is a miss."""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

import evaltools
from evaltools.__main__ import main
from evaltools.retrieval.code import cache_store
from evaltools.retrieval.code.cache_store import DB_NAME
from evaltools.retrieval.gold import gold_check
from evaltools.retrieval.gold.cache import result_cache, result_key
from tests.conftest import REPO
from tests.retrieval.gitrepo import GO, SESSION_PY, GitRepo

GOLD = [
    "auth/session.py:4-6:kill_session",
    "auth/session.py:13-15:SessionStore.kill",
    "store/store.go:7-9:Store.Get",
    "store/store.go:11-13:Helper",
    "old/name.py:1-2:old_name",
    "gone/away.py:1-2:away",
]


def write_set(path: Path, gold: list[str], revision: str | None = None) -> None:
    extra = f', "revision": "{revision}"' if revision else ""
    lines = [
        f'{{"qid": "q{i}", "query": "q", "type": "intent", "gold": {{"{g}": 3}}{extra}}}'
        for i, g in enumerate(gold)
    ]
    path.write_text("\n".join(lines) + "\n")


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> GitRepo:
    """A repository refactored after its gold IDs were written; the set beside it. Every
    file counts as old enough to key (the racy rule has its own test)."""
    repo = GitRepo(tmp_path / "code")
    repo.write("auth/session.py", SESSION_PY)
    repo.write("store/store.go", GO)
    repo.write("old/name.py", "def old_name():\n    return 1\n")
    repo.commit("initial")
    repo.git("tag", "verified")
    repo.write("auth/session.py", '"""Sessions."""\n\n' + SESSION_PY)  # moved
    repo.mv("old/name.py", "new/name.py")  # renamed_file
    repo.write("store/store.go", GO.replace("Helper", "Assist"))  # missing_symbol
    repo.commit("refactor")
    write_set(tmp_path / "set.jsonl", GOLD)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("EVALTOOLS_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(result_key, "RACY_SECONDS", -3600)
    return repo


class Runs:
    """In-process runs, and how many of them resolved (did not take a stored result)."""

    def __init__(self, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch):
        self.capsys = capsys
        self.resolved = 0
        real = gold_check.check_gold

        def counted(*args: object, **kwargs: object) -> gold_check.GoldCheck:
            self.resolved += 1
            return real(*args, **kwargs)  # type: ignore[arg-type]

        monkeypatch.setattr(gold_check, "check_gold", counted)

    def __call__(self, *args: str) -> tuple[int, str, str]:
        code = main(["gold", "check", "--jobs", "1", *args])
        found = self.capsys.readouterr()
        return code, found.out, found.err


@pytest.fixture
def runs(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> Runs:
    return Runs(capsys, monkeypatch)


CHECK = ["set.jsonl", "--root", "code"]


@pytest.mark.parametrize("fmt", ["text", "json", "github", "sarif"])
@pytest.mark.parametrize("rev", [[], ["--rev", "HEAD"]], ids=["work-tree", "rev"])
def test_a_hit_prints_what_a_miss_printed(
    repo: GitRepo, runs: Runs, fmt: str, rev: list[str]
) -> None:
    args = [*CHECK, *rev, "--format", fmt]
    uncached = runs(*args, "--no-cache")
    miss = runs(*args)
    assert runs.resolved == 2
    hit = runs(*args)
    assert runs.resolved == 2  # taken from the cache
    assert hit == miss == uncached
    assert hit[0] == 1 and "Helper" in hit[1]


def test_a_run_with_record_problems_is_kept_whole(repo: GitRepo, runs: Runs) -> None:
    with Path("set.jsonl").open("a") as out:
        out.write('{"qid": "bad", "gold": {"no-colon": 3}}\n')
    miss = runs(*CHECK, "--format", "json")
    hit = runs(*CHECK, "--format", "json")
    assert runs.resolved == 1
    assert hit == miss
    assert '"chunk_id": "no-colon"' in hit[1]


def edit_same_size_and_time(repo: GitRepo, root: Path) -> None:
    path = repo.path / "auth/session.py"
    before = path.stat()
    path.write_text(path.read_text().replace("kill_session", "kill_sessioX"))
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))
    assert path.stat().st_size == before.st_size


def add_a_candidate_elsewhere(repo: GitRepo, root: Path) -> None:
    # Untracked, in a new folder: a new home for the symbol that went missing.
    (repo.path / "far/away").mkdir(parents=True)
    (repo.path / "far/away/helper.go").write_text(
        "package away\n\nfunc Helper(a int) int {\n\treturn a\n}\n"
    )


def delete_a_file(repo: GitRepo, root: Path) -> None:
    (repo.path / "store/store.go").unlink()


def commit(repo: GitRepo, root: Path) -> None:
    repo.mv("new/name.py", "newer/name.py")
    repo.commit("renamed again")


def checkout(repo: GitRepo, root: Path) -> None:
    repo.git("checkout", "-q", "verified")


def empty_commit(repo: GitRepo, root: Path) -> None:
    repo.commit("nothing but HEAD moves")


def change_the_set(repo: GitRepo, root: Path) -> None:
    write_set(root / "set.jsonl", [*GOLD, "store/store.go:7-9:Store.Gone"])


def corrupt_the_entry(repo: GitRepo, root: Path) -> None:
    with sqlite3.connect(root / "cache" / DB_NAME) as db:
        sql = "UPDATE definitions SET value = ? WHERE key LIKE 'goldcheck%'"
        db.execute(sql, (b"\x00\xff junk",))


def forge_an_entry(repo: GitRepo, root: Path) -> None:
    """Bytes that pass the MAC but are not an entry (a bug of a writer holding the key)."""
    with sqlite3.connect(root / "cache" / DB_NAME) as db:
        (key,) = db.execute("SELECT key FROM definitions WHERE key LIKE 'goldcheck%'").fetchone()
        value = b'{"state": 1}\nnot an entry'
        crc = cache_store.CacheStore(root / "cache").mac(key, value)
        db.execute("UPDATE definitions SET value = ?, crc = ? WHERE key = ?", (value, crc, key))


CHANGES: dict[str, Callable[[GitRepo, Path], None]] = {
    "edit-same-size-same-mtime": edit_same_size_and_time,
    "new-candidate-file": add_a_candidate_elsewhere,
    "deleted-file": delete_a_file,
    "commit": commit,
    "checkout": checkout,
    "empty-commit": empty_commit,
    "set-changed": change_the_set,
    "corrupt-entry": corrupt_the_entry,
    "forged-entry": forge_an_entry,
}


# Changes that change the answer whether the check reads the work tree or `--rev HEAD`.
ANSWER_CHANGES = ("commit", "checkout", "set-changed")


def hit_then_change(
    runs: Runs,
    args: list[str],
    change: Callable[[GitRepo, Path], None],
    repo: GitRepo,
    tmp_path: Path,
) -> tuple[tuple[int, str, str], tuple[int, str, str]]:
    """A run, a hit, `change`, then a miss whose answer is the uncached one: both answers."""
    before = runs(*args)
    assert runs(*args) == before and runs.resolved == 1
    change(repo, tmp_path)
    after = runs(*args)
    assert runs.resolved == 2
    assert after == runs(*args, "--no-cache")
    return before, after


@pytest.mark.parametrize("change", list(CHANGES))
def test_a_change_to_any_input_is_a_miss_with_the_new_answer(
    repo: GitRepo, runs: Runs, tmp_path: Path, change: str
) -> None:
    args = [*CHECK, "--format", "json"]
    before, after = hit_then_change(runs, args, CHANGES[change], repo, tmp_path)
    work_tree_changes = ("edit-same-size-same-mtime", "new-candidate-file", "deleted-file")
    if change in (*ANSWER_CHANGES, *work_tree_changes):
        assert after != before
    assert runs(*args) == after and runs.resolved == 3  # stored again: a hit


GIT_CHANGES = ["commit", "checkout", "empty-commit", "set-changed", "corrupt-entry"]


@pytest.mark.parametrize("change", GIT_CHANGES)
def test_at_rev_head_a_change_of_head_or_the_set_is_a_miss(
    repo: GitRepo, runs: Runs, tmp_path: Path, change: str
) -> None:
    args = [*CHECK, "--rev", "HEAD", "--format", "json"]
    before, after = hit_then_change(runs, args, CHANGES[change], repo, tmp_path)
    assert (after != before) == (change in ANSWER_CHANGES)


def test_at_rev_the_work_tree_files_are_not_part_of_the_key(
    repo: GitRepo, runs: Runs, tmp_path: Path
) -> None:
    args = [*CHECK, "--rev", "HEAD", "--format", "json"]
    before = runs(*args)
    edit_same_size_and_time(repo, tmp_path)
    (repo.path / "store/store.go").write_text("package store\n")
    assert runs(*args) == before == runs(*args, "--no-cache")
    assert runs.resolved == 2  # the first run and the uncached one
    GitRepo(repo.path / "store")  # a repository now holds store/: another mount
    found = runs(*args)
    assert runs.resolved == 3
    assert found == runs(*args, "--no-cache")
    assert found[0] == 2 and "names no commit" in found[2]
    assert runs.resolved == 4


def test_a_branch_named_by_rev_that_moves_is_a_miss(
    repo: GitRepo, runs: Runs, tmp_path: Path
) -> None:
    repo.git("branch", "pinned")
    args = [*CHECK, "--rev", "pinned", "--format", "json"]
    before = runs(*args)
    assert runs(*args) == before and runs.resolved == 1
    repo.git("branch", "-f", "pinned", "verified")  # the work tree and HEAD stay
    after = runs(*args)
    assert runs.resolved == 2
    assert after != before and after == runs(*args, "--no-cache")


def test_a_records_revision_that_moves_is_a_miss(repo: GitRepo, runs: Runs, tmp_path: Path) -> None:
    write_set(tmp_path / "set.jsonl", GOLD, revision="verified")
    args = [*CHECK, "--format", "json"]
    before = runs(*args)
    assert runs(*args) == before and runs.resolved == 1
    repo.git("tag", "-f", "verified", "HEAD")
    after = runs(*args)
    assert runs.resolved == 2
    assert after == runs(*args, "--no-cache")


def test_another_evaltools_version_is_a_miss(
    repo: GitRepo, runs: Runs, monkeypatch: pytest.MonkeyPatch
) -> None:
    args = [*CHECK, "--format", "json"]
    before = runs(*args)
    runs(*args)
    monkeypatch.setattr(evaltools, "__version__", "99.0.0")
    assert runs(*args) == before
    assert runs.resolved == 2


def test_files_changed_just_now_are_not_trusted(
    repo: GitRepo, runs: Runs, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(result_key, "RACY_SECONDS", cache_store.RACY_SECONDS)
    args = [*CHECK, "--format", "json"]
    first = runs(*args)
    assert runs(*args) == first
    assert runs.resolved == 2  # the files are seconds old: nothing was stored


def test_fix_uses_a_hit_only_when_there_is_nothing_to_repair(
    repo: GitRepo, runs: Runs, tmp_path: Path
) -> None:
    args = [*CHECK, "--format", "json"]
    runs(*args)
    runs(*args, "--fix")
    assert runs.resolved == 2  # moved and renamed IDs to rewrite: --fix resolved
    fixed = (tmp_path / "set.jsonl").read_text()
    assert "new/name.py" in fixed
    write_set(tmp_path / "set.jsonl", ["store/store.go:11-13:Helper"])  # not repairable
    check = runs(*args)
    assert runs(*args, "--fix") == check
    assert runs.resolved == 3
    assert "Helper" in (tmp_path / "set.jsonl").read_text()


def test_stdin_and_metas_runs_are_not_cached(repo: GitRepo, tmp_path: Path) -> None:
    def results(paths: list[Path], metas: Path | None) -> result_cache.ResultCache | None:
        return result_cache.open_results(
            tmp_path / "cache",
            paths,
            root=Path("code"),
            rev=None,
            metas=metas,
            output_format="json",
        )

    assert results([Path("-")], None) is None
    assert results([Path("set.jsonl")], Path("set.jsonl")) is None
    found = results([Path("set.jsonl")], None)
    assert found is not None
    found.close()


def test_two_runs_at_once_store_one_good_entry(repo: GitRepo, runs: Runs, tmp_path: Path) -> None:
    expected = runs(*CHECK, "--format", "json", "--no-cache")[1]
    time.sleep(cache_store.RACY_SECONDS + 0.2)  # the processes apply the racy rule
    command = [sys.executable, "-m", "evaltools", "gold", "check", *CHECK, "--format", "json"]
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    for _round in range(3):  # both store; then both read
        procs = [
            subprocess.Popen(command, cwd=tmp_path, env=env, stdout=subprocess.PIPE)
            for _ in range(2)
        ]
        outputs = [proc.communicate(timeout=300)[0].decode() for proc in procs]
        assert [proc.returncode for proc in procs] == [1, 1]
        assert outputs == [expected, expected]
    with sqlite3.connect(tmp_path / "cache" / DB_NAME) as db:
        found = list(db.execute("SELECT value FROM definitions WHERE key LIKE 'goldcheck%'"))
    assert len(found) == 1
    entry = result_cache._decode(found[0][0])
    assert entry is not None and entry.stdout == expected


def test_a_cache_folder_below_the_root_is_left_out_of_the_key(
    repo: GitRepo, runs: Runs, tmp_path: Path
) -> None:
    # As in bench_gold_check.py: the root holds the repository, the set and the cache.
    write_set(tmp_path / "set.jsonl", [f"code/{g}" for g in GOLD])
    args = ["set.jsonl", "--root", ".", "--format", "json"]
    first = runs(*args)
    assert runs(*args) == first
    assert runs(*args) == first
    assert runs.resolved == 2  # the first run made the folder; the second stored
    (tmp_path / "cache" / "notes.py").write_text("def Helper():\n    pass\n")
    assert runs(*args) == runs(*args, "--no-cache") != first
    assert runs.resolved == 4


def test_a_hit_imports_neither_the_resolver_nor_the_reporters(
    repo: GitRepo, tmp_path: Path
) -> None:
    time.sleep(cache_store.RACY_SECONDS + 0.2)  # the process applies the racy rule
    args = ["gold", "check", *CHECK, "--format", "json"]
    probe = (
        "import sys\n"
        "from evaltools.__main__ import main\n"
        f"code = main({args!r})\n"
        "heavy = [m for m in sys.modules if m.startswith(('evaltools.retrieval.gold.gold_check',"
        " 'evaltools.retrieval.gold.reanchor.anchor', 'evaltools.retrieval.gold.reanchor.lookup',"
        " 'evaltools.retrieval.records', 'evaltools.report.', 'typer', 'tree_sitter',"
        " 'hashlib'))]\n"
        "sys.stderr.write(repr(heavy))\n"
    )
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    runs = [
        subprocess.run(
            [sys.executable, "-c", probe], check=True, cwd=tmp_path, env=env, capture_output=True
        )
        for _ in range(2)
    ]
    assert runs[0].stdout == runs[1].stdout
    assert runs[0].stderr.decode() != "[]"  # the miss resolved
    assert runs[1].stderr.decode() == "[]"


def test_an_edited_checkout_of_evaltools_is_a_miss(repo: GitRepo, tmp_path: Path) -> None:
    """A checkout (or an editable install) is edited without a version bump: a result
    stored by the code before the edit is not what the code after it prints."""
    checkout = tmp_path / "checkout"
    ignore = shutil.ignore_patterns("__pycache__")
    shutil.copytree(Path(evaltools.__file__).parent, checkout / "evaltools", ignore=ignore)
    time.sleep(cache_store.RACY_SECONDS + 0.2)  # the process applies the racy rule
    probe = (
        "import sys\n"
        "from evaltools.__main__ import main\n"
        f"code = main({['gold', 'check', *CHECK]!r})\n"
        "sys.stderr.write(repr('evaltools.retrieval.gold.gold_check' in sys.modules))\n"
    )
    env = {**os.environ, "PYTHONPATH": str(checkout)}

    def run() -> tuple[str, str]:
        command = [sys.executable, "-c", probe]
        # Exit 1: the set has findings; what is printed is compared.
        done = subprocess.run(
            command, check=False, cwd=tmp_path, env=env, capture_output=True, text=True
        )
        return done.stdout, done.stderr

    first, second = run(), run()
    assert first[1] == "True" and second == (first[0], "False")  # the second was a hit
    lookup = checkout / "evaltools" / "retrieval" / "gold" / "reanchor" / "lookup.py"
    text = lookup.read_text("utf-8")
    edited = "does not exist (edited) and git records no rename of it"
    lookup.write_text(text.replace("does not exist and git records no rename of it", edited))
    third = run()
    assert third[1] == "True"
    assert edited in third[0] and third[0] != first[0]
