"""A name found at its own lines among namesakes as long, in a plain tree (no old body):
when the ID placed for sure above it moved, the match at its own lines is chance (bstr
0.2's `impl Index` blocks, two blocks down: another block's `index` slid onto the ID's
lines): the one as long where that shift puts it is the match, else a person chooses;
when nothing above moved, it stands."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.retrieval.gitrepo import GitRepo
from tests.retrieval.gold.reanchor_repo import chunk_id, gold_check, plain_copy
from tests.retrieval.gold.test_reanchor_twins import repo

__all__ = ["repo"]  # the fixture

RUST = (
    "lib.rs",
    "pub fn helper() -> u32 {\n    let x = 1;\n    x + 1\n}\n\n",
    "".join(
        f"impl Index<{t}> for S {{\n    fn index(&self) -> u32 {{\n        {n}\n    }}\n}}\n\n"
        for n, t in enumerate("ABCD")
    ),
    "S.index",
    "//",
)
JAVA = (
    "S.java",
    "class S {\n  static int helper() {\n    int x = 1;\n    return x + 1;\n  }\n\n",
    "".join(f"  int index({t} t) {{\n    return {n};\n  }}\n\n" for n, t in enumerate("ABCD"))
    + "}\n",
    "S.index",
    "//",
)
CASES = {"rust": RUST, "java": JAVA}


def checked(
    language: str,
    repo: GitRepo,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    edit: Callable[[str, str], str],
) -> tuple[int, list[dict[str, Any]]]:
    """`helper` and the third `index` as gold, the file edited by `edit(text, comment
    mark)`, checked in a plain copy: the exit code and each ID's verdict."""
    path, head, blocks, symbol, mark = CASES[language]
    repo.write(path, head + blocks)
    old = repo.commit("four namesakes")
    helper = "helper" if language == "rust" else "S.helper"
    gold = [chunk_id(repo, path, helper), chunk_id(repo, path, symbol, 2)]
    repo.write(path, edit(head + blocks, mark))
    repo.commit("edited")
    code, got = gold_check(repo, tmp_path, capsys, gold, old, root=plain_copy(repo, tmp_path))
    return code, [got[g] for g in gold]


# The third block's body, and the same body a line longer.
THIRD = {
    "rust": ("        2\n", "        let two = 2;\n        two\n"),
    "java": ("    return 2;\n", "    int two = 2;\n    return two;\n"),
}


@pytest.mark.parametrize("grown", [False, True])
@pytest.mark.parametrize("language", list(CASES))
def test_a_namesake_slid_onto_the_ids_lines_is_no_match_when_the_lines_above_moved(
    language: str, grown: bool, repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """One block's worth of lines above everything: each `index` now sits where the one
    before it was, and the third one's old lines hold the second. Where the shift of
    `helper` puts it, the one as long is the match; grown a line, none is, and a person
    chooses."""
    block = len(CASES[language][2].splitlines()) // 4
    body, longer = THIRD[language]

    def edit(text: str, mark: str) -> str:
        notes = "".join(f"{mark} note {i}\n" for i in range(block))
        return notes + (text.replace(body, longer) if grown else text)

    code, (helper, index) = checked(language, repo, tmp_path, capsys, edit)
    assert code == 1
    assert helper["kind"] == "moved"
    if grown:
        assert (index["kind"], index["new_chunk_id"]) == ("ambiguous", None)
    else:
        path, symbol = CASES[language][0], CASES[language][3]
        assert (index["kind"], index["new_chunk_id"]) == (
            "moved",
            chunk_id(repo, path, symbol, 2),
        )


@pytest.mark.parametrize("language", list(CASES))
def test_a_namesake_at_the_ids_lines_stands_when_nothing_above_moved(
    language: str, repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, got = checked(
        language, repo, tmp_path, capsys, lambda text, mark: text + f"{mark} a note below\n"
    )
    assert code == 0
    assert [g["kind"] for g in got] == ["ok", "ok"]


# The second overload two lines longer than the first: one line apart, the first could be
# the second reformatted (test_reanchor_plain_overloads).
OVERLOADED_HEADS = {
    "rust": "".join(
        f"impl Help<{t}> for S {{\n    fn helper(&self) -> u32 {{\n{body}    }}\n}}\n\n"
        for t, body in (
            ("A", "        1\n"),
            ("B", "        let x = 1;\n        let y = x;\n        y + 1\n"),
        )
    ),
    "java": "class S {\n"
    + "".join(
        f"  int helper({t} t) {{\n{body}  }}\n\n"
        for t, body in (
            ("A", "    return 1;\n"),
            ("B", "    int x = 1;\n    int y = x;\n    return y + 1;\n"),
        )
    ),
}


@pytest.mark.parametrize("language", list(CASES))
def test_an_overload_placed_by_its_length_above_says_the_lines_moved(
    language: str, repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """commons-lang 3.12: `StrBuilder.append` (its span's length unique among its
    overloads) moved 11 lines, and another `appendln` slid onto the old lines of the one
    below: that match is chance however early it is checked."""
    path, _, blocks, symbol, mark = CASES[language]
    head = OVERLOADED_HEADS[language]
    repo.write(path, head + blocks)
    old = repo.commit("overloads")
    # The `index` first: it is checked before the overload above it is placed.
    gold = [chunk_id(repo, path, symbol, 2), chunk_id(repo, path, "S.helper", 1)]
    block = len(blocks.splitlines()) // 4
    repo.write(path, "".join(f"{mark} note {i}\n" for i in range(block)) + head + blocks)
    repo.commit("notes above")
    code, got = gold_check(repo, tmp_path, capsys, gold, old, root=plain_copy(repo, tmp_path))
    assert code == 1
    assert got[gold[1]]["new_chunk_id"] == chunk_id(repo, path, "S.helper", 1)
    assert got[gold[1]]["kind"] == "moved"
    # The one `index` gold names: the shift of the overload above places it.
    assert (got[gold[0]]["kind"], got[gold[0]]["new_chunk_id"]) == (
        "moved",
        chunk_id(repo, path, symbol, 2),
    )


def python_accessors(grown: int, placed: str = "above") -> str:
    """`Spec.first` above the namesakes, or `Spec.last` below them (`placed`)."""
    return (
        "class Spec:\n"
        + ("    def first(self):\n        return 1\n\n" if placed == "above" else "")
        + "    @property\n    def prereleases(self):\n        '''Whether pre-releases count.\n"
        + "        More.\n" * grown
        + "        '''\n        return self._p\n\n"
        "    @prereleases.setter\n    def prereleases(self, value):\n"
        "        '''Set it.\n        '''\n        self._p = value\n"
        + ("\n    def last(self):\n        return 2\n" if placed == "below" else "")
    )


def java_accessors(grown: int, placed: str = "above") -> str:
    """`Spec.first` above the overloads, or `Spec.last` below them (`placed`)."""
    return (
        "class Spec {\n"
        + ("  int first() {\n    return 1;\n  }\n\n" if placed == "above" else "")
        + "  int value(A a) {\n    int x = 1;\n"
        + "    x += 1;\n" * grown
        + "    return x;\n  }\n\n"
        "  int value(B b) {\n    int y = 2;\n    return y;\n  }\n"
        + ("\n  int last() {\n    return 2;\n  }\n" if placed == "below" else "")
        + "}\n"
    )


# language: (file, the file with its first overload `grown` lines longer, the namesakes'
# symbol, the name above them, comment mark)
ACCESSORS: dict[str, tuple[str, Callable[..., str], str, str, str]] = {
    "python": ("spec.py", python_accessors, "Spec.prereleases", "Spec.first", "#"),
    "java": ("Spec.java", java_accessors, "Spec.value", "Spec.first", "//"),
}


@pytest.mark.parametrize("language", list(ACCESSORS))
def test_a_namesake_as_long_is_no_match_where_the_shift_above_puts_another(
    language: str, repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """packaging 22: the property getter grew two lines and moved with the code above it;
    its setter below kept the getter's old length. The span's length points at the setter,
    the shift of the method above at the getter: a person chooses."""
    path, text, symbol, above, mark = ACCESSORS[language]
    repo.write(path, text(0))
    old = repo.commit("accessors")
    gold = [chunk_id(repo, path, above), chunk_id(repo, path, symbol, 0)]
    repo.write(path, f"{mark} one\n{mark} two\n" + text(2))
    repo.commit("documented")
    code, got = gold_check(repo, tmp_path, capsys, gold, old, root=plain_copy(repo, tmp_path))
    assert code == 1
    assert got[gold[0]]["kind"] == "moved"
    assert got[gold[1]]["new_chunk_id"] is None
    assert got[gold[1]]["kind"] == "ambiguous"


@pytest.mark.parametrize("grown", [2, 8])
@pytest.mark.parametrize("language", list(ACCESSORS))
def test_with_nothing_placed_above_the_shift_below_says_whether_the_length_names_it(
    language: str, grown: int, repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """commons-collections 4.3: a constructor first in its class changed length, and the
    overload after it now has its old length. Nothing above is placed, so the method
    placed below says where their lines went: nearer the grown one (a person chooses),
    and nearest the one that kept its length (its length places it). It places their
    ends: the growth it carries is the grown one's own (8 lines put its start nearer the
    other)."""
    path, text, symbol, _, mark = ACCESSORS[language]
    repo.write(path, text(0, "below"))
    old = repo.commit("accessors")
    longer, kept = (chunk_id(repo, path, symbol, n) for n in (0, 1))
    gold = [chunk_id(repo, path, "Spec.last"), longer, kept]
    repo.write(path, f"{mark} one\n{mark} two\n" + text(grown, "below"))
    repo.commit("documented")
    code, got = gold_check(repo, tmp_path, capsys, gold, old, root=plain_copy(repo, tmp_path))
    assert code == 1
    assert got[gold[0]]["kind"] == "moved"
    assert (got[longer]["kind"], got[longer]["new_chunk_id"]) == ("ambiguous", None)
    assert (got[kept]["kind"], got[kept]["new_chunk_id"]) == (
        "moved",
        chunk_id(repo, path, symbol, 1),
    )
