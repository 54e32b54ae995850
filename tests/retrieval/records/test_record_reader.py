from __future__ import annotations

import io
from pathlib import Path

import pytest

from evaltools.catalogue.io import BYTE_ORDER_MARK, INVALID_JSON, NOT_UTF8
from evaltools.jsonlocate import locate
from evaltools.retrieval.records.record import (
    NEEDS_FULL_PARSE,
    RecordLine,
    iter_record_lines,
    parse_line,
    quick_value,
    strict_loads,
)
from evaltools.retrieval.records.validation.rules import BLANK_LINE


def one(raw: bytes, line: int = 1) -> RecordLine:
    return parse_line(raw, line)


def test_a_record_line_keeps_its_bytes_and_value() -> None:
    rec = one(b'{"qid": "q1", "gold": {"a.py:1-2": 3}}\n', 7)
    assert rec.line == 7
    assert rec.raw == b'{"qid": "q1", "gold": {"a.py:1-2": 3}}\n'
    assert rec.parsed and rec.problems == ()
    assert rec.record == {"qid": "q1", "gold": {"a.py:1-2": 3}}
    assert not rec.duplicate_keys


def test_reading_a_file_yields_every_line_and_the_exact_bytes(tmp_path: Path) -> None:
    data = b'{"a": 1}\n\n[1]\n\xff\n{"b": 2}'  # no newline at the end
    path = tmp_path / "set.jsonl"
    path.write_bytes(data)
    lines = list(iter_record_lines(path))
    assert [r.line for r in lines] == [1, 2, 3, 4, 5]
    assert b"".join(r.raw for r in lines) == data
    assert [r.record for r in lines] == [{"a": 1}, None, None, None, {"b": 2}]
    assert lines[2].parsed and lines[2].value == [1]
    assert [p.rule for r in lines for p in r.problems] == [BLANK_LINE, NOT_UTF8]


def test_reading_a_stream_can_start_at_any_line_number() -> None:
    lines = list(iter_record_lines(io.BytesIO(b'{"a": 1}\n{"b": 2}\n'), first_line=10))
    assert [r.line for r in lines] == [10, 11]


def test_duplicate_keys_are_flagged_and_the_last_value_kept() -> None:
    rec = one(b'{"gold": {"a.py:1-2": 3, "a.py:1-2": 1}}')
    assert rec.duplicate_keys
    assert rec.record == {"gold": {"a.py:1-2": 1}}


@pytest.mark.parametrize(
    ("raw", "column", "words"),
    [
        (b'{"a": 1', 8, "ends before it is closed"),
        (b'{"a": 1}{"b": 2}', 9, "more text after the end"),
        (b'{"a": 1x}', 8, "expecting ',' delimiter"),
        (b"{'a': 1}", 2, "not valid JSON"),
        (b'{"a": NaN}', 7, "NaN is not JSON"),
        (b'{"a": [1, -Infinity]}', 11, "-Infinity is not JSON"),
        (b'{"a": NaN, "b": }', 7, "NaN is not JSON"),
        (b"[" * 100_000, 1, "nested too deeply"),
        (b"1" * 5000, 1, "integer of 5,000 digits"),
        (b'{"a": 1e400}', 7, "too large for a 64-bit float"),
    ],
)
def test_unparsable_lines_say_where_and_why(raw: bytes, column: int, words: str) -> None:
    rec = one(raw, 3)
    assert not rec.parsed and rec.record is None
    (problem,) = rec.problems
    assert problem.rule == INVALID_JSON
    assert problem.column == column
    assert words in problem.message


def test_blank_lines_are_problems() -> None:
    for raw in (b"\n", b"   \n", b"\t\r\n", b""):
        (problem,) = one(raw).problems
        assert problem.rule == BLANK_LINE


def test_a_line_of_other_unicode_space_is_not_blank_but_invalid() -> None:
    (problem,) = one("\u00a0\n".encode()).problems
    assert problem.rule == INVALID_JSON


def test_not_utf8_points_at_the_character() -> None:
    (problem,) = one('{"q": "é\xff"}'.encode("latin-1")).problems
    assert problem.rule == NOT_UTF8
    assert problem.column == 8
    assert "0xe9" in problem.message


def test_a_bom_at_the_start_of_the_file_is_reported_and_skipped() -> None:
    rec = one(b'\xef\xbb\xbf{"a": {"b": 1}}')
    assert [p.rule for p in rec.problems] == [BYTE_ORDER_MARK]
    assert rec.record == {"a": {"b": 1}}
    assert rec.bom and rec.text == '{"a": {"b": 1}}'
    # Columns count the BOM as the file's first character.
    assert rec.column(locate(rec.text).values["/a/b"]) == 14


def test_a_bom_in_the_middle_of_a_file_is_a_syntax_error() -> None:
    rec = parse_line(b'\xef\xbb\xbf{"a": 1}', 1, at_file_start=False)
    (problem,) = rec.problems
    assert problem.rule == INVALID_JSON
    assert "byte order mark" in problem.message
    assert not rec.bom


def test_crlf_line_endings_are_whitespace() -> None:
    assert one(b'{"a": 1}\r\n').record == {"a": 1}


def test_leading_blanks_are_allowed() -> None:
    assert one(b'   {"a": 1}  \n').record == {"a": 1}


def test_the_text_of_a_line_that_is_not_utf8_is_empty() -> None:
    assert one(b"\xff").text == ""


def test_quick_value_takes_ordinary_lines_and_passes_on_the_rest() -> None:
    assert quick_value(b'{"a": [1, {"b": 2}]}\n') == {"a": [1, {"b": 2}]}
    assert quick_value(b'{"a": 1}\r\n') == {"a": 1}
    for raw in (
        b'{"a": 1, "a": 2}',
        b' {"a": 1}',
        b'\xef\xbb\xbf{"a": 1}',
        b"\xff",
        b'{"a": NaN}',
        b'{"a": 1} x',
        b"",
        b"[" * 100_000,
    ):
        assert quick_value(raw) is NEEDS_FULL_PARSE, raw


@pytest.mark.parametrize(
    ("raw", "column"),
    [
        (b'{"qid": "\\ud800"}\n', 10),  # a high surrogate alone
        (b'{"q": "ok \\ud83d\\ude00", "x": ["\\udc00"]}\n', 33),  # a low one, after a pair
        (b'{"\\uDBFF": 1}\n', 3),  # in a key, upper case
    ],
)
def test_a_lone_surrogate_escape_is_invalid_json_at_its_column(raw: bytes, column: int) -> None:
    # Valid JSON syntax, but refused by serde_json and unwritable as UTF-8: every command
    # that writes the record back (gold split, sample, merge) would fail on it.
    rec = one(raw)
    assert rec.record is None and not rec.parsed
    [problem] = rec.problems
    assert (problem.rule, problem.column) == (INVALID_JSON, column)
    assert problem.message.startswith("string holds a lone UTF-16 surrogate escape")
    assert quick_value(raw) is NEEDS_FULL_PARSE


def test_a_surrogate_pair_is_one_character() -> None:
    assert one(b'{"q": "\\ud83d\\ude00"}').record == {"q": "\U0001f600"}
    assert quick_value(b'{"q": "\\ud83d\\ude00"}') == {"q": "\U0001f600"}


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ('{"a": {"b": 1, "c": 2, "b": 3}}', 'key "b" occurs twice in one object'),
        ("[1, NaN]", "NaN is not JSON .*: write a number or null"),
        ('{"x": -Infinity}', "-Infinity is not JSON"),
        ('["\\ud800"]', "lone UTF-16 surrogate"),
        ("[" * 100_000, "nested too deeply"),
        ("{", "expecting property name"),
    ],
)
def test_strict_loads_says_what_readers_disagree_on(text: str, reason: str) -> None:
    with pytest.raises(ValueError, match=reason):
        strict_loads(text)


def test_strict_loads_reads_a_whole_document() -> None:
    assert strict_loads('{\n  "a": [1, 2.5, "\\ud83d\\ude00"],\n  "b": null\n}\n') == {
        "a": [1, 2.5, "\U0001f600"],
        "b": None,
    }


def test_the_record_types_and_splits_are_the_shipped_schemas() -> None:
    """`gold stats`, `gold split` and `gold sample` count by these, in this order; the schema
    is what `validate` holds a record to."""
    from evaltools.retrieval.records.record import RECORD_TYPES, SPLITS
    from evaltools.retrieval.records.validation.schema import default_schema

    properties = default_schema()["properties"]
    assert list(RECORD_TYPES) == properties["type"]["enum"]
    assert list(SPLITS) == properties["split"]["enum"]
