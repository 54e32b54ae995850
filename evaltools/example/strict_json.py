"""JSON as the reference reads it (serde_json), not as Python's `json` does.

Python's reader accepts what serde_json refuses, and what evaltools could not write back:
a key repeated in one object (Python keeps the last value, so a conversion would silently
drop the first), a number too large for a float (read as infinity, written back as the
non-JSON `Infinity`), `NaN`/`Infinity`, and a lone UTF-16 surrogate escape such as
`"\\ud800"` (a string with no UTF-8 form, so writing it fails). Each is an error here.
"""

from __future__ import annotations

import json
import math
from typing import Any


class StrictJsonError(ValueError):
    """Valid for Python's `json`, refused by the reference; the message says how to fix it."""


def _unique_object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    obj = dict(pairs)
    if len(obj) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise StrictJsonError(
                    f"key {_shown(json.dumps(key, ensure_ascii=False))} occurs twice in one "
                    "object: the reference refuses the record (a reader that takes it keeps "
                    "only the last value); keep one"
                )
            seen.add(key)
    return obj


def _reject_constant(name: str) -> Any:
    raise StrictJsonError(f"{name} is not valid JSON: JSON has no such numbers")


def _finite_float(text: str) -> float:
    value = float(text)
    if math.isinf(value):
        raise StrictJsonError(
            f"number {text[:40]} is too large for a 64-bit float: the reference refuses it; "
            "write a smaller number, or a string"
        )
    return value


_DECODER = json.JSONDecoder(
    object_pairs_hook=_unique_object, parse_constant=_reject_constant, parse_float=_finite_float
)


def loads(text: str) -> Any:
    """Parse `text`; `json.JSONDecodeError` for syntax, `StrictJsonError` for the rest,
    `RecursionError` for nesting deeper than Python's stack."""
    value = _DECODER.decode(text)
    # Only a `\u` escape can make a surrogate: the text itself is valid UTF-8.
    if "\\u" in text:
        where = _lone_surrogate(value, "")
        if where is not None:
            raise StrictJsonError(
                f"string at {where or '/'} holds a lone UTF-16 surrogate escape (\\ud800-\\udfff "
                "without its pair): it is no character and cannot be written as UTF-8; fix "
                "the escape"
            )
    return value


def _lone_surrogate(value: Any, pointer: str) -> str | None:
    """The JSON pointer of the first string (or key) holding an unpaired surrogate."""
    if isinstance(value, str):
        return pointer if _has_surrogate(value) else None
    if isinstance(value, dict):
        for key, item in value.items():
            child = f"{pointer}/{_shown(key).replace('~', '~0').replace('/', '~1')}"
            if _has_surrogate(key):
                return child
            found = _lone_surrogate(item, child)
            if found is not None:
                return found
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found = _lone_surrogate(item, f"{pointer}/{index}")
            if found is not None:
                return found
    return None


def _has_surrogate(text: str) -> bool:
    # Paired escapes decode to one astral character: any surrogate left is a lone one,
    # and the only thing UTF-8 cannot encode.
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


def _shown(text: str) -> str:
    """`text` printable as UTF-8 (a lone surrogate as its escape)."""
    return text.encode("utf-8", "backslashreplace").decode("utf-8")
