"""A type taken out of the module or class that held it keeps its name (indicatif 0.17 moved
`mod rayon_support`'s `ProgressConsumer` from `iter.rs` to `rayon.rs`): its short methods
follow their siblings to it, though another type taken out beside it (`ProgressFolder`)
has as many of its method names; only a type of the same name could be what the new type
renamed."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.retrieval.gitrepo import GitRepo
from tests.retrieval.gold.reanchor_repo import chunk_id, gold_check
from tests.retrieval.gold.test_reanchor_twins import repo

__all__ = ["repo"]  # the fixture

# Two types alike (`split_at`, `full`, `size`), each with a method of its own (`left`,
# `complete`), and their bodies short: per language, a method's text.
METHOD = {
    "rust": "        fn {name}(&self) -> u8 {{\n            self.base.{call}()\n        }}\n",
    "java": "    int {name}() {{\n      return base.{call}();\n    }}\n",
    "python": "        def {name}(self):\n            return self.base.{call}()\n",
}
OWN = {"Consumer": "left", "Folder": "complete"}


def _methods(language: str, owner: str) -> str:
    names = ["split_at", "full", "size", OWN[owner]]
    calls = {"split_at": f"split_{owner.lower()}"}
    return "".join(METHOD[language].format(name=n, call=calls.get(n, n)) for n in names)


def _nested(language: str, owner: str) -> str:
    methods = _methods(language, owner)
    if language == "rust":
        struct = f"    pub struct {owner} {{\n        base: u8,\n    }}\n\n"
        return f"{struct}    impl {owner} {{\n{methods}    }}\n"
    if language == "java":
        return f"  static class {owner} {{\n    Base base;\n\n{methods}  }}\n"
    return f"    class {owner}:\n{methods}"


def _dedent(text: str, by: int) -> str:
    return "".join(line[by:] if line.strip() else line for line in text.splitlines(True))


# Per language: the old file and its text, and where each type goes (Rust: one file).
def _layout(language: str) -> tuple[str, str, str, dict[str, str]]:
    """The old file, its text then, its text now, and the new files' texts."""
    both = _nested(language, "Consumer") + "\n" + _nested(language, "Folder")
    if language == "rust":
        keep = "pub fn keep() -> u8 {\n    1\n}\n"
        return (
            "src/iter.rs",
            f"{keep}\nmod support {{\n{both}}}\n",
            keep,
            {"src/support.rs": _dedent(both, 4)},
        )
    if language == "java":
        keep = "package org.ex;\n\npublic class Pipeline {\n"
        keep += "  static int keep() {\n    return 1;\n  }\n"
        files = {
            f"src/main/java/org/ex/{o}.java": "package org.ex;\n\n"
            + _dedent(_nested(language, o).replace("static class", "class"), 2)
            for o in OWN
        }
        return "src/main/java/org/ex/Pipeline.java", f"{keep}\n{both}}}\n", keep + "}\n", files
    keep = "def keep():\n    return 1\n"
    files = {f"pkg/{o.lower()}.py": _dedent(_nested(language, o), 4) for o in OWN}
    return "pkg/pipeline.py", f"{keep}\n\nclass Pipeline:\n{both}", keep, files


@pytest.mark.parametrize("language", list(METHOD))
def test_short_methods_follow_their_type_out_of_its_module(
    language: str, repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    old_path, before, after, files = _layout(language)
    outer = {"rust": "support", "java": "Pipeline", "python": "Pipeline"}[language]
    repo.write(old_path, before)
    old = repo.commit("two nested types")
    gold = [chunk_id(repo, old_path, f"{outer}.Consumer.left")]
    repo.write(old_path, after)
    for path, text in files.items():
        repo.write(path, text)
    repo.commit("the types in files of their own")
    home = next(p for p in files if "onsumer" in p or p.endswith("support.rs"))
    code, got = gold_check(repo, tmp_path, capsys, gold, old)
    assert code == 1
    assert got[gold[0]]["new_chunk_id"] == chunk_id(repo, home, "Consumer.left")
    assert got[gold[0]]["evidence"].startswith(
        f"moved from `{outer}.Consumer` to `Consumer` in {home} with"
    )


# The other type of `mod two` beside `mod one`'s `Consumer`: one `Consumer` is left, and
# it may be either's (a person chooses).
RIVALS = {
    # another `Consumer` with those names
    "namesake": ("Consumer", "fn left", "fn right"),
    # `Reader`, with the same method names: renamed as much as `one.Consumer` taken out
    "as many members": ("Consumer", "Consumer", "Reader"),
}


@pytest.mark.parametrize("rival", list(RIVALS))
def test_another_type_taken_out_beside_it_is_still_a_rival(
    rival: str, repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    owner, old_text, new_text = RIVALS[rival]
    first = _nested("rust", owner)
    second = first.replace(old_text, new_text)
    keep = "pub fn keep() -> u8 {\n    1\n}\n"
    repo.write("src/iter.rs", f"{keep}\nmod one {{\n{first}}}\n\nmod two {{\n{second}}}\n")
    old = repo.commit("two nested types")
    gold = [chunk_id(repo, "src/iter.rs", "one.Consumer.left")]
    repo.write("src/iter.rs", keep)
    repo.write("src/support.rs", _dedent(first, 4))
    repo.commit("one of them in a file of its own")
    code, got = gold_check(repo, tmp_path, capsys, gold, old)
    assert code == 1
    assert got[gold[0]]["new_chunk_id"] is None
