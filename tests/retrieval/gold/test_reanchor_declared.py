"""What commons-jexl 3 showed, where a class was split into a declaration and its code, a
facade dissolved, and every file moved and rewritten: a bare declaration is no home of
code; a body under another name does not outweigh the ID's own name standing elsewhere;
and a definition there all along, in a file of its name that git could not pair, is no
new home either."""

from __future__ import annotations

from pathlib import Path

import pytest

from evaltools.retrieval.code.chunk_id import parse_chunk_id
from evaltools.retrieval.code.parsing import FileParser
from evaltools.retrieval.gold.reanchor.history.hollow import declarations_hollowed
from evaltools.retrieval.gold.reanchor.lookup import TreeLookup
from evaltools.retrieval.gold.reanchor.resolve import GoldRef, Resolution, Status
from evaltools.retrieval.sources.source import CodeTree
from tests.retrieval.gitrepo import GitRepo
from tests.retrieval.gold.reanchor_repo import chunk_id, gold_check, plain_copy
from tests.retrieval.gold.test_reanchor_twins import repo

__all__ = ["repo"]  # the fixture

# Identical lines that keep git's rename detection above its 50% threshold.
_HEADER = "".join(f"// Licensed under the terms of clause {n} of the licence.\n" for n in range(30))

# (file, the type with code, the file renamed and its interface now only declaring it, its
# implementation's file and text, the ID's name, the declaration's and the code's).
SPLIT = (
    "engine/Templates.java",
    _HEADER + "package engine;\n\npublic class Templates {\n"
    "    public Set<String> getVariables(Script script) {\n"
    "        Set<String> refs = new LinkedHashSet<>();\n"
    "        script.collect(refs, true);\n"
    "        return refs;\n    }\n\n"
    "    public String asString() {\n        return name;\n    }\n}\n",
    "engine/TemplateApi.java",
    _HEADER + "package engine;\n\npublic interface TemplateApi {\n"
    "    Set<String> getVariables(Script script);\n\n"
    "    String asString();\n}\n",
    "engine/impl/TemplateEngine.java",
    "package engine.impl;\n\npublic class TemplateEngine implements TemplateApi {\n"
    "    @Override\n    public Set<String> getVariables(final Script script) {\n"
    "        final Set<String> refs = new LinkedHashSet<>();\n"
    "        script.collect(refs, true);\n"
    "        return refs;\n    }\n\n"
    "    @Override\n    public String asString() {\n        return name;\n    }\n}\n",
    ("Templates.asString", "TemplateApi.asString", "TemplateEngine.asString"),
)


def test_code_found_only_as_a_declaration_under_another_name_is_hollowed(
    repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The class became an interface, renamed with its file, its code went to an
    implementation: the declaration is the type's rename, not the code's home; nothing is
    fixed, and the implementation is listed after it."""
    path, before, api_path, api, impl_path, impl, (name, declared, coded) = SPLIT
    repo.write(path, before)
    old = repo.commit("a type with code")
    gold = chunk_id(repo, path, name)
    repo.mv(path, api_path)
    repo.write(api_path, api)
    repo.write(impl_path, impl)
    repo.commit("an interface and its implementation")
    code, got = gold_check(repo, tmp_path, capsys, [gold], old)
    assert code == 1
    assert (got[gold]["kind"], got[gold]["new_chunk_id"]) == ("hollowed", None)
    assert got[gold]["candidates"][:2] == [
        chunk_id(repo, api_path, declared),
        chunk_id(repo, impl_path, coded),
    ]


@pytest.mark.parametrize(("old_lines", "hollowed"), [(3, True), (2, False)])
def test_without_history_a_span_longer_than_the_declaration_by_a_block_says_code(
    old_lines: int, hollowed: bool, tmp_path: Path
) -> None:
    """A plain tree (no old body): an ID repaired, under another name, onto a one-line
    declaration is `hollowed` when its span was at least a block (two lines) longer; one
    line longer may be a signature wrapped, and the repair stands."""
    (tmp_path / "conv").mkdir()
    (tmp_path / "conv/IntSpec.java").write_text(
        "package conv;\n\npublic interface IntSpec {\n    int convert(String value);\n}\n"
    )
    declaration = "conv/IntSpec.java:4-4:IntSpec.convert"
    ref = GoldRef(f"conv/IntCase.java:4-{3 + old_lines}:IntCase.convert")
    repaired = Resolution(Status.RELOCATED, declaration, detail="by the set's renames")
    with CodeTree(tmp_path) as tree, FileParser(1) as pool:
        results = {ref: repaired}
        declarations_hollowed({ref: parse_chunk_id(ref.chunk_id)}, results, TreeLookup(tree, pool))
    got = results[ref]
    if hollowed:
        assert (got.status, got.new_chunk_id, got.candidates) == (
            Status.HOLLOWED,
            None,
            (declaration,),
        )
    else:
        assert got == repaired


@pytest.mark.parametrize("history", [True, False])
def test_its_own_name_declared_where_it_stood_still_follows_it(
    history: bool, repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """jsoup 1.17: an enum constant's `process` gone, the enum's abstract `process` where
    it stood, under the ID's own name: the name's continuation, as a stub become abstract."""
    path = "parser/State.java"
    body = "    boolean process(Token t) {\n        return true;\n    }\n"
    repo.write(path, "enum State {\n    INITIAL;\n\n" + body + "}\n")
    old = repo.commit("a method with code")
    gold = chunk_id(repo, path, "State.process")
    abstract = "    abstract boolean process(Token t);\n"
    repo.write(path, "enum State {\n    INITIAL;\n\n    int depth;\n\n" + abstract + "}\n")
    repo.commit("abstract now")
    root = None if history else plain_copy(repo, tmp_path)
    code, got = gold_check(repo, tmp_path, capsys, [gold], old, root=root)
    assert code == 1
    assert (got[gold]["kind"], got[gold]["new_chunk_id"]) == (
        "moved",
        chunk_id(repo, path, "State.process"),
    )


# Methods that make a file, so that a rewrite of the rest keeps git from pairing it.
def _java_methods(prefix: str, count: int, formula: str = "x * {n} + {m} - offset") -> str:
    return "".join(
        f"    public int {prefix}{n}(int x) {{\n"
        f"        return {formula.format(n=n, m=n * 7)};\n    }}\n\n"
        for n in range(count)
    )


_FACADE_METHOD = (
    "    public final Method[] getMethods(Class<?> type, final String methodName) {\n"
    "        return base().getMethods(type, methodName, cache);\n    }\n"
)


def test_a_body_under_another_name_is_split_evidence_while_the_name_stands(
    repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The facade's one-line `getMethods` went, word for word, to another type's method;
    a rewritten `Introspector.getMethods` stands in a new `Introspector.java`: the body
    says one place, the name another, and a person chooses."""
    old_path = "jexl2/Introspector.java"
    repo.write(
        old_path,
        "package jexl2;\n\npublic class Introspector {\n"
        + _FACADE_METHOD
        + "\n"
        + _java_methods("old", 8)
        + "}\n",
    )
    old = repo.commit("a facade")
    gold = chunk_id(repo, old_path, "Introspector.getMethods")
    repo.rm(old_path)
    repo.write(
        "jexl3/Uberspect.java",
        "package jexl3;\n\npublic class Uberspect {\n"
        + _FACADE_METHOD.replace("(Class<?> type,", "(final Class<?> type,")
        + "\n"
        + _java_methods("uber", 8, "Math.max(x, {m}) / ({n} + limit)")
        + "}\n",
    )
    repo.write(
        "jexl3/internal/Introspector.java",
        "package jexl3.internal;\n\npublic class Introspector {\n"
        "    public final Method[] getMethods(Class<?> type, final String methodName) {\n"
        "        if (type == null) {\n            return null;\n        }\n"
        "        return getMap(type).getMethods(methodName, cache);\n    }\n\n"
        + _java_methods("base", 8, "table[x % {m}].get({n}, cache)")
        + "}\n",
    )
    repo.commit("the facade dissolved")
    code, got = gold_check(repo, tmp_path, capsys, [gold], old)
    assert code == 1
    assert (got[gold]["kind"], got[gold]["new_chunk_id"]) == ("ambiguous", None)
    assert got[gold]["candidates"] == [
        chunk_id(repo, "jexl3/Uberspect.java", "Uberspect.getMethods"),
        chunk_id(repo, "jexl3/internal/Introspector.java", "Introspector.getMethods"),
    ]


_FROBOZ = (
    "    public static class Froboz {\n        int value;\n\n"
    "        public Froboz(int v) {\n            value = v;\n        }\n\n"
    "        public void setValue(int v) {\n            value = v;\n        }\n\n"
    "        public int getValue() {\n            return value;\n        }\n    }\n\n"
)


def test_a_definition_there_all_along_in_a_file_of_its_name_git_did_not_pair_is_no_home(
    repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Every test moved from `jexl2/` to `jexl3/` and was rewritten, too much for git to
    pair them: `AssignTest`'s `Froboz`, there all along, is not where the template test's
    own `Froboz` went, though its siblings and body are the same."""
    for name in ("AssignTest", "TemplateTest"):
        repo.write(
            f"jexl2/{name}.java",
            f"package jexl2;\n\npublic class {name} {{\n"
            + _FROBOZ
            + _java_methods("test", 6)
            + "}\n",
        )
    old = repo.commit("two tests with a Froboz each")
    gold = chunk_id(repo, "jexl2/TemplateTest.java", "TemplateTest.Froboz.getValue")
    for name in ("AssignTest", "TemplateTest"):
        repo.rm(f"jexl2/{name}.java")
    repo.write(
        "jexl3/AssignTest.java",
        "package jexl3;\n\npublic class AssignTest {\n"
        + _FROBOZ
        + "".join(
            f"    @Test\n    void assigns{n}() {{\n        final JexlEngine jexl = create();\n"
            f'        asserter.setVariable("v{n}", {n});\n'
            f'        asserter.assertExpression("v{n} = v{n} + 1", {n + 1});\n    }}\n\n'
            for n in range(12)
        )
        + "}\n",
    )
    repo.commit("the template test dropped, the assign test rewritten")
    code, got = gold_check(repo, tmp_path, capsys, [gold], old)
    assert code == 1
    assert (got[gold]["kind"], got[gold]["new_chunk_id"]) == ("missing_file", None)
    assert (
        chunk_id(repo, "jexl3/AssignTest.java", "AssignTest.Froboz.getValue")
        in (got[gold]["candidates"])
    )


_ENUMERABLE = (
    "def {name}(base, prop):\n"
    "    desc = getattr(type(base), prop, None)\n"
    "    return desc is None or not isinstance(desc, property) or desc.fset is not None\n"
)


def test_a_test_s_copy_of_the_name_does_not_split_the_evidence(
    repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """immer 8: `isEnumerable` left `common` for the ES5 plugin, renamed; a test keeps its
    own copy under the old name, which says nothing of where the code went."""
    repo.write("pkg/common.py", _ENUMERABLE.format(name="is_enumerable") + "\n\nKEEP = 1\n")
    old = repo.commit("common")
    gold = chunk_id(repo, "pkg/common.py", "is_enumerable")
    repo.write("pkg/common.py", "KEEP = 1\n")
    edited = _ENUMERABLE.format(name="_is_enumerable").replace("prop", "key")
    repo.write("pkg/plugins/es5.py", edited)
    repo.write("tests/test_base.py", _ENUMERABLE.format(name="is_enumerable").replace("None", "0"))
    repo.commit("into the plugin; a copy in the tests")
    code, got = gold_check(repo, tmp_path, capsys, [gold], old)
    assert code == 1
    assert (got[gold]["kind"], got[gold]["new_chunk_id"]) == (
        "relocated",
        chunk_id(repo, "pkg/plugins/es5.py", "_is_enumerable"),
    )


_SCRIPT_TEST = (
    "public class ScriptTest {{\n"
    "    public void testSimpleScript() {{\n"
    '        String code = "while (x < 10) x = x + 1;";\n'
    "        Script s = {engine}.createScript(code);\n"
    "        JexlContext jc = new MapContext();\n"
    '        jc.set("x", new Integer(1));\n'
    "        Object o = s.execute(jc);\n"
    '        assertEquals("Result is wrong", new Integer(10), o);\n'
    "    }}\n}}\n"
)


def test_a_file_of_its_name_says_nothing_when_the_id_s_file_had_that_name_too(
    repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """commons-jexl 3: `jexl2/ScriptTest.java` and the compat layer's `jexl/ScriptTest.java`
    both gone, one `jexl3/ScriptTest.java` new: the file name does not say which one it
    continues, so the other's test does not make the ID's a definition there all along."""
    compat = "package jexl;\n\n" + _SCRIPT_TEST.format(engine="JEXL")
    repo.write("jexl/ScriptTest.java", compat)
    repo.write("jexl2/ScriptTest.java", "package jexl2;\n\n" + _SCRIPT_TEST.format(engine="jexl"))
    old = repo.commit("two script tests")
    gold = chunk_id(repo, "jexl2/ScriptTest.java", "ScriptTest.testSimpleScript")
    repo.rm("jexl/ScriptTest.java")
    repo.rm("jexl2/ScriptTest.java")
    # New tests around it: too much for git to pair it with either.
    more = _java_methods("testMore", 12, "table[x % {m}].get({n}, cache)")
    new = _SCRIPT_TEST.format(engine="JEXL").replace("    }\n}\n", "    }\n\n" + more + "}\n")
    repo.write("jexl3/ScriptTest.java", "package jexl3;\n\n" + new)
    repo.commit("one")
    code, got = gold_check(repo, tmp_path, capsys, [gold], old)
    assert code == 1
    assert got[gold]["new_chunk_id"] == chunk_id(
        repo, "jexl3/ScriptTest.java", "ScriptTest.testSimpleScript"
    )
