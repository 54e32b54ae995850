"""Everything that owns a process closes it at the end of a `with` block, on an error too."""

from __future__ import annotations

from pathlib import Path

import pytest

from evaltools.parallel.closing import Closing
from evaltools.retrieval.sources.git import BlobReader
from evaltools.retrieval.sources.source import CodeTree
from tests.retrieval.gitrepo import GitRepo


class Boom(Exception):
    pass


def test_one_base_class_closes_them_all(tmp_path: Path) -> None:
    repo = GitRepo(tmp_path / "repo")
    repo.write("a.py", "x = 1\n")
    repo.commit()
    with pytest.raises(Boom), BlobReader(repo.path) as reader:
        assert reader.read("HEAD:a.py") == b"x = 1\n"
        raise Boom
    assert reader._proc.poll() is not None
    with pytest.raises(Boom), CodeTree(repo.path, "HEAD") as tree:
        assert dict(tree.read_blobs(["a.py"])) == {"a.py": b"x = 1\n"}
        (started,) = tree._readers.values()
        raise Boom
    assert started._proc.poll() is not None and not tree._readers
    assert all(isinstance(r, Closing) for r in (reader, tree))
    assert all("__exit__" not in vars(type(r)) for r in (reader, tree))
