"""Through the real pre-commit: a `gold mine` draft appended to a configured set stops the
commit at its `status`, a misspelt field does not (a warning), and the reviewed record
commits; a set listed in `drafts` takes drafts."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from tests import test_precommit_commits as commits
from tests.test_precommit_commits import RECORDS, _commit, _run, _set_up

# The new user's fixtures: evaltools on PATH, offline; a project with code and a set.
env = commits.env
project = commits.project

SET = "evals/retrieval.jsonl"


def _mine(repo: Path, env: dict[str, str]) -> str:
    """The draft `gold mine` writes for the commit that changes open_session."""
    session = repo / "src" / "app" / "session.py"
    session.write_text(session.read_text().replace("return 1", "return 2"))
    _run(repo, env, "git", "add", "-A")
    code, said = _commit(repo, env, "open sessions with the second slot")
    assert code == 0, said
    out = repo.parent / "mined.jsonl"
    mined = _run(repo, env, "evaltools", "gold", "mine", "--repo", ".", "-o", str(out), "--force")
    assert mined.returncode == 0, mined.stdout + mined.stderr
    line = out.read_text()
    assert line.count("\n") == 1 and '"status": "draft"' in line, line
    return line


def test_a_draft_stops_the_commit_until_it_is_reviewed(
    project: Path,
    env: dict[str, str],
) -> None:
    _set_up(project, env, project, "evaltools-check")
    draft = _mine(project, env)
    (project / SET).write_text(RECORDS + draft)
    _run(project, env, "git", "add", SET)
    code, said = _commit(project, env, "add a mined query")
    assert code == 1, said
    column = draft.index('"draft"') + 1
    assert f"{SET}:3:{column}: RV013 [error] the record is a draft" in said, said
    assert (project / SET).read_text() == RECORDS + draft

    # Reviewed, but `split` misspelt: a warning, which does not stop the commit.
    reviewed = json.loads(draft)
    del reviewed["status"]
    reviewed["splt"] = "holdout"
    line = json.dumps(reviewed) + "\n"
    (project / SET).write_text(RECORDS + line)
    _run(project, env, "git", "add", SET)
    shown = _run(project, env, sys.executable, "-m", "pre_commit", "run", "--verbose")
    assert shown.returncode == 0, shown.stdout + shown.stderr
    key = line.index('"splt"') + 1
    assert f"{SET}:3:{key}: RV014 [warning] unknown field \"splt\" (did you mean 'split'?)" in (
        shown.stdout
    )
    code, said = _commit(project, env, "add a reviewed query")
    assert code == 0, said


def test_a_set_that_collects_drafts_commits_them(
    project: Path,
    env: dict[str, str],
) -> None:
    _set_up(project, env, project, "evaltools-check")
    draft = _mine(project, env)
    (project / "evals" / "mined.jsonl").write_text(draft)
    pyproject = project / "pyproject.toml"
    text = pyproject.read_text()
    written = 'sets = [\n    "evals/retrieval.jsonl",\n]\n'  # as init writes it
    assert written in text, text
    pyproject.write_text(
        text.replace(
            written,
            'sets = ["evals/retrieval.jsonl", "evals/mined.jsonl"]\n'
            'drafts = ["evals/mined.jsonl"]\n',
        )
    )
    _run(project, env, "git", "add", "-A")
    code, said = _commit(project, env, "collect mined drafts")
    assert code == 0, said
