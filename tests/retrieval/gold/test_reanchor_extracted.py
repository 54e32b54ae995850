"""What commons-fileupload 2 showed: a test class followed through its file's renames to a
few-line subclass, while its tests went to a new abstract base class. The name leads to
what was left; the code went elsewhere: `hollowed`, both places listed, nothing fixed."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.retrieval.gitrepo import GitRepo
from tests.retrieval.gold.reanchor_repo import chunk_id, gold_check
from tests.retrieval.gold.test_reanchor_twins import repo

__all__ = ["repo"]  # the fixture

# Identical lines that keep git's rename detection above its 50% threshold.
_HEADER = "".join(f"// Licensed under the terms of clause {n} of the licence.\n" for n in range(30))


def _members(owner: str, modifier: str) -> str:
    """Three tests of a listener, long enough to be evidence by their bodies."""
    return (
        f"    {modifier}void runTest(final int items, final long length) throws Exception {{\n"
        "        final ProgressListener listener = new ProgressListener(length, items);\n"
        "        final Upload upload = newUpload();\n"
        "        upload.setProgressListener(listener);\n"
        "        upload.parseRequest(newRequest(items, length));\n"
        "        listener.checkFinished();\n    }\n\n"
        "    public void testProgressListener() throws Exception {\n"
        "        for (int items = 0; items < 10; items++) {\n"
        "            runTest(items, items * 100L);\n"
        "            runTest(items, -1L);\n        }\n    }\n\n"
        "    public void testEmptyUpload() throws Exception {\n"
        "        final ProgressListener listener = new ProgressListener(0, 0);\n"
        f'        assertEquals(0, listener.items(), "{owner} saw no item");\n'
        "        listener.checkFinished();\n    }\n"
    )


OLD = _HEADER + "package upload;\n\npublic class ProgressTest {\n" + _members("ProgressTest", "")
OLD += "}\n"
# Helpers new in the base, enough that its whole body is no longer much like the old class.
_NEW = "".join(
    f"    protected abstract Request newRequest{n}(InputStream in, long length, String type);\n\n"
    f'    protected String boundary{n}() {{\n        return "---{n}" + Long.toHexString({n}L);\n'
    "    }\n\n"
    for n in range(6)
)
BASE = (
    "package upload.core;\n\npublic abstract class AbstractProgressTest {\n"
    "    protected abstract Upload newUpload();\n\n"
    + _NEW
    + _members("AbstractProgressTest", "protected ")
    + "}\n"
)


def _thin(name: str, overrides: str = "") -> str:
    return (
        _HEADER + f"package upload.javax;\n\npublic class {name} extends AbstractProgressTest {{\n"
        "    @Override\n    protected Upload newUpload() {\n        return new JavaxUpload();\n"
        "    }\n" + overrides + "}\n"
    )


@pytest.mark.parametrize(
    ("renamed", "name"),
    [
        ("javax/ProgressTest.java", "ProgressTest"),
        ("javax/JavaxProgressTest.java", "JavaxProgressTest"),
    ],
)
def test_a_type_whose_members_went_to_a_new_type_is_hollowed(
    renamed: str, name: str, repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Its file moved (under its name, or renamed with its type), then its tests went to a
    new abstract class: the subclass left is where the name leads, the base where the code
    went."""
    repo.write("ProgressTest.java", OLD)
    old = repo.commit("a test class")
    gold = chunk_id(repo, "ProgressTest.java", "ProgressTest")
    repo.mv("ProgressTest.java", renamed)
    repo.write(renamed, OLD.replace("class ProgressTest", f"class {name}"))
    repo.commit("moved")
    repo.write(renamed, _thin(name))
    repo.write("core/AbstractProgressTest.java", BASE)
    repo.commit("the tests in a base class")
    code, got = gold_check(repo, tmp_path, capsys, [gold], old)
    assert code == 1
    assert (got[gold]["kind"], got[gold]["new_chunk_id"]) == ("hollowed", None)
    assert got[gold]["candidates"] == [
        chunk_id(repo, "core/AbstractProgressTest.java", "AbstractProgressTest"),
        chunk_id(repo, renamed, name),
    ]
    assert "took 3 of its 3 members" in got[gold]["message"]
    code, _ = gold_check(repo, tmp_path, capsys, [gold], old, "--fix")
    assert (tmp_path / "set.jsonl").read_text(encoding="utf-8").count(gold) == 1


# The subclass overrides every test, none of them like the old code (its body 0.28 alike,
# the base's 0.57): it holds as many of the members as the base does.
_OVERRIDES = (
    "\n    private static final Charset ENCODING = StandardCharsets.ISO_8859_1;\n"
    "    private static final Duration TIMEOUT = Duration.ofSeconds(30);\n"
    + "".join(
        f"\n    @Override\n    public void {test}() {{\n"
        '        throw new UnsupportedOperationException("not under javax");\n    }\n'
        for test in ("runTest", "testProgressListener", "testEmptyUpload")
    )
)
# The base with many helpers of its own: its body no longer much like the old class's
# (0.25 alike, the subclass's 0.17), though it holds the tests by name and body.
_BASE_OF_MANY = BASE.replace(_NEW, _NEW * 3 + _NEW.replace("boundary", "separator"))


@pytest.mark.parametrize("guard", ["overrides", "there before", "base of many"])
def test_the_name_stands_when_its_type_holds_the_members_or_the_base_stood(
    guard: str, repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The subclass overrides every test (as many of the members as the base: nothing says
    which holds them), or the base class was there at the revision (its code is its own),
    or the base's own body is not clearly more like the old class than the subclass's
    (member names repeat across a suite: hamcrest's `createMatcher`): the name's place
    stands."""
    renamed = "javax/JavaxProgressTest.java"
    if guard == "there before":
        repo.write("core/AbstractProgressTest.java", BASE)
    repo.write("ProgressTest.java", OLD)
    old = repo.commit("a test class")
    gold = chunk_id(repo, "ProgressTest.java", "ProgressTest")
    repo.mv("ProgressTest.java", renamed)
    repo.write(renamed, OLD.replace("class ProgressTest", "class JavaxProgressTest"))
    repo.commit("moved")
    repo.write(renamed, _thin("JavaxProgressTest", _OVERRIDES if guard == "overrides" else ""))
    repo.write("core/AbstractProgressTest.java", _BASE_OF_MANY if guard == "base of many" else BASE)
    repo.commit("the tests in a base class")
    code, got = gold_check(repo, tmp_path, capsys, [gold], old)
    assert code == 1
    assert got[gold]["new_chunk_id"] == chunk_id(repo, renamed, "JavaxProgressTest")


_PY_HEADER = "".join(
    f"# Licensed under the terms of clause {n} of the licence.\n" for n in range(30)
)
_PY_MEMBERS = (
    "    def run_test(self, items, length):\n"
    "        listener = ProgressListener(length, items)\n"
    "        upload = self.new_upload()\n"
    "        upload.progress_listener = listener\n"
    "        upload.parse_request(self.new_request(items, length))\n"
    "        listener.check_finished()\n\n"
    "    def test_progress_listener(self):\n"
    "        for items in range(10):\n"
    "            self.run_test(items, items * 100)\n"
    "            self.run_test(items, -1)\n\n"
    "    def test_empty_upload(self):\n"
    "        listener = ProgressListener(0, 0)\n"
    "        assert listener.items() == 0, 'saw no item'\n"
    "        listener.check_finished()\n"
)
_PY_NEW = "".join(
    f"    def new_request_{n}(self, stream, length, kind):\n"
    f"        raise NotImplementedError('request {n}')\n\n"
    f"    def boundary_{n}(self):\n        return '---{n}' + hex({n})\n\n"
    for n in range(6)
)


def test_a_python_class_whose_tests_went_to_a_new_base_is_hollowed(
    repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The same in Python: the module moved, its test class now a subclass of a new base
    class in another module that took its tests."""
    old_text = _PY_HEADER + "\n\nclass TestProgress:\n" + _PY_MEMBERS
    repo.write("tests/test_progress.py", old_text)
    old = repo.commit("a test class")
    gold = chunk_id(repo, "tests/test_progress.py", "TestProgress")
    repo.mv("tests/test_progress.py", "tests/javax/test_progress.py")
    repo.commit("moved")
    thin = "    def new_upload(self):\n        return JavaxUpload()\n"
    repo.write(
        "tests/javax/test_progress.py",
        _PY_HEADER + "\n\nclass TestProgress(ProgressBase):\n" + thin,
    )
    repo.write("tests/core/base.py", "\n\nclass ProgressBase:\n" + _PY_NEW + _PY_MEMBERS)
    repo.commit("the tests in a base class")
    code, got = gold_check(repo, tmp_path, capsys, [gold], old)
    assert code == 1
    assert (got[gold]["kind"], got[gold]["new_chunk_id"]) == ("hollowed", None)
    assert got[gold]["candidates"] == [
        chunk_id(repo, "tests/core/base.py", "ProgressBase"),
        chunk_id(repo, "tests/javax/test_progress.py", "TestProgress"),
    ]
