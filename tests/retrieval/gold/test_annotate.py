from __future__ import annotations

import json
from fractions import Fraction
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from evaltools.retrieval.gold.discipline.annotate import (
    Agreement,
    merge_annotations,
    sample_pairs,
    weighted_kappa,
)
from evaltools.retrieval.records.record import RecordLine as Line


def lines(*records: dict[str, Any], path: str = "a.jsonl") -> list[Line]:
    return [
        Line(path, n, json.dumps(r).encode() + b"\n", r) for n, r in enumerate(records, start=1)
    ]


def rec(qid: str, gold: dict[str, int], **extra: Any) -> dict[str, Any]:
    return {"qid": qid, "query": f"query {qid}", "type": "intent", "gold": gold, **extra}


# --- kappa -----------------------------------------------------------------------------------


def test_weighted_kappa_by_hand() -> None:
    # Pairs (A, B): (3,3) (3,2) (2,2) (1,2). Linear weights: same 1, one apart 1/2, two 0.
    # Observed: (1 + 1/2 + 1 + 1/2) / 4 = 3/4.
    # A's grades 3,3,2,1 -> p(3)=1/2 p(2)=1/4 p(1)=1/4; B's 3,2,2,2 -> p(3)=1/4 p(2)=3/4.
    # Expected: 1*(1/2)(1/4) + 1/2*(1/2)(3/4) + 1/2*(1/4)(1/4) + 1*(1/4)(3/4)
    #           + 1/2*(1/4)(3/4) = 4/32 + 6/32 + 1/32 + 6/32 + 3/32 = 5/8.
    # Kappa: (3/4 - 5/8) / (1 - 5/8) = 1/3.
    assert weighted_kappa([(3, 3), (3, 2), (2, 2), (1, 2)]) == float(Fraction(1, 3))
    assert weighted_kappa([(1, 1), (2, 2), (3, 3)]) == 1.0
    assert weighted_kappa([(1, 3), (3, 1)]) == -1.0
    assert weighted_kappa([(2, 2), (2, 2)]) is None  # no variation: kappa undefined
    assert weighted_kappa([]) is None


@given(st.lists(st.tuples(st.integers(1, 3), st.integers(1, 3)), min_size=1))
def test_weighted_kappa_is_symmetric_and_at_most_one(pairs: list[tuple[int, int]]) -> None:
    kappa = weighted_kappa(pairs)
    assert kappa == weighted_kappa([(b, a) for a, b in pairs])
    assert kappa is None or kappa <= 1.0


def test_agreement_counts_only_ids_graded_by_both() -> None:
    agreement = Agreement.of([(3, 3), (3, 2), (1, 3)], one_annotator=4)
    assert agreement.pairs == 3
    assert agreement.exact == 1 / 3
    assert agreement.within_one == 2 / 3
    assert agreement.one_annotator == 4
    assert Agreement.of([], 2).kappa is None


# --- merge -----------------------------------------------------------------------------------


def test_same_grades_are_accepted_with_all_fields_kept() -> None:
    first = lines(rec("q1", {"a.py:1-2:f": 3, "b.py:1-4:g": 2}, notes="n", annotators=["ann"]))
    second = lines(rec("q1", {"b.py:1-4:g": 2, "a.py:1-2:f": 3}, extra=1, annotators=["bob"]))
    result = merge_annotations(first, second)
    assert result.merged == [
        {
            "qid": "q1",
            "query": "query q1",
            "type": "intent",
            "gold": {"a.py:1-2:f": 3, "b.py:1-4:g": 2},
            "notes": "n",
            "annotators": ["ann", "bob"],
            "extra": 1,
        }
    ]
    assert result.conflicts == []
    assert result.agreement.exact == 1.0


def test_one_level_apart_keeps_the_whole_query_out_for_arbitration() -> None:
    # q1's agreed grade of "a" alone would look like a final record without "b"
    first = lines(rec("q1", {"a": 3, "b": 2}), rec("q2", {"c": 1}), rec("q3", {"d": 2}))
    second = lines(
        rec("q1", {"a": 3, "b": 1}), rec("q2", {"c": 2}), rec("q3", {"d": 2}), path="b.jsonl"
    )
    result = merge_annotations(first, second)
    assert [r["qid"] for r in result.merged] == ["q3"]
    assert result.conflicts == [
        {
            "qid": "q1",
            "query": "query q1",
            "status": "arbitrate",
            "grades": {"a": [3, 3], "b": [2, 1]},
        },
        {"qid": "q2", "query": "query q2", "status": "arbitrate", "grades": {"c": [1, 2]}},
    ]
    assert result.counts["arbitrate"] == 2
    assert [(d.code, d.path, d.line, d.pointer) for d in result.findings] == [
        ("RG406", "b.jsonl", 1, "/gold/b"),
        ("RG406", "b.jsonl", 2, "/gold/c"),
    ]


def test_two_levels_apart_makes_the_whole_query_ambiguous() -> None:
    first = lines(rec("q1", {"a": 3, "b": 3, "c": 2}))
    second = lines(rec("q1", {"a": 3, "b": 1, "d": 1}))
    result = merge_annotations(first, second)
    assert result.merged == []
    assert result.conflicts == [
        {
            "qid": "q1",
            "query": "query q1",
            "status": "ambiguous",
            "grades": {"a": [3, 3], "b": [3, 1], "c": [2, None], "d": [None, 1]},
        }
    ]


def test_a_chunk_one_annotator_did_not_grade_counts_as_their_0() -> None:
    first = lines(
        rec("q1", {"a": 2}), rec("q2", {"a": 2, "b": 3}), rec("only-a", {"x": 1}), path="a.jsonl"
    )
    second = lines(
        rec("q1", {"a": 2, "c": 1}), rec("q2", {"a": 2}), rec("only-b", {"y": 3}), path="b.jsonl"
    )
    result = merge_annotations(first, second)
    assert result.merged == []
    assert result.conflicts == [
        {
            "qid": "q1",
            "query": "query q1",
            "status": "arbitrate",  # c: 1 against no grade, 0
            "grades": {"a": [2, 2], "c": [None, 1]},
        },
        {
            "qid": "q2",
            "query": "query q2",
            "status": "ambiguous",  # b: 3 against no grade, 0
            "grades": {"a": [2, 2], "b": [3, None]},
        },
        {
            "qid": "only-a",
            "query": "query only-a",
            "status": "unpaired",
            "grades": {"x": [1, None]},
        },
        {
            "qid": "only-b",
            "query": "query only-b",
            "status": "unpaired",
            "grades": {"y": [None, 3]},
        },
    ]
    # each finding where the grade is: in the file of the annotator who gave it
    assert sorted((d.code, d.path, d.line, d.pointer) for d in result.findings) == [
        ("RG406", "b.jsonl", 1, "/gold/c"),
        ("RG407", "a.jsonl", 2, "/gold/b"),
        ("RG408", "a.jsonl", 3, "/qid"),
        ("RG408", "b.jsonl", 3, "/qid"),
    ]
    # the agreement figures stay those of the chunks both graded
    assert result.agreement.pairs == 2
    assert result.agreement.one_annotator == 2


def test_merge_refuses_duplicates_and_different_queries() -> None:
    twice = lines(rec("q1", {"a": 1}), rec("q1", {"a": 2}))
    result = merge_annotations(twice, lines(rec("q1", {"a": 1})))
    assert [(d.code, d.line) for d in result.diagnostics] == [("RG402", 2)]
    other = lines({**rec("q1", {"a": 1}), "query": "something else"}, path="b.jsonl")
    result = merge_annotations(lines(rec("q1", {"a": 1})), other)
    assert [(d.code, d.path) for d in result.diagnostics] == [("RG403", "b.jsonl")]
    assert result.merged == []


# --- sample ----------------------------------------------------------------------------------


def _set(count: int, start: int = 0) -> list[Line]:
    kinds = ["identifier", "intent", "intent", "mixed", "intent"]
    return lines(
        *(
            {**rec(f"q{i}", {f"f{i}.py:1-3:a": 3, f"g{i}.py:4-9:b": 2}), "type": kinds[i % 5]}
            for i in range(start, start + count)
        )
    )


def test_the_audit_sample_is_reproducible_grouped_by_type_and_meets_the_quotas() -> None:
    small = _set(200)  # 400 pairs: identifier 80, intent 240, mixed 80
    sample = sample_pairs(small, 0.1, seed=3)
    assert sample.pairs == sample_pairs(small, 0.1, seed=3).pairs
    assert sample.pairs != sample_pairs(small, 0.1, seed=4).pairs
    assert sum(sample.totals.values()) == 400
    assert sample.sampled == {"identifier": 8, "intent": 24, "mixed": 8}
    order = ["identifier", "intent", "mixed"]
    types = [str(p["type"]) for p in sample.pairs]
    assert types == sorted(types, key=order.index)
    # in a grown set the old pairs of a type are still taken in the same rank order, so of
    # the old sample and the old pairs in the new one, one contains the other, per type
    bigger = sample_pairs(small + _set(100, start=200), 0.1, seed=3)
    for kind in order:
        before = {(p["qid"], p["chunk_id"]) for p in sample.pairs if p["type"] == kind}
        after = {
            (p["qid"], p["chunk_id"])
            for p in bigger.pairs
            if p["type"] == kind and int(str(p["qid"])[1:]) < 200
        }
        assert before <= after or after <= before, kind
    assert len(sample_pairs(small, 1.0, seed=0).pairs) == 400


def test_untyped_records_come_last() -> None:
    untyped = lines({"qid": "z", "gold": {"a": 1}}, rec("y", {"b": 2}))
    sample = sample_pairs(untyped, 1.0, seed=0)
    assert [p["qid"] for p in sample.pairs] == ["y", "z"]
    assert sample.totals == {"intent": 1, "(none)": 1}
