"""A shallow clone (`git clone --depth 1`) has no history to find renames in: gold check says
so on every ID whose verdict rests on that history, with the fix (fetch the full history)."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from evaltools.__main__ import main
from tests.commands.gold.test_gold_check import record, write_set
from tests.retrieval.gitrepo import GitRepo

MAIN_JS = "export function start(app) {\n  return app;\n}\n"
GONE = "web/main.js:1-3:start"
FETCH = "fetch the full history (`git fetch --unshallow`; in CI, `fetch-depth: 0`"


def _clone(origin: GitRepo, target: Path, *args: str) -> Path:
    url = origin.path.resolve().as_uri()
    subprocess.run(
        ["git", "clone", "-q", "--no-local", *args, url, str(target)],
        check=True,
        capture_output=True,
    )
    return target


@pytest.fixture
def origin(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> GitRepo:
    """web/main.js, committed, then `git mv` to web/index.js, committed."""
    monkeypatch.chdir(tmp_path)
    repo = GitRepo(tmp_path / "origin")
    repo.write("web/main.js", MAIN_JS)
    repo.write("README", "demo\n")
    repo.commit("initial")
    repo.mv("web/main.js", "web/index.js")
    repo.commit("rename main.js")
    (tmp_path / "evals").mkdir()
    return repo


def test_a_full_clone_finds_the_rename(
    origin: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    clone = _clone(origin, tmp_path / "full")
    write_set(tmp_path, record("q1", GONE))
    assert main(["gold", "check", "evals", "--root", str(clone), "--format", "json"]) == 1
    [item] = json.loads(capsys.readouterr().out)
    assert (item["status"], item["new_chunk_id"], item["caveat"]) == (
        "renamed_file",
        "web/index.js:1-3:start",
        None,
    )


def test_a_shallow_clone_says_the_history_is_missing(
    origin: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    clone = _clone(origin, tmp_path / "site", "--depth", "1")
    assert (clone / ".git" / "shallow").is_file()
    path = write_set(tmp_path, record("q1", GONE), record("q2", "web/index.js:1-3:start"))
    before = path.read_bytes()

    assert main(["gold", "check", "evals", "--root", str(clone)]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[0] == (
        "evals/set.jsonl:1:63: RG004 [error] gold `web/main.js:1-3:start` of q1 does not "
        "resolve (web/main.js does not exist and git records no rename of it; candidates: "
        "`web/index.js:1-3:start`), but the "
        "repository site is a shallow clone, whose history may hold what became of "
        "web/main.js: "
        f"{FETCH} for actions/checkout) and check again"
    )
    assert out[-1] == "2 gold IDs in 1 file: 1 ok, 1 missing_file."

    assert main(["gold", "check", "evals", "--root", str(clone), "--format", "json"]) == 1
    gone, kept = json.loads(capsys.readouterr().out)
    assert gone["status"] == "missing_file" and FETCH in gone["caveat"]
    assert (kept["status"], kept["caveat"]) == ("ok", None)  # no history needed for it

    assert main(["gold", "check", "evals", "--root", str(clone), "--fix"]) == 1
    assert path.read_bytes() == before


def test_a_revision_older_than_the_shallow_history(
    origin: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    first = origin.git("rev-list", "--max-parents=0", "HEAD").strip()
    clone = _clone(origin, tmp_path / "site", "--depth", "1")
    write_set(tmp_path, record("q1", GONE))
    assert main(["gold", "check", "evals", "--root", str(clone), "--rev", first]) == 2
    err = capsys.readouterr().err
    assert f"'{first}' names no commit in" in err
    assert "a shallow clone: the revision may be older than its history" in err and FETCH in err


def test_a_verified_revision_inside_the_shallow_history_needs_nothing_more(
    origin: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """With `revision` (the commit the gold was verified at) in the clone, the history
    searched is complete: a missing file is plainly missing."""
    origin.rm("README")
    origin.commit("drop the readme")
    clone = _clone(origin, tmp_path / "shallow", "--depth", "2")
    verified = origin.git("rev-parse", "HEAD~1").strip()
    write_set(tmp_path, record("q1", "README:1-1", revision=verified))
    assert main(["gold", "check", "evals", "--root", str(clone), "--format", "json"]) == 1
    [item] = json.loads(capsys.readouterr().out)
    assert (item["status"], item["caveat"]) == ("missing_file", None)


def test_a_symbol_gone_from_its_file_in_a_shallow_clone_says_the_history_is_missing(
    origin: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The file stays, its function went (to another file, in history the clone lacks)."""
    origin.write("web/index.js", "export const version = 1;\n")
    origin.commit("start moved out")
    clone = _clone(origin, tmp_path / "site", "--depth", "1")
    write_set(tmp_path, record("q1", "web/index.js:1-3:start"))
    assert main(["gold", "check", "evals", "--root", str(clone), "--format", "json"]) == 1
    [item] = json.loads(capsys.readouterr().out)
    assert item["status"] == "missing_symbol" and FETCH in item["caveat"]


UNKNOWN = "0123456789abcdef0123456789abcdef01234567"


def test_a_revision_no_commit_of_a_full_clone_names_says_so(
    origin: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A `revision` rebased away (or of another clone) cannot be followed: the unresolved
    IDs say so instead of asking for history a full clone already has."""
    origin.write("web/index.js", "export const version = 1;\n")
    origin.commit("start moved out")
    clone = _clone(origin, tmp_path / "full")
    ids = ("web/index.js:1-3:start", GONE)
    write_set(tmp_path, *(record(f"q{n}", i, revision=UNKNOWN) for n, i in enumerate(ids)))
    assert main(["gold", "check", "evals", "--root", clone.name]) == 1
    out = capsys.readouterr().out.splitlines()
    said = (
        "but its `revision` 0123456789ab is not a commit in the repository full (rebased away, "
        "or of another clone), so the code it was verified against cannot be read: set "
        "`revision` to the commit the gold was last verified at"
    )
    assert all(said in line and ": RG003 [error]" in line for line in out[:2])
    assert FETCH not in out[0]


def test_an_id_resolved_though_its_revision_is_unknown_carries_no_caveat(
    origin: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """git's renames are searched over the whole history when `revision` names no commit:
    an ID they resolve needs nothing more."""
    clone = _clone(origin, tmp_path / "full")
    write_set(tmp_path, record("q1", GONE, revision=UNKNOWN))
    assert main(["gold", "check", "evals", "--root", str(clone), "--format", "json"]) == 1
    [item] = json.loads(capsys.readouterr().out)
    assert (item["status"], item["caveat"]) == ("renamed_file", None)


def test_a_revision_no_commit_names_is_not_called_behind_head(
    origin: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    clone = _clone(origin, tmp_path / "full")
    head = origin.git("rev-parse", "HEAD").strip()
    write_set(tmp_path, record("q1", "web/index.js:1-3:start", revision=UNKNOWN))
    assert main(["gold", "check", "evals", "--root", clone.name]) == 0
    [note, _] = capsys.readouterr().out.splitlines()
    assert note.endswith(
        "RG017 [info] `revision` of q1 is 0123456789ab, not a commit of this repository "
        f"(rebased away, or of another clone), and HEAD is {head[:12]} where all its gold "
        "resolves: run `evaltools gold check evals --root full --fix` to move it, so that "
        "the next refactor is followed from HEAD"
    )


def test_an_id_left_ambiguous_in_a_shallow_clone_keeps_the_caveat(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A property and its setter, their file renamed beyond the clone's history: the
    history would tell them apart, so the ID left to a person says it is missing."""
    monkeypatch.chdir(tmp_path)
    repo = GitRepo(tmp_path / "origin")
    box = (
        "class Box:\n    @property\n    def value(self):\n        return self._value\n\n"
        "    @value.setter\n    def value(self, new):\n        self._value = new\n"
    )
    repo.write("web/main.py", box)
    verified = repo.commit("a box")
    repo.write("README", "demo\n")
    repo.commit("readme")
    repo.mv("web/main.py", "web/index.py")
    repo.write("web/index.py", '"""Boxes."""\n\n' + box)
    repo.commit("renamed")
    (tmp_path / "evals").mkdir()
    clone = _clone(repo, tmp_path / "site", "--depth", "2")
    write_set(tmp_path, record("q1", "web/main.py:2-4:Box.value", revision=verified))
    assert main(["gold", "check", "evals", "--root", str(clone), "--format", "json"]) == 1
    [item] = json.loads(capsys.readouterr().out)
    assert item["status"] == "ambiguous" and FETCH in item["caveat"]
