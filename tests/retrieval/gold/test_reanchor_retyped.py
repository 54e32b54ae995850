"""A type renamed while a new, smaller type took its old name in the same file (go-redis
9: `ringShards` became `ringSharding`, and a two-field `ringShards` was added): with
history its members, read at the revision, say where it went; without, the set's IDs of
its members can only doubt the match."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.retrieval.gitrepo import GitRepo
from tests.retrieval.gold.reanchor_repo import chunk_id, gold_check, plain_copy
from tests.retrieval.gold.test_reanchor_twins import repo

__all__ = ["repo"]  # the fixture

METHODS = ("Random", "Hash", "GetByKey")

GO_TYPE = (
    "type {name} struct {{\n\topt *Options\n\n\tmu     sync.RWMutex\n\thash   Hash\n"
    "\tshards map[string]*shard\n\tlist   []*shard\n\tclosed bool\n}}\n\n"
)
GO_METHOD = 'func (c *{name}) {method}() *shard {{\n\treturn c.list[len("{method}")]\n}}\n\n'
PY_METHOD = "    def {method}(self):\n        return self.shards[len('{method}')]\n\n"
PY_TYPE = "class {name}:\n    def __init__(self, options):\n        self.options = options\n\n"


def go(name: str, small: bool = False) -> str:
    text = GO_TYPE.format(name=name) + "".join(
        GO_METHOD.format(name=name, method=m) for m in METHODS
    )
    return text + ("type ringShards struct {\n\tm    map[string]*shard\n}\n" if small else "")


def python(name: str, small: bool = False) -> str:
    text = PY_TYPE.format(name=name) + "".join(PY_METHOD.format(method=m) for m in METHODS)
    return text + ("\nclass ringShards:\n    pass\n" if small else "")


LANGUAGES = {"go": ("ring.go", "package redis\n\n", go), "python": ("ring.py", "", python)}


@pytest.mark.parametrize("language", list(LANGUAGES))
def test_a_type_renamed_whose_name_a_new_type_took_follows_its_members(
    language: str, repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path, head, make = LANGUAGES[language]
    repo.write(path, head + make("ringShards"))
    old = repo.commit("ringShards")
    member = f"ringShards.{METHODS[0]}"
    gold = [chunk_id(repo, path, "ringShards"), chunk_id(repo, path, member)]
    repo.write(path, head + make("ringSharding", small=True))
    repo.commit("ringSharding, and a small ringShards")
    renamed = chunk_id(repo, path, "ringSharding")
    code, got = gold_check(repo, tmp_path, capsys, gold, old)
    assert code == 1
    if language == "python":  # a class's body holds its methods: the body says it first
        assert got[gold[0]]["kind"] == "hollowed"
        assert renamed in got[gold[0]]["candidates"]
    else:
        assert (got[gold[0]]["kind"], got[gold[0]]["new_chunk_id"]) == ("relocated", renamed)
        assert got[gold[0]]["evidence"] == (
            "`ringShards` renamed `ringSharding`: 3 of its 3 members are its"
        )
    code, got = gold_check(repo, tmp_path, capsys, gold, old, root=plain_copy(repo, tmp_path))
    assert code == 1
    assert (got[gold[0]]["kind"], got[gold[0]]["new_chunk_id"]) == ("ambiguous", None)
    assert got[gold[0]]["candidates"][:2] == [renamed, chunk_id(repo, path, "ringShards")]


@pytest.mark.parametrize("language", list(LANGUAGES))
def test_a_type_that_kept_its_members_keeps_its_name(
    language: str, repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path, head, make = LANGUAGES[language]
    repo.write(path, head + make("ringShards"))
    old = repo.commit("ringShards")
    gold = [chunk_id(repo, path, "ringShards")]
    comment = "# note\n" if language == "python" else "// note\n"
    repo.write(path, comment + head + make("ringShards", small=False))
    repo.commit("a line above")
    moved = chunk_id(repo, path, "ringShards")
    for root in (None, plain_copy(repo, tmp_path)):
        code, got = gold_check(repo, tmp_path, capsys, gold, old, root=root)
        assert code == 1
        assert (got[gold[0]]["kind"], got[gold[0]]["new_chunk_id"]) == ("moved", moved)
