"""Eval files the configuration leaves out are named, not skipped in silence: `check` warns
at each one git tracks (IO030), `init` run again says so (issue 28, point 5)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from evaltools.__main__ import main
from tests.commands.test_check_forms import FIXED, GOOD, SET
from tests.conftest import REPO

# A misspelt heading: the reference drops the expected patch under it (EP104).
PLURAL = FIXED.replace("## Expected Patch\n", "## Expected Patches\n")
SCHEMA = REPO / "evaltools" / "schemas" / "example-spec.schema.json"
CONFIG = '[tool.evaltools]\npaths = ["evals"]\n'


def _git(repo: Path, *args: str) -> None:
    subprocess.run(["git", *args], cwd=repo, check=True, capture_output=True)


@pytest.fixture
def repo(in_tmp: Path) -> Path:
    _git(in_tmp, "init", "-q")
    (in_tmp / "evals").mkdir()
    for path in GOOD:
        shutil.copyfile(path, in_tmp / "evals" / path.name)
    (in_tmp / "pyproject.toml").write_text(CONFIG)
    (in_tmp / "new-evals").mkdir()
    (in_tmp / "new-evals" / "requests--plural.md").write_text(PLURAL)
    return in_tmp


def _check(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    code = main(["check", *argv])
    return code, capsys.readouterr().out


def test_an_example_outside_paths_is_named_with_the_line_that_adds_it(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    passed = f"All checks passed: {len(GOOD)} files.\n"
    # Not in git's index yet: not the repository's, not reported.
    assert _check(capsys) == (0, passed)
    _git(repo, "add", "-A")
    code, out = _check(capsys)
    assert (code, out.splitlines()) == (
        0,
        [
            "new-evals/requests--plural.md:1:1: IO030 [warning] example file not checked: no "
            'configured place covers it; add "new-evals" to `paths` in [tool.evaltools] '
            '(paths = ["evals", "new-evals"]), or "new-evals/requests--plural.md" to `exclude`',
            # The file left out counts among the files the summary totals: the checked
            # ones are all clean.
            f"Found 1 warning in 1 of {len(GOOD) + 1} files.",
        ],
    )
    # The line it gives, added: the example is checked, and its mistake is an error.
    (repo / "pyproject.toml").write_text('[tool.evaltools]\npaths = ["evals", "new-evals"]\n')
    code, out = _check(capsys)
    assert code == 1, out
    first = out.splitlines()[0]
    assert first.startswith("new-evals/requests--plural.md:15:1: EP104 [error] unknown heading ")
    assert "IO030" not in out
    # Or left out on purpose: nothing said.
    (repo / "pyproject.toml").write_text(CONFIG + 'exclude = ["new-evals/requests--plural.md"]\n')
    assert _check(capsys) == (0, passed)
    assert (repo / "new-evals" / "requests--plural.md").read_text() == PLURAL


def test_the_summary_never_counts_a_clean_checked_file_as_one_with_findings(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for path in GOOD[1:]:
        (repo / "evals" / path.name).unlink()
    _git(repo, "add", "-A")
    code, out = _check(capsys)
    # One example checked (clean), one left out (IO030): not "in 1 file", which reads as
    # the checked example having the warning.
    assert (code, out.splitlines()[-1]) == (0, "Found 1 warning in 1 of 2 files.")
    assert _check(capsys, "--ignore", "IO030") == (0, "All checks passed: 1 file.\n")


def test_every_form_and_a_retrieval_set_outside_the_configuration_is_named(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    other = repo / "more"
    other.mkdir()
    (other / "a.json").write_text(f'{{"cursor_path": "src/app.py", "x": {SET.strip()}}}\n')
    (other / "b.jsonl").write_text('{"expected_patches": []}\n')
    (other / "set.jsonl").write_text(SET)
    # Not eval files by their first bytes, or where no search goes: nothing said.
    (other / "package.json").write_text('{"name": "more"}\n')
    # A schema of examples names their fields too, with objects for values.
    shutil.copyfile(SCHEMA, other / "example-spec.schema.json")
    (other / "README.md").write_text("# more\n")
    (repo / ".drafts").mkdir()
    (repo / ".drafts" / "x.md").write_text(PLURAL)
    (repo / "pyproject.toml").write_text(
        CONFIG + '\n[tool.evaltools.retrieval]\nsets = []\nroot = "."\n'
    )
    _git(repo, "add", "-A")
    code, out = _check(capsys)
    found = [line.split(": IO030 [warning] ")[0] for line in out.splitlines() if "IO030" in line]
    assert (code, found) == (
        0,
        [
            "more/a.json:1:1",
            "more/b.jsonl:1:1",
            "more/set.jsonl:1:1",
            "new-evals/requests--plural.md:1:1",
        ],
    )
    assert (
        "more/set.jsonl:1:1: IO030 [warning] retrieval set not checked: no configured place "
        'covers it; add "more/set.jsonl" to `sets` in [tool.evaltools.retrieval] '
        '(sets = ["more/set.jsonl"]), or "more/set.jsonl" to `exclude`'
    ) in out.splitlines()
    # Rule selection applies as to any finding.
    assert _check(capsys, "--ignore", "IO030")[0] == 0
    assert "IO030" not in _check(capsys, "--ignore", "unlisted-eval-file")[1]


def test_outside_a_git_repository_nothing_is_listed(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    shutil.rmtree(repo / ".git")
    assert _check(capsys) == (0, f"All checks passed: {len(GOOD)} files.\n")


def test_init_run_again_names_examples_outside_its_paths(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    before = (repo / "pyproject.toml").read_bytes()
    assert main(["init"]) == 0
    captured = capsys.readouterr()
    assert "pyproject.toml: [tool.evaltools] already set; nothing to add\n" in captured.out
    assert (
        "evaltools init: warning: new-evals/requests--plural.md: example file not checked: no "
        'configured place covers it; add "new-evals" to `paths` in [tool.evaltools] '
        '(paths = ["evals", "new-evals"]), or "new-evals/requests--plural.md" to `exclude`\n'
    ) in captured.err
    # Keys once set are the user's: init says, and changes nothing.
    assert (repo / "pyproject.toml").read_bytes() == before
    (repo / "pyproject.toml").write_text('[tool.evaltools]\npaths = ["evals", "new-evals"]\n')
    assert main(["init"]) == 0
    assert "IO030" not in capsys.readouterr().err


def test_init_run_again_names_a_folder_of_examples_once(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # A conversion's output folder of examples was a warning per file (found by the b3
    # new-user trial: 37 lines for three folders); one line per folder now.
    out = repo / "out"
    out.mkdir()
    for path in GOOD:
        shutil.copyfile(path, out / path.name)
    before = (repo / "pyproject.toml").read_bytes()
    assert main(["init"]) == 0
    warnings = [line for line in capsys.readouterr().err.splitlines() if "not checked" in line]
    assert warnings == [
        "evaltools init: warning: new-evals/requests--plural.md: example file not checked: no "
        'configured place covers it; add "new-evals" to `paths` in [tool.evaltools] '
        '(paths = ["evals", "new-evals"]), or "new-evals/requests--plural.md" to `exclude`',
        f"evaltools init: warning: out/: {len(GOOD)} example files not checked: no configured "
        'place covers them; add "out" to `paths` in [tool.evaltools] (paths = ["evals", '
        '"out"]), or "out" to `exclude`',
    ]
    assert (repo / "pyproject.toml").read_bytes() == before


def test_the_target_of_a_linked_example_is_checked_through_the_link_not_named(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # evals/plural.md links to new-evals/requests--plural.md: `check` reads it through the
    # link, so the target is checked, and adding its folder to `paths` would check it twice.
    (repo / "evals" / "requests--plural.md").symlink_to("../new-evals/requests--plural.md")
    _git(repo, "add", "-A")
    code, out = _check(capsys)
    assert code == 1, out
    assert out.splitlines()[0].startswith("evals/requests--plural.md:15:1: EP104 [error]"), out
    assert "IO030" not in out, out
    assert (repo / "new-evals" / "requests--plural.md").read_text() == PLURAL
