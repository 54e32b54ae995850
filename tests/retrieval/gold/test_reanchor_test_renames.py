"""A test renamed as another framework names it (pyparsing 3 turned each unittest class
`PopTest`, with its `runTest`, into a method `testPop`; Rust's `pop_test` as `test_pop`):
the one new definition testing the same subject, its body rewritten but at least half kept,
is where the test went; two such, or a body rewritten past half, are left to a person."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.retrieval.gitrepo import GitRepo
from tests.retrieval.gold.reanchor_repo import chunk_id, gold_check
from tests.retrieval.gold.test_reanchor_twins import repo

__all__ = ["repo"]  # the fixture

# Enough unchanged code beside the tests for git to see the file renamed.
HELPERS = {
    "python": "".join(
        f"def helper_{n}(values):\n    total = 0\n    for v in values:\n"
        f"        total += v * {n}\n    return total\n\n\n"
        for n in range(6)
    ),
    "rust": "".join(
        f"fn helper_{n}(values: &[u32]) -> u32 {{\n    let mut total = 0;\n"
        f"    for v in values {{\n        total += v * {n};\n    }}\n    total\n}}\n\n"
        for n in range(6)
    ),
}
# (old path, old test, new path, new test, old name, new name)
TESTS = {
    "python": (
        "unitTests.py",
        "class PopTest(ParseTestCase):\n    def runTest(self):\n        stack = [1, 2, 3]\n"
        "        top = stack.pop()\n        self.assertEqual(top, 3)\n"
        "        self.assertEqual(stack, [1, 2])\n        stack.append(top)\n"
        "        self.assertEqual(len(stack), 3)\n",
        "tests/test_unit.py",
        "class Tests(TestCase):\n    def testPop(self):\n        stack = [1, 2, 3]\n"
        "        top = stack.pop()\n        self.assertEqual(3, top, f'popped {stack}')\n"
        "        self.assertEqual([1, 2], stack, f'left {stack}')\n        stack.append(top)\n"
        "        self.assertEqual(3, len(stack), f'pushed back onto {stack}')\n\n"
        "    def testPush(self):\n        stack = []\n        stack.append(1)\n"
        "        self.assertEqual([1], stack)\n",
        "PopTest",
        "Tests.testPop",
    ),
    "rust": (
        "src/stack.rs",
        "fn pop_test() {\n    let mut stack = vec![1, 2, 3];\n    let top = stack.pop();\n"
        "    assert_eq!(top, Some(3));\n    assert_eq!(stack, vec![1, 2]);\n"
        "    stack.push(3);\n    assert_eq!(stack.len(), 3);\n}\n",
        "src/stack_ops.rs",
        "fn test_pop() {\n    let mut stack = vec![1, 2, 3];\n    let top = stack.pop();\n"
        '    assert_eq!(Some(3), top, "popped the last of {:?}", stack);\n'
        '    assert_eq!(vec![1, 2], stack, "left the rest of {:?}", stack);\n'
        '    stack.push(3);\n    assert_eq!(3, stack.len(), "pushed back onto {:?}", stack);\n}\n',
        "pop_test",
        "test_pop",
    ),
}


def renamed(language: str, repo: GitRepo, new_text: str) -> tuple[str, list[str], str]:
    """The old test committed, then its file renamed with `new_text` for the test: the
    old revision, the gold IDs (the test, and its `runTest` if any) and the new path."""
    old_path, old_test, new_path, _, old_name, _ = TESTS[language]
    repo.write(old_path, HELPERS[language] + old_test)
    old = repo.commit("tests")
    gold = [chunk_id(repo, old_path, old_name)]
    if language == "python":
        gold.append(chunk_id(repo, old_path, f"{old_name}.runTest"))
    (repo.path / old_path).unlink()
    repo.write(new_path, HELPERS[language] + new_text)
    repo.commit("converted")
    return old, gold, new_path


@pytest.mark.parametrize("language", list(TESTS))
def test_a_test_renamed_by_another_framework_follows_its_subject(
    language: str, repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _, _, _, new_test, _, new_name = TESTS[language]
    old, gold, new_path = renamed(language, repo, new_test)
    code, got = gold_check(repo, tmp_path, capsys, gold, old)
    assert code == 1
    for g in gold:
        assert (got[g]["kind"], got[g]["new_chunk_id"]) == (
            "relocated",
            chunk_id(repo, new_path, new_name),
        )
        leaf = new_name.rpartition(".")[2]
        assert got[g]["evidence"].startswith(f"its test renamed `{leaf}`, body 0.")


@pytest.mark.parametrize("language", list(TESTS))
def test_two_tests_of_the_subject_are_left_to_a_person(
    language: str, repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _, _, _, new_test, _, new_name = TESTS[language]
    leaf = new_name.rpartition(".")[2]
    other = "PopTests" if language == "python" else "pop_tests"
    twice = new_test + new_test.replace(f" {leaf}(", f" {other}(")
    old, gold, _ = renamed(language, repo, twice)
    code, got = gold_check(repo, tmp_path, capsys, gold, old)
    assert code == 1
    assert all(got[g]["new_chunk_id"] is None for g in gold)


@pytest.mark.parametrize("language", list(TESTS))
def test_a_test_of_the_subject_rewritten_past_half_is_no_match(
    language: str, repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    leaf = TESTS[language][5].rpartition(".")[2]
    if language == "python":
        rewritten = f"class Tests(TestCase):\n    def {leaf}(self):\n        check_pop(self)\n"
    else:
        rewritten = f"fn {leaf}() {{\n    check_pop();\n}}\n"
    old, gold, _ = renamed(language, repo, rewritten)
    code, got = gold_check(repo, tmp_path, capsys, gold, old)
    assert code == 1
    assert all(got[g]["new_chunk_id"] is None for g in gold)


def test_a_test_grouped_into_a_class_named_for_it_is_not_sent_to_the_class(
    repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`test_parse` became a method of `class TestParse`: the class is named for its
    subject but is no test; frameworks turn classes into functions, not the reverse."""
    old_test = (
        "def test_parse():\n    tree = parse('a = [1, 2, 3]')\n    assert tree.kind == 'assign'\n"
        "    assert tree.target.name == 'a'\n    assert tree.source() == 'a = [1, 2, 3]'\n"
    )
    new_test = (
        "class TestParse:\n    def test_basic(self, parser):\n"
        "        tree = parser.parse('a = [1, 2, 3]', strict=True)\n"
        "        assert tree.kind == 'assign', tree\n        assert tree.target.name == 'a'\n"
        "        assert tree.source() == 'a = [1, 2, 3]', tree.source()\n"
        "        assert not parser.parse('b = {}').value.items\n"
    )
    repo.write("tests/unit.py", HELPERS["python"] + old_test)
    old = repo.commit("tests")
    gold = chunk_id(repo, "tests/unit.py", "test_parse")
    (repo.path / "tests/unit.py").unlink()
    repo.write("tests/test_unit.py", HELPERS["python"] + new_test)
    repo.commit("grouped")
    code, got = gold_check(repo, tmp_path, capsys, [gold], old)
    assert code == 1
    assert got[gold]["new_chunk_id"] != chunk_id(repo, "tests/test_unit.py", "TestParse")
