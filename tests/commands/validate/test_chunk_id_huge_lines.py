"""A 5,000-digit line number in a chunk ID is a finding at its line in every command that
reads gold IDs (`int` refuses such strings: it used to end in "internal error")."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from evaltools.__main__ import main
from evaltools.retrieval.code.chunk_id import ChunkIdError, is_valid_chunk_id, parse_chunk_id

HUGE = "1" * 5000
BAD_ID = f"src/mod.py:{HUGE}-{HUGE}:target"
GOOD_ID = "src/mod.py:5-6:target"
CODE = "def helper():\n    return 1\n\n\ndef target(x):\n    return x + 1\n"


def _record(qid: str, *ids: str) -> str:
    gold = dict.fromkeys(ids, 3)
    return json.dumps({"qid": qid, "query": "add one", "type": "intent", "gold": gold}) + "\n"


@pytest.fixture
def project(in_tmp: Path) -> Path:
    (in_tmp / "src").mkdir()
    (in_tmp / "src" / "mod.py").write_text(CODE)
    (in_tmp / "evals").mkdir()
    # line 1: clean; line 2: the huge ID next to a stale one, which is still checked
    (in_tmp / "evals" / "retrieval.jsonl").write_text(
        _record("q1", GOOD_ID) + _record("q2", BAD_ID, "src/mod.py:1-1:target")
    )
    return in_tmp


def test_the_parser_reports_the_digits_and_shortens_the_id() -> None:
    with pytest.raises(ChunkIdError) as caught:
        parse_chunk_id(BAD_ID)
    assert caught.value.reason == "huge-line"
    message = str(caught.value)
    assert "has a line number of 5000 digits" in message and len(message) < 300
    assert not is_valid_chunk_id(BAD_ID)
    # leading zeros are not digits that count, in either check
    assert parse_chunk_id("a.py:" + "0" * 5000 + "7-8:f").start == 7
    assert is_valid_chunk_id("a.py:" + "0" * 5000 + "7-8:f")
    assert parse_chunk_id("a.py:1-999999999").end == 999_999_999
    assert not is_valid_chunk_id("a.py:1-1000000000")


def test_validate_reports_it_at_its_line(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["validate", "evals/retrieval.jsonl"]) == 1
    out = capsys.readouterr().out
    lines = [line for line in out.splitlines() if "RV008" in line]
    assert len(lines) == 1 and lines[0].startswith("evals/retrieval.jsonl:2:")
    assert "line number of 5000 digits" in lines[0]


def test_gold_check_reports_it_and_checks_the_rest(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["gold", "check", "evals/retrieval.jsonl", "--root", "."]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("evals/retrieval.jsonl:2:") and " RG006 " in out[0]
    assert "line number of 5000 digits" in out[0]
    assert " RG001 " in out[1]  # the stale ID of the same record was still resolved
    assert out[-1] == "2 gold IDs in 1 file: 1 ok, 1 moved; 1 other error."


def test_check_reports_it(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (project / "pyproject.toml").write_text(
        '[tool.evaltools.retrieval]\nsets = ["evals/retrieval.jsonl"]\nroot = "."\n'
    )
    assert main(["check", "--format", "json"]) == 1
    found = json.loads(capsys.readouterr().out)
    codes = sorted((d["line"], d["code"]) for d in found)
    # Validate's RV008 says it; the gold check's RG006 at the same key is not said twice.
    assert (2, "RV008") in codes and (2, "RG006") not in codes and (2, "RG001") in codes
