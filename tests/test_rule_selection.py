"""One rule selection for every command that reports findings, with ruff's semantics: the
command line's `--select` replaces the configuration's `select` and `ignore`, the more
specific selector wins within one source, ALL selects every rule, and a file that cannot
be read is reported whatever the selection says."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from evaltools.__main__ import main
from evaltools.cli.table import all_commands
from evaltools.selection import RuleSelection, selection_from
from tests.conftest import CORPUS

LOSSY = CORPUS / "zed--change-match-arm.md"  # EP108 at 6:1, which the round trip calls RT002
COUNTS = CORPUS / "vscode--add-interface-method.md"  # EP305 (off by default) at 11:1


def _config(folder: Path, body: str) -> None:
    (folder / "pyproject.toml").write_text(f"[tool.evaltools]\n{body}\n")


def test_a_command_line_select_replaces_the_configured_ignore(
    in_tmp: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    shutil.copy(LOSSY, in_tmp / LOSSY.name)
    _config(in_tmp, 'ignore = ["EP108"]')
    assert main(["lint", LOSSY.name]) == 0
    assert "EP108" not in capsys.readouterr().out
    main(["lint", LOSSY.name, "--select", "EP108"])
    assert f"{LOSSY.name}:6:1: EP108 [warning]" in capsys.readouterr().out


def test_per_file_ignores_still_apply_under_a_command_line_select(
    in_tmp: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    shutil.copy(LOSSY, in_tmp / LOSSY.name)
    _config(in_tmp, 'per-file-ignores = { "*.md" = ["EP108"] }')
    main(["lint", LOSSY.name, "--select", "EP108"])
    assert "EP108" not in capsys.readouterr().out


def test_the_more_specific_selector_wins(in_tmp: Path, capsys: pytest.CaptureFixture[str]) -> None:
    shutil.copy(COUNTS, in_tmp / COUNTS.name)
    _config(in_tmp, "")
    main(["lint", COUNTS.name, "--select", "EP305", "--ignore", "EP3"])
    assert f"{COUNTS.name}:11:1: EP305 [info]" in capsys.readouterr().out
    main(["lint", COUNTS.name, "--select", "EP3", "--ignore", "EP30"])
    assert "EP30" not in capsys.readouterr().out


@pytest.mark.parametrize(
    ("config", "select", "ignore", "on"),
    [
        ({"ignore": ["EP1"]}, None, None, False),
        ({"select": ["EP108"], "ignore": ["EP1"]}, None, None, True),  # specific wins
        ({"ignore": ["EP108"]}, ["EP1"], None, True),  # --select replaces ignore
        ({"select": ["EP2"]}, None, ["EP10"], False),
        ({}, ["EP108"], ["EP108"], False),  # a tie: ignore wins
        ({}, ["ALL"], ["EP108"], False),
        ({}, ["EP1"], ["ALL"], True),
        ({"ignore": ["EP108"]}, None, None, False),
    ],
)
def test_layers(
    config: dict[str, object], select: list[str] | None, ignore: list[str] | None, *, on: bool
) -> None:
    chosen = selection_from(config, select, ignore)
    assert chosen.enabled("EP108", "prose-outside-sections", "x.md") is on


def test_all_selects_the_rules_off_by_default_too() -> None:
    assert not RuleSelection(select=("EP3",)).enabled("EP305", "hunk-count-mismatch", "x.md")
    assert RuleSelection(select=("ALL",)).enabled("EP305", "hunk-count-mismatch", "x.md")
    assert selection_from({}, ["ALL"], None).enabled("EP305", "hunk-count-mismatch", "x.md")


def test_rule_all_lists_every_rule(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rule"]) == 0
    every = capsys.readouterr().out
    assert main(["rule", "ALL"]) == 0
    assert capsys.readouterr().out == every


def _not_utf8(folder: Path) -> Path:
    (folder / "bad").mkdir()
    (folder / "bad" / "x.md").write_bytes(b"\xff\xfe")
    (folder / "bad" / "x.jsonl").write_bytes(b"\xff\xfe\n")
    return folder / "bad"


@pytest.mark.parametrize(
    "argv",
    [
        ["lint", "bad/x.md", "--select", "EP108"],
        ["lint", "bad/x.md", "--ignore", "IO"],
        ["check", "bad/x.md", "--select", "EP108"],
        ["check", "bad/x.md", "--ignore", "ALL"],
        ["validate", "bad/x.jsonl", "--select", "RV004"],
        ["dupes", "bad/x.md", "--ignore", "IO001"],
    ],
)
def test_a_file_that_cannot_be_read_is_always_reported(
    in_tmp: Path, capsys: pytest.CaptureFixture[str], argv: list[str]
) -> None:
    _not_utf8(in_tmp)
    _config(in_tmp, 'per-file-ignores = { "bad/*" = ["IO"] }')
    assert main(argv) == 1
    captured = capsys.readouterr()
    assert "IO001" in captured.out + captured.err


def test_the_always_reported_rules_say_so(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rule", "IO001"]) == 0
    assert "always reported" in capsys.readouterr().out
    assert main(["rule", "IO002", "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)[0]["always_reported"] is False


RECORD = {"qid": "q1", "query": "where is f", "type": "identifier", "gold": {"a.py:1-2:f": 3}}


def _set(folder: Path, grade: object = 3) -> str:
    record = dict(RECORD, gold={"a.py:1-2:f": grade})
    (folder / "set.jsonl").write_text(json.dumps(record) + "\n")
    return "set.jsonl"


@pytest.mark.parametrize(
    ("argv", "code"),
    [
        (["validate"], "RV007"),
        (["gold", "check", "--root", "."], "RG004"),
        (["check"], "RG004"),
    ],
)
def test_retrieval_commands_apply_the_configured_ignore(
    in_tmp: Path, capsys: pytest.CaptureFixture[str], argv: list[str], code: str
) -> None:
    name = _set(in_tmp, grade=7 if code == "RV007" else 3)
    _config(in_tmp, '[tool.evaltools.retrieval]\nroot = "."')
    assert main([*argv, name]) == 1
    assert code in capsys.readouterr().out
    _config(in_tmp, f'ignore = ["{code}"]\n[tool.evaltools.retrieval]\nroot = "."')
    assert main([*argv, name]) == 0
    assert code not in capsys.readouterr().out
    assert main([*argv, name, "--select", code]) == 1  # and the command line's own
    assert code in capsys.readouterr().out
    assert main([*argv, name, "--ignore", code[:3]]) == 0
    capsys.readouterr()


def test_dupes_applies_the_configured_ignore(
    in_tmp: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    shutil.copy(LOSSY, in_tmp / "a.md")
    shutil.copy(LOSSY, in_tmp / "b.md")
    _config(in_tmp, "")
    assert main(["dupes", "a.md", "b.md"]) == 1
    assert "DU001" in capsys.readouterr().out
    _config(in_tmp, 'ignore = ["DU001"]')
    assert main(["dupes", "a.md", "b.md", "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out) == []
    assert main(["dupes", "a.md", "b.md", "--select", "DU"]) == 1
    capsys.readouterr()


def test_check_takes_select_and_ignore(in_tmp: Path, capsys: pytest.CaptureFixture[str]) -> None:
    shutil.copy(LOSSY, in_tmp / LOSSY.name)
    _config(in_tmp, "")
    assert main(["check", "--select", "EP4", LOSSY.name]) == 0
    assert main(["check", "--ignore", "EP108,RT002", LOSSY.name]) == 0
    assert main(["check", LOSSY.name]) == 1
    capsys.readouterr()


def test_every_command_that_selects_declares_select_and_ignore_once() -> None:
    from evaltools.cli.params import IGNORE, SELECT

    selecting = {c.name for c in all_commands() if SELECT in c.params}
    assert selecting == {"lint", "check", "validate", "gold check", "dupes"}
    for command in all_commands():
        if command.name in selecting:
            assert IGNORE in command.params, command.name


@pytest.mark.parametrize("given", [["--select="], ["--select", ","], ["--select", " "]])
@pytest.mark.parametrize("command", [["lint"], ["check"]])
def test_an_empty_select_on_the_command_line_is_a_usage_error(
    in_tmp: Path, capsys: pytest.CaptureFixture[str], command: list[str], given: list[str]
) -> None:
    # `--select=$RULES` with RULES unset selected nothing, so the gate passed every file
    # (found by the b3 new-user trial); ruff refuses an empty selector too.
    shutil.copy(LOSSY, in_tmp / LOSSY.name)
    before = (in_tmp / LOSSY.name).read_bytes()
    assert main([*command, LOSSY.name, *given]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    shown = repr(given[-1].removeprefix("--select="))
    assert captured.err == (
        f"evaltools {command[0]}: error: --select {shown} names no rule: give rule codes, "
        "prefixes, names or ALL\n"
    )
    assert (in_tmp / LOSSY.name).read_bytes() == before


def test_a_select_with_a_trailing_comma_keeps_its_rules(
    in_tmp: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    shutil.copy(LOSSY, in_tmp / LOSSY.name)
    assert main(["lint", LOSSY.name, "--select", "EP108,"]) == 0
    assert f"{LOSSY.name}:6:1: EP108 [warning]" in capsys.readouterr().out
