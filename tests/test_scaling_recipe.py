"""The Dask recipe of docs/scaling.md, run as written (without Dask: its fallback loop),
gives what `evaltools lint` and `evaltools convert` give on the same shards."""

from __future__ import annotations

import re
import runpy
from pathlib import Path

import pytest

from evaltools.__main__ import main
from tests.conftest import CORPUS

RECIPE = Path(__file__).resolve().parent.parent / "docs" / "scaling.md"


def recipe_script(folder: Path) -> Path:
    blocks = re.findall(r"^```python\n(.*?)^```$", RECIPE.read_text(), re.M | re.S)
    assert len(blocks) == 1, "docs/scaling.md holds one runnable Python block"
    script = folder / "shards.py"
    script.write_text(blocks[0])
    return script


def make_shards(folder: Path, capsys: pytest.CaptureFixture[str]) -> list[str]:
    """The corpus as three JSONL shards, one with a line that is no example."""
    args = ["convert", str(CORPUS), "--to", "jsonl", "-o", "all.jsonl", "--allow-lossy"]
    assert main(args) == 0
    capsys.readouterr()
    lines = (folder / "all.jsonl").read_text().splitlines(keepends=True)
    shards = []
    for index in range(3):
        shard = folder / f"shard-{index}.jsonl"
        extra = ['{"name": 1}\n'] if index == 1 else []
        shard.write_text("".join(lines[index::3] + extra))
        shards.append(shard.name)
    return shards


def tree(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in folder.rglob("*.md")}


def test_the_recipe_matches_the_cli(in_tmp: Path, capsys: pytest.CaptureFixture[str]) -> None:
    shards = make_shards(in_tmp, capsys)
    run = runpy.run_path(str(recipe_script(in_tmp)))["run"]
    findings, written, problems = run(shards, "recipe")

    assert main(["lint", *shards]) == 1
    cli_lint = capsys.readouterr().out.splitlines()[:-1]  # the last line is the summary
    assert findings and sorted(findings) == sorted(cli_lint)

    cli_problems: list[str] = []
    for shard in shards:
        stem = shard.removesuffix(".jsonl")
        main(["convert", shard, "--to", "md", "-o", f"cli/{stem}", "--force", "--jobs", "1"])
        cli_problems += capsys.readouterr().out.splitlines()[:-1]  # then the count line
    assert written == len(tree(in_tmp / "cli")) > 0
    assert tree(in_tmp / "recipe") == tree(in_tmp / "cli")
    assert problems and problems == cli_problems
