"""`gold mine --path-prefix` is checked with the chunk-ID grammar before anything is mined."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from evaltools.__main__ import main
from tests.retrieval.mine_repo import HistoryRepo


@pytest.fixture
def repo(tmp_path: Path) -> HistoryRepo:
    history = HistoryRepo(tmp_path / "repo")
    history.write("auth/session.py", "def kill_session(sid):\n    return sid\n")
    history.commit("Add the session killer for logout")
    return history


@pytest.mark.parametrize(
    ("prefix", "problem"),
    [
        ("../", 'has the path "../FILE", which has a `..` part'),
        ("/abs/", 'has the path "/abs/FILE", which is absolute (starts with `/`)'),
        ("a//", 'has the path "a//FILE", which has an empty part'),
        ("a\n/", 'has the path "a\\n/FILE", which holds the control character U+000A'),
        ("./", 'has the path "./FILE", which has a `.` part'),
        ("a\\b/", "which holds a `\\`"),
        (
            "demo_repo",
            'does not end with `/`: it names the folder the repository is in, e.g. "demo_repo/"',
        ),
    ],
)
def test_a_prefix_that_makes_invalid_ids_is_a_usage_error(
    repo: HistoryRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str], prefix: str, problem: str
) -> None:
    out = tmp_path / "candidates.jsonl"
    argv = ["gold", "mine", "--repo", str(repo.path), "-o", str(out), "--path-prefix", prefix]
    assert main(argv) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.startswith(
        f"evaltools gold mine: error: --path-prefix {json.dumps(prefix)} "
    )
    assert problem in captured.err
    assert captured.err.count("\n") == 1
    assert not out.exists()


def test_a_valid_prefix_writes_ids_that_validate_accepts(
    repo: HistoryRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "candidates.jsonl"
    argv = ["gold", "mine", "--repo", str(repo.path), "-o", str(out)]
    assert main([*argv, "--path-prefix", "work/demo_repo/"]) == 0
    records = [json.loads(line) for line in out.read_text().splitlines()]
    assert [list(r["gold"]) for r in records] == [
        ["work/demo_repo/auth/session.py:1-2:kill_session"]
    ]
    capsys.readouterr()
    # Drafts (RV013) until reviewed; their chunk IDs are valid as written.
    assert main(["validate", str(out), "--ignore", "RV013"]) == 0, capsys.readouterr().out
