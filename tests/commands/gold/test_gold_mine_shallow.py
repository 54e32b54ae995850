"""`gold mine` in a shallow clone: git shows the commit at the clone's edge without its
parents, so its diff would add every file and every definition would become its gold. Such
commits are skipped, with a warning; a clone that holds nothing else is refused."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from evaltools.__main__ import main
from tests.retrieval.mine_repo import HistoryRepo

HELPERS = (
    "def alpha():\n    return 1\n\n\ndef beta():\n    return 2\n\n\ndef gamma():\n    return 3\n"
)


@pytest.fixture
def origin(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> HistoryRepo:
    monkeypatch.chdir(tmp_path)
    repo = HistoryRepo(tmp_path / "origin")
    repo.write("m.py", HELPERS)
    repo.commit("add the three helper functions")
    repo.write("m.py", HELPERS.replace("return 3", "return 33"))
    repo.commit("make gamma return thirty three")
    repo.write("m.py", HELPERS.replace("return 3", "return 33").replace("return 2", "return 22"))
    repo.commit("make beta return twenty two")
    return repo


def _clone(origin: HistoryRepo, name: str, *args: str) -> Path:
    url = origin.path.resolve().as_uri()
    subprocess.run(
        ["git", "clone", "-q", "--no-local", *args, url, name], check=True, capture_output=True
    )
    return Path(name)


def _gold(path: Path) -> dict[str, dict[str, int]]:
    return {r["query"]: r["gold"] for r in map(json.loads, path.read_text().splitlines())}


def test_the_commit_at_a_shallow_edge_is_skipped_not_given_every_definition(
    origin: HistoryRepo, capsys: pytest.CaptureFixture[str]
) -> None:
    full = _clone(origin, "full")
    assert main(["gold", "mine", "--repo", str(full), "-o", "full.jsonl"]) == 0
    assert _gold(Path("full.jsonl")) == {
        "make beta return twenty two": {"m.py:5-6:beta": 2},
        "make gamma return thirty three": {"m.py:9-10:gamma": 2},
        "add the three helper functions": {
            "m.py:1-2:alpha": 2,
            "m.py:5-6:beta": 2,
            "m.py:9-10:gamma": 2,
        },
    }
    capsys.readouterr()

    shallow = _clone(origin, "shallow", "--depth", "2")
    assert main(["gold", "mine", "--repo", str(shallow), "-o", "shallow.jsonl"]) == 0
    captured = capsys.readouterr()
    assert captured.err == (
        "evaltools gold mine: warning: skipped 1 commit at the edge of the shallow clone "
        "shallow, whose parents git does not have, so what it changed is unknown: "
        "`git fetch --unshallow` fetches the full history to mine it too\n"
    )
    assert captured.out.splitlines()[0] == "Read 1 commits: 1 candidates, 0 dropped (none)."
    # the commit after the edge is mined as in the full clone, byte for byte
    assert (
        Path("shallow.jsonl").read_bytes()
        == Path("full.jsonl").read_bytes().splitlines(keepends=True)[0]
    )

    argv = ["gold", "mine", "--repo", str(shallow), "-o", "-", "--format", "json"]
    assert main(argv) == 0
    summary = json.loads(capsys.readouterr().err.partition("\n")[2])
    assert (summary["commits"], summary["shallow_skipped"]) == (1, 1)


def test_a_clone_of_depth_one_has_nothing_to_mine_and_is_refused(
    origin: HistoryRepo, capsys: pytest.CaptureFixture[str]
) -> None:
    shallow = _clone(origin, "shallow", "--depth", "1")
    assert main(["gold", "mine", "--repo", str(shallow), "-o", "o.jsonl"]) == 2
    assert capsys.readouterr().err == (
        "evaltools gold mine: error: --repo shallow is a shallow clone whose only commit in "
        "the range is the one at its edge, whose parents git does not have, so what it changed "
        "is unknown: fetch the full history (`git fetch --unshallow`; in CI, `fetch-depth: 0` "
        "for actions/checkout) and mine again\n"
    )
    assert not Path("o.jsonl").exists()
