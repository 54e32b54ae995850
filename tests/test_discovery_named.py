"""What `discover.discover` does with the paths as named: each file once, and a directory
named on the command line searched even when git ignores it (as ruff does)."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from evaltools.__main__ import main
from evaltools.discover import NothingFound, discover
from tests.test_discovery import EXACT, REFORMAT


def _seen(capsys: pytest.CaptureFixture[str], argv: list[str]) -> tuple[int, str, str]:
    code = main(argv)
    captured = capsys.readouterr()
    return code, captured.out, captured.err


@pytest.fixture
def two(in_tmp: Path) -> Path:
    """`d/x y.md` (it would be reformatted) and `d/flask--b.md` (exact)."""
    (in_tmp / "d").mkdir()
    (in_tmp / "d" / "x y.md").write_bytes(REFORMAT)
    (in_tmp / "d" / "flask--b.md").write_bytes(EXACT)
    (in_tmp / "sets").mkdir()
    (in_tmp / "sets" / "a.jsonl").write_text("{}\n")
    return in_tmp


NAMED_TWICE = ["d/x y.md", "d/x y.md", "d", "./d", "d/../d/x y.md"]


def test_a_file_named_twice_is_found_once_under_its_first_name(two: Path) -> None:
    found = discover([Path(p) for p in [*NAMED_TWICE, str(two / "d")]], (".md",))
    assert found == [Path("d/x y.md"), Path("d/flask--b.md")]


@pytest.mark.parametrize(
    ("command", "paths"),
    [
        (["lint"], NAMED_TWICE),
        (["check"], NAMED_TWICE),
        (["roundtrip"], NAMED_TWICE),
        (["validate"], ["sets", "sets/a.jsonl", "./sets"]),
        (["dupes"], NAMED_TWICE),
    ],
)
def test_every_command_takes_a_file_named_twice_once(
    two: Path, capsys: pytest.CaptureFixture[str], command: list[str], paths: list[str]
) -> None:
    code, out, err = _seen(capsys, [*command, *paths, "--format", "json"])
    assert code in (0, 1), err
    items = json.loads(out)
    if command == ["roundtrip"]:
        assert [item["path"] for item in items] == ["d/x y.md", "d/flask--b.md"]
    elif command == ["dupes"]:
        # A file named twice is no duplicate of itself.
        assert all(pair["a"]["path"] != pair["b"]["path"] for pair in items), items
    else:  # no finding repeated
        keys = [json.dumps(item, sort_keys=True) for item in items]
        assert items
        assert len(keys) == len(set(keys)), keys


def test_the_summary_counts_distinct_files(two: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = _seen(capsys, ["lint", *NAMED_TWICE])
    assert out.splitlines()[-1].endswith(" 2 files.")
    assert len(out.splitlines()) == len(set(out.splitlines()))


def test_convert_takes_a_file_named_twice_once(
    two: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = _seen(capsys, ["convert", *NAMED_TWICE, "--to", "jsonl", "-o", "out.jsonl"])
    assert code == 0, err
    assert len(Path("out.jsonl").read_text().splitlines()) == 2


# --- a directory git ignores, named ---------------------------------------------------------


def _git(cwd: Path, *args: str) -> None:
    subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True)


@pytest.fixture
def ignored(in_tmp: Path) -> Path:
    """A work tree whose `evals/.gitignore` ignores `gen/`; below it, `gen/.gitignore`
    ignores `skip.md`."""
    _git(in_tmp, "init", "-q")
    gen = in_tmp / "evals" / "gen"
    gen.mkdir(parents=True)
    (in_tmp / "evals" / ".gitignore").write_text("gen/\n")
    (gen / ".gitignore").write_text("skip.md\n")
    (gen / "flask--b.md").write_bytes(EXACT)
    (gen / "skip.md").write_bytes(REFORMAT)
    (gen / "x.jsonl").write_text("{}\n")
    return in_tmp


@pytest.mark.parametrize(
    ("command", "shown"),
    [
        (["lint"], "All checks passed: 1 file."),
        (["roundtrip"], "1 file: 1 exact."),
        (["validate"], "Found 4 errors in 1 file."),
    ],
)
def test_a_named_directory_git_ignores_is_searched(
    ignored: Path, capsys: pytest.CaptureFixture[str], command: list[str], shown: str
) -> None:
    # Its own rules still apply below it: skip.md stays out.
    _, out, err = _seen(capsys, [*command, "evals/gen"])
    assert (out.splitlines()[-1], err) == (shown, "")


def test_nothing_found_says_files_were_left_out_by_gitignore(
    ignored: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = _seen(capsys, ["lint", "evals"])
    assert code == 2
    assert err == (
        "evaltools lint: error: no example files (*.md) under evals/ (2 .md files ignored by "
        ".gitignore; pass --no-respect-gitignore to take them; 1 file with other suffixes; "
        "name .json/.jsonl files directly)\n"
    )
    with pytest.raises(NothingFound, match=r"\(1 \.jsonl file ignored by \.gitignore; "):
        discover([Path("evals")], (".jsonl",), what="eval sets")
