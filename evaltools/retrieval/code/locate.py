"""Where each value of a one-line JSON document sits: JSON Pointer -> offsets in the line.

Used only for records that fail a check, so it favours clarity over speed. The text has
already been parsed by `json`, so it is known to be valid JSON.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from json.decoder import scanstring as _c_scanstring  # type: ignore[attr-defined]

# Reads a JSON string whose opening quote is just before `index`: (value, end).
scanstring: Callable[[str, int], tuple[str, int]] = _c_scanstring
_WS = re.compile(r"[ \t\n\r]*")
# Numbers and literals end at the first character that cannot continue them.
_SCALAR = re.compile(r"[^,\]}\s]+")


def escape_token(token: str) -> str:
    return token.replace("~", "~0").replace("/", "~1")


def pointer(parts: Iterable[str | int]) -> str:
    return "".join("/" + escape_token(str(part)) for part in parts)


@dataclass
class Locations:
    """0-based character offsets in the text; keys that occur twice keep the last occurrence,
    as `json.loads` does with their values."""

    values: dict[str, int] = field(default_factory=dict)
    keys: dict[str, int] = field(default_factory=dict)
    # (pointer, offset of the repeated key) for every key after its first occurrence.
    duplicates: list[tuple[str, int]] = field(default_factory=list)
    complete: bool = True

    def value_offset(self, ptr: str) -> int | None:
        return self.values.get(ptr)

    def key_offset(self, ptr: str) -> int | None:
        """The member's key, or the value itself for array items and the root."""
        found = self.keys.get(ptr)
        return found if found is not None else self.values.get(ptr)


def locate(text: str) -> Locations:
    found = Locations()
    try:
        _value(text, _skip(text, 0), "", found)
    except (RecursionError, IndexError, ValueError):
        # Nesting deeper than Python's stack (json itself stops at about the same depth)
        # or text that json accepted in a way this walker does not: offsets found so far stay.
        found.complete = False
    return found


def _skip(text: str, index: int) -> int:
    match = _WS.match(text, index)
    return match.end() if match else index


def _value(text: str, index: int, ptr: str, found: Locations) -> int:
    found.values[ptr] = index
    char = text[index]
    if char == "{":
        return _object(text, index, ptr, found)
    if char == "[":
        return _array(text, index, ptr, found)
    if char == '"':
        return scanstring(text, index + 1)[1]
    match = _SCALAR.match(text, index)
    if match is None:
        raise ValueError(f"unexpected {char!r} at {index}")
    return match.end()


def _object(text: str, index: int, ptr: str, found: Locations) -> int:
    index = _skip(text, index + 1)
    if text[index] == "}":
        return index + 1
    seen: set[str] = set()
    while True:
        key_at = index
        key, index = scanstring(text, index + 1)
        child = ptr + "/" + escape_token(key)
        if key in seen:
            found.duplicates.append((child, key_at))
        seen.add(key)
        found.keys[child] = key_at
        index = _skip(text, _skip(text, index) + 1)  # past the ':'
        index = _skip(text, _value(text, index, child, found))
        if text[index] == "}":
            return index + 1
        index = _skip(text, index + 1)  # past the ','


def _array(text: str, index: int, ptr: str, found: Locations) -> int:
    index = _skip(text, index + 1)
    if text[index] == "]":
        return index + 1
    position = 0
    while True:
        index = _skip(text, _value(text, index, f"{ptr}/{position}", found))
        if text[index] == "]":
            return index + 1
        index = _skip(text, index + 1)
        position += 1
