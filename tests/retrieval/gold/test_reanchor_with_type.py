"""A type moved to a file of its own while git renamed its old file to another (indicatif
0.17: `progress.rs` became `state.rs`, `MultiProgress` went to a new `multi.rs`, taking a
few of the old file's many definitions): a member rewritten, and the type's own
declaration rewritten, follow the members that kept their code there."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.retrieval.gitrepo import GitRepo
from tests.retrieval.gold.reanchor_repo import chunk_id, gold_check
from tests.retrieval.gold.test_reanchor_twins import repo

__all__ = ["repo"]  # the fixture

MEMBERS = ("alpha", "beta", "gamma", "delta", "eps", "zeta", "eta", "theta")
FIELDS = ("draw", "lines", "width", "height") * 2
# The type that stays in the renamed file has this many methods: most of the old file, so
# that git pairs the two and the new file takes too small a share to be its successor.
STAYING = 20


@dataclass(frozen=True)
class Language:
    old: str
    renamed: str
    new: str
    type_then: str
    type_now: str
    member: str  # a member that keeps its code: {name}, {field}, {n}
    stub: str  # a member of the same name whose code is another: {name}
    redraw_then: str
    redraw_now: str
    members: str  # around the members: {members}
    staying: str  # the type that stays: {ticks}
    tick: str  # one of its methods: {i}
    namesake: str  # a type of the same name, standing in the new file at the revision


LANGUAGES = {
    "rust": Language(
        "src/progress.rs",
        "src/state.rs",
        "src/multi.rs",
        "pub struct Multi {\n    draw: u32,\n    lines: u32,\n    width: u32,\n"
        "    height: u32,\n    columns: Vec<String>,\n    label: Option<String>,\n}\n\n",
        "pub struct Multi {\n    shared: u32,\n}\n\n",
        "    pub fn {name}(&self) -> u32 {{\n        let total = self.{field} * {n} + {n}7;\n"
        "        let mixed = total.rotate_left({n}) ^ 0x{n}{n};\n        mixed.wrapping_sub({n})\n"
        "    }}\n",
        "    pub fn {name}(&mut self, by: u64) -> bool {{\n"
        "        let seen = self.flags.iter().filter(|f| **f > by).count();\n"
        "        seen > 3 && !self.flags.is_empty()\n    }}\n",
        "    pub fn redraw(&self) -> u32 {\n        let mut sum = 0;\n"
        "        for row in 0..self.height {\n            sum += row * self.width;\n"
        "            sum ^= self.lines;\n        }\n        sum + self.draw\n    }\n",
        "    pub fn redraw(&self) -> u32 {\n        self.shared\n    }\n",
        "impl Multi {{\n{members}}}\n",
        "pub struct Bar {{\n    pos: u64,\n}}\n\nimpl Bar {{\n{ticks}}}\n",
        "    pub fn tick_{i}(&mut self) {{\n        self.pos += {i};\n"
        "        self.pos %= 100{i};\n        self.pos ^= 0x{i}f;\n    }}\n",
        "pub struct Multi {\n    other: u8,\n}\n",
    ),
    "typescript": Language(
        "src/progress.ts",
        "src/state.ts",
        "src/multi.ts",
        "export class Multi {\n  draw = 0;\n  lines = 0;\n  width = 0;\n  height = 0;\n\n",
        "export class Multi {\n  shared = 0;\n\n",
        "  {name}(): number {{\n    const total = this.{field} * {n} + {n}7;\n"
        "    const mixed = (total << {n}) ^ 0x{n}{n};\n    return mixed - {n} * total;\n  }}\n",
        "  {name}(by: bigint): boolean {{\n    this.flag = by > 3n;\n    return this.flag;\n  }}\n",
        "  redraw(): number {\n    let sum = 0;\n"
        "    for (let row = 0; row < this.height; row++) {\n"
        "      sum += row * this.width;\n      sum ^= this.lines;\n    }\n"
        "    return sum + this.draw;\n  }\n",
        "  redraw(): number {\n    return this.shared;\n  }\n",
        "{members}}}\n",
        "export class Bar {{\n  pos = 0;\n\n{ticks}}}\n",
        "  tick{i}(): void {{\n    this.pos += {i};\n    this.pos %= 100{i};\n"
        "    this.pos ^= 0x{i}f;\n  }}\n",
        "export class Multi {\n  other = 1;\n}\n",
    ),
}


def _staying(lang: Language) -> str:
    return lang.staying.format(ticks="".join(lang.tick.format(i=i) for i in range(STAYING)))


# A member too short to tell (a getter): alike in any type with the field.
SHORT_MEMBER = "    pub fn {name}(&self) -> u32 {{\n        self.{field}\n    }}\n"


def _multi(
    lang: Language, declaration: str, redraw: str, kept: int, present: int, *, short: bool = False
) -> str:
    """The type with the first `present` of its members, the first `kept` of them with
    their code (`short`: Rust getters)."""
    member = SHORT_MEMBER if short else lang.member
    members = "".join(
        member.format(name=name, field=FIELDS[i], n=i + 2)
        if i < kept
        else lang.stub.format(name=name)
        for i, name in enumerate(MEMBERS[:present])
    )
    return declaration + lang.members.format(members=members + redraw)


def _refactor(
    repo: GitRepo,
    language: str,
    *,
    kept: int = 5,
    present: int = 8,
    total: int = 8,
    stood: bool = False,
    stayed: bool = False,
    twin: bool = False,
    renamed_in: bool = False,
    short: bool = False,
) -> tuple[str, list[str], str]:
    """`total`: the type's members then, besides the rewritten one; `stood`: a `Multi` in
    the new file at the revision; `stayed`: one in the renamed
    file now; `twin`: the kept members' code in another type too; `renamed_in`: the new
    `Multi` stood at the revision in a file git renamed to the new one."""
    lang = LANGUAGES[language]
    then_text = _multi(lang, lang.type_then, lang.redraw_then, total, total, short=short)
    repo.write(lang.old, f"{_staying(lang)}\n{then_text}")
    now = _multi(lang, lang.type_now, lang.redraw_now, kept, present, short=short)
    then = lang.new.replace("multi", "multi_then")
    if stood:
        repo.write(lang.new, lang.namesake)
    if renamed_in:  # all but the rewritten member
        repo.write(then, _multi(lang, lang.type_now, "", kept, present))
    revision = repo.commit("one file")
    gold = [chunk_id(repo, lang.old, "Multi"), chunk_id(repo, lang.old, "Multi.redraw")]
    repo.mv(lang.old, lang.renamed)
    repo.write(lang.renamed, _staying(lang) + (f"\n{lang.namesake}" if stayed else ""))
    if renamed_in:
        repo.mv(then, lang.new)
    repo.write(lang.new, now)
    if twin:
        repo.write(lang.new.replace("multi", "other"), now.replace("Multi", "Other"))
    repo.commit("the type in a file of its own")
    return revision, gold, lang.new


@pytest.mark.parametrize("language", list(LANGUAGES))
def test_a_rewritten_member_follows_the_members_that_moved(
    language: str, repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    revision, gold, new = _refactor(repo, language)
    code, got = gold_check(repo, tmp_path, capsys, gold, revision)
    assert code == 1
    assert got[gold[0]]["new_chunk_id"] == chunk_id(repo, new, "Multi")
    assert got[gold[1]]["new_chunk_id"] == chunk_id(repo, new, "Multi.redraw")
    assert got[gold[1]]["evidence"] == (
        f"name defined once in the tree, `Multi` moved to {new} with 5 of its 8 other members"
    )


def test_a_rewritten_type_declaration_follows_its_members(
    repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Rust's `struct` holds none of its methods: its fields rewritten, it is all new."""
    revision, gold, new = _refactor(repo, "rust")
    _, got = gold_check(repo, tmp_path, capsys, gold, revision)
    assert got[gold[0]]["evidence"] == (
        f"name defined once in the tree, `Multi` moved to {new} with 5 of its 9 other members"
    )


# Each: the refactor's difference from the one followed above.
REFUSED: dict[str, dict[str, int | bool]] = {
    # a type of two members, both there with their code: with the ID, fewer than four
    "too few members": {"kept": 2, "present": 2, "total": 2},
    # four with the ID, but fewer than half of the eight there kept their code
    "fewer than half there kept their code": {"kept": 3},
    # three there, all with their code, but five of the eight went nowhere
    "most members gone": {"kept": 3, "present": 3},
    # a `Multi` stood in the new file already: it is no move of the type
    "the type stood there": {"stood": True},
    # ... or in a file git renamed to it
    "the type stood in a file renamed to it": {"renamed_in": True},
    # a `Multi` stays in the renamed file: two types of the name, no move of one
    "the type stayed": {"stayed": True},
    # the kept members' code is in another type as well: which took them is unknown
    "the members' code in another type too": {"twin": True},
    # the members that kept their code are getters: alike in any type with those fields
    "the members too short to tell": {"short": True},
}


@pytest.mark.parametrize("case", list(REFUSED))
def test_without_the_type_moving_a_rewrite_is_not_followed(
    case: str, repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    revision, gold, _ = _refactor(repo, "rust", **REFUSED[case])  # type: ignore[arg-type]
    _, got = gold_check(repo, tmp_path, capsys, gold, revision)
    assert got[gold[1]]["new_chunk_id"] is None
