"""Where each key and value of a JSON text stands: offsets by JSON pointer, for findings
that point at a value (`jsonio` reads and writes the values themselves)."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from json.decoder import scanstring as _c_scanstring  # type: ignore[attr-defined]
from typing import NamedTuple

# Where each value sits. Only texts that `loads` accepted are walked, and only for findings,
# so the walk favours clarity over speed.

# Reads a JSON string whose opening quote is just before `index`: (value, end).
scanstring: Callable[[str, int], tuple[str, int]] = _c_scanstring
_WS = re.compile(r"[ \t\n\r]*")
# Numbers and literals end at the first character that cannot continue them.
_SCALAR = re.compile(r"[^,\]}\s]+")


def escape_token(token: str) -> str:
    return token.replace("~", "~0").replace("/", "~1")


def pointer(parts: Iterable[str | int]) -> str:
    return "".join("/" + escape_token(str(part)) for part in parts)


class Member(NamedTuple):
    """One `"key": value` of an object as written: a repeated key is a member each time, and
    the spans are what an edit in place replaces (the key's token with its quotes). A named
    tuple: jsonio is on lint's start-up path, where each dataclass costs its compile time."""

    parent: int  # offset of the object's `{`
    key: str
    key_start: int
    key_end: int
    value_start: int
    value_end: int


@dataclass
class Locations:
    """0-based character offsets in the text; keys that occur twice keep the last occurrence,
    as `json.loads` does with their values."""

    values: dict[str, int] = field(default_factory=dict)
    keys: dict[str, int] = field(default_factory=dict)
    # (pointer, offset of the repeated key) for every key after its first occurrence.
    duplicates: list[tuple[str, int]] = field(default_factory=list)
    # Every object member, each object's in text order (an inner object's before its own).
    members: list[Member] = field(default_factory=list)
    complete: bool = True
    # With `locate(text, wanted)`: for each container walked into, the pointers of its
    # members still to find. Every other value is passed over whole by the C decoder.
    pending: dict[str, set[str]] | None = None

    def members_of(self, brace: int) -> list[Member]:
        """The members of the object whose `{` is at `brace`, in text order."""
        return [member for member in self.members if member.parent == brace]

    def value_offset(self, ptr: str) -> int | None:
        return self.values.get(ptr)

    def key_offset(self, ptr: str) -> int | None:
        """The member's key, or the value itself for array items and the root."""
        found = self.keys.get(ptr)
        return found if found is not None else self.values.get(ptr)

    def nearest(self, ptr: str, *, at_key: bool = False) -> int:
        """The value's offset (its key's, with `at_key`). A missing member has none: then the
        offset of the nearest enclosing value (the object that lacks it), the root's last."""
        found = self.key_offset(ptr) if at_key else self.value_offset(ptr)
        while found is None and ptr:
            ptr = ptr.rpartition("/")[0]
            found = self.value_offset(ptr)
        return found or 0


def locate(text: str, wanted: Iterable[str] | None = None) -> Locations:
    """Where the values of `text` are. With `wanted`, only those pointers (and the values
    that hold them) are sure to be found, at a cost that does not grow with the rest: a
    record of a million items with a finding at one of them is not walked item by item."""
    found = Locations()
    if wanted is not None:
        found.pending = {}
        for each in wanted:
            child = each
            while child:
                parent = child.rpartition("/")[0]
                found.pending.setdefault(parent, set()).add(child)
                child = parent
    try:
        _value(text, _skip(text, 0), "", found)
    except _AllFound:
        pass  # every wanted value is found: the rest of the text is not walked
    except (RecursionError, IndexError, ValueError):
        # Nesting deeper than Python's stack (json itself stops at about the same depth)
        # or text that json accepted in a way this walker does not: offsets found so far stay.
        found.complete = False
    return found


# Passes over a value the walk need not enter (any JSON `loads` took, repeated keys too).
_PASS_OVER: Callable[[str, int], tuple[object, int]] = json.JSONDecoder().scan_once  # type: ignore[attr-defined]


def _skip(text: str, index: int) -> int:
    match = _WS.match(text, index)
    return match.end() if match else index


def _value(text: str, index: int, ptr: str, found: Locations) -> int:
    found.values[ptr] = index
    char = text[index]
    if char in "{[" and found.pending is not None:
        return _enter_wanted(text, index, ptr, found)
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


def _enter_wanted(text: str, index: int, ptr: str, found: Locations) -> int:
    """A container walked only until its wanted members are found, and then passed over by
    the C decoder (which stops where the walk would); once nothing is wanted anywhere, the
    walk stops altogether."""
    assert found.pending is not None
    if ptr not in found.pending:
        return int(_PASS_OVER(text, index)[1])
    try:
        return (_object if text[index] == "{" else _array)(text, index, ptr, found)
    except _AllFound:
        if not any(found.pending.values()):
            raise
    return int(_PASS_OVER(text, index)[1])


class _AllFound(Exception):
    """Every wanted member of the container being walked has been found."""


def _found_member(child: str, parent: str, found: Locations) -> None:
    if found.pending is None:
        return
    waiting = found.pending.get(parent)
    if waiting is not None:
        waiting.discard(child)
        if not waiting:
            raise _AllFound


def _object(text: str, index: int, ptr: str, found: Locations) -> int:
    brace = index
    index = _skip(text, index + 1)
    if text[index] == "}":
        return index + 1
    seen: set[str] = set()
    while True:
        key_at = index
        _expect(text, index, '"')
        key, key_end = scanstring(text, index + 1)
        child = ptr + "/" + escape_token(key)
        if key in seen:
            found.duplicates.append((child, key_at))
        seen.add(key)
        found.keys[child] = key_at
        index = _skip(text, key_end)
        _expect(text, index, ":")
        value_at = _skip(text, index + 1)
        value_end = _value(text, value_at, child, found)
        found.members.append(Member(brace, key, key_at, key_end, value_at, value_end))
        _found_member(child, ptr, found)
        index = _skip(text, value_end)
        if text[index] == "}":
            return index + 1
        _expect(text, index, ",")
        index = _skip(text, index + 1)


def _expect(text: str, index: int, char: str) -> None:
    # What json refuses, the walk refuses too: a text that is no JSON has no offsets to
    # edit at, and an edit in place must not guess them.
    if text[index] != char:
        raise ValueError(f"expected {char!r} at {index}")


def _array(text: str, index: int, ptr: str, found: Locations) -> int:
    index = _skip(text, index + 1)
    if text[index] == "]":
        return index + 1
    position = 0
    while True:
        child = f"{ptr}/{position}"
        index = _skip(text, _value(text, index, child, found))
        _found_member(child, ptr, found)
        if text[index] == "]":
            return index + 1
        _expect(text, index, ",")
        index = _skip(text, index + 1)
        position += 1
