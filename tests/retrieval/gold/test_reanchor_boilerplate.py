"""A body that a definition standing there all along shares is boilerplate, no evidence of
a move (commons-io 2.12)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.retrieval.gitrepo import GitRepo
from tests.retrieval.gold.reanchor_repo import chunk_id, gold_check
from tests.retrieval.gold.test_reanchor_twins import repo

__all__ = ["repo"]  # the fixture


def writer(name: str, base: str = "Writer") -> str:
    return (
        f"public class {name} extends {base} {{\n"
        "    public void write(final char[] chars, final int offset, final int length) "
        "throws IOException {\n        out.write(chars, offset, length);\n    }\n}\n"
    )


def test_a_body_that_stood_elsewhere_too_is_no_evidence_of_a_move(
    repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """commons-io 2.12: `FileWriterWithEncoding.write` was deleted (the class extends a
    proxy now); a new `UncheckedFilterWriter.write` has its one-line body, which
    `LockableFileWriter.write` had all along."""
    base = "src/main/java/org/example/io/"
    repo.write(base + "FileWriterWithEncoding.java", writer("FileWriterWithEncoding"))
    repo.write(base + "LockableFileWriter.java", writer("LockableFileWriter"))
    old = repo.commit("two writers")
    gold = [chunk_id(repo, base + "FileWriterWithEncoding.java", "FileWriterWithEncoding.write")]
    repo.write(
        base + "FileWriterWithEncoding.java",
        "public class FileWriterWithEncoding extends ProxyWriter {\n}\n",
    )
    repo.write(base + "UncheckedFilterWriter.java", writer("UncheckedFilterWriter", "FilterWriter"))
    repo.commit("a proxy, and an unchecked writer")
    code, got = gold_check(repo, tmp_path, capsys, gold, old)
    assert code == 1
    assert got[gold[0]]["kind"] == "copied"
    assert got[gold[0]]["new_chunk_id"] is None
    assert set(got[gold[0]]["candidates"]) == {
        chunk_id(repo, base + "UncheckedFilterWriter.java", "UncheckedFilterWriter.write"),
        chunk_id(repo, base + "LockableFileWriter.java", "LockableFileWriter.write"),
    }
