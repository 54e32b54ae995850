from __future__ import annotations

from pathlib import Path

import pytest

from evaltools.__main__ import main
from evaltools.precommit import REPO_URL, add_evaltools, same_except_evaltools

ENTRY = f"- repo: {REPO_URL}\n  rev: v0.1.0\n  hooks:\n    - id: evaltools-check\n"

WITH_COMMENTS_AND_ANCHORS = """# project hooks
default_stages: &stages [pre-commit]   # keep
repos:
# formatters first
- repo: https://github.com/astral-sh/ruff-pre-commit
  rev: 'v0.6.0'   # pinned on purpose
  hooks: [{id: ruff, stages: *stages}, {id: ruff-format}]
- repo: local
  hooks:
  - id: x
    name: x
    entry: x
    language: system
# trailing comment
exclude: '^vendor/'
"""


def _run(tmp: Path, text: str | None, *args: str) -> tuple[int, str]:
    config = tmp / ".pre-commit-config.yaml"
    if text is not None:
        config.write_text(text)
    code = main(["init", "--config-file", str(config), *args])
    return code, config.read_text() if config.exists() else ""


def test_adds_entry_keeping_comments_anchors_flow_and_quotes(tmp_path: Path) -> None:
    code, after = _run(tmp_path, WITH_COMMENTS_AND_ANCHORS)
    assert code == 0
    assert after == WITH_COMMENTS_AND_ANCHORS.replace(
        "# trailing comment", ENTRY.rstrip("\n") + "\n# trailing comment"
    )
    code, again = _run(tmp_path, None)
    assert (code, again) == (0, after)


def test_updates_an_existing_entry_at_another_version(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = (
        "repos:\n    -   repo: https://github.com/evaltools/evaltools/\n"
        "        rev: 'v0.0.9'  # old\n        hooks:\n            -   id: evaltools-lint\n"
    )
    code, after = _run(tmp_path, text, "--rev", "v0.2.0")
    assert code == 0
    assert after == text.replace("'v0.0.9'", "'v0.2.0'")
    assert "updated evaltools from v0.0.9 to v0.2.0" in capsys.readouterr().out


def test_creates_a_missing_file_and_fills_an_empty_list(tmp_path: Path) -> None:
    code, created = _run(tmp_path, None, "--hook", "evaltools-lint", "--hook", "evaltools-validate")
    assert code == 0
    assert "  - repo: https://github.com/evaltools/evaltools\n" in created
    assert "      - id: evaltools-lint\n      - id: evaltools-validate\n" in created
    code, filled = _run(tmp_path, "repos: []\nci:\n  autofix_prs: false\n")
    assert code == 0
    assert filled.startswith("repos:\n  - repo: https://github.com/evaltools/evaltools\n")
    assert filled.endswith("ci:\n  autofix_prs: false\n")


def test_indentation_of_the_file_is_followed(tmp_path: Path) -> None:
    text = (
        "repos:\n    -   repo: https://github.com/pre-commit/pre-commit-hooks\n"
        "        rev: v4.0.0\n        hooks:\n            -   id: trailing-whitespace\n"
    )
    code, after = _run(tmp_path, text)
    assert code == 0
    assert after.startswith(text)
    assert "\n    -   repo: https://github.com/evaltools/evaltools\n        rev: v0.1.0\n" in after


@pytest.mark.parametrize(
    ("text", "where"),
    [
        ("repos:\n  - repo: [unclosed\n", ":3:1: not valid YAML"),
        ("just a string\n", ":1:1: the file has no top-level `repos:` list"),
        ("repos: [{repo: local, hooks: []}]\n", ":1:8: `repos:` is written in flow style"),
    ],
)
def test_refuses_files_it_cannot_edit_safely(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, where: str
) -> None:
    code, after = _run(tmp_path, text)
    assert code == 1
    assert after == text
    assert where in capsys.readouterr().out


def test_semantic_check_catches_a_change_elsewhere() -> None:
    before = "repos:\n- repo: local\n  hooks: []\n"
    edit = add_evaltools(before, "v1")
    assert same_except_evaltools(before, edit.text)
    assert not same_except_evaltools(before, edit.text.replace("local", "other"))
    assert not same_except_evaltools(before, "repos: [")
