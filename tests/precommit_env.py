"""One hook environment per test run: this working tree as a hook repository at one commit,
and pre-commit's environment for its hooks built once, in one PRE_COMMIT_HOME.

`pre-commit try-repo` builds the environment in a fresh temporary store on every call (a pip
install of evaltools and its dependencies each time); `pre-commit run` against a configuration
with `repo:` and `rev:` builds it once per store and reuses it."""

from __future__ import annotations

import fcntl
import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
GIT = ["git", "-c", "user.name=t", "-c", "user.email=t@example.com", "-c", "commit.gpgsign=false"]


def git(cwd: Path, *args: str) -> str:
    return subprocess.run([*GIT, *args], cwd=cwd, check=True, capture_output=True).stdout.decode()


@dataclass(frozen=True)
class HookEnv:
    repo: Path  # this working tree, committed once
    rev: str
    home: Path  # PRE_COMMIT_HOME, the environment built
    config: Path  # a configuration with every hook of `repo` at `rev`

    @classmethod
    def of(cls, repo: Path, home: Path, config: Path) -> HookEnv:
        """The hooks of the git repository `repo` at its HEAD, their configuration written
        to `config`."""
        rev = git(repo, "rev-parse", "HEAD").strip()
        manifest = (repo / ".pre-commit-hooks.yaml").read_text()
        ids = re.findall(r"^- id: (\S+)$", manifest, re.MULTILINE)
        hooks = "".join(f"  - id: {id_}\n" for id_ in ids)
        config.write_text(f"repos:\n- repo: {repo}\n  rev: {rev}\n  hooks:\n{hooks}")
        return cls(repo, rev, home, config)

    def environ(self) -> dict[str, str]:
        return {**os.environ, "PRE_COMMIT_HOME": str(self.home), "PRE_COMMIT_COLOR": "never"}

    def run(
        self, project: Path, hook: str, *files: str, verbose: bool = False
    ) -> subprocess.CompletedProcess[str]:
        """`pre-commit run HOOK` in the git repository `project`, everything staged first, on
        `files` (all files when none)."""
        git(project, "add", "-A")
        selection = ["--files", *files] if files else ["--all-files"]
        return subprocess.run(
            [
                *(sys.executable, "-m", "pre_commit", "run", "-c", str(self.config)),
                *(["--verbose"] if verbose else []),
                *(hook, *selection),
            ],
            cwd=project,
            env=self.environ(),
            capture_output=True,
            text=True,
            timeout=900,
            check=False,
        )


def shared_hook_env(factory: pytest.TempPathFactory) -> HookEnv:
    """Built by the first worker of the run that asks, under a lock; the others reuse it."""
    base = factory.getbasetemp()
    # pytest-xdist gives each worker a folder below the run's own.
    root = base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base
    place = root / "hook-env"
    built = place / "rev"
    with (root / "hook-env.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not built.exists():
            shutil.rmtree(place, ignore_errors=True)
            place.mkdir()
            built.write_text(_build(place))
    return HookEnv(place / "repo", built.read_text(), place / "home", place / "config.yaml")


def _build(place: Path) -> str:
    repo = place / "repo"
    _snapshot(repo)
    git(repo, "init", "-q")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "snapshot")
    env = HookEnv.of(repo, place / "home", place / "config.yaml")
    done = subprocess.run(
        [sys.executable, "-m", "pre_commit", "install-hooks", "-c", str(env.config)],
        cwd=repo,
        env=env.environ(),
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return env.rev


def _snapshot(target: Path) -> None:
    """The working tree's tracked and unignored files as they are now, edits included."""
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=ROOT,
        check=True,
        capture_output=True,
    ).stdout.split(b"\0")
    for raw in filter(None, listed):
        source = ROOT / raw.decode()
        copy = target / raw.decode()
        if source.is_symlink():
            copy.parent.mkdir(parents=True, exist_ok=True)
            copy.symlink_to(source.readlink())
        elif source.is_file():
            copy.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, copy)
