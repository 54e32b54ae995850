from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from evaltools.retrieval.gold.discipline.holdout import insert_key, split_set
from evaltools.retrieval.records.gold_keys import replace_member_value
from evaltools.retrieval.records.record import RecordLine as Line
from evaltools.retrieval.records.set_file import JsonlFile
from evaltools.retrieval.records.strata import quotas, target_count


def jsonl(*raws: bytes, path: str = "s.jsonl") -> JsonlFile:
    records = []
    for number, raw in enumerate(raws, start=1):
        if raw.strip():
            records.append(Line(path, number, raw, json.loads(raw)))
    return JsonlFile(Path(path), path, list(raws), records)


def typed(count: int, kinds: tuple[str, ...] = ("identifier", "intent", "mixed")) -> JsonlFile:
    return jsonl(
        *(
            json.dumps({"qid": f"q{i}", "type": kinds[i % len(kinds)]}).encode() + b"\n"
            for i in range(count)
        )
    )


def test_split_inserts_the_key_and_keeps_every_other_byte() -> None:
    raws = [
        b'{"qid": "q1", "query": "a", "zzz": [1,  2]}\n',
        b"\n",
        b'{"qid":"q2","type":"mixed"}\n',
        b'{"qid": "q3", "split": "holdout"}\n',
        b'{"gold": {}, "qid": "q4" }   \n',
        b'{"qid": "q5"}',
    ]
    source = jsonl(*raws)
    result = split_set([source], 0.5, seed=1)
    out = result.files[0].data.split(b"\n")
    splits = {change.line.qid: change.after for change in result.changes}
    assert set(splits) == {"q1", "q2", "q4", "q5"}
    assert (
        out[0]
        == b'{"qid": "q1", "query": "a", "zzz": [1,  2], "split": "%s"}' % splits["q1"].encode()
    )
    assert out[1] == b""
    assert out[2] == b'{"qid":"q2","type":"mixed","split":"%s"}' % splits["q2"].encode()
    assert out[3] == raws[3].rstrip(b"\n")  # q3 kept its holdout: its type's quota is 2 of 4
    assert out[4] == b'{"gold": {}, "qid": "q4", "split": "%s" }   ' % splits["q4"].encode()
    assert out[5] == b'{"qid": "q5", "split": "%s"}' % splits["q5"].encode()  # no final newline
    # once written, a second run has nothing to do
    again = split_set([jsonl(*result.files[0].data.splitlines(keepends=True))], 0.5, seed=1)
    assert again.changes == [] and not again.files[0].changed


def test_insert_key_into_an_empty_object() -> None:
    assert insert_key(b"{}\r\n", "split", "tune") == b'{"split": "tune"}\r\n'


def test_a_move_rewrites_only_the_value_of_the_split_member() -> None:
    line = (
        '{"qid": "q1", "query": "\\"split\\": \\"tune\\"", "split" :  "tune" , "n": {"split": 1}}'
    )
    assert replace_member_value(line, "split", "holdout") == line.replace(
        '"split" :  "tune" ,', '"split" :  "holdout" ,'
    )
    with pytest.raises(ValueError, match="no `split` member"):
        replace_member_value('{"qid": "q"}', "split", "tune")


def test_too_many_holdouts_move_to_tune_worst_ranked_first() -> None:
    raws = [
        json.dumps({"qid": f"q{i}", "type": "intent", "split": "holdout"}).encode() + b"\n"
        for i in range(10)
    ]
    result = split_set([jsonl(*raws)], 0.2, seed=3)
    assert result.per_type == {"intent": (10, 2)}
    assert result.moved == 8 and result.assigned == 0
    assert all(change.after == "tune" for change in result.changes)
    kept = {f"q{i}" for i in range(10)} - {change.line.qid for change in result.changes}
    # the two kept are the same whatever order the lines come in
    shuffled = split_set([jsonl(*reversed(raws))], 0.2, seed=3)
    assert kept == {f"q{i}" for i in range(10)} - {c.line.qid for c in shuffled.changes}


def test_quotas_meet_every_type_within_one_and_the_total_exactly() -> None:
    assert quotas({"identifier": 20, "intent": 20, "mixed": 20}, 0.1) == {
        "identifier": 2,
        "intent": 2,
        "mixed": 2,
    }
    # 0.2 of 3, 3, 3 is 0.6 each and 1.8 in all: two types get one, in type order
    assert quotas({"mixed": 3, "intent": 3, "identifier": 3}, 0.2) == {
        "identifier": 1,
        "intent": 1,
        "mixed": 0,
    }
    assert target_count(0.1, 5) == 1  # a half rounds up, also where the float is below it
    assert target_count(0.1, 15) == 2
    assert target_count(0.2, 2) == 0


@pytest.mark.parametrize("value", ["train", None, 3])
def test_an_invalid_split_is_reported_and_nothing_planned(value: Any) -> None:
    raw = json.dumps({"qid": "q1", "split": value}).encode() + b"\n"
    result = split_set([jsonl(raw, b'{"qid": "q2"}\n')], 0.2, seed=1)
    assert [d.code for d in result.diagnostics] == ["RG404"]
    assert result.changes == [] and result.files == []


def test_a_repeated_qid_in_one_file_or_across_files_is_reported_and_nothing_planned() -> None:
    # Drawn one by one, the copies used to land apart: the tune one in t1, a holdout one in t2.
    tuned = jsonl(b'{"qid": "c", "type": "intent", "split": "tune"}\n', path="t1.jsonl")
    fresh = jsonl(b'{"qid": "c", "type": "intent"}\n', b'{"qid": "d"}\n', b'{"qid": "d"}\n')
    result = split_set([tuned, fresh], 0.9, seed=1)
    found = [(d.code, d.path, d.line, d.column, d.message) for d in result.diagnostics]
    assert [f[:4] for f in found] == [("RV004", "s.jsonl", 1, 9), ("RV004", "s.jsonl", 3, 9)]
    assert 'qid "c" is used again (first at t1.jsonl:1)' in found[0][4]
    assert 'qid "d" is used again (first at line 2)' in found[1][4]
    assert result.changes == [] and result.files == []


def test_per_type_counts_after_the_run() -> None:
    result = split_set([typed(40)], 0.2, seed=5)
    assert result.per_type == {"identifier": (14, 3), "intent": (13, 3), "mixed": (13, 2)}


def _assigned(kind: str, count: int, held: int, start: int = 0) -> list[bytes]:
    """`count` records of `kind`, the first `held` in holdout and the rest in tune."""
    return [
        json.dumps(
            {"qid": f"{kind}{i}", "type": kind, "split": "holdout" if i < held else "tune"}
        ).encode()
        + b"\n"
        for i in range(start, start + count)
    ]


def test_a_set_within_one_query_of_the_share_per_type_is_left_alone() -> None:
    # 20% of 12, 20, 8 is 2.4, 4, 1.6: the quotas would say 2, 4, 2, but 3, 4, 1 is within
    # one query of every type's share and of the set's, so nothing moves: no tune query
    # may enter the holdout, no holdout query needs to leave it.
    raws = [*_assigned("identifier", 12, 3), *_assigned("intent", 20, 4), *_assigned("mixed", 8, 1)]
    for seed in range(20):
        result = split_set([jsonl(*raws)], 0.2, seed=seed)
        assert result.changes == [], seed
        assert result.missing == {}
        assert result.per_type == {"identifier": (12, 3), "intent": (20, 4), "mixed": (8, 1)}


def test_a_tune_query_never_enters_the_holdout_the_missing_ones_are_counted() -> None:
    tuned = _assigned("intent", 10, 0)
    result = split_set([jsonl(*tuned)], 0.2, seed=3)
    assert result.changes == []
    assert result.missing == {"intent": 2}
    assert result.per_type == {"intent": (10, 0)}
    # a new query is drawn for the holdout, the rest stays missing
    new = json.dumps({"qid": "new", "type": "intent"}).encode() + b"\n"
    result = split_set([jsonl(*tuned, new)], 0.2, seed=3)
    assert [(c.line.qid, c.before, c.after) for c in result.changes] == [("new", None, "holdout")]
    assert result.missing == {"intent": 1}
    # a larger share draws new queries only, whatever the seed
    grown = [
        *_assigned("mixed", 10, 2),
        *(b'{"qid": "n%d", "type": "mixed"}\n' % i for i in range(3)),
    ]
    for seed in range(20):
        result = split_set([jsonl(*grown)], 0.5, seed=seed)
        assert {c.line.qid for c in result.changes} == {"n0", "n1", "n2"}
        assert all(c.after == "holdout" for c in result.changes)
        assert result.missing == {"mixed": 1}  # 5 of 13 held out, 6 is the floor of 6.5
