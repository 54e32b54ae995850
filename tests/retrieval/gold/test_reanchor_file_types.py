"""Gold IDs of a type named for its file (Java's rule, TypeScript's habit) when file and
type are renamed together and every body is rewritten (commons-beanutils 2.0 turned each
JUnit 3 `FooTestCase.java` into a JUnit 5 `FooTest.java`): the renamed file says where the
type went, where neither its members' bodies nor its siblings can. And a member of a type
nested in a renamed one follows the outer type."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.retrieval.gitrepo import GitRepo
from tests.retrieval.gold.reanchor_repo import chunk_id, gold_check
from tests.retrieval.gold.test_reanchor_twins import repo

__all__ = ["repo"]  # the fixture

# Identical lines that keep git's rename detection above its 50% threshold.
_HEADER = "".join(f"// Licensed under the terms of clause {n} of the licence.\n" for n in range(30))

# (file of `Int`'s test, old test class, new test class): two near-identical test classes,
# every method's body rewritten by the new framework.
JUNIT = {
    "java": (
        "conv/{kind}ConverterTestCase.java",
        "package conv;\n\nimport junit.framework.TestCase;\n\n"
        "public class {kind}ConverterTestCase extends TestCase {{\n"
        "    public void testConvert() {{\n"
        "        Converter c = new {kind}Converter();\n"
        '        assertEquals("convert one", 1, c.convert("1"));\n'
        '        assertEquals("convert two", 2, c.convert("2"));\n'
        "    }}\n\n"
        "    public void testNull() {{\n"
        "        Converter c = new {kind}Converter();\n"
        "        try {{\n            c.convert(null);\n"
        '            fail("no exception");\n'
        "        }} catch (ConversionException e) {{\n            // expected\n        }}\n"
        "    }}\n}}\n",
        "package conv;\n\nimport org.junit.jupiter.api.Test;\n\n"
        "public class {kind}ConverterTest {{\n"
        "    @Test\n    public void testConvert() {{\n"
        "        final var converter = new {kind}Converter();\n"
        '        assertEquals(1, converter.convert("1"), () -> "convert one");\n'
        '        assertEquals(2, converter.convert("2"), () -> "convert two");\n'
        "    }}\n\n"
        "    @Test\n    public void testNull() {{\n"
        "        assertThrows(ConversionException.class, () -> new {kind}Converter()"
        ".convert(null));\n"
        "    }}\n}}\n",
    ),
    "typescript": (
        "conv/{kind}ConverterTestCase.ts",
        'import {{ TestCase }} from "./unit";\n\n'
        "export class {kind}ConverterTestCase extends TestCase {{\n"
        "  testConvert(): void {{\n"
        "    const c = new {kind}Converter();\n"
        '    this.assertEquals("convert one", 1, c.convert("1"));\n'
        '    this.assertEquals("convert two", 2, c.convert("2"));\n'
        "  }}\n\n"
        "  testNull(): void {{\n"
        "    const c = new {kind}Converter();\n"
        "    try {{\n      c.convert(null);\n"
        '      this.fail("no exception");\n'
        "    }} catch (e) {{\n      // expected\n    }}\n"
        "  }}\n}}\n",
        'import {{ expect, test }} from "vitest";\n\n'
        "export class {kind}ConverterTest {{\n"
        "  testConvert(): void {{\n"
        "    const converter = new {kind}Converter();\n"
        '    expect(converter.convert("1"), "convert one").toBe(1);\n'
        '    expect(converter.convert("2"), "convert two").toBe(2);\n'
        "  }}\n\n"
        "  testNull(): void {{\n"
        "    expect(() => new {kind}Converter().convert(null)).toThrow();\n"
        "  }}\n}}\n",
    ),
}


@pytest.mark.parametrize("language", list(JUNIT))
def test_a_type_renamed_with_the_file_named_for_it_takes_its_rewritten_members(
    language: str, repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path, before, after = JUNIT[language]
    for kind in ("Int", "Long"):
        repo.write(path.format(kind=kind), _HEADER + before.format(kind=kind))
    old = repo.commit("JUnit 3 tests")
    old_path = path.format(kind="Int")
    gold = [
        chunk_id(repo, old_path, "IntConverterTestCase.testConvert"),
        chunk_id(repo, old_path, "IntConverterTestCase"),
    ]
    for kind in ("Int", "Long"):
        new_path = path.format(kind=kind).replace("TestCase", "Test")
        repo.mv(path.format(kind=kind), new_path)
        repo.write(new_path, _HEADER + after.format(kind=kind))
    repo.commit("JUnit 5 tests")
    new_path = old_path.replace("TestCase", "Test")
    code, got = gold_check(repo, tmp_path, capsys, gold, old)
    assert code == 1
    assert got[gold[0]]["new_chunk_id"] == chunk_id(repo, new_path, "IntConverterTest.testConvert")
    assert got[gold[0]]["evidence"] == (
        "same name under `IntConverterTest`, the type named for its renamed file"
    )
    assert got[gold[1]]["new_chunk_id"] == chunk_id(repo, new_path, "IntConverterTest")


@pytest.mark.parametrize("language", list(JUNIT))
def test_a_file_renamed_that_still_defines_the_old_type_keeps_it(
    language: str, repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The file's name changed but not its type's (a second type named for the file was
    added): the ID's type is where it was, under its own name."""
    path, before, after = JUNIT[language]
    old_path = path.format(kind="Int")
    repo.write(old_path, _HEADER + before.format(kind="Int"))
    old = repo.commit("JUnit 3 tests")
    gold = chunk_id(repo, old_path, "IntConverterTestCase.testConvert")
    new_path = old_path.replace("TestCase", "Test")
    repo.mv(old_path, new_path)
    repo.write(new_path, _HEADER + before.format(kind="Int") + after.format(kind="Int"))
    repo.commit("both")
    code, got = gold_check(repo, tmp_path, capsys, [gold], old)
    assert code == 1
    assert got[gold]["new_chunk_id"] == chunk_id(repo, new_path, "IntConverterTestCase.testConvert")
    assert got[gold]["evidence"] == "same name in the renamed file"


# (file, old text): a type nested in a test class, with one member of its own, and the
# test class's own members (enough to say it was renamed).
NESTED = {
    "java": (
        "bugs/Jira357.java",
        "package bugs;\n\npublic class Jira357Case {{\n"
        '    public void testFoo() {{\n        check(new Bean().getFoo(), "foo");\n    }}\n\n'
        '    public void testBar() {{\n        check(new Bean().getBar(), "bar");\n    }}\n\n'
        '    public void testBaz() {{\n        check(new Bean().getBaz(), "baz");\n    }}\n\n'
        "    public static class Bean {{\n"
        '        public String getFoo() {{ return "{value}"; }}\n    }}\n}}\n',
    ),
    "python": (
        "bugs/jira357.py",
        "class Jira357Case:\n"
        "    def test_foo(self):\n        check(Bean().get_foo(), 'foo')\n\n"
        "    def test_bar(self):\n        check(Bean().get_bar(), 'bar')\n\n"
        "    def test_baz(self):\n        check(Bean().get_baz(), 'baz')\n\n"
        "    class Bean:\n"
        "        def get_foo(self):\n            return '{value}'\n",
    ),
}


@pytest.mark.parametrize("language", list(NESTED))
def test_a_member_of_a_nested_type_follows_the_renamed_outer_type(
    language: str, repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path, text = NESTED[language]
    repo.write(path, text.format(value="foo"))
    old = repo.commit("a test with a bean")
    member = "Jira357Case.Bean.getFoo" if language == "java" else "Jira357Case.Bean.get_foo"
    gold = chunk_id(repo, path, member)
    # The bean's one member is rewritten: only the outer class says where it went.
    repo.write(path, text.format(value="a foo").replace("Jira357Case", "Jira357Test"))
    repo.commit("the test class renamed")
    code, got = gold_check(repo, tmp_path, capsys, [gold], old)
    assert code == 1
    renamed = member.replace("Jira357Case", "Jira357Test")
    assert got[gold]["new_chunk_id"] == chunk_id(repo, path, renamed)
    assert got[gold]["evidence"] == "type renamed to `Jira357Test` with 4 of 4 siblings"


@pytest.mark.parametrize("language", list(JUNIT))
def test_a_file_of_the_old_name_beside_the_renamed_one_keeps_the_type(
    language: str, repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """hamcrest 2.1: git pairs `IsCollectionContainingTest.java` with
    `IsIterableContainingTest.java`, its class renamed there, while a file of the old name
    stands beside it: the type was not renamed with the file, it is in that one."""
    path, before, _ = JUNIT[language]
    old_path = path.format(kind="Int")
    text = _HEADER + before.format(kind="Int")
    repo.write(old_path, text)
    old = repo.commit("a test")
    gold = chunk_id(repo, old_path, "IntConverterTestCase.testConvert")
    kept = old_path.replace("conv/", "core/")
    repo.mv(old_path, kept)
    repo.commit("moved")
    other = kept.replace("IntConverterTestCase", "LongConverterTestCase")
    repo.mv(kept, other)
    repo.write(other, text.replace("IntConverterTestCase", "LongConverterTestCase"))
    repo.commit("renamed")
    repo.write(kept, text)
    repo.commit("the old name made again")
    code, got = gold_check(repo, tmp_path, capsys, [gold], old)
    assert code == 1
    assert got[gold]["new_chunk_id"] == chunk_id(repo, kept, "IntConverterTestCase.testConvert")
    assert got[gold]["evidence"] == "the same name, body identical"
