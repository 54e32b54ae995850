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


def test_a_crlf_file_keeps_its_line_endings(tmp_path: Path) -> None:
    config = tmp_path / ".pre-commit-config.yaml"
    config.write_bytes(b"repos:\r\n- repo: local\r\n  hooks: []\r\n")
    assert main(["init", "--config-file", str(config)]) == 0
    data = config.read_bytes()
    assert data.startswith(b"repos:\r\n- repo: local\r\n  hooks: []\r\n- repo: https://")
    assert data.count(b"\n") == data.count(b"\r\n") == 7


def test_a_file_that_is_not_utf8_is_refused_at_the_byte(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = tmp_path / "pc.yaml"
    config.write_bytes(b"repos:\n- repo: caf\xe9\n")
    assert main(["init", "--config-file", str(config)]) == 1
    assert capsys.readouterr().out == (
        f"{config.as_posix()}:2:12: byte 0xe9 is not valid UTF-8: re-encode the file as UTF-8 "
        "(file left unchanged)\n"
    )
    assert config.read_bytes() == b"repos:\n- repo: caf\xe9\n"


def test_a_config_file_that_cannot_be_one_is_a_usage_error(
    in_tmp: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (in_tmp / "dir.yaml").mkdir()
    assert main(["init", "--config-file", "dir.yaml"]) == 2
    assert capsys.readouterr().err == (
        "evaltools init: error: --config-file dir.yaml is not a regular file\n"
    )
    assert main(["init", "--config-file", "missing/x.yaml"]) == 2
    assert capsys.readouterr().err == (
        "evaltools init: error: cannot create missing/x.yaml: no such directory\n"
    )
