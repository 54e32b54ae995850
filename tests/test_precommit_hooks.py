"""The real `pre-commit` running our real hooks against a temporary git repository."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import CORPUS, hooks_repo, pre_commit_home
from tests.precommit_env import HookEnv, git

# The shared fixtures (defined in tests/conftest.py) for tests that import them from here.
__all__ = ["hooks_repo", "pre_commit_home", "project", "try_repo"]
PROJECT_FILES = (".pre-commit-config.yaml", "pyproject.toml")


def _git(cwd: Path, *args: str) -> None:
    git(cwd, *args)


@pytest.fixture
def project(tmp_path: Path) -> Path:
    _git(tmp_path, "init", "-q")
    (tmp_path / "evals").mkdir()
    return tmp_path


def try_repo(
    project: Path, hooks_repo: Path, home: Path, hook: str, *files: str, verbose: bool = False
) -> subprocess.CompletedProcess[str]:
    """What `pre-commit try-repo HOOKS_REPO HOOK` runs, through `pre-commit run` against the
    repository's HEAD, so that the environment built in `home` serves every call."""
    hooks = HookEnv.of(hooks_repo, home, project / ".git" / "hooks-under-test.yaml")
    return hooks.run(project, hook, *files, verbose=verbose)


def test_lint_hook_passes_a_good_example_and_fails_a_bad_one(
    project: Path, hooks_repo: Path, pre_commit_home: Path
) -> None:
    good = project / "evals" / "flask--add-import-statement.md"
    shutil.copyfile(CORPUS / good.name, good)
    result = try_repo(project, hooks_repo, pre_commit_home, "evaltools-lint", "evals/" + good.name)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "evaltools lint" in result.stdout and "Passed" in result.stdout

    bad = project / "evals" / "repo--broken.md"
    bad.write_text("## Cursor Position\n\n```a.py\nx\n```\n")
    result = try_repo(
        project, hooks_repo, pre_commit_home, "evaltools-lint", "evals/repo--broken.md"
    )
    assert result.returncode == 1
    assert "evals/repo--broken.md:1:1: EP001 [error]" in result.stdout
    assert "evals/repo--broken.md:3:1: EP201 [error]" in result.stdout


def test_roundtrip_fix_hook_rewrites_a_reformat_file(
    project: Path, hooks_repo: Path, pre_commit_home: Path
) -> None:
    name = "tree-sitter--if-let-to-match.md"
    target = project / "evals" / name
    shutil.copyfile(CORPUS / name, target)
    before = target.read_bytes()
    result = try_repo(
        project, hooks_repo, pre_commit_home, "evaltools-roundtrip-fix", f"evals/{name}"
    )
    assert result.returncode == 1
    assert "files were modified by this hook" in result.stdout
    after = target.read_bytes()
    assert after != before and after == before.replace(b"```\n\n\n```", b"```\n\n```")
    check = try_repo(project, hooks_repo, pre_commit_home, "evaltools-roundtrip", f"evals/{name}")
    assert check.returncode == 0, check.stdout


def test_markdown_hooks_only_see_markdown(
    project: Path, hooks_repo: Path, pre_commit_home: Path
) -> None:
    (project / "evals" / "set.jsonl").write_text("{not json\n")
    shutil.copyfile(
        CORPUS / "codex-acp--add-derive.md", project / "evals" / "codex-acp--add-derive.md"
    )
    result = try_repo(project, hooks_repo, pre_commit_home, "evaltools-lint")
    assert result.returncode == 0, result.stdout
    assert "set.jsonl" not in result.stdout


def test_jsonl_hooks_only_see_jsonl(project: Path, hooks_repo: Path, pre_commit_home: Path) -> None:
    (project / "evals" / "repo--broken.md").write_text("not an example\n")
    record = '{"qid": "q1", "query": "where is x", "type": "intent", "gold": {"a.py:1-2:f": 3}}'
    (project / "evals" / "set.jsonl").write_text(record + "\n")
    result = try_repo(project, hooks_repo, pre_commit_home, "evaltools-validate")
    assert result.returncode == 0, result.stdout
    assert "repo--broken.md" not in result.stdout
    (project / "evals" / "set.jsonl").write_text(record.replace(": 3}", ": 4}") + "\n")
    result = try_repo(project, hooks_repo, pre_commit_home, "evaltools-validate")
    assert result.returncode == 1
    assert "evals/set.jsonl:1:" in result.stdout and "grade 4 is out of range" in result.stdout


def _offline_env(home: Path) -> dict[str, str]:
    """This venv's evaltools first on PATH, and every network route closed."""
    bin_dir = str(Path(sys.executable).parent)
    dead = "http://127.0.0.1:9"
    return {
        **os.environ,
        "PATH": bin_dir + os.pathsep + os.environ.get("PATH", ""),
        "PRE_COMMIT_HOME": str(home),
        "PRE_COMMIT_COLOR": "never",
        "http_proxy": dead,
        "https_proxy": dead,
        "HTTP_PROXY": dead,
        "HTTPS_PROXY": dead,
        "PIP_NO_INDEX": "1",
        "GIT_ALLOW_PROTOCOL": "file",
    }


def _run_in(project: Path, env: dict[str, str], *argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        list(argv), cwd=project, env=env, capture_output=True, text=True, timeout=900, check=False
    )


def test_init_gives_a_setup_that_works_on_the_spot_offline(
    project: Path, tmp_path_factory: pytest.TempPathFactory
) -> None:
    env = _offline_env(tmp_path_factory.mktemp("pre-commit-home-init"))
    shutil.copyfile(CORPUS / "flask--add-import-statement.md", project / "evals" / "flask--a.md")
    (project / "src").mkdir()
    (project / "src" / "a.py").write_text("def f():\n    return 1\n")
    record = '{"qid": "q1", "query": "where is f", "type": "intent", "gold": {"src/a.py:1-2:f": 3}}'
    (project / "evals" / "retrieval.jsonl").write_text(record + "\n")
    evaltools = str(Path(sys.executable).parent / "evaltools")

    done = _run_in(project, env, evaltools, "init")
    assert (done.returncode, done.stderr) == (0, ""), done.stdout + done.stderr
    written = {name: (project / name).read_bytes() for name in PROJECT_FILES}
    again = _run_in(project, env, evaltools, "init")
    assert again.returncode == 0
    assert {name: (project / name).read_bytes() for name in PROJECT_FILES} == written

    _git(project, "add", "-A")
    result = _run_in(project, env, sys.executable, "-m", "pre_commit", "run", "--all-files")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "evaltools check" in result.stdout and "Passed" in result.stdout
    assert "deprecat" not in (result.stdout + result.stderr).lower()

    (project / "evals" / "repo--broken.md").write_text("## Cursor Position\n\n```a.py\nx\n```\n")
    _git(project, "add", "-A")
    result = _run_in(project, env, sys.executable, "-m", "pre_commit", "run", "--all-files")
    assert result.returncode == 1
    assert "evaltools check" in result.stdout and "Failed" in result.stdout
    assert "evals/repo--broken.md:1:1: EP001 [error]" in result.stdout


def test_a_hook_run_prints_findings_and_one_line_per_failing_batch(
    project: Path, hooks_repo: Path, pre_commit_home: Path
) -> None:
    """pre-commit splits the files into batches; a clean batch must say nothing."""
    clean = [p for p in sorted(CORPUS.glob("*.md")) if not p.name.startswith(("vscode", "zed"))]
    for source in clean:
        shutil.copyfile(source, project / "evals" / source.name)
    (project / "evals" / "repo--broken.md").write_text("## Cursor Position\n\n```a.py\nx\n```\n")
    names = [f"evals/{p.name}" for p in clean] + ["evals/repo--broken.md"]
    result = try_repo(project, hooks_repo, pre_commit_home, "evaltools-lint", *names, verbose=True)
    assert result.returncode == 1, result.stdout
    assert "All checks passed" not in result.stdout
    assert result.stdout.count("Found ") == 1, result.stdout
    assert "evals/repo--broken.md:3:1: EP201 [error]" in result.stdout


def test_the_check_hook_runs_whatever_the_commit_holds(
    project: Path, hooks_repo: Path, pre_commit_home: Path
) -> None:
    """It checks the configured set, which a change outside any `files:` pattern breaks."""
    (project / "pyproject.toml").write_text(
        '[tool.evaltools]\npaths = ["evals"]\n[tool.evaltools.retrieval]\n'
        'sets = ["evals/retrieval.jsonl"]\nroot = "."\n'
    )
    record = '{"qid": "q1", "query": "where is f", "type": "intent", "gold": {"src/a.py:1-2:f": 3}}'
    (project / "evals" / "retrieval.jsonl").write_text(record + "\n")
    # src/a.py is gone (a deleted path is never passed); only pyproject.toml is named.
    result = try_repo(project, hooks_repo, pre_commit_home, "evaltools-check", "pyproject.toml")
    assert result.returncode == 1, result.stdout + result.stderr
    assert "evals/retrieval.jsonl:1:" in result.stdout and " RG004 [error] " in result.stdout
