"""What a person reads for each kind of schema error, including a team's own schema."""

from __future__ import annotations

from typing import Any

import pytest

from evaltools.retrieval.code.chunk_id import ChunkId, ChunkIdError, parse_chunk_id
from evaltools.retrieval.records.validation.explain import Problem, explain
from evaltools.retrieval.records.validation.schema import (
    build_validator,
    default_schema,
    default_schema_id,
)

GOOD = {"qid": "q1", "query": "x", "type": "intent", "gold": {"a.py:1-2:f": 3}}


def problems(value: Any, schema: dict[str, Any] | None = None) -> list[tuple[str, str, str]]:
    validator = build_validator(schema if schema is not None else default_schema())
    return [(p.rule.code, p.pointer, p.message) for p in explain(value, validator)]


def extended(**properties: Any) -> dict[str, Any]:
    return {"allOf": [{"$ref": default_schema_id()}], "properties": properties}


def test_a_clean_record_has_no_problems() -> None:
    assert problems(GOOD) == []


def test_several_missing_fields_each_get_a_finding() -> None:
    assert [p[:2] for p in problems({"query": "x"})] == [
        ("RV005", "/qid"),
        ("RV005", "/type"),
        ("RV005", "/gold"),
    ]


@pytest.mark.parametrize(
    ("schema", "value", "expected"),
    [
        (
            extended(owner={"type": "string", "minLength": 3}),
            {**GOOD, "owner": "ab"},
            ("RV010", "/owner", '`owner` "ab" is shorter than 3 characters: lengthen it'),
        ),
        (
            extended(notes={"maxLength": 2}),
            {**GOOD, "notes": "abc"},
            ("RV010", "/notes", "`notes` is longer than 2 characters: shorten it"),
        ),
        (
            extended(score={"minimum": 0}),
            {**GOOD, "score": -1},
            ("RV010", "/score", "`score` is below the minimum 0: change it"),
        ),
        (
            extended(tags={"type": "array", "minItems": 1}),
            {**GOOD, "tags": []},
            ("RV010", "/tags", "`tags` has fewer entries than 1: change it"),
        ),
        (
            extended(version={"const": 2}),
            {**GOOD, "version": 1},
            ("RV010", "/version", "`version` 1 is not one of 2: use one of them"),
        ),
        (
            extended(count={"type": ["integer", "null"]}),
            {**GOOD, "count": "3"},
            (
                "RV006",
                "/count",
                "`count` is a string, not an integer or null: change it to an integer or null",
            ),
        ),
        (
            extended(count={"type": "integer"}),
            {**GOOD, "count": "3"},
            ("RV006", "/count", "`count` is a string: write the number without quotes"),
        ),
        (
            extended(meta={"type": "object", "properties": {"n": {"type": "integer"}}}),
            {**GOOD, "meta": {"n": 1.5}},
            ("RV006", "/meta/n", "`meta/n` is a number, not an integer: change it to an integer"),
        ),
        (
            extended(meta={"propertyNames": {"pattern": "^[a-z]+$"}}),
            {**GOOD, "meta": {"Bad": 1}},
            (
                "RV010",
                "/meta/Bad",
                "key \"Bad\" of `meta` is not allowed by the schema ('Bad' does not match "
                "'^[a-z]+$'): rename it",
            ),
        ),
        (
            extended(gold={"propertyNames": {"pattern": "^src/"}}),
            {**GOOD},
            (
                "RV008",
                "/gold/a.py:1-2:f",
                "chunk ID \"a.py:1-2:f\" is not allowed by the schema ('a.py:1-2:f' does not match "
                "'^src/'): change it to the form the schema asks for",
            ),
        ),
        (
            extended(extra={"anyOf": [{"type": "string"}, {"type": "integer"}]}),
            {**GOOD, "extra": None},
            (
                "RV011",
                "/extra",
                "`extra` breaks the schema's `anyOf` rule (None is not valid under any of the "
                "given schemas): change it to satisfy the schema",
            ),
        ),
    ],
)
def test_messages_of_a_team_schema(
    schema: dict[str, Any], value: dict[str, Any], expected: tuple[str, str, str]
) -> None:
    assert problems(value, schema) == [expected]


def test_fields_a_closed_schema_does_not_allow() -> None:
    schema = {
        "type": "object",
        "properties": {"qid": True},
        "patternProperties": {"^x-": True},
        "additionalProperties": False,
    }
    value = {"qid": "q", "x-kept": 1, "colour": "red", "size": 2}
    assert [p[:2] for p in problems(value, schema)] == [("RV011", "/colour"), ("RV011", "/size")]
    closed = {"unevaluatedProperties": False, "properties": {"qid": True}}
    assert [p[:2] for p in problems({"qid": "q", "b": 1}, closed)] == [("RV011", "/b")]
    # A keyword that reports no name of its own falls back to the general finding.
    bounded = {"additionalProperties": False, "properties": {"a": True}, "maxProperties": 0}
    assert [p[:2] for p in problems({"a": 1}, bounded)] == [("RV010", "")]


@pytest.mark.parametrize(
    ("grade_schema", "grade", "message"),
    [
        (
            {"type": "integer", "minimum": 0, "maximum": 10},
            11,
            "grade 11 is out of range: use an integer from 0 to 10",
        ),
        (
            {"type": "integer", "minimum": 0, "maximum": 10},
            "11",
            'grade "11" is a string: use an integer from 0 to 10',
        ),
        (
            {"type": "integer", "minimum": 0, "maximum": 10},
            "7",
            'grade "7" is a string: write 7 without quotes',
        ),
        (
            {"type": "integer", "minimum": 1, "maximum": 3},
            "９",
            'grade "９" is a string: use 1, 2 or 3',
        ),
        (
            {"type": "integer", "minimum": 1, "maximum": 3},
            [3],
            "grade [3] is an array, not a number: use 1, 2 or 3",
        ),
        (
            {"multipleOf": 2, "minimum": 1, "maximum": 4},
            3,
            "grade 3 is not allowed by the schema (3 is not a multiple of 2): use 1, 2, 3 or 4",
        ),
    ],
)
def test_grade_messages_follow_the_schema_range(
    grade_schema: dict[str, Any], grade: Any, message: str
) -> None:
    schema = {"properties": {"gold": {"additionalProperties": grade_schema}}}
    (problem,) = problems({"gold": {"a.py:1-2": grade}}, schema)
    assert problem == ("RV007", "/gold/a.py:1-2", message)


def test_long_values_are_clipped() -> None:
    ((_, _, message),) = problems({**GOOD, "type": "x" * 200})
    assert message.startswith('`type` "xxxx')
    assert "…" in message and len(message) < 150


def test_problem_defaults() -> None:
    problem = Problem(rule=explain.__globals__["INVALID_VALUE"], pointer="", message="m")
    assert not problem.at_key


def test_chunk_id_values() -> None:
    parsed = parse_chunk_id("src/a.py:3-8:Store.kill")
    assert parsed == ChunkId("src/a.py", 3, 8, "Store.kill")
    assert str(parsed) == "src/a.py:3-8:Store.kill"
    assert str(parsed.with_span(9, 14)) == "src/a.py:9-14:Store.kill"
    assert str(parsed.with_path("lib/a.py")) == "lib/a.py:3-8:Store.kill"
    assert str(ChunkId("a.py", 1, 2)) == "a.py:1-2"
    assert ChunkIdError("message").reason == "other"
