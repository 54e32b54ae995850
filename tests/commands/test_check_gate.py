"""`check` composes lint and the round trip: its exit code is never lower than theirs on the
same file, and ignoring a rule never makes it stricter."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from evaltools.__main__ import main
from tests.conftest import CORPUS, DATA, REPO


def _examples() -> list[Path]:
    shared = Path("/work/shared/corpus")  # the reviewers' copy, when this machine has it
    found = sorted(DATA.rglob("*.md")) + sorted((REPO / "evals").rglob("*.md"))
    return found + (sorted(shared.rglob("*.md")) if shared.is_dir() else [])


def _roundtrip_code(path: Path, capsys: pytest.CaptureFixture[str]) -> int:
    """roundtrip's exit code at error level: a `reformat` (layout only) is the one documented
    difference, a warning (RT001) in `check` (README, "The round trip")."""
    main(["roundtrip", "--format", "json", str(path)])
    (result,) = json.loads(capsys.readouterr().out)
    return 1 if result["status"] in ("lossy", "invalid") else 0


def test_check_fails_whenever_lint_or_the_round_trip_fails(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "pyproject.toml").write_text("[tool.evaltools]\n")
    monkeypatch.chdir(tmp_path)
    lower: list[str] = []
    for path in _examples():
        linted = main(["lint", str(path)])
        capsys.readouterr()
        composed = max(linted, _roundtrip_code(path, capsys))
        checked = main(["check", str(path)])
        capsys.readouterr()
        if checked < composed:
            lower.append(f"{path}: check {checked} < {composed}")
    assert lower == []


def test_a_warning_that_hides_a_lossy_file_is_an_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    name = "zed--change-match-arm.md"
    (tmp_path / name).write_bytes((CORPUS / name).read_bytes())
    (tmp_path / "pyproject.toml").write_text('[tool.evaltools]\npaths = ["."]\n')
    monkeypatch.chdir(tmp_path)
    assert main(["check"]) == 1
    out = capsys.readouterr().out
    assert f"{name}:6:1: EP108 [error]" in out
    assert "(an error here: it causes RT002)" in out
    assert "RT002" not in out.split("it causes RT002")[1]  # folded: one finding, not two
    (tmp_path / "pyproject.toml").write_text(
        '[tool.evaltools]\npaths = ["."]\nignore = ["EP108"]\n'
    )
    assert main(["check"]) == 1
    assert f"{name}:6:1: RT002 [error]" in capsys.readouterr().out


def test_an_ignored_round_trip_rule_raises_no_cause(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    name = "zed--change-match-arm.md"
    (tmp_path / name).write_bytes((CORPUS / name).read_bytes())
    (tmp_path / "pyproject.toml").write_text(
        '[tool.evaltools]\npaths = ["."]\nignore = ["RT002"]\n'
    )
    monkeypatch.chdir(tmp_path)
    assert main(["check"]) == 0
    assert f"{name}:6:1: EP108 [warning]" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("keys", "comment", "key"),
    [
        ('x = { a = 1, b = "#" } # c\n', "4:24", "4:1"),  # after an unknown key, on its line
        ('# c\nx = { a = 1, b = "#" }\n', "4:1", "5:1"),  # on its own line
    ],
)
def test_a_front_matter_comment_s_loss_folds_into_its_own_finding(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    *,
    keys: str,
    comment: str,
    key: str,
) -> None:
    from tests.example.lint.test_lint_rules import GOOD, NAME

    (tmp_path / NAME).write_text(GOOD.replace("+++\n\n", f"{keys}+++\n\n", 1))
    (tmp_path / "pyproject.toml").write_text("[tool.evaltools]\n")
    monkeypatch.chdir(tmp_path)
    assert main(["check", NAME]) == 1
    out = capsys.readouterr().out
    # Each loss (RT002) is folded into the finding at its place, which it makes an error.
    assert f":{comment}: EP006 [error] front matter comment" in out
    assert f":{key}: EP005 [error] front matter key `x`" in out
    assert out.count("it causes RT002") == 2
    assert "RT002 [" not in out
