"""JSON in and out for both halves of evaltools, as strict as serde_json reads it.

Python's reader accepts what other readers refuse, and what evaltools could not write back:
a key repeated in one object (Python keeps the last value), a number too large for a float
(read as infinity, written back as the non-JSON `Infinity`), `NaN`/`Infinity`, a lone UTF-16
surrogate escape such as `"\\ud800"` (a string with no UTF-8 form), an integer longer than
Python's 4,300-digit conversion limit (a bare `ValueError`), and nesting deeper than the
stack (`RecursionError`). Here each is a `JsonError` with its offset, and one rule
(`INVALID_JSON`) and one wording serve lint, convert, validate and the gold commands.

`locate` is the one map from a JSON Pointer to where its value sits in the text, so that a
finding about a field (a schema's, a spec's, a lint rule's) points at the field's line and
column, in `.json` files and `.jsonl` lines alike.

`dumps` is the one writer: `allow_nan=False`, so nothing unreadable is ever written.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from evaltools.positions import line_column

_WHITESPACE = " \t\r\n"
BOM = "\ufeff"


class JsonError(ValueError):
    """Why `text` is refused, and where: `offset` is a character offset into it."""

    def __init__(self, message: str, offset: int = 0) -> None:
        super().__init__(message)
        self.message = message
        self.offset = offset

    def line_column(self, text: str) -> tuple[int, int]:
        """1-based line and column (in characters) of the offset in `text`."""
        return line_column(text, self.offset)


class _RepeatedKey(Exception):
    """An object repeats a key; `args[0]` is the first key repeated."""


class _Constant(Exception):
    """`NaN`, `Infinity` or `-Infinity`; `args[0]` is which."""


class _HugeFloat(Exception):
    """A number that overflows a float; `args[0]` is its text."""


def _unique_pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    obj = dict(pairs)
    if len(obj) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise _RepeatedKey(key)
            seen.add(key)
    return obj


def _reject_constant(name: str) -> Any:
    raise _Constant(name)


def _finite_float(text: str) -> float:
    value = float(text)
    if math.isinf(value):
        raise _HugeFloat(text)
    return value


_STRICT = json.JSONDecoder(
    object_pairs_hook=_unique_pairs, parse_constant=_reject_constant, parse_float=_finite_float
)
_LAST_WINS = json.JSONDecoder(parse_constant=_reject_constant, parse_float=_finite_float)
# `decode` = skip whitespace + `scan_once` + check the rest; calling the C scanner directly
# saves that Python-level work on the common line (no leading blank).
scan_once: Callable[[str, int], tuple[Any, int]] = _STRICT.scan_once  # type: ignore[attr-defined]


@dataclass(frozen=True)
class Decoded:
    value: Any
    # A key repeated in one object, when `loads` was asked to keep the last value.
    repeated_key: str | None = None


def loads(text: str) -> Any:
    """The value of `text`, or `JsonError`: a repeated key is an error."""
    return decode(text, keep_repeated=False).value


def decode(text: str, *, keep_repeated: bool) -> Decoded:
    """The value of `text`; with `keep_repeated` a repeated key keeps the last value (as
    `json.loads` does) and is named in the result, for a caller that reports it itself."""
    try:
        try:
            value = _fast(text)
            repeated = None
        except _RepeatedKey as exc:
            if not keep_repeated:
                raise
            value, repeated = _LAST_WINS.decode(text), str(exc.args[0])
    except (ValueError, RecursionError, _RepeatedKey, _Constant, _HugeFloat) as exc:
        raise refusal(text, exc) from None
    if "\\u" in text and _has_lone_surrogate(value):
        raise JsonError(
            "string holds a lone UTF-16 surrogate escape (\\ud800-\\udfff without its pair): "
            "it is no character, and no tool can write it back as UTF-8; fix the escape",
            _offset_of(text, _LONE_SURROGATE),
        )
    return Decoded(value, repeated)


def _fast(text: str) -> Any:
    try:
        value, end = scan_once(text, 0)
    except StopIteration:
        return _STRICT.decode(text)  # leading whitespace, or nothing: `decode` explains
    if end != len(text) and text[end:].strip(_WHITESPACE):
        return _STRICT.decode(text)  # raises "Extra data"
    return value


def refusal(text: str, exc: BaseException) -> JsonError:
    """The one wording of why `text` is refused, for what the decoder raised on it."""
    if isinstance(exc, RecursionError):
        return JsonError("the JSON value is nested too deeply to read: flatten it")
    if isinstance(exc, _RepeatedKey):
        key = _shown(json.dumps(exc.args[0], ensure_ascii=False))
        pattern = re.compile(re.escape(key) + r"\s*:")
        found = [m.start() for m in pattern.finditer(text)]
        return JsonError(
            f"key {key} occurs twice in one object: readers keep one of the two values "
            "without a word; keep one",
            found[1] if len(found) > 1 else 0,
        )
    if isinstance(exc, _Constant):
        return JsonError(
            f"{exc.args[0]} is not JSON (Python's json accepts it, other readers do not): "
            "write a number or null",
            _offset_of(text, _CONSTANT),
        )
    if isinstance(exc, _HugeFloat):
        number = str(exc.args[0])
        return JsonError(
            f"number {number[:40]} is too large for a 64-bit float (other readers refuse it, "
            "Python reads it as infinity): write a smaller number, or a string",
            _offset_of(text, re.compile(re.escape(number))),
        )
    if isinstance(exc, json.JSONDecodeError):
        return _syntax(text, exc)
    if "digits" in str(exc):  # int(): "Exceeds the limit (4300 digits) for integer string ..."
        offset = _offset_of(text, _HUGE_INT)
        run = _HUGE_INT.match(text, offset)
        digits = len(run.group().lstrip("-")) if run else 0
        return JsonError(
            f"integer of {digits:,} digits is longer than readers take (Python's limit is "
            "4,300 digits): write it as a string",
            offset,
        )
    return JsonError(f"the JSON value cannot be read ({exc}): fix it")


def _syntax(text: str, exc: json.JSONDecodeError) -> JsonError:
    # json's messages end where it appends the position ("Invalid control character at"):
    # the finding carries the position, so the dangling word goes.
    reason = exc.msg[0].lower() + exc.msg[1:].removesuffix(" at").removesuffix(" starting")
    if exc.msg.startswith("Invalid control character"):
        reason += ": a tab or line break inside a string is written \\t or \\n"
    stripped = text.rstrip(_WHITESPACE)
    if text.startswith(BOM):
        message = "text starts with a byte order mark (were two files joined?): delete it"
    elif _continued(text, exc):
        # The second line of a record pretty-printed over several lines (`"key": ...`, or
        # the closing `}`): said as what it is, at its first character.
        message = (
            "the text starts inside an object (no `{` opens it): in a JSONL file, is this the "
            "rest of a record split over several lines? put each record on one line"
        )
        return JsonError(message, len(text) - len(text.lstrip(_WHITESPACE)))
    elif exc.msg == "Extra data":
        message = (
            "there is more text after the end of the JSON value: a JSONL line holds one "
            "record, a .json file one value"
        )
    elif exc.msg.startswith("Unterminated string") or (
        exc.pos >= len(stripped) and stripped.lstrip(_WHITESPACE).startswith(("{", "["))
    ):
        message = (
            f"the JSON value ends before it is closed ({reason}): was it cut short, or "
            "pretty-printed over several lines of a JSONL file?"
        )
        return JsonError(message, min(exc.pos, len(stripped)))
    else:
        comma = _trailing_comma(text, exc.pos)
        if comma is not None:
            closer = "object" if text[comma + 1 :].lstrip(_WHITESPACE)[:1] == "}" else "array"
            return JsonError(
                f"not valid JSON (a trailing comma before the end of the {closer}): delete it",
                comma,
            )
        message = f"not valid JSON ({reason}): fix the syntax at this column"
    return JsonError(message, exc.pos)


def _continued(text: str, exc: json.JSONDecodeError) -> bool:
    """Whether `text` begins as the inside or the end of an object: a key and its `:`, or
    a `}` where a value should start."""
    start = text.lstrip(_WHITESPACE)
    if exc.msg == "Extra data":
        return start[:1] == '"' and text[exc.pos :].lstrip(_WHITESPACE)[:1] == ":"
    return exc.msg == "Expecting value" and start[:1] == "}" and exc.pos == len(text) - len(start)


def _trailing_comma(text: str, pos: int) -> int | None:
    """The offset of a comma that only a closing bracket follows: Python 3.13's decoder
    reports it at the comma, older ones at the bracket; both are told at the comma."""
    if text[pos : pos + 1] == ",":
        after = pos + 1
    else:
        before = text[:pos].rstrip(_WHITESPACE)
        if not before.endswith(","):
            return None
        pos, after = len(before) - 1, pos
    return pos if text[after:].lstrip(_WHITESPACE)[:1] in ("}", "]") else None


# Tokens found outside strings: a string is skipped whole, so `"NaN"` is no match.
_STRING = r'"(?:[^"\\]|\\.)*"'
_CONSTANT = re.compile(rf"{_STRING}|(?P<at>-?Infinity|NaN)")
_HUGE_INT = re.compile(r"-?\d{4301,}")
_HIGH = r"\\u[dD][89abAB][0-9a-fA-F]{2}"
_LOW = r"\\u[dD][c-fC-F][0-9a-fA-F]{2}"
_LONE_SURROGATE = re.compile(rf"{_HIGH}(?!{_LOW})|(?<!{_HIGH}){_LOW}")


def _offset_of(text: str, pattern: re.Pattern[str]) -> int:
    """Where `pattern` first matches (its `at` group when it has one), else 0."""
    for match in pattern.finditer(text):
        if "at" not in pattern.groupindex:
            return match.start()
        if match.group("at") is not None:
            return match.start("at")
    return 0


def has_lone_surrogate(text: str, value: Any) -> bool:
    """Whether `value`, parsed from `text`, holds a string with an unpaired surrogate."""
    return "\\u" in text and _has_lone_surrogate(value)


def _has_lone_surrogate(value: Any) -> bool:
    # Paired escapes decode to one astral character: any surrogate left is a lone one,
    # and the only thing UTF-8 cannot encode.
    try:
        json.dumps(value, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


def _shown(text: str) -> str:
    """`text` printable as UTF-8 (a lone surrogate as its escape)."""
    return text.encode("utf-8", "backslashreplace").decode("utf-8")


def dumps(
    value: Any,
    *,
    indent: int | None = None,
    compact: bool = False,
    ensure_ascii: bool = False,
) -> str:
    """The one JSON writer: never NaN or Infinity (`ValueError` instead); UTF-8 text unless
    `ensure_ascii`; `compact` drops the blanks after `,` and `:` (one record per line).

    A lone surrogate (a byte of a file name that is not UTF-8, as Python decodes it) is
    written as U+FFFD: its `\\udcff` escape would be JSON that strict readers (serde_json,
    this module's `loads`) refuse, and the raw surrogate has no UTF-8 form at all."""
    key = (indent, compact)
    encoder = _ENCODERS.get(key)
    if encoder is None:
        # What `json.dumps` builds on every call with these options: built once here, as
        # callers write one object per record (encoding keeps no state between calls).
        separators = (",", ":") if compact else None
        encoder = _ENCODERS[key] = json.JSONEncoder(
            ensure_ascii=False, indent=indent, separators=separators, allow_nan=False
        )
    text: str = encoder.encode(value)
    if text.isascii():
        return text
    # Unescaped, a non-ASCII character can only be inside a string: replacing or escaping
    # it there is all `ensure_ascii` would have done, without a second encoder.
    if _SURROGATE.search(text) is not None:
        text = _SURROGATE.sub("\ufffd", text)
    return _NON_ASCII.sub(_escape, text) if ensure_ascii else text


_SURROGATE = re.compile("[\ud800-\udfff]")
_NON_ASCII = re.compile("[^\x00-\x7f]")


def _escape(found: re.Match[str]) -> str:
    """`\\uXXXX` as `json.dumps(ensure_ascii=True)` writes it (a UTF-16 pair above U+FFFF)."""
    code = ord(found.group())
    if code <= 0xFFFF:
        return f"\\u{code:04x}"
    code -= 0x10000
    return f"\\u{0xD800 | code >> 10:04x}\\u{0xDC00 | code & 0x3FF:04x}"


_ENCODERS: dict[tuple[int | None, bool], json.JSONEncoder] = {}
