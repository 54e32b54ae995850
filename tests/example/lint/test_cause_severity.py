"""A mistake that misplaces what follows it is reported once, as its cause; the gate must
still fail when what it hides are errors, and selection must not hide them with it."""

from __future__ import annotations

from pathlib import Path

import pytest

from evaltools.__main__ import main
from evaltools.diagnostics import Diagnostic, Severity, make
from evaltools.example.lint.linter import lint_markdown
from evaltools.selection import RuleSelection
from tests.example.lint.test_lint_rules import GOOD, NAME


def findings(text: str, ignore: tuple[str, ...] = ()) -> list[tuple[str, str, int]]:
    enabled = RuleSelection(ignore=ignore).predicate()
    return [
        (d.code, d.severity.value, d.line) for d in lint_markdown(text, NAME, None, None, enabled)
    ]


@pytest.mark.parametrize(
    ("heading", "hidden"),
    [
        # No cursor: the reference cannot read the example; the excerpt joins the edit
        # history, whose diff drops its lines (EP310).
        ("### Cursor Position", "EP103, EP310"),
        ("# Cursor Position", "EP103, EP310"),
        ("##Cursor Position", "EP103, EP310"),
    ],
)
def test_a_section_heading_at_the_wrong_level_is_an_error(heading: str, hidden: str) -> None:
    found = lint_markdown(GOOD.replace("## Cursor Position", heading), NAME)
    assert [(d.code, d.severity.value, d.line) for d in found] == [("EP111", "error", 18)]
    assert found[0].message.endswith(
        f"(an error here, as the example is misread: it causes {hidden})"
    )


def test_a_lost_expected_patch_heading_names_both_consequences() -> None:
    found = lint_markdown(GOOD.replace("## Expected Patch", "### Expected Patch"), NAME)
    assert [(d.code, d.severity.value) for d in found] == [("EP111", "error")]
    assert found[0].message.endswith("it causes EP105, EP107, EP201)")


def test_a_prose_heading_that_hides_nothing_stays_a_warning() -> None:
    text = GOOD.replace("## Cursor Position", "### Why\n\n## Cursor Position")
    assert findings(text) == [("EP111", "warning", 18)]


def test_an_ignored_cause_hides_nothing() -> None:
    text = GOOD.replace("## Cursor Position", "### Cursor Position")
    assert ("EP103", "error", 6) in findings(text, ignore=("EP111",))
    assert findings(text, ignore=("dropped-heading",))[0][0] != "EP111"


@pytest.mark.parametrize(
    ("command", "config", "flags", "shown"),
    [
        ("lint", "", [], "EP111 [error]"),
        ("lint", "", ["--ignore", "EP111"], "EP103 [error]"),
        ("lint", "", ["--ignore", "EP111", "--jobs", "2", "."], "EP103 [error]"),  # in workers
        ("check", "", [], "EP111 [error]"),
        ("check", 'ignore = ["EP111"]', [], "EP103 [error]"),
    ],
)
def test_the_gate_fails_on_a_misplaced_section(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    *,
    command: str,
    config: str,
    flags: list[str],
    shown: str,
) -> None:
    for name in [NAME, "repo--second.md"] if "--jobs" in flags else [NAME]:  # 2 workers
        (tmp_path / name).write_text(GOOD.replace("## Cursor Position", "### Cursor Position"))
    (tmp_path / "pyproject.toml").write_text(f"[tool.evaltools]\n{config}\n")
    monkeypatch.chdir(tmp_path)
    assert main([command, *flags, NAME]) == 1
    assert f"{NAME}:{18 if shown.startswith('EP111') else 6}:1: {shown}" in capsys.readouterr().out


def test_ignore_takes_a_comma_separated_list(capsys: pytest.CaptureFixture[str]) -> None:
    from tests.conftest import CORPUS

    one = str(CORPUS / "zed--change-match-arm.md")
    assert main(["lint", one]) == 0
    assert "EP108" in capsys.readouterr().out
    assert main(["lint", "--ignore", "EP108,EP403", one]) == 0
    assert "EP108" not in capsys.readouterr().out
    assert main(["lint", "--ignore", "EP108,XYZ", one]) == 2
    assert capsys.readouterr().err == (
        "evaltools lint: error: unknown rule selector 'XYZ' in ignore "
        "(`evaltools rule` lists the rules)\n"
    )


def _finding(code: str, line: int, severity: str) -> Diagnostic:
    from evaltools.catalogue import RULES

    rule = RULES.get(code)
    assert rule is not None
    return make(rule._replace(severity=Severity(severity)), NAME, line, 1, f"{code} here")


def test_a_finding_that_makes_an_error_moot_stands_for_it_as_an_error() -> None:
    """Every fold follows one rule: a second cursor marker (a warning) that hides a patch
    that does not apply (an error) is an error itself."""
    from evaltools.example.lint.fold import _drop_moot

    kept = _drop_moot([_finding("EP207", 5, "warning"), _finding("EP301", 9, "error")])
    assert [(d.code, d.severity.value) for d in kept] == [("EP207", "error")]
    assert kept[0].message == "EP207 here (an error here: it causes EP301)"
    kept = _drop_moot([_finding("EP204", 5, "warning"), _finding("EP205", 5, "warning")])
    assert [(d.code, d.severity.value) for d in kept] == [("EP204", "warning")]
