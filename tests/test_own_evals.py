"""The README's first command: `evaltools check evals/` on this repository passes."""

from __future__ import annotations

from pathlib import Path

import pytest

from evaltools.__main__ import main
from tests.conftest import REPO


def test_the_readmes_first_command_passes_on_the_repositorys_own_evals(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # A move of code the gold points into (atomic.py into a package) must bring its gold
    # along in the same change, or a new user's first command fails.
    monkeypatch.chdir(REPO)
    monkeypatch.setenv("EVALTOOLS_CACHE_DIR", str(tmp_path / "cache"))
    code = main(["check", "evals/"])
    out = capsys.readouterr().out
    assert code == 0, out
    assert out.startswith("All checks passed: ")
