"""`gold split` takes the files it is given as one set: a qid may occur once in all of them."""

from __future__ import annotations

from pathlib import Path

import pytest

from evaltools.__main__ import main

RECORD = '{"qid": "c", "query": "z", "type": "intent", "gold": {"a.py:1-2:f": 3}'


def test_a_qid_tuned_in_one_file_never_enters_the_holdout_from_another(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    tuned = Path("t1.jsonl")
    tuned.write_text(RECORD + ', "split": "tune"}\n')
    fresh = Path("t2.jsonl")
    fresh.write_text(RECORD + '}\n{"qid": "d", "type": "intent"}\n{"qid": "d", "type": "intent"}\n')
    before = tuned.read_bytes(), fresh.read_bytes()
    assert main(["gold", "split", "t1.jsonl", "t2.jsonl", "--seed", "1", "--holdout", "0.9"]) == 1
    out = capsys.readouterr().out
    assert 't2.jsonl:1:9: RV004 [error] qid "c" is used again (first at t1.jsonl:1)' in out
    assert 't2.jsonl:3:9: RV004 [error] qid "d" is used again (first at line 2)' in out
    assert "Assigned a split" not in out
    assert (tuned.read_bytes(), fresh.read_bytes()) == before  # nothing written, not even d


def test_the_same_qid_in_two_files_is_not_a_finding_of_validate(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # validate checks files one by one (RV004's description): only gold split joins them.
    monkeypatch.chdir(tmp_path)
    for name in ("t1.jsonl", "t2.jsonl"):
        Path(name).write_text(RECORD + "}\n")
    assert main(["validate", "t1.jsonl", "t2.jsonl"]) == 0
    capsys.readouterr()
