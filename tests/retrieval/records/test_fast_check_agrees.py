"""The schema compiled by `fast_check` and jsonschema give the same answers.

`record_is_clean` decides alone for most records; it is only correct if it says "clean"
exactly when jsonschema with the shipped schema, plus `beyond_schema` (one implementation:
the fast path asks it for its first problem, `explain` for all), finds nothing. The
chunk-ID pattern of the schema must also accept exactly what `parse_chunk_id` accepts
(except `start > end`, which a pattern cannot compare).
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from evaltools.retrieval.code import chunk_id
from evaltools.retrieval.code.chunk_id import ChunkIdError, is_valid_chunk_id, parse_chunk_id
from evaltools.retrieval.records.validation.explain import explain
from evaltools.retrieval.records.validation.fast_check import record_is_clean
from evaltools.retrieval.records.validation.schema import build_validator, default_schema
from evaltools.retrieval.records.validation.validate import Checker

SCHEMA = default_schema()
VALIDATOR = build_validator(SCHEMA)
CHUNK_PATTERN = SCHEMA["$defs"]["chunkId"]["pattern"]
SLOW = Checker(json.dumps(SCHEMA))  # a user schema that happens to be ours: jsonschema path


def schema_accepts_id(text: str) -> bool:
    return re.search(CHUNK_PATTERN, text) is not None


def parser_verdict(text: str) -> str:
    try:
        parse_chunk_id(text)
    except ChunkIdError as exc:
        return exc.reason
    return "ok"


# --- chunk IDs ------------------------------------------------------------------------------

HAND_IDS = [
    "demo_repo/auth/session.py:3-8:kill_session",
    "demo_repo/auth/session.py:3-8",
    "a.py:1-1:f",
    "c:/win/x.py:1-2:f",
    "a:b:1-2",
    "a.py:01-2:f",
    "a.py:0-2:f",
    "a.py:00-2:f",
    "a.py:5-3:f",
    "a.py:1-2:",
    ":1-2:f",
    ":1-2",
    "a.py",
    "a.py:1-2x",
    "a.py:1-2:b:3-4",
    "a.py:1-2:b:0-4",
    "a.py:1-2:b:3-4:",
    "a.py:1-2:0-3",
    "a.py:1-2\n",
    "a.py:1-2:f\n",
    "a.py:٣-٤:f",
    "a.py:1--2:f",
    "a.py::1-2:f",
    "a.py:1-2::",
    "a.py:1-2:3-",
    "",
    ":",
    "a.py:1-2:Outer.Inner.fn",
    "x:1-2:y:z",
    "x:1-2:y:2-1",
    # paths: POSIX, relative to the root, nothing git's line-based plumbing cannot carry
    "a/b/c.py:1-2:f",
    "...:1-2",
    ".a/b.:1-2",
    "a/..b/c..:1-2",
    "../x.py:1-2",
    "/abs.py:1-2",
    "a//b.py:1-2",
    "a.py/:1-2",
    "./a.py:1-2",
    "a/./b.py:1-2",
    "a/..:1-2",
    "..:1-2",
    ".:1-2:f",
    "a/..:5-3",
    "a\x00.py:1-2",
    "a\n.py:1-2",
    "a\t.py:1-2",
    "a\x1f.py:1-2",
    "a\x7f.py:1-2",
    "a\x80.py:1-2",
    "a\\b.py:1-2",
    "..:1-2:x:3-4",
    "a/..:1-2:x",
    "a/:1-2:3-4",
    "a.py:1-2:../x",
    "a.py:1-2:a\\b",
    "a.py:1-2:\x00",
    # line numbers: at most 9 significant digits (`int` refuses more than 4,300)
    "a.py:999999999-999999999:f",
    "a.py:1000000000-1000000000:f",
    "a.py:1-1000000000",
    "a.py:0000000000001-00000000002",
    "a.py:" + "1" * 5000 + "-2:f",
    "a.py:1-" + "0" * 5000 + "2",
    "x:1-2:y:3-" + "9" * 5000,
]
BAD_PATHS = [
    "../x.py:1-2",
    "/abs.py:1-2",
    "a//b.py:1-2",
    "a.py/:1-2",
    "a/./b.py:1-2:f",
    "a\x00.py:1-2",
    "a\n.py:1-2",
    "a\x7f.py:1-2",
    "a\\b.py:1-2",
]

id_alphabet = st.sampled_from(list(":-0123456789ab/.\n_٣ \\\x00\t\x7f\x80"))
id_text = st.text(id_alphabet, max_size=24)
digits = st.from_regex(r"\A[0-9]{1,3}\Z") | st.sampled_from(["0", "00", "٣", ""])
# Paths part by part, so that `.`, `..` and empty parts come up as often as good ones.
path_part = st.sampled_from(
    ["", ".", "..", "...", "a", "b.py", ".a", "a:1-2", "a\\b", "\x00", "\n"]
)
structured_path = st.lists(path_part, min_size=1, max_size=4).map("/".join)
structured_id = st.builds(
    lambda path, a, b, tail: f"{path}:{a}-{b}{tail}",
    structured_path | st.text(id_alphabet, max_size=8),
    digits,
    digits,
    st.sampled_from(["", ":", ":f", ":A.b", ":1-2", ":0-3", ":x:5-2", ":\n", ":../x"]) | id_text,
)
chunk_ids = st.sampled_from(HAND_IDS) | structured_id | id_text


@pytest.mark.parametrize("text", HAND_IDS)
def test_hand_written_ids_agree(text: str) -> None:
    verdict = parser_verdict(text)
    assert schema_accepts_id(text) == (verdict in ("ok", "reversed-span"))
    assert is_valid_chunk_id(text) == (verdict == "ok")


@settings(max_examples=1500, suppress_health_check=[HealthCheck.too_slow])
@given(chunk_ids)
def test_pattern_and_parser_agree(text: str) -> None:
    verdict = parser_verdict(text)
    assert schema_accepts_id(text) == (verdict in ("ok", "reversed-span")), verdict
    assert is_valid_chunk_id(text) == (verdict == "ok")


@pytest.mark.parametrize("text", BAD_PATHS)
def test_paths_that_name_no_file_below_the_root_fail_every_check(text: str) -> None:
    assert parser_verdict(text) == "bad-path"
    assert not schema_accepts_id(text)
    assert not is_valid_chunk_id(text)
    record = {**GOOD, "gold": {text: 3}}
    assert not record_is_clean(record)
    assert [(p.rule.code, p.at_key) for p in explain(record, VALIDATOR)] == [("RV008", True)]


@settings(max_examples=1500)
@given(structured_path.filter(bool) | st.text(id_alphabet, min_size=1, max_size=12))
def test_the_fast_path_check_is_the_explained_one(path: str) -> None:
    """`is_valid_chunk_id` checks a path with string operations, `parse_chunk_id` with the
    regex that says what is wrong: the two must find the same paths bad."""
    assert chunk_id._clean_path(path) == (chunk_id._BAD_PATH.search(path) is None)


def test_the_parser_takes_the_last_span() -> None:
    parsed = parse_chunk_id("x:1-2:y:3-4")
    assert (parsed.path, parsed.start, parsed.end, parsed.symbol) == ("x:1-2:y", 3, 4, None)
    assert parser_verdict("x:1-2:y:0-4") == "zero-start"  # not the earlier, valid span


# --- records ----------------------------------------------------------------------------------

GOOD: dict[str, Any] = {
    "qid": "q001",
    "query": "what gets deleted when a user logs out",
    "type": "intent",
    "gold": {"demo_repo/auth/session.py:3-8:kill_session": 3},
}

HAND_RECORDS: list[Any] = [
    GOOD,
    {**GOOD, "split": "holdout", "source": "agent_log", "notes": "", "annotators": ["a", "b"]},
    {**GOOD, "revision": "0123456789abcdef0123456789abcdef01234567", "extra": {"x": [1]}},
    {**GOOD, "gold": {"a.py:1-2": 1, "b.py:3-3:g": 2}},
    {**GOOD, "gold": {"a.py:1-2": 3.0}},
    {**GOOD, "gold": {"a.py:1-2": True}},
    {**GOOD, "gold": {"a.py:1-2": "3"}},
    {**GOOD, "gold": {"a.py:1-2": 4}},
    {**GOOD, "gold": {"a.py:1-2": 0}},
    {**GOOD, "gold": {"a.py:1-2": 2.5}},
    {**GOOD, "gold": {"a.py:5-2:f": 1}},
    {**GOOD, "gold": {"nope": 1}},
    {**GOOD, "gold": {}},
    {**GOOD, "gold": []},
    {**GOOD, "qid": ""},
    {**GOOD, "qid": 7},
    {**GOOD, "query": " \t\u00a0"},
    {**GOOD, "query": ""},
    {**GOOD, "type": "Intent"},
    {**GOOD, "type": ["intent"]},
    {**GOOD, "split": "test"},
    {**GOOD, "split": None},
    {**GOOD, "source": 3},
    {**GOOD, "notes": ["x"]},
    {**GOOD, "annotators": ["a", "a"]},
    {**GOOD, "annotators": [""]},
    {**GOOD, "annotators": "a"},
    {**GOOD, "annotators": [1]},
    {**GOOD, "revision": "0123456789ABCDEF0123456789abcdef01234567"},
    {**GOOD, "revision": "0123456789abcdef0123456789abcdef01234567\n"},
    {**GOOD, "revision": "abc"},
    {k: v for k, v in GOOD.items() if k != "qid"},
    [GOOD],
    "q001",
    None,
    3,
]

json_scalars = (
    st.none()
    | st.booleans()
    | st.integers(-5, 5)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=5)
)
json_values = st.recursive(
    json_scalars,
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner, max_size=3)
    ),
    max_leaves=6,
)
grades = (
    st.sampled_from([1, 2, 3, 0, 4, 3.0, 1.0, 2.5, True, False, "3", None, -1, 10**20])
    | json_values
)
golds = st.dictionaries(chunk_ids, grades, max_size=3) | json_values
qids = st.sampled_from(["q1", "", "x y"]) | json_values
queries = st.sampled_from(["find the session", "", "  ", "\u2003", "x"]) | json_values
types = st.sampled_from(["identifier", "intent", "mixed", "Intent", ""]) | json_values
splits = st.sampled_from(["tune", "holdout", "test"]) | json_values
texts = st.text(max_size=5) | json_values
annotator_lists = st.lists(st.sampled_from(["a", "b", ""]), max_size=3) | json_values
revisions = (
    st.from_regex(r"\A[0-9a-f]{40}\Z")
    | st.sampled_from(["0" * 39, "0" * 40 + "\n", "A" * 40])
    | json_values
)
MISSING = object()


records = st.builds(
    lambda fields, extra: {k: v for k, v in fields.items() if v is not MISSING} | extra,
    st.fixed_dictionaries(
        {
            "qid": st.one_of(st.just(MISSING), qids),
            "query": st.one_of(st.just(MISSING), queries),
            "type": st.one_of(st.just(MISSING), types),
            "gold": st.one_of(st.just(MISSING), golds),
            "split": st.one_of(st.just(MISSING), splits),
            "source": st.one_of(st.just(MISSING), texts),
            "notes": st.one_of(st.just(MISSING), texts),
            "annotators": st.one_of(st.just(MISSING), annotator_lists),
            "revision": st.one_of(st.just(MISSING), revisions),
        }
    ),
    st.dictionaries(st.sampled_from(["extra", "status", "x"]), json_values, max_size=2),
)
# Mostly-valid records, one field changed at a time: the hard cases sit near the boundary.
near_valid = st.builds(
    lambda name, value: {**GOOD, name: value},
    st.sampled_from(
        ["qid", "query", "type", "gold", "split", "source", "notes", "annotators", "revision"]
    ),
    st.one_of(qids, queries, types, golds, splits, texts, annotator_lists, revisions),
)


def assert_agree(value: Any) -> None:
    clean = record_is_clean(value)
    problems = explain(value, VALIDATOR)
    assert clean == (not problems), (value, problems)
    assert SLOW.is_clean(value) == clean
    if clean:
        assert VALIDATOR.is_valid(value)


@pytest.mark.parametrize("value", HAND_RECORDS)
def test_hand_written_records_agree(value: Any) -> None:
    assert_agree(value)


def test_hand_written_corpus_has_both_kinds() -> None:
    verdicts = [record_is_clean(v) for v in HAND_RECORDS]
    assert verdicts.count(True) == 4
    assert verdicts.count(False) == len(HAND_RECORDS) - 4


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(records | near_valid)
def test_generated_records_agree(value: dict[str, Any]) -> None:
    assert_agree(value)


@settings(max_examples=200, deadline=None)
@given(near_valid)
def test_json_round_trip_keeps_the_verdict(value: dict[str, Any]) -> None:
    """What the file holds is JSON text: the verdict of the parsed text is the same."""
    assert record_is_clean(json.loads(json.dumps(value))) == record_is_clean(value)
