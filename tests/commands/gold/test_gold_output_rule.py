"""`gold mine -o` and `gold sample -o`: the output's refusal and its write share the atomic
writer's one rule (`atomic.preflight`, then the write with the same expectation). A file
that appears while the command works is refused at the rename, never replaced; an output
the write would refuse is refused before the work, not after it."""

from __future__ import annotations

import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from evaltools.__main__ import main
from tests.commands.gold.test_gold_discipline import _eval_set
from tests.retrieval.mine_repo import build_acceptance_repo

THEIRS = b"someone else's file\n"


def another_process_creates(out: Path) -> None:
    subprocess.run(["sh", "-c", f'printf %s "$1" > {out}', "sh", THEIRS.decode()], check=True)


def counting(real: Callable[..., Any], calls: list[int], then: Callable[[], None]) -> Any:
    def wrapped(*args: Any, **kwargs: Any) -> Any:
        calls.append(1)
        then()
        return real(*args, **kwargs)

    return wrapped


@pytest.fixture
def mine_argv(tmp_path: Path) -> list[str]:
    repo, _ = build_acceptance_repo(tmp_path / "repo")
    return ["gold", "mine", "--repo", str(repo.path), "-o", str(tmp_path / "out.jsonl")]


def test_mine_never_replaces_an_output_created_while_it_mined(
    tmp_path: Path,
    mine_argv: list[str],
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    from evaltools.retrieval.gold.discipline import mine as mining

    out, calls = tmp_path / "out.jsonl", list[int]()
    monkeypatch.setattr(
        mining, "mine", counting(mining.mine, calls, lambda: another_process_creates(out))
    )
    assert main(mine_argv) == 1
    assert calls == [1]
    assert "out.jsonl:1:1: IO021 [error] file changed while evaltools was working on it" in (
        capsys.readouterr().out
    )
    assert out.read_bytes() == THEIRS
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.jsonl", "repo"]  # no temp


def test_sample_never_replaces_an_output_created_while_it_sampled(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from evaltools.retrieval.gold.discipline import annotate

    evals = _eval_set(tmp_path / "set.jsonl", 0, 20)
    out, calls = tmp_path / "sample.jsonl", list[int]()
    monkeypatch.setattr(
        annotate,
        "sample_pairs",
        counting(annotate.sample_pairs, calls, lambda: another_process_creates(out)),
    )
    assert main(["gold", "sample", str(evals), "--seed", "3", "-o", str(out)]) == 1
    assert calls == [1]
    assert "IO021 [error] file changed while evaltools was working on it" in (
        capsys.readouterr().out
    )
    assert out.read_bytes() == THEIRS
    assert sorted(p.name for p in tmp_path.iterdir()) == ["sample.jsonl", "set.jsonl"]


def test_a_read_only_output_is_refused_before_mining_not_after(
    tmp_path: Path,
    mine_argv: list[str],
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    from evaltools.retrieval.gold.discipline import mine as mining

    out, calls = tmp_path / "out.jsonl", list[int]()
    out.write_bytes(THEIRS)
    out.chmod(0o444)
    monkeypatch.setattr(mining, "mine", counting(mining.mine, calls, lambda: None))
    assert main([*mine_argv, "--force"]) == 1
    assert calls == []  # the refusal comes before the work, as the write's own finding
    assert "out.jsonl:1:1: IO020 [error] the file is read-only (mode 0444, no write " in (
        capsys.readouterr().out
    )
    assert out.read_bytes() == THEIRS


def test_a_read_only_sample_output_is_refused_before_sampling(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from evaltools.retrieval.gold.discipline import annotate

    evals = _eval_set(tmp_path / "set.jsonl", 0, 20)
    out, calls = tmp_path / "sample.jsonl", list[int]()
    out.write_bytes(THEIRS)
    out.chmod(0o444)
    monkeypatch.setattr(
        annotate, "sample_pairs", counting(annotate.sample_pairs, calls, lambda: None)
    )
    argv = ["gold", "sample", str(evals), "--seed", "3", "-o", str(out), "--force"]
    assert main(argv) == 1
    assert calls == []
    assert "sample.jsonl:1:1: IO020 [error] the file is read-only (mode 0444" in (
        capsys.readouterr().out
    )
    assert out.read_bytes() == THEIRS
