"""`evaltools rule` and docs/rules.md, which is its output and must not drift from the registry."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from evaltools.__main__ import main
from evaltools.catalogue import RULES

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


def test_the_document_has_a_title_an_intro_a_table_and_a_section_per_rule(
    capsys: pytest.CaptureFixture[str],
) -> None:
    text = rule_output(["--format", "markdown"], capsys)
    title, intro, rest = text.split("\n\n", 2)
    table, sections = rest.split("\n## Every rule\n\n", 1)
    assert title == "# Rules"
    assert "\n" not in intro
    rows = table.splitlines()[2:]
    assert [row.split(" | ")[0] for row in rows] == [
        f"| [`{r.code}`](#{r.code.lower()})" for r in RULES.all()
    ]
    for row in rows:  # a pipe inside a cell would add columns
        assert row.replace("\\|", "").count("|") == 5
    assert "`<\\|user_cursor\\|>`" in table
    assert "| `hunk-count-mismatch` | info (off by default) |" in table
    headings = re.findall(r"^### ([A-Z]{2}\d{3})$", sections, flags=re.MULTILINE)
    assert headings == [r.code for r in RULES.all()]
    # An example holding ``` is fenced with four backticks.
    assert "````text\n+++" in sections


def test_one_rule_by_code_or_name(capsys: pytest.CaptureFixture[str]) -> None:
    out = rule_output(["EP201"], capsys)
    summary = "The cursor excerpt has no `[CURSOR_POSITION]` marker line and no `<|user_cursor|>`."
    assert out.startswith(f"EP201 (missing-cursor-marker) [error, on by default]\n\n{summary}\n\n")
    assert out.count(summary) == 1
    assert "\nWhat it checks: " in out
    assert "\nWhy it matters: " in out
    assert "\nFailing:\n\n    +++\n" in out
    assert "\nFixed:\n\n    +++\n" in out
    assert rule_output(["missing-cursor-marker"], capsys) == out
    off = rule_output(["EP305"], capsys)
    assert off.startswith(
        "EP305 (hunk-count-mismatch) [info, off by default] (select it with `--select EP305`)"
    )


def test_a_prefix_lists_its_rules(capsys: pytest.CaptureFixture[str]) -> None:
    lines = rule_output(["EP2"], capsys).splitlines()
    assert [line.split()[0] for line in lines] == [
        r.code for r in RULES.all() if r.code.startswith("EP2")
    ]
    assert len(lines) == 7
    listed = rule_output([], capsys).splitlines()
    assert next(line for line in listed if line.startswith("EP305 ")).split()[2:4] == [
        "info,",
        "off",
    ]


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
    assert items[0]["code"] == "EP305"
    assert items[0]["name"] == "hunk-count-mismatch"
    assert items[0]["family"] == "EP"
    assert items[0]["severity"] == "info"
    assert items[0]["default_enabled"] is False
    assert items[0]["failing"]
    assert items[0]["fixed"]
    everything = json.loads(rule_output(["--format", "json"], capsys))
    assert [item["code"] for item in everything] == [r.code for r in RULES.all()]
    table = rule_output(["EP104", "--format", "markdown"], capsys).splitlines()
    assert table[0] == "| code | name | severity | what it checks |"
    assert table[2].startswith("| [`EP104`](#ep104) | `unknown-section` | error | ")
    assert table[4] == "### EP104"


def test_an_unknown_rule_exits_two_and_names_the_nearest(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["rule", "EP999"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.startswith("evaltools rule: error: unknown rule 'EP999': did you mean ")
    assert main(["rule", "gold-movd"]) == 2
    assert "did you mean 'gold-moved'?" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("word", "meant"), [("rg001", "RG001"), ("du104", "DU104"), ("rg4", "RG4"), ("all", "ALL")]
)
def test_a_lower_case_code_suggests_the_code_not_a_near_spelling(
    capsys: pytest.CaptureFixture[str], word: str, meant: str
) -> None:
    """`rg001` differs from `SC001` in two characters but from `RG001` only in case."""
    assert main(["rule", word]) == 2
    assert capsys.readouterr().err == (
        f"evaltools rule: error: unknown rule {word!r}: did you mean {meant!r}? "
        "(`evaltools rule` lists the rules)\n"
    )
