"""`evaltools validate` holds gold keys to the one chunk-ID grammar (`chunk_id.parse_chunk_id`),
and reads its inputs (records, a team's schema) as strictly everywhere; `--jobs 0`."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from evaltools.__main__ import main
from evaltools.parallel.processes import worker_count
from evaltools.retrieval.code.parsing import PARSE_COST

GOOD = {"qid": "q1", "query": "log out", "type": "intent", "gold": {"a/b.py:1-2:f": 3}}
# What `gold check` cannot resolve below the root: `validate` must not pass them either.
BAD_IDS = [
    "../x.py:1-2",
    "/abs.py:1-2",
    "a//b.py:1-2",
    "a.py/:1-2",
    "./a.py:1-2:f",
    "a/\x00.py:1-2",
    "a/\n.py:1-2",
    "a/\x7f.py:1-2",
    "a\\b.py:1-2",
]


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_ids_that_name_no_file_below_the_root_are_invalid(
    in_tmp: Path, capsys: pytest.CaptureFixture[str], jobs: str
) -> None:
    lines = [json.dumps({**GOOD, "qid": f"b{n}", "gold": {i: 2}}) for n, i in enumerate(BAD_IDS)]
    (in_tmp / "set.jsonl").write_text(json.dumps(GOOD) + "\n" + "\n".join(lines) + "\n")
    assert main(["validate", "set.jsonl", "--jobs", jobs, "--format", "json"]) == 1
    found = json.loads(capsys.readouterr().out)
    assert [(d["line"], d["column"], d["code"]) for d in found] == [
        (n, lines[n - 2].index('"gold"') + 10, "RV008") for n in range(2, len(BAD_IDS) + 2)
    ]
    assert all("relative to the root" in d["message"] for d in found)
    assert "\n" not in "".join(d["message"] for d in found)


def test_jobs_zero_is_every_core_and_a_negative_count_is_refused(
    in_tmp: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (in_tmp / "set.jsonl").write_text(json.dumps(GOOD) + "\n")
    assert main(["validate", "set.jsonl", "--jobs", "0"]) == 0
    assert capsys.readouterr().out == "All checks passed: 1 file.\n"
    assert main(["validate", "set.jsonl", "--jobs", "-2"]) == 2
    assert capsys.readouterr().err == (
        "evaltools validate: error: --jobs must be 0 (every core), 1 (no worker processes) "
        "or more; got -2\n"
    )


def test_worker_count() -> None:
    import os

    cores = len(os.sched_getaffinity(0))
    assert worker_count(0, items=1000, cost=PARSE_COST) == cores
    assert worker_count(3, items=1000, cost=PARSE_COST) == 3
    with pytest.raises(Exception, match="--jobs must be 0"):
        worker_count(-1, items=1000, cost=PARSE_COST)


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ('{"type": "object", "required": ["qid"], "required": ["owner"]}', 'key "required"'),
        ('{"type": "object", "maxProperties": NaN}', "NaN is not JSON"),
        ('{"type": "object", "title": "\\udc00"}', "lone UTF-16 surrogate"),
        ("[" * 100_000, "nested too deeply"),
    ],
)
def test_a_schema_is_read_as_strictly_as_the_records(
    in_tmp: Path, capsys: pytest.CaptureFixture[str], text: str, reason: str
) -> None:
    (in_tmp / "team.schema.json").write_text(text)
    (in_tmp / "set.jsonl").write_text(json.dumps(GOOD) + "\n")
    assert main(["validate", "set.jsonl", "--schema", "team.schema.json"]) == 2
    err = capsys.readouterr().err
    # At the mistake's line and column, as a finding in a record would be.
    assert re.match(
        r"evaltools validate: error: cannot read schema team\.schema\.json:1:\d+: ", err
    )
    assert reason in err and err.count("\n") == 1
