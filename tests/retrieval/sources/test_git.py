from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from evaltools.retrieval.sources import git
from evaltools.retrieval.sources.git import (
    BlobReader,
    GitError,
    Rename,
    parse_name_status,
    rename_targets,
)
from tests.retrieval.gitrepo import GitRepo


@pytest.fixture
def repo(tmp_path: Path) -> GitRepo:
    return GitRepo(tmp_path / "repo")


def test_blobs_at_a_revision_without_checkout(repo: GitRepo) -> None:
    repo.write("a.py", "one\n")
    repo.write("dir/b.py", "bee\n")
    first = repo.commit("first")
    repo.write("a.py", "two\n")
    repo.commit("second")
    repo.write("a.py", "work tree\n")
    with BlobReader(repo.path) as reader:
        assert reader.read(f"{first}:a.py") == b"one\n"
        assert reader.read("HEAD:a.py") == b"two\n"
        assert reader.read("HEAD:missing.py") is None
        assert reader.read("HEAD:dir") is None  # a tree, not a file
        assert reader.read("no-such-rev:a.py") is None
        assert list(reader.read_many("HEAD", [])) == []
    assert repo.read("a.py") == "work tree\n"
    assert repo.git("status", "--porcelain").strip() == "M a.py"


def test_blobs_by_id_and_names_that_cannot_be_asked(repo: GitRepo) -> None:
    repo.write("dir/f.txt", "content\n")
    repo.commit()
    blob = repo.git("rev-parse", "HEAD:dir/f.txt").strip()
    with BlobReader(repo.path) as reader:
        assert reader.read(blob) == b"content\n"
        # A newline would end the request early: such a name names no blob.
        assert reader.read("HEAD:a\nb") is None
        assert list(reader.read_many("HEAD", ["a\nb", "dir/f.txt"])) == [
            ("a\nb", None),
            ("dir/f.txt", b"content\n"),
        ]
        assert reader.read("HEAD:dir/f.txt") == b"content\n"  # still in step


def test_a_missing_name_holding_spaces_is_missing_not_a_crash(repo: GitRepo) -> None:
    # git answers `HEAD:odd name missing`: three words, like an object's header.
    repo.write("a.py", "x\n")
    repo.commit()
    with BlobReader(repo.path) as reader:
        assert reader.read("HEAD:odd name") is None
        assert dict(reader.read_many("HEAD", ["odd name", "two more words", "a.py"])) == {
            "odd name": None,
            "two more words": None,
            "a.py": b"x\n",
        }


def test_many_large_blobs_through_one_process(repo: GitRepo) -> None:
    # More than a pipe buffer each way: requests and answers must not deadlock.
    for i in range(300):
        repo.write(f"f{i:03}.txt", f"{i}\n" * 2000)
    repo.commit()
    with BlobReader(repo.path) as reader:
        paths = [f"f{i:03}.txt" for i in range(300)]
        got = dict(reader.read_many("HEAD", paths))
    assert len(got) == 300
    assert got["f123.txt"] == b"123\n" * 2000


def test_reader_reports_a_dead_process(repo: GitRepo) -> None:
    repo.commit()
    reader = BlobReader(repo.path)
    reader._proc.kill()
    reader._proc.wait()
    with pytest.raises(GitError, match="stopped answering"):
        reader.read("HEAD:x")
    with pytest.raises(GitError, match="stopped answering"):
        dict(reader.read_many("HEAD", ["x"]))
    reader.close()
    assert reader._stdin.closed  # no pipe left to fail when collected


def test_a_hook_environment_does_not_redirect_git(
    repo: GitRepo, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Inside a git hook, GIT_DIR, GIT_OBJECT_DIRECTORY and friends name the hook's
    repository; every git process here must still read the repository it was given."""
    repo.write("a.py", "mine\n")
    repo.commit()
    other = GitRepo(tmp_path / "other")
    other.write("b.py", "theirs\n")
    other.commit()
    monkeypatch.setenv("GIT_DIR", str(other.path / ".git"))
    monkeypatch.setenv("GIT_OBJECT_DIRECTORY", str(other.path / ".git" / "objects"))
    monkeypatch.setenv("GIT_INDEX_FILE", str(other.path / ".git" / "index"))
    monkeypatch.setenv("GIT_PREFIX", "sub/")
    with BlobReader(repo.path) as reader:
        assert reader.read("HEAD:a.py") == b"mine\n"
    assert git.list_files(repo.path, "HEAD") == ["a.py"]
    assert git.list_files(repo.path, None) == ["a.py"]


def test_git_env_drops_every_variable_that_picks_a_repository(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("GIT_OBJECT_DIRECTORY", "/elsewhere/objects")
    monkeypatch.setenv("GIT_AUTHOR_NAME", "kept")
    env = git.git_env()
    assert "GIT_OBJECT_DIRECTORY" not in env
    assert env["GIT_AUTHOR_NAME"] == "kept"
    assert (env["LC_ALL"], env["GIT_PAGER"], env["GIT_TERMINAL_PROMPT"]) == ("C", "cat", "0")
    # git's own list of them (what it clears itself before entering a submodule)
    listed = subprocess.run(
        ["git", "rev-parse", "--local-env-vars"], capture_output=True, text=True, check=True
    ).stdout.split()
    assert set(listed) <= git.REPOSITORY_VARIABLES


def test_an_argument_git_cannot_take_is_a_git_error(repo: GitRepo) -> None:
    repo.commit()
    with pytest.raises(GitError, match="cannot run git"):
        git.run_git(repo.path, "rev-parse", "HEAD\0")
    assert git.resolve_commit(repo.path, "HEAD\0") is None  # a record's `revision`, say


def test_git_that_cannot_run(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    def refuse(*args: object, **kwargs: object) -> None:
        raise FileNotFoundError("git")

    monkeypatch.setattr(subprocess, "run", refuse)
    monkeypatch.setattr(subprocess, "Popen", refuse)
    with pytest.raises(GitError, match="cannot run git"):
        git.run_git(tmp_path, "status")
    with pytest.raises(GitError, match="cannot run git"):
        BlobReader(tmp_path)


def test_toplevel_commits_and_files(repo: GitRepo, tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    assert git.toplevel(outside) is None
    assert git.resolve_commit(repo.path, "HEAD") is None  # no commits yet
    repo.write("pkg/a.py", "x\n")
    repo.write("b.py", "y\n")
    head = repo.commit()
    assert git.toplevel(repo.path / "pkg") == repo.path.resolve()
    assert git.resolve_commit(repo.path, "HEAD") == head
    assert git.resolve_commit(repo.path, "main") == head
    assert git.resolve_commit(repo.path, "nope") is None
    assert git.list_files(repo.path, head) == ["b.py", "pkg/a.py"]
    repo.write("c.py", "z\n")
    repo.git("add", "c.py")
    assert git.list_files(repo.path, None) == ["b.py", "c.py", "pkg/a.py"]
    with pytest.raises(GitError, match="ls-tree failed"):
        git.list_files(repo.path, "nope")


def test_rename_history_follows_commits_and_the_work_tree(repo: GitRepo) -> None:
    repo.write("a.py", "def f():\n    return 1\n" * 5)
    repo.write("odd name.py", "x = 1\n" * 5)
    first = repo.commit("add")
    repo.mv("a.py", "b.py")
    repo.mv("odd name.py", 'q"uote.py')
    second = repo.commit("rename")
    repo.mv("b.py", "pkg/c.py")
    third = repo.commit("move")
    repo.mv("pkg/c.py", "d.py")  # staged, not committed
    history = git.rename_history(repo.path, None)
    assert history == [
        Rename("a.py", "b.py", second, 100),
        Rename("odd name.py", 'q"uote.py', second, 100),
        Rename("b.py", "pkg/c.py", third, 100),
        Rename("pkg/c.py", "d.py", None, 100),
    ]
    assert rename_targets(history, "a.py") == ["d.py"]
    # At a revision: only committed history up to it.
    at_second = git.rename_history(repo.path, second)
    assert [(r.old, r.new) for r in at_second] == [("a.py", "b.py"), ("odd name.py", 'q"uote.py')]
    # `since` narrows the search to later commits.
    since = git.rename_history(repo.path, third, since=second)
    assert [(r.old, r.new) for r in since] == [("b.py", "pkg/c.py")]
    assert git.rename_history(repo.path, third, since=first)[0].commit == second


def test_rename_history_of_a_repository_without_commits(repo: GitRepo) -> None:
    assert git.rename_history(repo.path, None) == []


def test_rename_targets_follow_each_chain_forward_only() -> None:
    history = [
        Rename("a", "b", "1", 100),
        Rename("b", "c", "2", 90),
        Rename("x", "a", "3", 100),  # a new `a`, renamed away later: a different file
        Rename("a", "z", "4", 100),
        Rename("c", "a", "0", 100),
    ]
    assert rename_targets(history, "a") == ["a", "z"]
    assert rename_targets(history, "b") == ["a"]
    assert rename_targets(history, "q") == []
    assert rename_targets([Rename("p", "q", "1", 100), Rename("p", "q", "2", 100)], "p") == ["q"]
    # b became c before a became b: a's content is in b, not c.
    assert rename_targets([Rename("b", "c", "1", 100), Rename("a", "b", "2", 100)], "a") == ["b"]


def test_parse_name_status_with_z_output() -> None:
    out = b"\x01abc\x00\nR100\x00a b\x00c\x00R087\x00d\x00e\x00\x01def\x00\nR\x00f\x00g\x00"
    assert list(parse_name_status(out)) == [
        Rename("a b", "c", "abc", 100),
        Rename("d", "e", "abc", 87),
        Rename("f", "g", "def", 0),
    ]
    assert list(parse_name_status(b"")) == []
