"""A record's `revision` keeps up with the ordinary workflow: the hook's `check --fix` before
a commit cannot move it (RG014), so the next `gold check --fix` after the commit does
(RG013), as it does for any record whose gold all resolves at HEAD; a check without --fix
says so (RG017, info). Then the next refactor is followed from HEAD and repaired (RG009)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from evaltools.__main__ import main
from tests.commands.test_check import PYPROJECT
from tests.retrieval.gitrepo import GitRepo

SET = "evals/retrieval.jsonl"
MOD = "def helper():\n    return 1\n\n\ndef target(x):\n    y = x + 1\n    return y * 2\n"
TARGET = MOD.split("\n\n\n")[1]
# A file of its own work, so that git sees no rename when `target` moves into it.
OTHER = "".join(f"def other_{n}(a, b):\n    return a * {n} - b // {n + 1}\n\n\n" for n in range(6))


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> GitRepo:
    monkeypatch.setenv("EVALTOOLS_CACHE_DIR", str(tmp_path / "cache"))
    repo = GitRepo(tmp_path / "project")
    monkeypatch.chdir(repo.path)
    return repo


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, list[str]]:
    code = main([*args, "--no-cache"] if args[0] == "gold" else list(args))
    return code, capsys.readouterr().out.splitlines()


def record(gold: str, revision: str) -> str:
    fields = {"qid": "q1", "query": "double x plus one", "type": "intent", "gold": {gold: 3}}
    return json.dumps({**fields, "revision": revision}) + "\n"


def test_revision_follows_head_through_the_hook_and_the_ci_step(
    repo: GitRepo, capsys: pytest.CaptureFixture[str]
) -> None:
    repo.write("pyproject.toml", PYPROJECT)
    repo.write("src/mod.py", MOD)
    repo.write("src/other.py", OTHER)
    first = repo.commit("code")
    repo.write(SET, record("src/mod.py:5-7:target", first))
    repo.commit("the set, verified at the code's commit")

    # A module renamed and staged: the hook's `check --fix` rewrites the ID before the
    # commit exists, so no commit holds it yet and `revision` stays (RG014).
    repo.mv("src/mod.py", "src/ops.py")
    code, out = run(capsys, "check", "--fix")
    assert code == 0, out
    assert f"{SET}:1:1: RG014 [warning] `revision` of q1 left at {first}" in "\n".join(out)
    assert repo.read(SET) == record("src/ops.py:5-7:target", first)
    renamed = repo.commit("rename mod to ops")

    # After the commit: all of q1's gold is ok at HEAD; a check says --fix would move it, at
    # the `revision` value, without failing; `gold check --fix` (the CI step) moves it.
    column = record("src/ops.py:5-7:target", first).index(first)  # its opening quote
    code, out = run(capsys, "gold", "check")
    assert code == 0, out
    assert out[0].startswith(
        f"{SET}:1:{column}: RG017 [info] `revision` of q1 is {first[:12]}, behind HEAD "
        f"{renamed[:12]} where all its gold resolves: run `evaltools gold check --fix`"
    ), out
    assert repo.read(SET) == record("src/ops.py:5-7:target", first)
    code, out = run(capsys, "gold", "check", "--fix")
    assert code == 0, out
    assert out == [
        f"{SET}:1:1: RG013 [info] `revision` of q1 set to {renamed} (was {first}): every gold "
        "ID of the record resolves there",
        "1 gold IDs in 1 file: 1 ok; 1 note.",
    ]
    assert repo.read(SET) == record("src/ops.py:5-7:target", renamed)
    assert run(capsys, "gold", "check") == (0, ["1 gold IDs in 1 file: 1 ok."])
    current = repo.commit("gold revision to HEAD")  # what the CI step commits
    # That commit changed no code of q1's: its revision is as good as HEAD, and stays (a CI
    # step that committed every move would otherwise never settle).
    assert run(capsys, "gold", "check", "--fix") == (0, ["1 gold IDs in 1 file: 1 ok."])
    assert repo.read(SET) == record("src/ops.py:5-7:target", renamed)

    # The next refactor moves `target` into another module: followed from `revision`, its
    # body is found there (RG009), and --fix repairs it.
    repo.write("src/ops.py", MOD.split("\n\n\n", maxsplit=1)[0] + "\n")
    repo.write("src/other.py", OTHER + TARGET)
    moved = repo.commit("move target to other")
    line = OTHER.count("\n") + 1
    new_id = f"src/other.py:{line}-{line + 2}:target"
    code, out = run(capsys, "gold", "check")
    assert code == 1, out
    key = record("src/ops.py:5-7:target", current).index('"src/ops.py') + 1
    assert out[0].startswith(f"{SET}:1:{key}: RG009 [error] gold `src/ops.py:5-7:target` of q1")
    assert new_id in out[0]
    code, out = run(capsys, "gold", "check", "--fix")
    assert code == 0, out
    assert f"{SET}:1:1: RG013 [info] `revision` of q1 set to {moved} (was {renamed})" in out[0]
    assert repo.read(SET) == record(new_id, moved)


def test_revision_moves_only_where_head_holds_the_gold(
    repo: GitRepo, capsys: pytest.CaptureFixture[str]
) -> None:
    repo.write("src/mod.py", MOD)
    first = repo.commit("code")
    repo.write("src/mod.py", MOD + "\n\ndef later():\n    return 3\n")
    head = repo.commit("more")
    lines = [
        record("src/mod.py:5-7:target", first),  # ok at HEAD: moves
        record("src/mod.py:1-2:helper", head).replace("q1", "q2"),  # at HEAD already
        record("src/mod.py:1-2:gone", first).replace("q1", "q3"),  # unresolved: stays
        record("src/mod.py:5-7:target", first).replace('"q1"', '"q4", "splt": 1'),
    ]
    Path("set.jsonl").write_text("".join(lines))
    args = ("gold", "check", "set.jsonl", "--root", ".")
    # Not at --rev: a revision is never moved backwards, nor to a commit not checked out.
    code, out = run(capsys, *args, "--fix", "--rev", first)
    assert code == 1 and not [x for x in out if " RG013 " in x], out
    code, out = run(capsys, *args, "--fix")
    assert code == 1
    assert [x.split(" [")[0] for x in out if " RG013 " in x] == [
        "set.jsonl:1:1: RG013",
        "set.jsonl:4:1: RG013",
    ]
    assert Path("set.jsonl").read_text() == "".join(
        [lines[0].replace(first, head), lines[1], lines[2], lines[3].replace(first, head)]
    )
    # An uncommitted change to a record's file: HEAD does not hold what the work tree has.
    Path("set.jsonl").write_text("".join(lines))
    repo.write("src/mod.py", MOD + "\n\ndef extra():\n    return 2\n")  # later() is gone
    code, out = run(capsys, *args, "--fix")
    assert not [x for x in out if " RG013 " in x or " RG017 " in x], out
    assert Path("set.jsonl").read_text() == "".join(lines)


def test_a_cached_check_that_found_a_revision_behind_does_not_answer_for_fix(
    repo: GitRepo, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from evaltools.retrieval.gold import gold_check
    from evaltools.retrieval.gold.cache import result_key

    monkeypatch.setattr(result_key, "RACY_SECONDS", -3600)  # files just written are stored
    resolved: list[int] = []
    real = gold_check.check_gold

    def counted(*args: Any, **kwargs: Any) -> gold_check.GoldCheck:
        resolved.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(gold_check, "check_gold", counted)
    repo.write("src/mod.py", MOD)
    first = repo.commit("code")
    repo.write("src/mod.py", MOD + "\n\ndef later():\n    return 3\n")
    head = repo.commit("more")
    Path("set.jsonl").write_text(record("src/mod.py:5-7:target", first))
    args = ["gold", "check", "set.jsonl", "--root", "."]
    for _ in range(2):  # the second run is answered from the result cache
        assert main(args) == 0
        assert " RG017 [info] " in capsys.readouterr().out
    assert resolved == [1]
    assert main([*args, "--fix"]) == 0
    assert " RG013 [info] " in capsys.readouterr().out
    assert Path("set.jsonl").read_text() == record("src/mod.py:5-7:target", head)


def test_a_window_whose_lines_changed_keeps_its_revision(
    repo: GitRepo, capsys: pytest.CaptureFixture[str]
) -> None:
    # A window ID (`path:start-end`) names lines, not a definition: once code above it
    # shifts them, the same numbers hold other code. Moving `revision` to HEAD would say
    # they were verified there, and lose the commit where the window meant what it names.
    repo.write("pyproject.toml", PYPROJECT)
    repo.write("src/mod.py", MOD)
    first = repo.commit("code")
    repo.write(SET, record("src/mod.py:5-7", first))
    repo.commit("the set")
    repo.write("src/mod.py", "import os\nimport sys\n" + MOD)
    repo.commit("imports above the window")
    before = repo.read(SET)
    code, out = run(capsys, "gold", "check")
    assert (code, "RG017" in "\n".join(out)) == (0, False), out
    code, out = run(capsys, "gold", "check", "--fix")
    assert (code, "RG013" in "\n".join(out)) == (0, False), out
    assert repo.read(SET) == before


def test_a_window_whose_lines_are_unchanged_moves_its_revision(
    repo: GitRepo, capsys: pytest.CaptureFixture[str]
) -> None:
    repo.write("pyproject.toml", PYPROJECT)
    repo.write("src/mod.py", MOD)
    first = repo.commit("code")
    repo.write(SET, record("src/mod.py:5-7", first))
    repo.commit("the set")
    repo.write("src/mod.py", MOD + "\n\ndef later():\n    return 2\n")
    later = repo.commit("code below the window")
    code, out = run(capsys, "gold", "check", "--fix")
    assert code == 0, out
    assert out[0].startswith(f"{SET}:1:1: RG013 [info] `revision` of q1 set to {later}"), out
    assert repo.read(SET) == record("src/mod.py:5-7", later)


def test_a_rewritten_record_with_a_shifted_window_keeps_its_revision(
    repo: GitRepo, capsys: pytest.CaptureFixture[str]
) -> None:
    # `target` moves (RG001, rewritten); the window beside it in the record now holds other
    # lines: the rewrite is made, `revision` stays, and RG014 says which window and why.
    repo.write("pyproject.toml", PYPROJECT)
    repo.write("src/mod.py", MOD)
    first = repo.commit("code")
    gold = {"src/mod.py:5-7:target": 3, "src/mod.py:1-2": 1}
    line = {"qid": "q1", "query": "double x", "type": "intent", "gold": gold, "revision": first}
    repo.write(SET, json.dumps(line) + "\n")
    repo.commit("the set")
    repo.write("src/mod.py", "import os\nimport sys\n" + MOD)
    head = repo.commit("imports above")
    code, out = run(capsys, "gold", "check", "--fix")
    assert code == 0, out  # every stale ID was rewritten
    text = "\n".join(out)
    assert (
        f"{SET}:1:1: RG014 [warning] `revision` of q1 left at {first} although its gold was "
        f"rewritten: the lines of window `src/mod.py:1-2` are not at {head[:12]} what they "
        "were at `revision`"
    ) in text, text
    assert json.loads(repo.read(SET))["revision"] == first
    assert "src/mod.py:7-9:target" in repo.read(SET)


BROKEN = {  # where `import os` is typed at column 0, and what Python says of it
    "def target(x):\n": "(line 6: expected an indented block after function definition on line 5)",
    "    y = x + 1\n": "(line 8: unexpected indent)",
}


@pytest.mark.parametrize("after", sorted(BROKEN))
@pytest.mark.parametrize("argv", [["check", "--fix"], ["gold", "check", "--fix"]])
def test_no_repair_into_python_that_does_not_parse(
    repo: GitRepo, capsys: pytest.CaptureFixture[str], argv: list[str], after: str
) -> None:
    # `import os` typed at column 0 under `def target(x):` leaves tree-sitter a one-line
    # `target` at 5-5; Python calls the file broken. The ID is stale, not rewritten there.
    repo.write("pyproject.toml", PYPROJECT)
    repo.write("src/mod.py", MOD)
    repo.write(SET, record("src/mod.py:5-7:target", repo.commit("code")))
    repo.commit("the set")
    repo.write("src/mod.py", MOD.replace(after, after + "import os\n"))
    before = repo.read(SET)
    code, out = run(capsys, *argv)
    text = "\n".join(out)
    assert code == 1, text
    assert (
        f"{SET}:1:" in text
        and "RG001 [error] gold `src/mod.py:5-7:target` of q1 is stale" in text
        and "not rewritten: src/mod.py does not parse as Python" in text
        and BROKEN[after] in text
    ), text
    assert "RG012" not in text
    assert repo.read(SET) == before
