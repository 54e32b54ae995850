"""Degenerate files of records (a million blank lines, a million `{}`): each line is still a
finding at its place, but a line that recurs is explained once, and a rule's selection is
decided once per file, not per finding (issue 33.8: `validate` spent ~0.5 ms on each `{}`)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from evaltools.__main__ import main
from evaltools.example.spec import example_from_json_dict
from evaltools.retrieval.records.validation import validate
from evaltools.selection import RuleSelection

LINES = 20_000


def test_a_recurring_line_is_explained_once_and_reported_at_every_line(
    in_tmp: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    Path("set.jsonl").write_text("{}\n" * LINES + "\n" * LINES)
    explained: list[int] = []
    real = validate.Checker.explain

    def counted(self: validate.Checker, value: object) -> object:
        explained.append(1)
        return real(self, value)

    monkeypatch.setattr(validate.Checker, "explain", counted)
    assert main(["validate", "set.jsonl", "--jobs", "1"]) == 1
    out = capsys.readouterr().out.splitlines()
    assert len(explained) == 2  # line 1's `{}` (a first line may carry a BOM), and one other
    missing = [line for line in out if ": RV005 [error] record has no `qid` field" in line]
    assert [line.split(":")[1] for line in missing] == [str(n) for n in range(1, LINES + 1)]
    blank = [line for line in out if ": RV002 [error] line is blank" in line]
    assert len(blank) == LINES
    assert blank[-1].startswith(f"set.jsonl:{2 * LINES}:1: RV002")


def test_a_rules_selection_is_decided_once_per_file(
    in_tmp: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    Path("set.jsonl").write_text("\n" * LINES)
    decided: list[str] = []
    real = RuleSelection.enabled

    def counted(self: RuleSelection, code: str, name: str, path: str) -> bool:
        decided.append(code)
        return real(self, code, name, path)

    monkeypatch.setattr(RuleSelection, "enabled", counted)
    assert main(["validate", "set.jsonl", "--jobs", "1"]) == 1
    assert capsys.readouterr().out.count(": RV002 [error]") == LINES
    assert decided == ["RV002"]


@pytest.mark.parametrize("command", ["lint", "check", "dupes"])
def test_a_recurring_example_line_is_read_once_and_reported_at_every_line(
    in_tmp: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    command: str,
) -> None:
    from evaltools.example import records

    monkeypatch.setattr(records, "_REFUSED_LINES", {}, raising=False)  # a fresh memory
    Path("o--x.jsonl").write_text("{}\n" * LINES + "\n" * 3)
    read: list[object] = []

    def counted(value: Any) -> object:
        read.append(value)
        return example_from_json_dict(value)

    monkeypatch.setattr(records, "example_from_json_dict", counted)
    assert main([command, "o--x.jsonl", "--jobs", "1"]) == 1
    out = capsys.readouterr().out.splitlines()
    assert read == [{}]
    refused = [line for line in out if line.startswith("o--x.jsonl:") and "{}" not in line]
    lines = [int(line.split(":")[1]) for line in refused]
    assert lines == list(range(1, LINES + 4))
