from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import settings

from tests.precommit_env import HookEnv, shared_hook_env

# A gate must not pass or fail by luck: under CI, property tests draw the same examples on
# every run (a fixed seed per test), share no example database between concurrent suites,
# and have no per-example deadline on a loaded machine. Locally they stay random.
settings.register_profile("ci", derandomize=True, database=None, deadline=None, print_blob=True)
if os.environ.get("CI"):
    settings.load_profile("ci")

REPO = Path(__file__).resolve().parent.parent
DATA = REPO / "tests" / "data"
CORPUS = DATA / "corpus" / "zed-evals"
ALT_CORPUS = DATA / "corpus" / "zed-evals-alt-versions"


def corpus_files() -> list[Path]:
    return sorted(CORPUS.glob("*.md"))


def all_corpus_files() -> list[Path]:
    return corpus_files() + sorted(ALT_CORPUS.glob("*.md"))


def corpus_stem(path: Path) -> str:
    """Alternative versions carry `@<commit>` in their file names; the example stem is before it."""
    return path.name.removesuffix(".md").split("@")[0]


@pytest.fixture(scope="session")
def hook_env(tmp_path_factory: pytest.TempPathFactory) -> HookEnv:
    """This working tree as a hook repository at one commit, its hook environment built once
    per test run in one PRE_COMMIT_HOME (shared by the parallel workers of one run)."""
    return shared_hook_env(tmp_path_factory)


@pytest.fixture(scope="session")
def hooks_repo(hook_env: HookEnv) -> Path:
    return hook_env.repo


@pytest.fixture(scope="session")
def pre_commit_home(hook_env: HookEnv) -> Path:
    return hook_env.home


@pytest.fixture
def in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    return tmp_path


_EXIT_STATUS: list[int] = []


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """Stop any worker pool a test left running, so that the interpreter's exit, which joins
    each pool's threads, cannot wait on one (a run once printed its result and never ended)."""
    _EXIT_STATUS.append(int(exitstatus))
    import gc
    from concurrent.futures import ProcessPoolExecutor

    from evaltools.parallel import _workers

    for pool in [o for o in gc.get_objects() if isinstance(o, ProcessPoolExecutor)]:
        if getattr(pool, "_processes", None):
            _workers.stop_pool(pool)


@pytest.hookimpl(trylast=True)
def pytest_unconfigure(config: pytest.Config) -> None:
    """Once workers were killed (by the tests of Ctrl-C and SIGTERM, or above), leave as
    `evaltools.__main__.entry` does, with the run's status: the interpreter's exit joins
    each pool's threads, and a feeder thread writing to workers killed mid-batch waits on
    that pipe for ever (a CI run printed its result, then hung until its timeout). By now
    every report is written and the coverage data saved."""
    from evaltools.__main__ import leave_if_workers_were_killed

    if _EXIT_STATUS:
        leave_if_workers_were_killed(_EXIT_STATUS[-1])
