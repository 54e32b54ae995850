"""The path a new user walks: `evaltools init`, `pre-commit install`, `git commit`, with the
real pre-commit running the real hooks that init wrote, in real git repositories."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import CORPUS

ROOT = Path(__file__).resolve().parents[1]
SESSION = (
    "def kill_session(s):\n    s.close()\n    return True\n\n\ndef open_session():\n    return 1\n"
)
RECORDS = (
    '{"qid": "q1", "query": "end a session", "type": "intent", '
    '"gold": {"src/app/session.py:1-3:kill_session": 3}}\n'
    '{"qid": "q2", "query": "open_session", "type": "identifier", '
    '"gold": {"src/app/session.py:6-7:open_session": 3}}\n'
)


@pytest.fixture
def env(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """`evaltools` on PATH runs this tree's code; pre-commit and git are kept offline."""
    bin_dir = tmp_path_factory.mktemp("bin")
    wrapper = bin_dir / "evaltools"
    wrapper.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m evaltools "$@"\n')
    wrapper.chmod(0o755)
    dead = "http://127.0.0.1:9"
    return {
        **os.environ,
        "PATH": str(bin_dir) + os.pathsep + os.environ.get("PATH", ""),
        "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""),
        "PRE_COMMIT_HOME": str(tmp_path_factory.mktemp("pre-commit-home")),
        "PRE_COMMIT_COLOR": "never",
        "GIT_AUTHOR_NAME": "t",
        "GIT_AUTHOR_EMAIL": "t@example.com",
        "GIT_COMMITTER_NAME": "t",
        "GIT_COMMITTER_EMAIL": "t@example.com",
        "GIT_CONFIG_GLOBAL": os.devnull,
        "http_proxy": dead,
        "https_proxy": dead,
        "PIP_NO_INDEX": "1",
    }


def _run(cwd: Path, env: dict[str, str], *argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        list(argv), cwd=cwd, env=env, capture_output=True, text=True, timeout=900, check=False
    )


def _commit(repo: Path, env: dict[str, str], message: str) -> tuple[int, str]:
    """The exit code of `git commit`, and what its hooks said (git sends it to stderr)."""
    done = _run(repo, env, "git", "commit", "-q", "-m", message)
    return done.returncode, done.stdout + done.stderr


def _set_up(repo: Path, env: dict[str, str], cwd: Path, *hooks: str) -> None:
    """`evaltools init` run in `cwd`, `pre-commit install`, and a first commit that passes."""
    _run(repo, env, "git", "init", "-q")
    init = _run(cwd, env, "evaltools", "init", *(arg for hook in hooks for arg in ("--hook", hook)))
    assert init.returncode == 0, init.stdout + init.stderr
    installed = _run(repo, env, sys.executable, "-m", "pre_commit", "install")
    assert installed.returncode == 0, installed.stdout + installed.stderr
    _run(repo, env, "git", "add", "-A")
    code, said = _commit(repo, env, "first")
    assert code == 0, said


@pytest.fixture
def project(tmp_path: Path) -> Path:
    (tmp_path / "src" / "app").mkdir(parents=True)
    (tmp_path / "src" / "app" / "session.py").write_text(SESSION)
    (tmp_path / "evals" / "nested" / "deep").mkdir(parents=True)
    (tmp_path / "evals" / "retrieval.jsonl").write_text(RECORDS)
    shutil.copyfile(CORPUS / "flask--add-import-statement.md", tmp_path / "evals" / "flask--a.md")
    deep = tmp_path / "evals" / "nested" / "deep" / "codex-acp--add-derive.md"
    shutil.copyfile(CORPUS / "codex-acp--add-derive.md", deep)
    (tmp_path / "README.md").write_text("# a project\n")
    return tmp_path


def test_init_from_a_subdirectory_gives_a_gate_every_commit_goes_through(
    project: Path, env: dict[str, str]
) -> None:
    hooks = ("evaltools-check", "evaltools-lint", "evaltools-roundtrip")
    _set_up(project, env, project / "src" / "app", *hooks)
    assert sorted(p.name for p in (project / "src" / "app").iterdir()) == ["session.py"]

    # A one-line README is no example: the per-file hooks only see the configured paths.
    (project / "README.md").write_text("# a project, now described\n")
    _run(project, env, "git", "add", "README.md")
    code, said = _commit(project, env, "readme")
    assert code == 0, said

    # Deleting the code the gold points into: pre-commit passes no deleted path, so only a
    # hook that runs on every commit sees it.
    _run(project, env, "git", "rm", "-q", "src/app/session.py")
    code, said = _commit(project, env, "delete code")
    assert code == 1, said
    assert said.count(" RG004 [error] ") == 2, said


def test_a_misspelt_table_stops_the_commit_that_brings_it(
    project: Path, env: dict[str, str]
) -> None:
    _set_up(project, env, project, "evaltools-check", "evaltools-lint")
    # Only pyproject.toml changes: no eval file, nothing any `files:` pattern would take.
    with (project / "pyproject.toml").open("a") as handle:
        handle.write('\n[tool.evaltools.retreival]\nroot = "."\n')
    _run(project, env, "git", "add", "pyproject.toml")
    code, said = _commit(project, env, "typo")
    assert code == 1, said
    assert "unknown key 'retreival' in [tool.evaltools] (did you mean 'retrieval'?)" in said


def test_a_repository_without_evals_yet_commits_and_its_gate_says_why(
    tmp_path: Path, env: dict[str, str]
) -> None:
    (tmp_path / "README.md").write_text("# nothing to evaluate yet\n")
    _set_up(tmp_path, env, tmp_path)
    (tmp_path / "main.py").write_text("print(1)\n")
    _run(tmp_path, env, "git", "add", "main.py")
    code, said = _commit(tmp_path, env, "code")
    assert code == 0, said
    shown = _run(tmp_path, env, sys.executable, "-m", "pre_commit", "run", "--verbose")
    assert shown.returncode == 0, shown.stdout + shown.stderr
    assert "warning: nothing to check yet" in shown.stdout


def test_warnings_fail_the_commit_once_max_warnings_or_a_severity_says_so(
    project: Path, env: dict[str, str]
) -> None:
    """A branch name as `revision` (EP402) is a warning: the commit passes, and pre-commit
    shows nothing but "Passed". `max-warnings = 0` (init's commented line, uncommented) or
    `EP402 = "error"` in [tool.evaltools.severity] makes that commit fail at the line."""
    _set_up(project, env, project)
    example = project / "evals" / "flask--a.md"
    good = example.read_text()
    revision = next(line for line in good.splitlines() if line.startswith("revision = "))
    assert good.splitlines().index(revision) == 2  # line 3
    example.write_text(good.replace(revision, 'revision = "main"'))
    finding = (
        "evals/flask--a.md:3:1: EP402 [{}] revision 'main' is not a full 40-digit lower-case "
        "commit id: use `git rev-parse <rev>`"
    )

    _run(project, env, "git", "add", "-A")
    code, said = _commit(project, env, "a branch as revision")
    assert code == 0, said
    assert "EP402" not in said  # pre-commit hides a passing hook's output
    _run(project, env, "git", "reset", "-q", "--soft", "HEAD~1")  # the same mistake, again
    # `verbose: true` (README) shows the warnings of a hook that passes.
    hooks = project / ".pre-commit-config.yaml"
    plain = hooks.read_text()
    hooks.write_text(
        plain.replace("always_run: true\n", "always_run: true\n        verbose: true\n")
    )
    _run(project, env, "git", "add", "-A")
    code, said = _commit(project, env, "a branch as revision, shown")
    assert code == 0, said
    assert finding.format("warning") + "\n" in said
    _run(project, env, "git", "reset", "-q", "--soft", "HEAD~1")
    hooks.write_text(plain)

    pyproject = project / "pyproject.toml"
    configured = pyproject.read_text()
    assert "\n# max-warnings = 0\n" in configured  # as init wrote it
    pyproject.write_text(configured.replace("\n# max-warnings = 0\n", "\nmax-warnings = 0\n"))
    _run(project, env, "git", "add", "-A")
    code, said = _commit(project, env, "a branch as revision, max-warnings = 0")
    assert code == 1, said
    assert finding.format("warning") + "\n" in said
    assert (
        "Found 1 warning in 1 of 3 files (more than 0 warnings allowed by max-warnings).\n" in said
    )

    severity = '\n[tool.evaltools.severity]\nEP402 = "error"\n'
    pyproject.write_text(configured + severity)
    _run(project, env, "git", "add", "-A")
    code, said = _commit(project, env, "a branch as revision, EP402 an error")
    assert code == 1, said
    assert finding.format("error") + "\n" in said
    assert "Found 1 error in 1 of 3 files.\n" in said

    example.write_text(good)
    pyproject.write_text(
        configured.replace("\n# max-warnings = 0\n", "\nmax-warnings = 0\n") + severity
    )
    _run(project, env, "git", "add", "-A")
    code, said = _commit(project, env, "a commit id as revision, both set")
    assert code == 0, said
    assert example.read_text() == good
