"""`gold check` on a tree a hostile or careless hand shaped: link loops below the root, a
repository git refuses to read. The verdicts never depend on whether the cache is on."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from evaltools.__main__ import main
from tests.retrieval.gitrepo import GitRepo

NOBODY = 65534
SET = '{"qid": "q1", "query": "x", "type": "identifier", "gold": {"src/a.py:1-2:f": 3}}\n'


@pytest.fixture
def looped(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> GitRepo:
    repo = GitRepo(tmp_path / "code")
    repo.write("src/a.py", "def f():\n    return 1\n")
    (repo.path / "sub").mkdir()
    (repo.path / "sub" / "self").symlink_to("self")  # a link to itself
    (repo.path / "sub" / "up").symlink_to(".")  # a folder link that would walk for ever
    repo.commit()
    (tmp_path / "set.jsonl").write_text(SET)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("EVALTOOLS_CACHE_DIR", str(tmp_path / "cache"))
    return repo


@pytest.mark.parametrize("cache", [[], ["--no-cache"]], ids=["cached", "uncached"])
def test_a_link_loop_below_the_root_is_no_crash(
    looped: GitRepo, capsys: pytest.CaptureFixture[str], cache: list[str]
) -> None:
    for _run in range(2):  # a miss, then (cached) a hit
        assert main(["gold", "check", "set.jsonl", "--root", "code", *cache]) == 0
        out, err = capsys.readouterr()
        assert out == "1 gold IDs in 1 file: 1 ok.\n"
        assert "internal error" not in err


def test_a_gold_id_naming_a_link_loop_is_a_finding(
    looped: GitRepo, capsys: pytest.CaptureFixture[str]
) -> None:
    Path("set.jsonl").write_text(SET.replace("src/a.py", "sub/self"))
    assert main(["gold", "check", "set.jsonl", "--root", "code"]) == 1
    out = capsys.readouterr().out
    assert out.startswith("set.jsonl:1:")
    assert "RG003" in out and "Too many levels of symbolic links" in out


@pytest.mark.parametrize("cache", [[], ["--no-cache"]], ids=["cached", "uncached"])
def test_a_repository_git_refuses_is_a_usage_error_not_other_verdicts(
    looped: GitRepo, capsys: pytest.CaptureFixture[str], cache: list[str]
) -> None:
    # Another user's repository: git refuses it ("dubious ownership"), and without its
    # history every renamed file would read as missing.
    for path in [looped.path, *looped.path.rglob("*")]:
        os.chown(path, NOBODY, NOBODY, follow_symlinks=False)
    assert main(["gold", "check", "set.jsonl", "--root", "code", *cache]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.endswith(
        f"error: git refuses to read the repository holding {looped.path}: it belongs to "
        'another user ("dubious ownership"), so no verdict could be trusted; run as its '
        "owner, or trust it with `git config --global --add safe.directory PATH`\n"
    )
