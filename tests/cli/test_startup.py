"""The lint hook's start-up: `evaltools lint` imports neither Typer nor what it brings."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

EXAMPLE = Path(__file__).parents[1] / "data" / "corpus" / "zed-evals"
HEAVY = ("typer", "click", "rich", "pydantic", "argparse", "shellingham")


def _imported(*argv: str) -> set[str]:
    done = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "evaltools", *argv],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode in (0, 1), done.stderr
    lines = [line for line in done.stderr.splitlines() if line.startswith("import time:")]
    assert lines, done.stderr
    return {line.rsplit("|", 1)[1].strip() for line in lines}


def test_lint_imports_no_cli_framework() -> None:
    example = sorted(EXAMPLE.glob("*.md"))[0]
    imported = _imported("lint", str(example))
    assert "evaltools.cli.parser" in imported
    assert not {m for m in imported if m.split(".")[0] in HEAVY}


def test_help_is_where_typer_is_imported() -> None:
    assert "typer" in _imported("lint", "--help")


def test_lint_imports_no_language_server_library() -> None:
    example = sorted(EXAMPLE.glob("*.md"))[0]
    imported = _imported("lint", str(example))
    assert not {m for m in imported if m.split(".")[0] in ("pygls", "lsprotocol", "cattrs")}
    assert "evaltools.server" not in imported
