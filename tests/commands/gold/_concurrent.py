"""Two `gold check` processes at once on one cache folder, cold and then warm."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from tests.conftest import REPO


def two_runs_at_once_agree(project: Path, expected: str) -> None:
    """Both runs of each round exit 1 (findings, no error) and print `expected`."""
    command = [sys.executable, "-m", "evaltools", "gold", "check", "set.jsonl"]
    command += ["--root", "code", "--format", "json"]
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    for _round in range(2):  # cold, then warm
        runs = [
            subprocess.Popen(command, cwd=project, env=env, stdout=subprocess.PIPE)
            for _ in range(2)
        ]
        try:
            outputs = [run.communicate(timeout=300)[0].decode() for run in runs]
        finally:
            for run in runs:
                run.kill()
        assert [run.returncode for run in runs] == [1, 1]
        assert outputs == [expected, expected]
