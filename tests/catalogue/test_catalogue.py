"""The one rule catalogue: complete documentation, examples that really fail and pass,
and selectors checked against it for every family."""

from __future__ import annotations

from pathlib import Path

import pytest

from evaltools.__main__ import main
from evaltools.catalogue import RULES
from evaltools.diagnostics import Rule

# EP311 and EP313 need inputs too large for an example (tests/example/lint has theirs).
EP_EXAMPLES = [r for r in RULES.all() if r.family == "EP" and r.code not in ("EP311", "EP313")]


def test_every_rule_has_what_why_failing_and_fixed() -> None:
    for rule in RULES.all():
        for field in ("summary", "what", "why", "failing", "fixed"):
            assert getattr(rule, field).strip(), f"{rule.code} has no {field}"
        assert rule.what != rule.summary, rule.code
        assert rule.failing != rule.fixed, rule.code


def test_codes_and_names_are_unique_and_stable() -> None:
    rules = RULES.all()
    assert len({r.code for r in rules}) == len(rules)
    assert len({r.name for r in rules}) == len(rules)  # a name selects one rule
    assert RULES.get("invalid-chunk-id") == RULES.get("RV008")
    assert RULES.get("gold-invalid-chunk-id") == RULES.get("RG006")
    assert RULES.get("EP104") == RULES.get("unknown-section")
    assert RULES.get("invalid-json") == RULES.get("IO008")
    assert {r.family for r in rules} == {"IO", "EP", "RT", "CV", "RV", "RG", "DU", "SC"}


def _lint_codes(tmp_path: Path, rule: Rule, text: str, capsys: pytest.CaptureFixture[str]) -> str:
    if rule.code == "EP403":  # its examples are file names
        path = tmp_path / text
        text = RULES.get("EP001").fixed  # type: ignore[union-attr]
    elif text.startswith("{"):
        path = tmp_path / "repo--record.json"
    else:
        path = tmp_path / "repo--example.md"
    path.write_text(text, encoding="utf-8")
    main(["lint", "--select", rule.code, "--format", "json", str(path)])
    return capsys.readouterr().out


@pytest.mark.parametrize("rule", EP_EXAMPLES, ids=[r.code for r in EP_EXAMPLES])
def test_the_failing_example_fails_and_the_fixed_one_passes(
    rule: Rule, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    failing = tmp_path / "failing"
    fixed = tmp_path / "fixed"
    failing.mkdir()
    fixed.mkdir()
    assert f'"code": "{rule.code}"' in _lint_codes(failing, rule, rule.failing, capsys)
    assert f'"code": "{rule.code}"' not in _lint_codes(fixed, rule, rule.fixed, capsys)


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--select", "RG10"], None),
        (["--select", "RV0"], None),
        (["--ignore", "gold-moved"], None),
        (["--select", "RG9"], "unknown rule selector 'RG9' in select"),
        (["--ignore", "gold-movd"], "in ignore: did you mean 'gold-moved'?"),
        (["--select", "CV099"], "unknown rule selector 'CV099' in select: did you mean 'CV00"),
        (["--ignore", "invalid-recrod"], "did you mean 'invalid-record'?"),
    ],
)
def test_selectors_of_every_family_are_checked(
    argv: list[str],
    message: str | None,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    path = tmp_path / "repo--example.md"
    path.write_text(RULES.get("EP001").fixed, encoding="utf-8")  # type: ignore[union-attr]
    rc = main(["lint", *argv, str(path)])
    err = capsys.readouterr().err
    if message is None:
        assert rc != 2, err
    else:
        assert rc == 2
        assert message in err


def test_per_file_ignores_in_the_configuration_are_checked(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "pyproject.toml").write_text(
        '[tool.evaltools]\nper-file-ignores = { "evals/*.md" = ["EP9999"] }\n'
    )
    path = tmp_path / "repo--example.md"
    path.write_text(RULES.get("EP001").fixed, encoding="utf-8")  # type: ignore[union-attr]
    monkeypatch.chdir(tmp_path)
    assert main(["lint", str(path)]) == 2
    assert capsys.readouterr().err == (
        "evaltools lint: error: pyproject.toml:2:38: unknown rule selector 'EP9999' in "
        "[tool.evaltools] per-file-ignores.\"evals/*.md\": did you mean 'EP309'? "
        "(`evaltools rule` lists the rules)\n"
    )


def test_a_catalogue_refuses_a_shared_name() -> None:
    from evaltools.catalogue import Catalogue

    one, other = RULES.get("RV008"), RULES.get("RG006")
    assert one is not None and other is not None
    with pytest.raises(ValueError, match="duplicate rule name"):
        Catalogue((one, other._replace(name=one.name)))
