"""Evidence that cannot hold for one definition alone: two gold IDs of one revision sent to
one definition now (at most one of them went there), and a body that a definition standing
there all along shares (boilerplate), in the languages where they were seen."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.retrieval.gitrepo import GitRepo
from tests.retrieval.gold.reanchor_repo import chunk_id, gold_check
from tests.retrieval.gold.test_reanchor_plain import plain_copy
from tests.retrieval.gold.test_reanchor_twins import repo

__all__ = ["repo"]  # the fixture

FILTER = {
    "python": (
        "py",
        "class Filter:\n    def describe(self):\n        return 'matches {kind}'\n",
        "Filter.describe",
    ),
    "rust": (
        "rs",
        "pub struct Filter {{}}\n\nimpl Filter {{\n    pub fn describe(&self) -> String {{\n"
        '        String::from("matches {kind}")\n    }}\n}}\n',
        "Filter.describe",
    ),
}


@pytest.mark.parametrize("language", list(FILTER))
def test_two_ids_sent_to_one_definition_are_left_for_a_person(
    language: str, repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """env_logger 0.11: `Filter.fmt` of `filter/regex.rs` and of `filter/string.rs` (one
    compiled in each build) both went, by the name alone, to the new crate's `Filter.fmt`."""
    suffix, text, symbol = FILTER[language]
    old_paths = [f"src/filter/{kind}.{suffix}" for kind in ("regex", "plain")]
    for path, kind in zip(old_paths, ("regex", "plain"), strict=True):
        repo.write(path, text.format(kind=kind))
    old = repo.commit("one filter a build")
    gold = [chunk_id(repo, path, symbol) for path in old_paths]
    for path in old_paths:
        repo.rm(path)
    repo.write(f"crates/filter/src/op.{suffix}", text.format(kind="either"))
    repo.commit("one filter")
    plain = plain_copy(repo, tmp_path)
    code, got = gold_check(repo, tmp_path, capsys, gold, old, root=plain)
    assert code == 1
    target = chunk_id(repo, f"crates/filter/src/op.{suffix}", symbol)
    for g in gold:
        assert (got[g]["kind"], got[g]["new_chunk_id"]) == ("ambiguous", None)
        assert got[g]["candidates"][0] == target
    # one ID alone goes there as before
    code, got = gold_check(repo, tmp_path, capsys, gold[:1], old, root=plain)
    assert (got[gold[0]]["kind"], got[gold[0]]["new_chunk_id"]) == ("relocated", target)


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
