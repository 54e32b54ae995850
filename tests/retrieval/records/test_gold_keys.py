from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from evaltools.retrieval.records.gold_keys import (
    KeyToken,
    encode_key,
    gold_key_tokens,
    rewrite_gold_keys,
)


def test_tokens_of_the_gold_object_only() -> None:
    line = '{"notes": {"a.py:1-2:f": 1}, "gold" : {"a.py:1-2:f" :3,"b\\u00e9.py:1-1": 2} }'
    tokens = gold_key_tokens(line)
    assert [t.key for t in tokens] == ["a.py:1-2:f", "bé.py:1-1"]
    assert line[tokens[0].start : tokens[0].end] == '"a.py:1-2:f"'
    assert line[tokens[1].start : tokens[1].end] == '"b\\u00e9.py:1-1"'
    assert tokens[0].column == tokens[0].start + 1


def test_the_last_gold_counts_and_duplicates_are_kept() -> None:
    line = '{"gold": {"x:1-1": 1}, "gold": {"y:1-1": 1, "y:1-1": 2}}'
    assert [t.key for t in gold_key_tokens(line)] == ["y:1-1", "y:1-1"]
    assert gold_key_tokens('{"gold": {}}') == []


@pytest.mark.parametrize(
    "line",
    [
        "[1]",
        "  {}",
        '{"qid": 1}',
        '{"gold": [1]}',
        '{"gold": {1: 2}}',
        '{"gold" 1}',
        '{"gold": {"a": 1 "b": 2}}',
    ],
)
def test_not_a_record_with_a_gold_object(line: str) -> None:
    with pytest.raises(ValueError):
        gold_key_tokens(line)


def test_rewrite_touches_only_the_named_tokens() -> None:
    line = '{"gold":{"a:1-2:f":3, "b:1-2:g":1},  "qid":"q\\u00e9" , "n":[1.0,2e3]}'
    new = rewrite_gold_keys(line, {"b:1-2:g": "b:4-5:g", "zzz": "never"})
    assert new == line.replace("b:1-2:g", "b:4-5:g")
    assert rewrite_gold_keys(line, {}) == line


def test_encode_key_follows_the_old_tokens_escaping() -> None:
    assert encode_key("é.py:1-1", '"a.py:1-1"') == '"é.py:1-1"'
    assert encode_key("é.py:1-1", '"\\u00e0.py:1-1"') == '"\\u00e9.py:1-1"'
    assert encode_key('q"uote:1-1', '"x"') == '"q\\"uote:1-1"'


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=5),
    lambda children: (
        st.lists(children, max_size=3) | st.dictionaries(st.text(max_size=4), children, max_size=3)
    ),
    max_leaves=8,
)


@settings(max_examples=150, deadline=None)
@given(
    gold=st.dictionaries(
        st.text(min_size=1, max_size=8), st.integers(1, 3), min_size=1, max_size=4
    ),
    other=st.dictionaries(
        st.text(max_size=4).filter(lambda k: k != "gold"), json_values, max_size=3
    ),
    indent=st.sampled_from([None, 0]),
    separators=st.sampled_from([(",", ":"), (", ", ": "), (" ,", " : ")]),
    ascii_only=st.booleans(),
    new=st.text(min_size=1, max_size=8),
)
def test_rewrite_property(
    *,
    gold: dict[str, int],
    other: dict[str, object],
    indent: int | None,
    separators: tuple[str, str],
    ascii_only: bool,
    new: str,
) -> None:
    record = {**other, "gold": gold}
    line = json.dumps(record, separators=separators, ensure_ascii=ascii_only).replace("\n", " ")
    tokens = gold_key_tokens(line)
    assert [t.key for t in tokens] == list(gold)
    assert all(isinstance(t, KeyToken) for t in tokens)
    old = next(iter(gold))
    if new in gold:
        return
    rewritten = rewrite_gold_keys(line, {old: new})
    value = json.loads(rewritten)
    assert list(value["gold"]) == [new if k == old else k for k in gold]
    assert {k: v for k, v in value.items() if k != "gold"} == other
    # Every character outside the old token is where it was.
    token = tokens[0]
    assert rewritten[: token.start] == line[: token.start]
    assert rewritten.endswith(line[token.end :])
