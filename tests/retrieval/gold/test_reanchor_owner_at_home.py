"""A type renamed at home, its bodies rewritten, while a new type in another package
implements the same interface with the old boilerplate (go-billy 6: `osfs.ChrootOS`
became `osfs.RootOS`; `embedfs.Embed` is new): the other package's type took the names and
bodies of the old one's methods, but the ID may as well have stayed at home, and a person
chooses."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.retrieval.gitrepo import GitRepo
from tests.retrieval.gold.reanchor_repo import chunk_id, gold_check
from tests.retrieval.gold.test_reanchor_twins import repo

__all__ = ["repo"]  # the fixture

METHODS = (
    ("Create", "return fs.openFile(name, createFlags, defaultMode)"),
    ("Open", "return fs.openFile(name, readOnly, 0)"),
    ("Rename", "return renameFile(fs.abs(name), fs.abs(name + suffix))"),
    ("Capabilities", "return defaultCapabilities"),
)
# Each body at home rewritten past half of it.
REWRITTEN = {
    "go": "if err := root.Check(name, root.Options{Follow: true, Depth: 8}); err != nil {\n"
    '\t\treturn root.Wrap(err, "checking", name)\n\t}\n'
    "\treturn root.Do(func(r *root.Root) error { return r.Visit(name, nil) })",
    "java": "if (!root.check(name, new Options(true, 8))) {\n"
    '            throw root.wrap("checking", name);\n        }\n'
    "        return root.visit(name, null)",
}


# More of the new type elsewhere: its file is no rename of the old one.
EMBEDDED = {
    f"Read{n}": f"return embedded.ReadFile(name + {n}, fs.base, files.Options{{Index: {n}}})"
    for n in range(8)
}


def go_type(package: str, owner: str, bodies: dict[str, str]) -> str:
    return f"package {package}\n\ntype {owner} struct {{\n\tbase string\n}}\n\n" + "".join(
        f"func (fs *{owner}) {name}(name string) error {{\n\t{body}\n}}\n\n"
        for name, body in bodies.items()
    )


def java_type(package: str, owner: str, bodies: dict[str, str]) -> str:
    return (
        f"package {package};\n\npublic class {owner} {{\n"
        + "".join(
            f"    public Object {name.lower()}(String name) {{\n"
            f"        {body.replace(chr(9), '        ').replace('fs.', 'this.')};\n    }}\n\n"
            for name, body in bodies.items()
        )
        + "}\n"
    )


# language: (the type's file text, its new text at home, the other package's file, path of
# each, the ID's symbol and the names of the places)
LANGUAGES = {
    "go": (
        go_type,
        "osfs/os_chroot.go",
        "osfs/os_rootfs.go",
        "embedfs/embed.go",
        "{}.Capabilities",
    ),
    "java": (
        java_type,
        "src/fs/ChrootOS.java",
        "src/fs/RootOS.java",
        "src/embed/Embed.java",
        "{}.capabilities",
    ),
}


def refactored(language: str, repo: GitRepo, at_home: bool) -> tuple[str, str]:
    """`ChrootOS` committed, then gone, `Embed` new in another package with its boilerplate
    and, `at_home`, `RootOS` new in its package with every body rewritten: the old revision
    and the gold ID of `ChrootOS`'s capabilities."""
    text, old_path, home_path, other_path, symbol = LANGUAGES[language]
    package = old_path.split("/")[-2]
    boilerplate = dict(METHODS)
    repo.write(old_path, text(package, "ChrootOS", boilerplate))
    old = repo.commit("a filesystem")
    gold = chunk_id(repo, old_path, symbol.format("ChrootOS"))
    (repo.path / old_path).unlink()
    if at_home:
        rewritten = dict.fromkeys(boilerplate, REWRITTEN[language])
        repo.write(home_path, text(package, "RootOS", rewritten))
    repo.write(other_path, text(other_path.split("/")[-2], "Embed", boilerplate | EMBEDDED))
    repo.commit("a new filesystem elsewhere")
    return old, gold


@pytest.mark.parametrize("language", list(LANGUAGES))
def test_a_type_renamed_at_home_keeps_an_owner_elsewhere_in_doubt(
    language: str, repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _, _, home_path, other_path, symbol = LANGUAGES[language]
    old, gold = refactored(language, repo, at_home=True)
    code, got = gold_check(repo, tmp_path, capsys, [gold], old)
    assert code == 1
    assert (got[gold]["kind"], got[gold]["new_chunk_id"]) == ("ambiguous", None)
    assert got[gold]["candidates"][:2] == [
        chunk_id(repo, other_path, symbol.format("Embed")),
        chunk_id(repo, home_path, symbol.format("RootOS")),
    ]


@pytest.mark.parametrize("language", list(LANGUAGES))
def test_with_no_new_type_at_home_the_owner_elsewhere_is_the_place(
    language: str, repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _, _, _, other_path, symbol = LANGUAGES[language]
    old, gold = refactored(language, repo, at_home=False)
    code, got = gold_check(repo, tmp_path, capsys, [gold], old)
    assert code == 1
    assert got[gold]["new_chunk_id"] == chunk_id(repo, other_path, symbol.format("Embed"))
