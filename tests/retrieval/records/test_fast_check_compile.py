"""The schema compiler says what jsonschema says for any schema it accepts, refuses the rest."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from evaltools.retrieval.records.validation.fast_check import compile_schema
from evaltools.retrieval.records.validation.schema import build_validator, default_schema

SCHEMAS: list[dict[str, Any]] = [
    default_schema(),
    {"type": "object", "required": ["a"], "properties": {"a": {"type": "integer"}}},
    {"properties": {"a": {"pattern": "\\S", "maxLength": 3}, "n": {"minimum": 0.5}}},
    {"type": "array", "items": {"type": "string", "minLength": 1}, "uniqueItems": True},
    {"propertyNames": {"pattern": "^x"}, "additionalProperties": {"enum": ["a", "b"]}},
    {"properties": {"k": {"type": "number", "maximum": 3}}, "additionalProperties": False},
]

JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 5) | st.floats(-5, 5) | st.text(max_size=4),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner),
    max_leaves=8,
)
KEYS = st.sampled_from(["a", "n", "k", "x1", "xy", "qid", "gold", "type", "query", ""])
OBJECTS = st.dictionaries(KEYS, JSON, max_size=4)


@pytest.mark.parametrize("index", range(len(SCHEMAS)))
@settings(max_examples=300, deadline=None)
@given(value=JSON | OBJECTS)
def test_the_compiled_check_agrees_with_jsonschema(index: int, value: Any) -> None:
    schema = SCHEMAS[index]
    compiled = compile_schema(schema)
    assert compiled is not None
    assert compiled(value) == build_validator(schema).is_valid(value)


@pytest.mark.parametrize(
    "schema",
    [
        {"format": "date"},
        {"type": ["string", "null"]},
        {"enum": [1, "a"]},
        {"$ref": "https://example.invalid/other.json"},
        {"items": {}, "uniqueItems": True},
        {"$schema": "http://json-schema.org/draft-07/schema#", "type": "object"},
        {"$defs": {"a": {"$ref": "#/$defs/a"}}, "$ref": "#/$defs/a"},
        {"pattern": "("},
        {"$defs": [], "$ref": "#/$defs/a"},
    ],
)
def test_a_schema_beyond_the_compiler_is_left_to_jsonschema(schema: dict[str, Any]) -> None:
    assert compile_schema(schema) is None


def test_whitespace_queries_fail_as_the_pattern_says() -> None:
    compiled = compile_schema({"properties": {"q": {"pattern": "\\S"}}})
    assert compiled is not None
    for text in ["", " ", "\u2003\n", "a", " a "]:
        value = {"q": text}
        assert compiled(value) == build_validator(
            {"properties": {"q": {"pattern": "\\S"}}}
        ).is_valid(value)
