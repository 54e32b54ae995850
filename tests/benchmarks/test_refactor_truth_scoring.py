"""Where the ground truth says an old definition went (benchmarks/refactor_truth/truth.py),
and how a `gold check` answer scores against it."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))

from refactor_truth.extract import Def
from refactor_truth.homes import renamed_files
from refactor_truth.truth import (
    Answer,
    Tree,
    Truth,
    outcome,
    score,
    totals,
    truth,
)


def body(*words: str, n: int = 1) -> tuple[str, ...]:
    """A body of distinct tokens: `n` copies of each word, numbered."""
    return tuple(f"{w}{i}" for w in words for i in range(n))


LONG = body("alpha", "beta", "gamma", "delta", n=10)


def d(path: str, name: str, start: int, end: int, tokens: tuple[str, ...] = LONG) -> Def:
    return Def(path, name, start, end, tokens)


def tree(old: list[Def], new: list[Def]) -> Tree:
    return Tree(new, {x.path for x in new}, old)


def test_the_same_name_in_the_same_file_is_unchanged_or_moved_in_file() -> None:
    old = d("a.go", "F", 3, 9)
    assert truth(old, tree([old], [d("a.go", "F", 3, 9)])) == Truth("unchanged", ("a.go:3-9:F",))
    moved = truth(old, tree([old], [d("a.go", "F", 5, 11)]))
    assert moved == Truth("moved in file", ("a.go:5-11:F",))


def test_a_file_renamed_by_its_names_keeps_a_rewritten_definition() -> None:
    old = [d("old.py", "A", 1, 5), d("old.py", "B", 7, 9, body("x", n=40))]
    new = [d("new.py", "A", 1, 5), d("new.py", "B", 7, 20, body("y", n=40))]
    assert renamed_files(old, new, {"new.py"}) == {"old.py": "new.py"}
    # B's body is all new: only the renamed file's same name says where it is
    assert truth(old[1], tree(old, new)) == Truth("file renamed", ("new.py:7-20:B",))


def test_a_file_whose_names_are_spread_over_two_new_files_is_not_renamed() -> None:
    old = [d("old.py", n, i, i) for i, n in enumerate("ABCD", 1)]
    new = [d("x.py", "A", 1, 1), d("x.py", "B", 2, 2), d("y.py", "C", 1, 1), d("y.py", "D", 2, 2)]
    assert renamed_files(old, new, {"x.py", "y.py"}) == {}


def test_a_body_elsewhere_is_a_move_a_rename_or_gone() -> None:
    old = d("a.go", "F", 1, 9)
    kept_file = [d("a.go", "G", 1, 9), d("b.go", "H", 1, 1, body("other", n=40))]
    assert truth(old, tree([old], kept_file)).category == "symbol renamed"
    moved = [d("a.go", "X", 1, 1, body("other", n=40)), d("b.go", "F", 4, 12)]
    assert truth(old, tree([old], moved)) == Truth("moved to another file", ("b.go:4-12:F",))
    assert truth(old, tree([old], [d("b.go", "G", 4, 12)])).category == "file renamed"
    assert truth(old, tree([old], [d("a.go", "G", 1, 1, body("other", n=40))])).category == "gone"


def test_a_target_that_was_there_before_is_not_the_new_home() -> None:
    """Issue 29, kind 1: a removed method's body is its sibling's, which was there all
    along; the old definition is gone (merged), and a rewrite onto it is false."""
    gone, sibling = d("a.go", "T.Close", 1, 9), d("a.go", "T.Stop", 11, 19)
    verdict = truth(gone, tree([gone, sibling], [d("a.go", "T.Stop", 1, 9)]))
    assert verdict.category == "gone"
    assert "merged into a.go:1-9:T.Stop" in verdict.why
    # the sibling's own old body was something else: it was replaced, the truth is unclear
    other = d("a.go", "T.Stop", 11, 19, body("zeta", n=40))
    assert truth(gone, tree([gone, other], [d("a.go", "T.Stop", 1, 9)])).category == "unclear"


def test_copies_and_hollowed_names_are_ambiguous() -> None:
    old = d("a.go", "F", 1, 9)
    copies = truth(old, tree([old], [d("b.go", "F", 1, 9), d("c.go", "F", 1, 9)]))
    assert copies == Truth("ambiguous", ("b.go:1-9:F", "c.go:1-9:F"), "copies")
    # Under other names, two copies are no link to either (the a2 truth audit): unclear.
    others = truth(old, tree([old], [d("b.go", "G", 1, 9), d("c.go", "H", 1, 9)]))
    assert others.category == "unclear"
    hollow = truth(old, tree([old], [d("a.go", "F", 1, 2, body("z", n=40)), d("b.go", "G", 1, 9)]))
    assert hollow == Truth("ambiguous", ("a.go:1-2:F", "b.go:1-9:G"), "hollowed")


def test_a_body_half_alike_with_no_name_to_confirm_it_is_unclear() -> None:
    old = d("a.go", "F", 1, 9)
    half = LONG[:24] + body("new", n=16)  # 0.6 alike
    assert truth(old, tree([old], [d("b.go", "G", 1, 9, half)])).category == "unclear"


def answer(status: str, new: str | None = None, *candidates: str) -> Answer:
    return Answer(status, status, new, candidates)


def test_outcomes() -> None:
    moved = Truth("moved in file", ("a.go:5-11:F",))
    assert outcome("a.go:3-9:F", moved, answer("moved", "a.go:5-11:F")) == "right"
    assert outcome("a.go:3-9:F", moved, answer("moved", "a.go:20-30:F")) == "false"
    assert outcome("a.go:3-9:F", moved, answer("missing_symbol", None, "a.go:5-11:F")) == (
        "unresolved"
    )
    assert outcome("a.go:3-9:F", moved, answer("ambiguous", None, "a.go:5-11:F")) == "ambiguous"
    unchanged = Truth("unchanged", ("a.go:3-9:F",))
    assert outcome("a.go:3-9:F", unchanged, answer("ok")) == "right"
    gone = Truth("gone", ())
    assert outcome("a.go:3-9:F", gone, answer("missing_symbol")) == "right"
    assert outcome("a.go:3-9:F", gone, answer("missing_symbol", "b.go:1-2:G")) == "false"
    both = Truth("ambiguous", ("b.go:1-9:G", "c.go:1-9:H"))
    assert outcome("a.go:1-9:F", both, answer("ambiguous", None, "c.go:1-9:H", "b.go:1-9:G")) == (
        "right"
    )
    assert outcome("a.go:1-9:F", both, answer("ambiguous", None, "c.go:1-9:H")) == "ambiguous"


def test_score_counts_re_anchorable_ids_and_false_ones_anywhere() -> None:
    truth_of = {
        "a:1-2:F": Truth("unchanged", ("a:1-2:F",)),
        "a:3-4:G": Truth("gone", ()),
        "a:5-6:H": Truth("symbol renamed", ("a:5-6:K",)),
    }
    answers = {
        "a:1-2:F": answer("ok"),
        "a:3-4:G": answer("missing_symbol", "a:9-9:Z"),
        "a:5-6:H": answer("missing_symbol", None, "a:5-6:K"),
    }
    table, misses = score(truth_of, answers)
    assert totals(table) == (2, 1, 1)
    assert table["gone"]["false"] == 1
    assert table["symbol renamed"]["unresolved"] == 1
    assert [m.split(":")[0] for m in misses] == ["false", "unresolved"]


def test_a_type_renamed_takes_its_members_along_whatever_their_bodies() -> None:
    """Issue 29, kind 2: `Subject` -> `Haystack` and subject.rs -> haystack.rs (ripgrep 14),
    as the members' names say: their bodies name the type, so few are alike."""
    old = [
        d("subject.rs", "Subject", 1, 30),
        d("subject.rs", "Subject.path", 2, 4, body("p", n=20)),
        d("subject.rs", "Subject.is_stdin", 5, 7, ("fn", "_", "(", ")", "{", "}")),
        d("subject.rs", "Subject.is_explicit", 8, 12, body("e", n=20)),
    ]
    new = [
        d("haystack.rs", "Haystack", 1, 30, body("rewritten", n=40)),
        d("haystack.rs", "Haystack.path", 2, 4, body("q", n=20)),  # names `Haystack` now
        d("haystack.rs", "Haystack.is_stdin", 5, 7, ("fn", "_", "(", ")", "{", "}")),
        d("haystack.rs", "Haystack.is_explicit", 8, 12, body("e", n=20)),
        d("walk.rs", "DirEntry.is_stdin", 5, 7, ("fn", "_", "(", ")", "{", "}")),
    ]
    t = Tree(new, {"haystack.rs", "walk.rs"}, old)
    assert t.renamed == {"subject.rs": "haystack.rs"}
    assert t.scopes == {("subject.rs", "Subject"): "Haystack"}
    got = {o.name: truth(o, t) for o in old}
    assert got["Subject"] == Truth("file renamed", ("haystack.rs:1-30:Haystack",))
    assert got["Subject.is_stdin"] == Truth("file renamed", ("haystack.rs:5-7:Haystack.is_stdin",))
    assert got["Subject.path"] == Truth("file renamed", ("haystack.rs:2-4:Haystack.path",))


def test_a_short_body_is_placed_by_its_name_only() -> None:
    decl = ("mod", "_", ";")
    old = d("main.rs", "config", 17, 17, decl)
    others = [d("lib.rs", "app", 1, 1, decl), d("lib.rs", "wtr", 2, 2, decl)]
    assert truth(old, tree([old], others)).category == "unclear"
    moved = [*others, d("main.rs", "main", 1, 9), d("flags/mod.rs", "config", 3, 3, decl)]
    assert truth(old, tree([old], moved)) == Truth(
        "moved to another file", ("flags/mod.rs:3-3:config",)
    )
    assert truth(old, tree([old], [d("lib.rs", "x", 1, 9)])).category == "gone"


def test_a_file_whose_names_are_nearly_as_much_in_another_new_file_is_not_renamed() -> None:
    """zod 3.25: the old tests went to v3/ and a port of them to v4/ beside it."""
    old = [d("old.ts", n, i, i, body(n.lower(), n=20)) for i, n in enumerate("ABCDEFGHIJ", 1)]
    v3 = [d("v3.ts", n, i, i, body(n.lower(), n=20)) for i, n in enumerate("ABCDEFGHIJ", 1)]
    v4 = [d("v4.ts", n, i, i, body("x" + n, n=20)) for i, n in enumerate("ABCDEFGHI", 1)]
    assert renamed_files(old, v3 + v4, {"v3.ts", "v4.ts"}) == {}
    assert renamed_files(old, v3 + v4[:8], {"v3.ts", "v4.ts"}) == {"old.ts": "v3.ts"}


def test_of_two_new_files_of_the_same_names_the_one_of_its_base_name_is_the_rename() -> None:
    """memchr 2.4: x86/avx.rs and x86/sse2.rs, of the same three names, moved together."""
    names = ("memchr", "memchr2", "memchr3")
    old = [
        d(f"x86/{f}.rs", n, i, i, body(f + n, n=20))
        for f in ("avx", "sse2")
        for i, n in enumerate(names)
    ]
    new = [
        d(f"m/x86/{f}.rs", n, i, i, body(f + n, n=20))
        for f in ("avx", "sse2")
        for i, n in enumerate(names)
    ]
    # and memmem's own avx.rs beside them: the base name is not unique to the moved file
    new.append(d("memmem/x86/avx.rs", "Forward", 1, 9, body("forward", n=20)))
    paths = {"m/x86/avx.rs", "m/x86/sse2.rs", "memmem/x86/avx.rs"}
    assert renamed_files(old, new, paths) == {
        "x86/avx.rs": "m/x86/avx.rs",
        "x86/sse2.rs": "m/x86/sse2.rs",
    }
    # two new files of its base name (zod's tests ported beside their copies): no rename
    twins = [
        d(f"{v}/x86/avx.rs", n, i, i, body("avx" + n, n=20))
        for v in ("a", "b")
        for i, n in enumerate(names)
    ]
    assert renamed_files(old[:3], twins, {"a/x86/avx.rs", "b/x86/avx.rs"}) == {}
