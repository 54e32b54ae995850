"""A wrapper's content taken out into another file, in a plain tree (indicatif 0.17: `mod
rayon_support` of `iter.rs` became `rayon.rs`): each of the set's `X.rest` of the old file
goes to the one `rest` of the tree when at least two of them land in the same file, the
wrapper gone from the old file."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.retrieval.gitrepo import GitRepo
from tests.retrieval.gold.reanchor_repo import chunk_id, gold_check, plain_copy
from tests.retrieval.gold.test_reanchor_twins import repo

__all__ = ["repo"]  # the fixture

# Per language: the old file, what it keeps, the wrapper around the type, the new file, and
# the type with its two methods ({indent}: the wrapper's).
LANGUAGES = {
    "rust": (
        "src/iter.rs",
        "pub fn keep() -> u8 {\n    1\n}\n",
        "mod rayon_support {{\n{body}}}\n",
        "src/rayon.rs",
        "{i}pub struct Consumer {{\n{i}    base: u8,\n{i}}}\n\n{i}impl Consumer {{\n"
        "{i}    pub fn split_at(&self) -> u8 {{\n{i}        self.base * 2\n{i}    }}\n"
        "{i}    pub fn full(&self) -> bool {{\n{i}        self.base > 9\n{i}    }}\n{i}}}\n",
    ),
    "typescript": (
        "src/iter.ts",
        "export function keep(): number {\n  return 1;\n}\n",
        "export namespace rayonSupport {{\n{body}}}\n",
        "src/rayon.ts",
        "{i}export class Consumer {{\n{i}  base = 1;\n\n"
        "{i}  splitAt(): number {{\n{i}    return this.base * 2;\n{i}  }}\n\n"
        "{i}  full(): boolean {{\n{i}    return this.base > 9;\n{i}  }}\n{i}}}\n",
    ),
}
WRAPPER = {"rust": "rayon_support", "typescript": "rayonSupport"}
METHODS = {"rust": ("split_at", "full"), "typescript": ("splitAt", "full")}


def _take_out(
    repo: GitRepo,
    language: str,
    *,
    wrapper_stays: bool = False,
    twice: bool = False,
    new_path: str | None = None,
    stood: bool = False,
) -> tuple[str, list[str], str]:
    """The type taken out of its wrapper into `new_path` (else the file named for it);
    `stood`: that file stood at the revision, and the set names a function of it."""
    old_path, keep, wrapper, named, type_text = LANGUAGES[language]
    new_path = new_path or named
    indent = "    " if language == "rust" else "  "
    nested = wrapper.format(body=type_text.format(i=indent))
    repo.write(old_path, f"{keep}\n{nested}")
    if stood:
        repo.write(new_path, keep.replace("keep", "other"))
    old = repo.commit("a type in a wrapper")
    gold = [
        chunk_id(repo, old_path, f"{WRAPPER[language]}.Consumer.{method}")
        for method in METHODS[language]
    ]
    if stood:
        gold.append(chunk_id(repo, new_path, "other"))
    stays = wrapper.format(body="") if wrapper_stays else ""
    repo.write(old_path, f"{keep}\n{stays}")
    repo.write(
        new_path, (keep.replace("keep", "other") + "\n" if stood else "") + type_text.format(i="")
    )
    if twice:
        repo.write(new_path.replace("rayon", "other"), type_text.format(i=""))
    repo.commit("the type in a file of its own")
    return old, gold, new_path


@pytest.mark.parametrize("language", list(LANGUAGES))
def test_members_taken_out_of_their_wrapper_follow_it(
    language: str, repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    old, gold, new_path = _take_out(repo, language)
    root = plain_copy(repo, tmp_path)
    code, got = gold_check(repo, tmp_path, capsys, gold, old, root=root)
    assert code == 1
    for cid, method in zip(gold, METHODS[language], strict=True):
        assert got[cid]["new_chunk_id"] == chunk_id(repo, new_path, f"Consumer.{method}")
        assert got[cid]["evidence"] == (
            f"taken out of {WRAPPER[language]} into {new_path} with 1 of its siblings"
        )


@pytest.mark.parametrize(
    "case",
    [
        "one of the set's IDs",
        "the wrapper stays",
        "the name in two files",
        "a file of another name",
        "the file stood then",
    ],
)
def test_without_siblings_landing_together_nothing_is_taken_out(
    case: str, repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    old, gold, _ = _take_out(
        repo,
        "rust",
        wrapper_stays=case == "the wrapper stays",
        twice=case == "the name in two files",
        new_path="src/pool.rs" if case == "a file of another name" else None,
        stood=case == "the file stood then",
    )
    asked = gold[:1] if case == "one of the set's IDs" else gold
    root = plain_copy(repo, tmp_path)
    _, got = gold_check(repo, tmp_path, capsys, asked, old, root=root)
    # The wrapper's IDs (not the stood file's function, which resolves as it was).
    wrapped = asked[:2]
    assert [got[cid]["new_chunk_id"] for cid in wrapped] == [None] * len(wrapped)


def test_a_classs_methods_become_functions_is_no_module_taken_out(
    repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`Cache.load` to a function `load` in `cache.py`: a class dissolved, whose methods'
    names alone, without a scope, are common ones (`load`, `save`)."""
    methods = "    def load(self, path):\n        return read(path)\n\n"
    methods += "    def save(self, path, data):\n        return write(path, data)\n"
    repo.write("pkg/store.py", f"def keep():\n    return 1\n\n\nclass Cache:\n{methods}")
    old = repo.commit("a class")
    gold = [chunk_id(repo, "pkg/store.py", f"Cache.{m}") for m in ("load", "save")]
    repo.write("pkg/store.py", "def keep():\n    return 1\n")
    functions = methods.replace("(self, ", "(").replace("\n    ", "\n").removeprefix("    ")
    repo.write("pkg/cache.py", functions)
    repo.commit("its methods as functions")
    _, got = gold_check(repo, tmp_path, capsys, gold, old, root=plain_copy(repo, tmp_path))
    assert [got[cid]["new_chunk_id"] for cid in gold] == [None, None]
