"""The code tree's batch reads answer as its one-at-a-time reads do."""

from __future__ import annotations

from pathlib import Path

from evaltools.retrieval.sources.source import CodeTree
from tests.retrieval.gitrepo import GitRepo


def test_old_files_read_in_one_batch_are_those_read_one_by_one(tmp_path: Path) -> None:
    repo = GitRepo(tmp_path / "repo")
    repo.write("a.py", "one\n")
    repo.write("pkg/b.py", "bee\n")
    old = repo.commit("first")
    repo.write("a.py", "two\n")
    repo.write("pkg/c.py", "sea\n")
    repo.commit("second")
    (tmp_path / "loose.py").write_text("not in a repository\n")
    paths = ["repo/a.py", "repo/pkg/b.py", "repo/pkg/c.py", "repo/pkg", "loose.py", "repo/a.py"]
    with CodeTree(tmp_path) as tree:
        for since in (old, "HEAD", "no-such-revision", "HEAD\nHEAD"):
            one_by_one = [(path, tree.read_old(path, since)) for path in paths]
            assert sorted(tree.read_old_many(paths, since)) == sorted(one_by_one)
        batch = dict(tree.read_old_many(paths, old))
    assert batch == {
        "repo/a.py": b"one\n",
        "repo/pkg/b.py": b"bee\n",
        "repo/pkg/c.py": None,
        "repo/pkg": None,
        "loose.py": None,
    }
