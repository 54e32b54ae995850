"""Two gold IDs of one revision, two definitions of one name in one file, and one left (click
8 dropped the Python 2 branch's `get_binary_stderr`, nom 7 one of two `#[cfg]` variants of
`double`): in a plain tree "the same name, once in the file" would send both there, one of
them falsely, so each is left to a person unless it is as long as that one (copies merged
are); with history the old bodies decide."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.retrieval.gitrepo import GitRepo
from tests.retrieval.gold.reanchor_repo import chunk_id, gold_check, plain_copy
from tests.retrieval.gold.test_reanchor_twins import repo

__all__ = ["repo"]  # the fixture

# The file with two variants of one name (the second the one kept, grown a line), the
# file with the second alone, the name.
CASES = {
    "python": (
        "compat.py",
        "import sys\n\nif sys.version_info < (3,):\n"
        "    def get_stream():\n        import codecs\n"
        '        return codecs.getwriter("utf-8")(sys.stderr)\n'
        "else:\n"
        "    def get_stream():\n        stream = sys.stderr.buffer\n        return stream\n",
        "import sys\n\n\ndef get_stream():\n    stream = sys.stderr.buffer\n"
        "    stream.flush()\n    return stream\n",
        "get_stream",
    ),
    "rust": (
        "number.rs",
        '#[cfg(feature = "lexical")]\npub fn double(input: &str) -> f64 {\n'
        '    lexical::parse_float_options(input, &OPTIONS).expect("number")\n}\n\n'
        '#[cfg(not(feature = "lexical"))]\npub fn double(input: &str) -> f64 {\n'
        "    let text = input.trim();\n    text.parse().unwrap()\n}\n",
        "pub fn double(input: &str) -> f64 {\n    let text = input.trim();\n"
        "    let value = text.parse();\n    value.unwrap()\n}\n",
        "double",
    ),
    "java": (
        "Streams.java",
        "class Streams {\n  static int size(String s) {\n"
        "    return s.codePointCount(0, s.length());\n  }\n\n"
        "  static int size(int[] a) {\n    int n = a.length;\n    return n;\n  }\n}\n",
        "class Streams {\n  static int size(int[] a) {\n    int n = a.length;\n"
        "    int m = n;\n    return m;\n  }\n}\n",
        "Streams.size",
    ),
}


def two_gold_one_left(repo: GitRepo) -> tuple[str, list[str], str]:
    """Both variants as gold at the old revision, the first gone: the revision, the IDs and
    the one definition left."""
    path, before, after, name = CASES[repo.path.name]
    repo.write(path, before)
    old = repo.commit("two variants")
    gold = [chunk_id(repo, path, name, 0), chunk_id(repo, path, name, 1)]
    repo.write(path, after)
    repo.commit("one left")
    return old, gold, chunk_id(repo, path, name)


@pytest.fixture
def language_repo(request: pytest.FixtureRequest, tmp_path: Path) -> GitRepo:
    return GitRepo(tmp_path / request.param)


@pytest.mark.parametrize("language_repo", list(CASES), indirect=True)
def test_two_ids_never_both_go_to_the_one_namesake_left_in_a_plain_tree(
    language_repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    old, gold, left = two_gold_one_left(language_repo)
    plain = plain_copy(language_repo, tmp_path)
    code, got = gold_check(language_repo, tmp_path, capsys, gold, old, "--fix", root=plain)
    assert code == 1
    for cid in gold:
        assert (got[cid]["kind"], got[cid]["new_chunk_id"], got[cid]["fixed"]) == (
            "ambiguous",
            None,
            False,
        )
        assert got[cid]["candidates"][0] == left
        assert "2 gold IDs of this revision at different lines" in got[cid]["message"]
    written = (tmp_path / "set.jsonl").read_text(encoding="utf-8")
    assert all(cid in written for cid in gold) and left not in written  # --fix left them


@pytest.mark.parametrize("language_repo", list(CASES), indirect=True)
def test_with_history_the_old_bodies_decide(
    language_repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The rule is for a plain tree: with git, the bodies placed each ID (variants alike
    both go to the one left, as click 8's two `get_text_stdout` did)."""
    old, gold, left = two_gold_one_left(language_repo)
    code, got = gold_check(language_repo, tmp_path, capsys, gold, old)
    assert code == 1
    assert (got[gold[1]]["kind"], got[gold[1]]["new_chunk_id"]) == ("moved", left)
    assert "gold IDs of this revision" not in (got[gold[0]]["message"] or "")


@pytest.mark.parametrize("language_repo", list(CASES), indirect=True)
def test_one_id_alone_still_goes_to_the_one_namesake_left(
    language_repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Only the set's own IDs say there were two: with one of them as gold, the name once
    in the file places it, as before."""
    old, gold, left = two_gold_one_left(language_repo)
    plain = plain_copy(language_repo, tmp_path)
    code, got = gold_check(language_repo, tmp_path, capsys, gold[1:], old, root=plain)
    assert code == 1
    assert (got[gold[1]]["kind"], got[gold[1]]["new_chunk_id"]) == ("moved", left)


@pytest.mark.parametrize("history", [False, True])
def test_one_definition_spelled_with_and_without_its_decorator_is_no_collision(
    history: bool, repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Lines that overlap are one definition (a set that mixes conventions): both IDs go
    where it went."""
    text = "import os\n\n\n@cached\ndef foo(x):\n    y = x + 1\n    return y * 2\n"
    repo.write("a.py", text)
    old = repo.commit("decorated")
    gold = ["a.py:4-7:foo", "a.py:5-7:foo"]
    repo.write("a.py", "import sys\n" + text)
    repo.commit("a line above")
    root = None if history else plain_copy(repo, tmp_path)
    code, got = gold_check(repo, tmp_path, capsys, gold, old, root=root)
    assert code == 1
    assert [(got[g]["kind"], got[g]["new_chunk_id"]) for g in gold] == [
        ("moved", "a.py:5-8:foo")
    ] * 2


@pytest.mark.parametrize("language_repo", list(CASES), indirect=True)
def test_an_id_found_at_its_own_lines_holds_its_place(
    language_repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The second variant gone, the first where it was: the first is found as it is, and
    the second, sent there by its name, is left to a person."""
    path, before, _, name = CASES[language_repo.path.name]
    language_repo.write(path, before)
    old = language_repo.commit("two variants")
    gold = [chunk_id(language_repo, path, name, 0), chunk_id(language_repo, path, name, 1)]
    lines = (language_repo.path / path).read_text().splitlines(keepends=True)
    end = int(gold[0].split(":")[1].split("-")[1])  # the file up to the first variant's end
    kept = "".join(lines[:end]) + ("}\n" if language_repo.path.name == "java" else "")
    language_repo.write(path, kept)
    language_repo.commit("the second gone")
    plain = plain_copy(language_repo, tmp_path)
    code, got = gold_check(language_repo, tmp_path, capsys, gold, old, root=plain)
    assert code == 1
    assert got[gold[0]]["kind"] == "ok"
    assert (got[gold[1]]["kind"], got[gold[1]]["candidates"][:1]) == ("ambiguous", [gold[0]])


# A helper defined alike twice: (path, its text, the name).
COPIES = {
    "python": ("helpers.py", "def close(s):\n    s.flush()\n    s.shutdown()\n", "close"),
    "rust": (
        "helpers.rs",
        "fn close(s: &mut S) {\n    s.flush();\n    s.shutdown();\n}\n",
        "close",
    ),
    "typescript": (
        "helpers.ts",
        "function close(s: S) {\n  s.flush();\n  s.shutdown();\n}\n",
        "close",
    ),
}


@pytest.mark.parametrize("history", [False, True])
@pytest.mark.parametrize("language", list(COPIES))
def test_copies_merged_into_one_all_go_there(
    history: bool,
    language: str,
    repo: GitRepo,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """socket.io 4: a test helper `close` defined alike twice in one file, now once, lower:
    both IDs go there (their old bodies identical; without them, all three as long)."""
    path, helper, name = COPIES[language]
    repo.write(path, helper + "\n" + helper)
    old = repo.commit("two copies")
    gold = [chunk_id(repo, path, name, n) for n in (0, 1)]
    repo.write(path, "\n\n" + helper)
    repo.commit("one left")
    left = chunk_id(repo, path, name)
    root = None if history else plain_copy(repo, tmp_path)
    code, got = gold_check(repo, tmp_path, capsys, gold, old, root=root)
    assert code == 1
    assert [(got[g]["kind"], got[g]["new_chunk_id"]) for g in gold] == [("moved", left)] * 2


def test_in_a_plain_tree_the_one_as_long_keeps_its_place(
    repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Of two variants, one left as long as one of them was: that one goes there, the
    other is left to a person."""
    short = "def pick(x):\n    return x\n"
    long = "def pick(x):\n    y = x + 1\n    return y\n"
    repo.write("pick.py", short + "\n\n" + long)
    old = repo.commit("two variants")
    gold = [chunk_id(repo, "pick.py", "pick", n) for n in (0, 1)]
    repo.write("pick.py", "import os\n\n\n" + long)
    repo.commit("one left, lower")
    left = chunk_id(repo, "pick.py", "pick")
    code, got = gold_check(repo, tmp_path, capsys, gold, old, root=plain_copy(repo, tmp_path))
    assert code == 1
    assert (got[gold[1]]["kind"], got[gold[1]]["new_chunk_id"]) == ("moved", left)
    assert (got[gold[0]]["kind"], got[gold[0]]["candidates"][:1]) == ("ambiguous", [left])


@pytest.mark.parametrize("edited", [False, True])
@pytest.mark.parametrize("history", [False, True])
def test_java_constructors_as_long_are_never_copies(
    history: bool,
    edited: bool,
    repo: GitRepo,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """commons-beanutils 2.0 dropped all but one of a converter's constructors, each as long
    as the one kept (here, perhaps edited): no two constructors of a class share a
    signature, so two sent to one place are never copies merged, and a plain tree cannot
    tell which one stayed."""
    first = "  Box(int n) {\n    this(n, 0);\n  }\n"
    second = "  Box(String s) {\n    this(s.length(), 1);\n  }\n"
    repo.write("Box.java", "class Box {\n" + first + "\n" + second + "}\n")
    old = repo.commit("two constructors")
    gold = [chunk_id(repo, "Box.java", "Box.Box", n) for n in (0, 1)]
    kept = second.replace("1);", "2);") if edited else second
    repo.write("Box.java", "class Box {\n  int n;\n\n" + kept + "}\n")
    repo.commit("the first dropped, a field above the second")
    left = chunk_id(repo, "Box.java", "Box.Box")
    root = None if history else plain_copy(repo, tmp_path)
    code, got = gold_check(repo, tmp_path, capsys, gold, old, root=root)
    assert code == 1
    verdicts = [(got[g]["kind"], got[g]["new_chunk_id"]) for g in gold]
    if history:  # the old bodies say which one stayed
        assert verdicts[1] == ("moved", left)
        assert verdicts[0] == ("hollowed", None)
    else:
        assert verdicts == [("ambiguous", None)] * 2
        assert all(got[g]["candidates"][:1] == [left] for g in gold)


def test_java_methods_of_anonymous_classes_alike_are_copies(
    repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Review repro: two anonymous classes' `run` share a name and a signature, so two
    alike merged into one are copies, both of them there in a plain tree."""
    run = "      public void run() {\n        cache.clear();\n      }\n"
    both = f"    Runnable a = new Runnable() {{\n{run}    }};\n" * 2
    repo.write("Outer.java", "class Outer {\n  void go() {\n" + both + "  }\n}\n")
    old = repo.commit("two alike")
    gold = [chunk_id(repo, "Outer.java", "Outer.go.run", n) for n in (0, 1)]
    one = f"    Runnable a = new Runnable() {{\n{run}    }};\n"
    repo.write("Outer.java", "class Outer {\n  int n;\n\n  void go() {\n" + one + "  }\n}\n")
    repo.commit("one left")
    left = chunk_id(repo, "Outer.java", "Outer.go.run")
    code, got = gold_check(repo, tmp_path, capsys, gold, old, root=plain_copy(repo, tmp_path))
    assert code == 1
    assert [(got[g]["kind"], got[g]["new_chunk_id"]) for g in gold] == [("moved", left)] * 2
