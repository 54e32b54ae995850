"""A folder moved, checked in a plain tree (a copy without `.git`: no history, no old
bodies): a file renamed with its type there, a test suite converted (`testParse` ->
`parse`), and its files that hold none of their old names go along with it."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.retrieval.gitrepo import GitRepo
from tests.retrieval.gold.reanchor_repo import chunk_id, gold_check, plain_copy
from tests.retrieval.gold.test_reanchor_twins import repo

__all__ = ["repo"]  # the fixture

# Per language: a file named for its class (`{c}`), with methods (`{m}`), and a method
# (`{n}`, its body naming it; `{x}` lines more past its first).
CLASSES = {
    "java": (
        "java",
        "package org.lib;\n\npublic class {c} {{\n{m}}}\n",
        '    public int {n}() {{\n        String label = "{n}";\n{x}'
        "        return label.length();\n    }}\n",
        "        label = label.trim();\n",
    ),
    "typescript": (
        "ts",
        "export class {c} {{\n{m}}}\n",
        '  {n}(): number {{\n    let label = "{n}";\n{x}    return label.length;\n  }}\n',
        "    label = label.trim();\n",
    ),
}


def class_file(language: str, name: str, methods: tuple[str, ...], extra: int = 0) -> str:
    _, text, method, line = CLASSES[language]
    body = "\n".join(method.format(n=n, x=line * extra) for n in methods)
    return text.format(c=name, m=body)


def move_folder(repo: GitRepo, language: str, old: str, new: str, classes: list[str]) -> None:
    """Three classes of `old` moved to `new` as they are: the evidence its folder moved."""
    extension = CLASSES[language][0]
    for name in classes:
        repo.mv(f"{old}/{name}.{extension}", f"{new}/{name}.{extension}")


@pytest.mark.parametrize("language", list(CLASSES))
@pytest.mark.parametrize("rivals", [False, True])
def test_a_file_renamed_with_its_type_in_a_moved_folder(
    language: str,
    rivals: bool,
    repo: GitRepo,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """`IgnoringSpace` became `CompressingSpace` (file and class) as `lib-text/` became
    `lib/`: two of its members stand in the one new file of the moved folder named for its
    type; with a second new file holding them too (`rivals`), either may be it: none."""
    extension = CLASSES[language][0]
    old, new = "lib-text/src/text", "lib/src/text"
    others = ["Alpha", "Beta", "Gamma"]
    for name in others:
        repo.write(f"{old}/{name}.{extension}", class_file(language, name, ("render",)))
    members = ("passesIfSpaceDiffers", "failsIfTextDiffers")
    repo.write(f"{old}/IgnoringSpace.{extension}", class_file(language, "IgnoringSpace", members))
    commit = repo.commit("text matchers")
    old_file = f"{old}/IgnoringSpace.{extension}"
    gold = [chunk_id(repo, old_file, f"IgnoringSpace.{m}") for m in members]
    gold.append(chunk_id(repo, old_file, "IgnoringSpace"))
    others_gold = [chunk_id(repo, f"{old}/{n}.{extension}", f"{n}.render") for n in others]
    move_folder(repo, language, old, new, others)
    repo.rm(old_file)
    new_file = f"{new}/CompressingSpace.{extension}"
    repo.write(new_file, class_file(language, "CompressingSpace", members))
    if rivals:
        repo.write(
            f"{new}/TrimmingSpace.{extension}", class_file(language, "TrimmingSpace", members)
        )
    repo.commit("lib-text/ merged into lib/, IgnoringSpace renamed")
    ids = [*gold, *others_gold]
    code, got = gold_check(repo, tmp_path, capsys, ids, commit, root=plain_copy(repo, tmp_path))
    assert code == 1
    if rivals:
        assert [got[g]["new_chunk_id"] for g in gold] == [None] * 3
        return
    names = [*(f"CompressingSpace.{m}" for m in members), "CompressingSpace"]
    assert [(got[g]["kind"], got[g]["new_chunk_id"]) for g in gold] == [
        ("relocated", chunk_id(repo, new_file, n)) for n in names
    ]
    assert got[gold[2]]["evidence"] == (
        f"{old_file} renamed {new_file} with its type, where 2 other members of it stand"
    )


def test_a_test_suite_converted_in_a_moved_folder_keeps_its_tests(
    repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`lib-tests/` became `lib/tests/` and its tests lost their `test` prefix (JUnit 3 to
    4, a Java construct): none of the converted file's old names is there, yet it went
    with its folder, and each test is its name but for the prefix, as long; one rewritten
    much longer is not."""
    language = "java"
    extension = CLASSES[language][0]
    old, new = "lib-tests/src/lib", "lib/tests/lib"
    others = ["AlphaTest", "BetaTest", "GammaTest"]
    for name in others:
        repo.write(f"{old}/{name}.{extension}", class_file(language, name, ("testRenders",)))
    tests = ("testParsesWords", "testRejectsNumbers")
    repo.write(f"{old}/ParserTest.{extension}", class_file(language, "ParserTest", tests))
    commit = repo.commit("tests")
    old_file = f"{old}/ParserTest.{extension}"
    gold = [chunk_id(repo, old_file, f"ParserTest.{t}") for t in tests]
    others_gold = [chunk_id(repo, f"{old}/{n}.{extension}", f"{n}.testRenders") for n in others]
    move_folder(repo, language, old, new, others)
    repo.rm(old_file)
    new_file = f"{new}/ParserTest.{extension}"
    converted = class_file(language, "ParserTest", ("parsesWords",))
    converted += class_file(language, "Longer", ("rejectsNumbers",), extra=5)
    repo.write(new_file, converted.replace("class Longer", "class ParserTestLonger"))
    repo.commit("tests converted and moved")
    ids = [*gold, *others_gold]
    code, got = gold_check(repo, tmp_path, capsys, ids, commit, root=plain_copy(repo, tmp_path))
    assert code == 1
    new_id = chunk_id(repo, new_file, "ParserTest.parsesWords")
    assert (got[gold[0]]["kind"], got[gold[0]]["new_chunk_id"]) == ("relocated", new_id)
    assert got[gold[0]]["evidence"] == (
        "its name respelled `ParserTest.parsesWords` in the file its folder moved to "
        "(lib-tests/src/ -> lib/tests/ with 3 files)"
    )
    assert got[gold[1]]["new_chunk_id"] is None


def test_a_folder_copied_to_two_places_takes_a_converted_file_nowhere(
    repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """As above, but the folder went to two places (`lib/tests/`, `legacy/tests/`), each
    with the converted test: either folder may be where it went, and a person chooses."""
    language, extension = "java", "java"
    old = "lib-tests/src/lib"
    others = ["AlphaTest", "BetaTest", "GammaTest"]
    for name in others:
        repo.write(f"{old}/{name}.{extension}", class_file(language, name, ("testRenders",)))
    repo.write(f"{old}/ParserTest.{extension}", class_file(language, "ParserTest", ("testParses",)))
    commit = repo.commit("tests")
    gold = [chunk_id(repo, f"{old}/ParserTest.{extension}", "ParserTest.testParses")]
    gold += [chunk_id(repo, f"{old}/{n}.{extension}", f"{n}.testRenders") for n in others]
    for new in ("lib/tests/lib", "legacy/tests/lib"):
        for name in others:
            text = class_file(language, name, ("testRenders",))
            repo.write(f"{new}/{name}.{extension}", text)
        text = class_file(language, "ParserTest", ("parses",))
        repo.write(f"{new}/ParserTest.{extension}", text)
    repo.git("rm", "-r", "-q", "lib-tests")
    repo.commit("tests converted, in two places")
    code, got = gold_check(repo, tmp_path, capsys, gold, commit, root=plain_copy(repo, tmp_path))
    assert code == 1
    assert [got[g]["new_chunk_id"] for g in gold] == [None] * 4
