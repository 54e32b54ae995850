"""Through the real pre-commit and the hook `evaltools init` writes: an example committed as
JSON is checked as one, and an eval folder the configuration leaves out is named
(issue 28, points 1 and 5)."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

from tests.commands.test_check_forms import BROKEN, EP301, FIXED, GOOD
from tests.commands.test_check_unlisted import PLURAL
from tests.test_precommit_commits import _commit, _run, _set_up, env

__all__ = ["env"]  # the fixture, shared


def test_a_broken_json_example_stops_its_commit_and_a_stray_folder_is_named(
    tmp_path: Path, env: dict[str, str]
) -> None:
    repo = tmp_path / "repo"
    (repo / "evals").mkdir(parents=True)
    for path in GOOD:
        shutil.copyfile(path, repo / "evals" / path.name)
    _set_up(repo, env, repo)
    assert (repo / "pyproject.toml").read_text() == (
        '[tool.evaltools]\npaths = [\n    "evals",\n]\n'
        "# Uncomment to make warnings fail `evaltools check` (and so the commit) as errors do:\n"
        "# max-warnings = 0\n"
    )

    source = tmp_path / "source"
    source.mkdir()
    for text in (BROKEN, FIXED):
        (source / "requests--mismatch.md").write_text(text)
        converted = _run(
            repo, env, "evaltools", "convert", str(source), "--to", "json", "-o", "evals", "--force"
        )
        assert converted.returncode == 0, converted.stdout + converted.stderr
        _run(repo, env, "git", "add", "evals")
        code, said = _commit(repo, env, "a json example")
        if text is BROKEN:
            assert code == 1, said
            assert f"evals/requests--mismatch.json:10:5: {EP301}" in said
    assert code == 0, said

    # An example in a folder `paths` does not name: the commit goes through (a warning),
    # and the hook says where it is and what to add.
    (repo / "new-evals").mkdir()
    (repo / "new-evals" / "requests--plural.md").write_text(PLURAL)
    _run(repo, env, "git", "add", "new-evals")
    code, said = _commit(repo, env, "a new folder")
    assert code == 0, said
    shown = _run(repo, env, sys.executable, "-m", "pre_commit", "run", "--verbose")
    assert shown.returncode == 0, shown.stdout + shown.stderr
    assert (
        "new-evals/requests--plural.md:1:1: IO030 [warning] example file not checked: no "
        'configured place covers it; add "new-evals" to `paths` in [tool.evaltools] '
        '(paths = ["evals", "new-evals"])'
    ) in shown.stdout
