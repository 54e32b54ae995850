"""Plain trees: a type renamed at home leaves its methods to a person when a namesake type
elsewhere, perhaps there all along, holds their names (jackson-core 2.13)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.retrieval.gitrepo import GitRepo
from tests.retrieval.gold.reanchor_repo import chunk_id, gold_check, plain_copy
from tests.retrieval.gold.test_follow import repo

__all__ = ["repo"]  # the fixture


AT_HOME = {
    "java": (
        "src/failing/HandlingTest.java",
        "src/failing/Handling105Test.java",
        "src/read/HandlingTest.java",
        """package {pkg};

public class {cls} extends BaseTest
{{
    public void testMangledInts() throws Exception {{
        _testMangled{helper}(MODE_INPUT_STREAM);
        _testMangled{helper}(MODE_INPUT_STREAM_THROTTLED);
    }}

    public void testMangledFloats() throws Exception {{
        _testMangledFloats{helper}(MODE_INPUT_STREAM);
        _testMangledFloats{helper}(MODE_DATA_INPUT);
    }}
}}
""",
        "{cls}.testMangledInts",
        "{cls}.testMangledFloats",
    ),
    "python": (
        "tests/failing/test_handling.py",
        "tests/failing/test_handling_105.py",
        "tests/read/test_handling.py",
        """from tests.base import BaseTest  # {pkg}


class {cls}(BaseTest):
    def test_mangled_ints(self):
        self._mangled{helper}(MODE_INPUT_STREAM)
        self._mangled{helper}(MODE_INPUT_STREAM_THROTTLED)

    def test_mangled_floats(self):
        self._mangled_floats{helper}(MODE_INPUT_STREAM)
        self._mangled_floats{helper}(MODE_DATA_INPUT)
""",
        "{cls}.test_mangled_ints",
        "{cls}.test_mangled_floats",
    ),
}


@pytest.mark.parametrize("language", sorted(AT_HOME))
def test_plain_a_class_renamed_at_home_leaves_its_methods_to_a_person(
    language: str, repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """jackson-core 2.13, in a plain tree: `failing/ParserErrorHandlingTest` became
    `ParserErrorHandling105Test` in its package, while `read/ParserErrorHandlingTest`,
    there all along, holds the same test names. Without history either may be the new
    home: both are candidates, nothing is rewritten."""
    path, renamed, other, text, ints, floats = AT_HOME[language]
    cls = "HandlingTest" if language == "java" else "TestHandling"
    new_cls = "Handling105Test" if language == "java" else "TestHandling105"
    repo.write(path, text.format(pkg="failing", cls=cls, helper="NonRoot"))
    repo.write(other, text.format(pkg="read", cls=cls, helper=""))
    repo.commit("old")
    gold = [chunk_id(repo, path, name.format(cls=cls)) for name in (ints, floats)]
    repo.rm(path)
    repo.write(renamed, text.format(pkg="failing", cls=new_cls, helper="NonRoot"))
    repo.commit("renamed at home")
    code, got = gold_check(repo, tmp_path, capsys, gold, None, root=plain_copy(repo, tmp_path))
    assert code == 1
    for gold_id, name in zip(gold, (ints, floats), strict=True):
        assert got[gold_id]["new_chunk_id"] is None
        assert {chunk_id(repo, renamed, name.format(cls=new_cls))} | {
            chunk_id(repo, other, name.format(cls=cls))
        } <= set(got[gold_id]["candidates"])
