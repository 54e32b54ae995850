"""`evaltools rule` and docs/rules.md, which is its output and must not drift from the registry."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from evaltools.__main__ import main
from evaltools.commands import rules
from evaltools.diagnostics import RULES

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "rules.md"


def rule_output(argv: list[str], capsys: pytest.CaptureFixture[str], code: int = 0) -> str:
    assert main(["rule", *argv]) == code
    return capsys.readouterr().out


def test_docs_rules_md_is_the_generated_document(capsys: pytest.CaptureFixture[str]) -> None:
    expected = rule_output(["--format", "markdown"], capsys)
    assert DOC.read_text(encoding="utf-8") == expected, (
        "docs/rules.md is out of date: run `evaltools rule --format markdown > docs/rules.md`"
    )


def test_the_document_has_a_title_an_intro_and_one_row_per_rule(
    capsys: pytest.CaptureFixture[str],
) -> None:
    text = rule_output(["--format", "markdown"], capsys)
    title, intro, table = text.split("\n\n", 2)
    assert title == "# Rules"
    assert "\n" not in intro
    rows = table.splitlines()[2:]
    assert [row.split(" | ")[0] for row in rows] == [f"| `{r.code}`" for r in RULES.all()]
    for row in rows:  # a pipe inside a cell would add columns
        assert row.replace("\\|", "").count("|") == 5
    assert "`<\\|user_cursor\\|>`" in table
    assert "| `EP305` | `hunk-count-mismatch` | info (off by default) |" in table


def test_every_module_that_registers_rules_is_loaded() -> None:
    package = ROOT / "evaltools"
    registering = {
        ".".join(path.relative_to(ROOT).with_suffix("").parts)
        for path in package.rglob("*.py")
        if "RULES.add(" in path.read_text(encoding="utf-8") and path.name != "diagnostics.py"
    }
    assert registering
    for module in registering:
        assert any(module == m or module.startswith(m + ".") for m in rules.RULE_MODULES), module
    for module in rules.RULE_MODULES:
        assert any(r == module or r.startswith(module + ".") for r in registering), module


def test_one_rule_by_code_or_name(capsys: pytest.CaptureFixture[str]) -> None:
    out = rule_output(["EP104"], capsys)
    assert out.startswith(
        "EP104 (unknown-section) [error]\n\n"
        "A code block sits under a heading the format does not know; the reference drops it.\n\n"
        "Headings are matched case-insensitively"
    )
    assert rule_output(["unknown-section"], capsys) == out
    io = rule_output(["IO001"], capsys)
    assert io == "IO001 (not-utf8) [error]\n\nThe file is not valid UTF-8.\n"


def test_the_list_has_one_line_per_rule(capsys: pytest.CaptureFixture[str]) -> None:
    lines = rule_output([], capsys).splitlines()
    codes = [line.split()[0] for line in lines]
    assert codes == sorted(codes)
    assert {"EP104", "EP501", "IO001", "IO008", "RT001", "CV002"} <= set(codes)
    assert {code[:2] for code in codes} >= {"EP", "IO", "RT", "CV", "RV", "RG"}
    assert next(line for line in lines if line.startswith("EP104 ")).split()[1:3] == [
        "unknown-section",
        "error",
    ]


def test_json_and_markdown_for_one_rule(capsys: pytest.CaptureFixture[str]) -> None:
    items = json.loads(rule_output(["EP305", "--format", "json"], capsys))
    assert items == [
        {
            "code": "EP305",
            "name": "hunk-count-mismatch",
            "severity": "info",
            "summary": items[0]["summary"],
            "doc": items[0]["doc"],
            "default_enabled": False,
        }
    ]
    everything = json.loads(rule_output(["--format", "json"], capsys))
    assert [item["code"] for item in everything] == [r.code for r in RULES.all()]
    table = rule_output(["EP104", "--format", "markdown"], capsys).splitlines()
    assert table[0] == "| code | name | severity | what it checks |"
    assert table[2].startswith("| `EP104` | `unknown-section` | error | ")
    assert len(table) == 3


def test_an_unknown_rule_exits_two(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rule", "EP999"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err == (
        "evaltools rule: error: unknown rule 'EP999': `evaltools rule` lists them all\n"
    )
