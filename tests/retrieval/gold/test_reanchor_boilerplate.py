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


def method(owner: str, params: tuple[str, str], body: str, throws: str = "IOException") -> str:
    first, second = params
    return (
        f"public class {owner} extends Writer {{\n"
        f"    public void write(final String str, final int {first}, final int {second}) "
        f"throws {throws} {{\n        {body}\n    }}\n}}\n"
    )


def test_a_near_body_is_no_evidence_when_one_that_stood_there_is_nearer(
    repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """commons-io 2.12: the deleted `FileWriterWithEncoding.write(String, int, int)` is near
    the new `UncheckedFilterWriter.write`, and nearer `LockableFileWriter.write`, there all
    along: no move."""
    base = "src/main/java/org/example/io/"
    old_path = base + "FileWriterWithEncoding.java"
    repo.write(
        old_path, method("FileWriterWithEncoding", ("st", "end"), "out.write(str, st, end);")
    )
    repo.write(
        base + "LockableFileWriter.java",
        method("LockableFileWriter", ("off", "len"), "out.write(str, off, len);"),
    )
    old = repo.commit("two writers")
    gold = [chunk_id(repo, old_path, "FileWriterWithEncoding.write")]
    repo.write(old_path, "public class FileWriterWithEncoding extends ProxyWriter {\n}\n")
    unchecked = method(
        "UncheckedFilterWriter",
        ("st", "end"),
        "Uncheck.accept(super::write, str, st, end);",
        "UncheckedIOException",
    )
    repo.write(base + "UncheckedFilterWriter.java", unchecked)
    repo.commit("a proxy, and an unchecked writer")
    code, got = gold_check(repo, tmp_path, capsys, gold, old)
    assert code == 1
    assert got[gold[0]]["new_chunk_id"] is None
    assert got[gold[0]]["kind"] == "missing_symbol"


def test_a_member_of_the_ids_own_type_then_is_no_new_home_of_it(
    repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """commons-io 2.12 merged `IOUtilsTestCase` into `IOUtilsTest`: its
    `testAsBufferedOutputStream` is the old test of that name, not the rewritten
    `testAsBufferedWriter`, however alike their bodies."""
    folder = "src/test/java/org/example/io/"

    def test(name: str, kind: str, lines: int) -> str:
        checks = "".join(f"        assertEquals({n}, buffered.size());\n" for n in range(lines))
        return (
            f"    @Test\n    public void {name}() throws Exception {{\n"
            f"        final {kind} buffered = IOUtils.buffer(new Proxy{kind}(sink));\n"
            f"{checks}    }}\n\n"
        )

    old_text = (
        "public class IOUtilsTestCase {\n"
        + test("testAsBufferedOutputStream", "OutputStream", 6)
        + test("testAsBufferedWriter", "Writer", 6)
        + "}\n"
    )
    repo.write(folder + "IOUtilsTestCase.java", old_text)
    old = repo.commit("tests")
    gold = [chunk_id(repo, folder + "IOUtilsTestCase.java", "IOUtilsTestCase.testAsBufferedWriter")]
    repo.rm(folder + "IOUtilsTestCase.java")
    new_text = (
        "public class IOUtilsTest {\n"
        + test("testAsBufferedOutputStream", "Writer", 6)
        + "    @Test\n    public void testAsBufferedWriter() {\n"
        + "        assertNotNull(sink);\n    }\n"
        + "}\n"
    )
    repo.write(folder + "IOUtilsTest.java", new_text)
    repo.commit("merged")
    code, got = gold_check(repo, tmp_path, capsys, gold, old)
    assert code == 1
    wrong = chunk_id(repo, folder + "IOUtilsTest.java", "IOUtilsTest.testAsBufferedOutputStream")
    assert got[gold[0]]["new_chunk_id"] != wrong


# A writer whose members forward to `out`, one that forwards them checked, in Java and
# Python: (class, members, body of each member).
WRITERS = {
    "java": (
        "src/main/java/org/example/io/{}.java",
        "public class {} extends Writer {{\n{}}}\n",
        "    public void {}(final char[] chars, final int offset, final int length) {{\n"
        "        {}\n    }}\n",
        "out.{}(chars, offset, length);",
        "try {{ out.{}(chars, offset, length); }} catch (IOException e) {{ throw uncheck(e); }}",
    ),
    "python": (
        "src/example/io/{}.py",
        "class {}(Writer):\n{}",
        "    def {}(self, chars, offset, length):\n        {}\n\n",
        "self.out.{}(chars[offset : offset + length], encoding=self.encoding)",
        "try:\n            self.out.{}(chars[offset : offset + length], encoding=self.encoding)\n"
        "        except OSError as e:\n            raise uncheck(e)",
    ),
}


PROXY = {
    "java": "public class {} extends ProxyWriter {{\n}}\n",
    "python": "class {}(ProxyWriter):\n    pass\n",
}


def forwarding(language: str, owner: str, members: list[str], checked: bool = False) -> str:
    _, cls, member, plain, wrapped = WRITERS[language]
    body = wrapped if checked else plain
    return cls.format(owner, "".join(member.format(m, body.format(m)) for m in members))


@pytest.mark.parametrize("language", sorted(WRITERS))
def test_siblings_gone_to_a_new_type_are_no_evidence_beside_a_standing_twin(
    repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str], language: str
) -> None:
    """commons-io 2.12: `FileWriterWithEncoding` lost its `write`, `flush` and `close` (it
    extends a proxy now), and the new `UncheckedFilterWriter` has all three, each wrapped in
    a try; `LockableFileWriter.write` had the old `write`'s body all along. The siblings'
    owner is no evidence: `write` is not rewritten there."""
    path = WRITERS[language][0]
    members = ["write", "flush", "close"]
    repo.write(
        path.format("FileWriterWithEncoding"),
        forwarding(language, "FileWriterWithEncoding", members),
    )
    repo.write(
        path.format("LockableFileWriter"),
        # Its parameters named otherwise: near the old `write`, nearer than the new one.
        forwarding(language, "LockableFileWriter", ["write"]).replace("offset", "off"),
    )
    old = repo.commit("writers")
    gold = [chunk_id(repo, path.format("FileWriterWithEncoding"), "FileWriterWithEncoding.write")]
    repo.write(
        path.format("FileWriterWithEncoding"), PROXY[language].format("FileWriterWithEncoding")
    )
    repo.write(
        path.format("UncheckedFilterWriter"),
        forwarding(language, "UncheckedFilterWriter", members, checked=True),
    )
    repo.commit("a proxy, and an unchecked writer")
    code, got = gold_check(repo, tmp_path, capsys, gold, old)
    assert code == 1
    assert got[gold[0]]["new_chunk_id"] is None
    unchecked = chunk_id(repo, path.format("UncheckedFilterWriter"), "UncheckedFilterWriter.write")
    assert unchecked in got[gold[0]]["candidates"]
