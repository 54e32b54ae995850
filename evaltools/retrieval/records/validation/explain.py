"""Sentences a person understands, for a record that fails: jsonschema's errors, translated,
plus the checks a schema cannot express (3.0 as a grade, a span whose start is after its end).
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from evaltools.catalogue.io import TOO_MANY_GOLD_ENTRIES
from evaltools.diagnostics import Fix, Rule
from evaltools.jsonlocate import pointer as make_pointer
from evaltools.retrieval.code.chunk_id import ChunkIdError, is_valid_chunk_id, parse_chunk_id
from evaltools.retrieval.records.validation.fields import DRAFT, FIELDS, STATUS, misspelt
from evaltools.retrieval.records.validation.gold_limit import MAX_GOLD_ENTRIES, gold_over_limit
from evaltools.retrieval.records.validation.rules import (
    DRAFT_RECORD,
    INVALID_CHUNK_ID,
    INVALID_GRADE,
    INVALID_VALUE,
    MISSING_FIELD,
    MISSPELT_FIELD,
    REVERSED_SPAN,
    SCHEMA_VIOLATION,
    WRONG_TYPE,
)
from evaltools.retrieval.records.validation.schema import Validator

# jsonschema.exceptions.ValidationError; jsonschema ships no type hints.
ValidationError = Any


@dataclass(frozen=True)
class Problem:
    rule: Rule
    pointer: str  # JSON Pointer of the offending value ("" = the record itself)
    message: str
    at_key: bool = False  # the member's key is at fault (a chunk ID), not its value
    fix: Fix | None = None  # a "did you mean": the replacement


def explain(
    value: Any, validator: Validator, *, drafts: bool = False, known: tuple[str, ...] = FIELDS
) -> list[Problem]:
    """Every problem of one parsed line; one per pointer and rule, schema findings first
    (a misspelt field the schema forbids is its finding alone)."""
    too_many = list(_too_many_gold(value))
    if too_many:
        return too_many  # before the schema, which would check every entry
    problems: list[Problem] = []
    seen: set[tuple[str, str]] = set()
    for error in validator.iter_errors(value):
        for problem in _translate(error):
            _add(problems, seen, problem)
    faulted = {problem.pointer for problem in problems}
    for problem in beyond_schema(value, drafts=drafts, known=known):
        if problem.rule is not MISSPELT_FIELD or problem.pointer not in faulted:
            _add(problems, seen, problem)
    return problems


def _add(problems: list[Problem], seen: set[tuple[str, str]], problem: Problem) -> None:
    key = (problem.pointer, problem.rule.code)
    if key not in seen:
        seen.add(key)
        problems.append(problem)


def beyond_schema(
    value: Any, *, drafts: bool = False, known: tuple[str, ...] = FIELDS
) -> Iterator[Problem]:
    """What no JSON Schema can say: a draft in a set that takes none (unless `drafts`), an
    unknown field one typo away from a `known` one the record lacks, and about `gold`:
    integral floats as grades, and chunk IDs checked by the parser itself (its
    `start <= end` is the part a pattern cannot do).

    Lazy, and a problem is built only once it is found: the first `next()` is the yes/no of
    `fast_check`'s hot loop, at the cost of a few tests on a clean record."""
    if not isinstance(value, dict):
        return
    gold = value.get("gold")
    if isinstance(gold, dict) and len(gold) > MAX_GOLD_ENTRIES:
        yield from _too_many_gold(value)  # before anything that walks every entry
        return
    known_set = _FIELD_SET if known is FIELDS else _team_fields(known)
    if not value.keys() <= known_set:  # one C-level test for the common record
        yield from _misspelt(value, known)
    if not drafts and value.get(STATUS) == DRAFT:
        yield Problem(
            DRAFT_RECORD,
            make_pointer([STATUS]),
            'the record is a draft ("status": "draft", as `gold mine` writes it), so no person '
            "has reviewed its gold: review it and remove `status`, or list this set in `drafts` "
            "of [tool.evaltools.retrieval] if it collects drafts",
        )
    if not isinstance(gold, dict):
        return
    for chunk_id, grade in gold.items():
        integral = type(grade) is float and grade.is_integer()
        if integral or not _valid_id(chunk_id):
            where = make_pointer(("gold", chunk_id))
            problem = _chunk_id_problem(chunk_id, where)
            if problem is not None:
                yield problem
            if integral:
                yield Problem(
                    INVALID_GRADE, where, f"grade {grade!r} is not an integer: write {grade:.0f}"
                )


# A chunk ID is gold for several queries of a set: its verdict is remembered.
_valid_id = functools.lru_cache(maxsize=1 << 16)(is_valid_chunk_id)
_FIELD_SET = frozenset(FIELDS)


@functools.lru_cache(maxsize=8)
def _team_fields(known: tuple[str, ...]) -> frozenset[str]:
    return frozenset(known)


def _too_many_gold(value: Any) -> Iterator[Problem]:
    gold = value.get("gold") if isinstance(value, dict) else None
    found = gold_over_limit(gold) if isinstance(gold, dict) else None
    if found is not None:
        key, message = found
        yield Problem(TOO_MANY_GOLD_ENTRIES, make_pointer(("gold", key)), message, at_key=True)


def _misspelt(value: dict[str, Any], known: tuple[str, ...]) -> Iterator[Problem]:
    for name in value:
        near = misspelt(name, known)
        if near is not None and near not in value:
            yield Problem(
                MISSPELT_FIELD,
                make_pointer([name]),
                f"unknown field {_render(name)} (did you mean '{near}'?): rename it, or the "
                f"record is read without `{near}`",
                at_key=True,
                fix=Fix(json.dumps(name, ensure_ascii=False), json.dumps(near, ensure_ascii=False)),
            )


def _chunk_id_problem(chunk_id: str, where: str) -> Problem | None:
    try:
        parse_chunk_id(chunk_id)
    except ChunkIdError as exc:
        rule = REVERSED_SPAN if exc.reason == "reversed-span" else INVALID_CHUNK_ID
        return Problem(rule, where, str(exc), at_key=True)
    return None


# --- translating jsonschema's errors -----------------------------------------------------


def _translate(error: ValidationError) -> list[Problem]:
    path = list(error.absolute_path)
    keyword = str(error.validator)
    if "propertyNames" in error.absolute_schema_path:
        return [_key_problem(path, error)]
    if len(path) == 2 and path[0] == "gold":
        return [Problem(INVALID_GRADE, make_pointer(path), _grade_message(error))]
    if keyword == "required":
        return [
            Problem(
                MISSING_FIELD,
                make_pointer([*path, name]),
                f"{_owner(path)} has no `{name}` field: add it "
                f"(required: {', '.join(map(str, error.validator_value))})",
            )
            for name in error.validator_value
            if isinstance(error.instance, dict) and name not in error.instance
        ]
    if keyword in ("additionalProperties", "unevaluatedProperties") and isinstance(
        error.instance, dict
    ):
        extra = _unexpected(error)
        if extra:
            return [
                Problem(
                    SCHEMA_VIOLATION,
                    make_pointer([*path, name]),
                    f"field `{name}` is not allowed by the schema: remove it, or add it to "
                    "the schema's properties",
                    at_key=True,
                )
                for name in extra
            ]
    where = make_pointer(path)
    if keyword == "type":
        return [Problem(WRONG_TYPE, where, _type_message(path, error))]
    message = _value_message(path, keyword, error)
    if message is not None:
        return [Problem(INVALID_VALUE, where, message)]
    return [
        Problem(
            SCHEMA_VIOLATION,
            where,
            f"{_name(path)} breaks the schema's `{keyword}` rule ({_clip(error.message)}): "
            "change it to satisfy the schema",
        )
    ]


def _key_problem(path: list[str | int], error: ValidationError) -> Problem:
    key = str(error.instance)
    where = make_pointer([*path, key])
    if path == ["gold"]:
        return _chunk_id_problem(key, where) or Problem(
            INVALID_CHUNK_ID,
            where,
            f"chunk ID {_render(key)} is not allowed by the schema ({_clip(error.message)}): "
            "change it to the form the schema asks for",
            at_key=True,
        )
    return Problem(
        INVALID_VALUE,
        where,
        f"key {_render(key)} of {_name(path)} is not allowed by the schema "
        f"({_clip(error.message)}): rename it",
        at_key=True,
    )


def _unexpected(error: ValidationError) -> list[str]:
    schema = error.schema if isinstance(error.schema, dict) else {}
    declared = schema.get("properties", {})
    patterns = list(schema.get("patternProperties", {}))
    return [
        name
        for name in error.instance
        if name not in declared and not any(re.search(p, name) for p in patterns)
    ]


def _grade_message(error: ValidationError) -> str:
    grade = error.instance
    schema = error.schema if isinstance(error.schema, dict) else {}
    low, high = schema.get("minimum", 1), schema.get("maximum", 3)
    if isinstance(low, int) and isinstance(high, int) and 0 < high - low <= 4:
        choices = [str(n) for n in range(low, high + 1)]
        use = "use " + ", ".join(choices[:-1]) + " or " + choices[-1]
    else:
        use = f"use an integer from {low} to {high}"
    shown = _render(grade)
    if isinstance(grade, bool):
        return f"grade {shown} is a boolean: {use}"
    if isinstance(grade, str):
        digits = grade.strip()
        if re.fullmatch("[0-9]{1,3}", digits) and _within(int(digits), low, high):
            return f"grade {shown} is a string: write {int(digits)} without quotes"
        return f"grade {shown} is a string: {use}"
    if isinstance(grade, (int, float)):
        if isinstance(grade, float) and not grade.is_integer():
            return f"grade {shown} is not an integer: {use}"
        if error.validator in ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"):
            return f"grade {shown} is out of range: {use}"
        return f"grade {shown} is not allowed by the schema ({_clip(error.message)}): {use}"
    return f"grade {shown} is {json_type(grade)}, not a number: {use}"


def _within(number: int, low: object, high: object) -> bool:
    return isinstance(low, int) and isinstance(high, int) and low <= number <= high


_DEFAULT_PATTERNS = {
    ("query", "\\S"): "`query` is blank: write the query as a user or an agent would type it",
    ("revision", "^[0-9a-f]{40}(?![\\s\\S])"): "`revision` {value} is not a full commit hash: "
    "use the 40-character lowercase hash (git rev-parse HEAD)",
}


def _value_message(path: Sequence[str | int], keyword: str, error: ValidationError) -> str | None:
    name, value, limit = _name(path), error.instance, error.validator_value
    shown = _render(value)
    if keyword in ("enum", "const"):
        choices = limit if keyword == "enum" else [limit]
        listed = ", ".join(c if isinstance(c, str) else _render(c) for c in choices)
        return f"{name} {shown} is not one of {listed}: use one of them"
    if keyword == "pattern":
        special = _DEFAULT_PATTERNS.get((str(path[-1]) if path else "", str(limit)))
        if special is not None:
            return special.format(value=shown)
        return f"{name} {shown} does not match the pattern {limit!r}: change the value"
    if keyword == "minLength":
        if limit == 1:
            return f"{name} is empty: fill it in"
        return f"{name} {shown} is shorter than {limit} characters: lengthen it"
    if keyword == "maxLength":
        return f"{name} is longer than {limit} characters: shorten it"
    if keyword == "minProperties" and path == ["gold"] and limit == 1:
        return "`gold` is empty: add at least one chunk ID with its grade"
    if keyword == "uniqueItems":
        return f"{name} lists the same entry twice: list each one once"
    if keyword in _LIMITS:
        return f"{name} {_LIMITS[keyword]} {_render(limit)}: change it"
    return None


_LIMITS = {
    "minimum": "is below the minimum",
    "maximum": "is above the maximum",
    "exclusiveMinimum": "must be above",
    "exclusiveMaximum": "must be below",
    "minItems": "has fewer entries than",
    "maxItems": "has more entries than",
    "minProperties": "has fewer members than",
    "maxProperties": "has more members than",
    "multipleOf": "is not a multiple of",
}

_ARTICLES = {
    "object": "an object",
    "array": "an array",
    "string": "a string",
    "integer": "an integer",
    "number": "a number",
    "boolean": "a boolean",
    "null": "null",
}


def _type_message(path: Sequence[str | int], error: ValidationError) -> str:
    expected = error.validator_value
    wanted = [expected] if isinstance(expected, str) else list(expected)
    wanted_text = " or ".join(_ARTICLES.get(str(t), str(t)) for t in wanted)
    actual = json_type(error.instance)
    if not path:
        return (
            f"the line holds {actual}, not a record: each line must be one JSON object "
            '{"qid": ..., "query": ..., "type": ..., "gold": {...}}'
        )
    if isinstance(error.instance, str) and wanted == ["integer"]:
        return f"{_name(path)} is a string: write the number without quotes"
    return f"{_name(path)} is {actual}, not {wanted_text}: change it to {wanted_text}"


def json_type(value: Any) -> str:
    """The JSON type of a value with its article, as messages name it."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int):
        return "an integer"
    if isinstance(value, float):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "an array"
    return "an object"


def _name(path: Sequence[str | int]) -> str:
    if not path:
        return "the record"
    return "`" + "/".join(str(part) for part in path) + "`"


def _owner(path: Sequence[str | int]) -> str:
    return "record" if not path else _name(path)


def _render(value: Any, limit: int = 60) -> str:
    return _clip(json.dumps(value, ensure_ascii=False), limit)


def _clip(text: str, limit: int = 120) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"
