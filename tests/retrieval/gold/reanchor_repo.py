"""A real git repository with one refactor, checked through the command line: the gold IDs
are the old revision's definitions (named by the parser, as a set's author names them)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from evaltools.__main__ import main
from evaltools.retrieval.code.symbols import find_definitions
from tests.retrieval.gitrepo import GitRepo


def chunk_id(repo: GitRepo, path: str, name: str, nth: int = 0) -> str:
    """The chunk ID of `name` in `path` as the work tree has it now."""
    found = [d for d in find_definitions(path, (repo.path / path).read_bytes()) if d.name == name]
    definition = found[nth]
    return f"{path}:{definition.start}-{definition.end}:{name}"


def gold_check(
    repo: GitRepo,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    ids: list[str],
    revision: str | None,
    *extra: str,
    root: Path | None = None,
) -> tuple[int, dict[str, dict[str, Any]]]:
    """Exit code and the JSON object of each ID (one record each, with `revision`);
    `root`: the tree checked, when it is not the repository's (a copy without `.git`)."""
    records = [
        {"qid": f"q{i}", "query": "q", "gold": {cid: 3}}
        | ({"revision": revision} if revision else {})
        for i, cid in enumerate(ids)
    ]
    eval_set = tmp_path / "set.jsonl"
    eval_set.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    argv = ["gold", "check", str(eval_set), "--root", str(root or repo.path), "--no-cache"]
    code = main([*argv, "--format", "json", *extra])
    items = json.loads(capsys.readouterr().out)
    return code, {item["chunk_id"]: item for item in items if item["status"] is not None}


def plain_copy(repo: GitRepo, tmp_path: Path) -> Path:
    """The repository's work tree without its history (`.git`)."""
    target = tmp_path / "plain"
    shutil.copytree(repo.path, target, ignore=shutil.ignore_patterns(".git"))
    return target
