"""IO010: a retrieval record whose `gold` holds more than 1,000 entries is refused at the
first key past the limit, by `validate`, `check`, `gold check` and `gold eval` alike, before
any of its gold is followed through git (100,000 entries held `gold check` and `gold eval`
past a minute; issue 33.8)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from evaltools.__main__ import main
from tests.retrieval.gitrepo import GitRepo

LIMIT = 1_000
MESSAGE = (
    "IO010 [error] `gold` holds 1,001 entries, over the 1,000 a record may hold (this is the "
    "first past it): keep the chunks that answer the query, or split the query into "
    "narrower records"
)


def make_set(folder: Path) -> tuple[bytes, int]:
    """A repository with `a.py`, and a set: one good record, one with 1,001 gold IDs; the
    set's bytes and the column of the 1,001st key on line 2."""
    repo = GitRepo(folder)
    repo.write("a.py", "def f():\n    return 1\n")
    repo.commit()
    good = {"qid": "q0", "query": "y", "type": "intent", "gold": {"a.py:1-2:f": 3}}
    many = {f"src/m{i}.py:1-2:f{i}": 1 for i in range(LIMIT + 1)}
    big = {"qid": "q1", "query": "x", "type": "intent", "gold": many}
    data = (json.dumps(good) + "\n" + json.dumps(big) + "\n").encode()
    (folder / "set.jsonl").write_bytes(data)
    (folder / "run.jsonl").write_text(json.dumps({"qid": "q0", "ids": ["a.py:1-2:f"]}) + "\n")
    line = json.dumps(big)
    return data, line.index(f'"src/m{LIMIT}.py') + 1


@pytest.mark.parametrize(
    "argv",
    [
        ["validate", "set.jsonl"],
        ["check", "set.jsonl"],
        ["gold", "check", "set.jsonl", "--root", "."],
        ["gold", "check", "set.jsonl", "--root", ".", "--no-cache"],
        ["gold", "eval", "run.jsonl", "--set", "set.jsonl", "--root", "."],
    ],
    ids=lambda argv: " ".join(argv[:2]),
)
def test_a_record_past_the_limit_is_io010_at_its_first_key_past_it(
    in_tmp: Path, capsys: pytest.CaptureFixture[str], argv: list[str]
) -> None:
    data, column = make_set(in_tmp)
    capsys.readouterr()
    assert main(argv) == 1
    captured = capsys.readouterr()
    out = captured.out + captured.err  # gold eval tells its refusal on stderr
    assert f"set.jsonl:2:{column}: {MESSAGE}" in out
    assert out.count("IO010") == 1  # once, in `check` too (validate's and the gold check's)
    assert (in_tmp / "set.jsonl").read_bytes() == data


def test_gold_check_follows_none_of_the_records_gold(
    in_tmp: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The work done: only the other record's one ID is resolved (not 1,002), so no file
    of the 1,001 is looked for."""
    make_set(in_tmp)
    capsys.readouterr()
    assert main(["gold", "check", "set.jsonl", "--root", ".", "--no-cache"]) == 1
    out = capsys.readouterr().out
    assert "1 gold IDs in 1 file: 1 ok; 1 other error." in out
    assert "missing_file" not in out and "RG00" not in out


def test_a_record_at_the_limit_is_checked_as_any_other(
    in_tmp: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    gold = {f"a.py:1-{i}": 1 for i in range(2, LIMIT + 2)}
    record = {"qid": "q1", "query": "x", "type": "intent", "gold": gold}
    Path("set.jsonl").write_text(json.dumps(record) + "\n")
    assert main(["validate", "set.jsonl"]) == 0
    assert "IO010" not in capsys.readouterr().out
