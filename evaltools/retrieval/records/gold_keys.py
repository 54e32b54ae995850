"""Where each gold key's JSON string token is in a record's line, to rewrite only that token.

A rewrite that re-serialised the record would reorder keys, change spacing and escapes;
replacing the token's characters keeps every other byte of the line.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass

from evaltools import jsonio

_WHITESPACE = " \t\n\r"
_DECODER = json.JSONDecoder()


@dataclass(frozen=True)
class KeyToken:
    """A key of the `gold` object: decoded text and its token's span in the line (characters)."""

    key: str
    start: int  # offset of the opening quote
    end: int  # offset just past the closing quote

    @property
    def column(self) -> int:
        return self.start + 1


def _skip(text: str, index: int) -> int:
    while index < len(text) and text[index] in _WHITESPACE:
        index += 1
    return index


def _members(text: str, index: int) -> list[tuple[str, int, int, int]]:
    """(key, key start, key end, value start) of the object whose `{` is at `index`."""
    members: list[tuple[str, int, int, int]] = []
    index = _skip(text, index + 1)
    if text[index : index + 1] == "}":
        return members
    while True:
        if text[index : index + 1] != '"':
            raise ValueError("expected a key")
        key, key_end = _DECODER.raw_decode(text, index)
        colon = _skip(text, key_end)
        if text[colon : colon + 1] != ":":
            raise ValueError("expected ':'")
        value = _skip(text, colon + 1)
        _, value_end = _DECODER.raw_decode(text, value)
        members.append((key, index, key_end, value))
        index = _skip(text, value_end)
        if text[index : index + 1] == ",":
            index = _skip(text, index + 1)
        elif text[index : index + 1] == "}":
            return members
        else:
            raise ValueError("expected ',' or '}'")


def gold_key_tokens(line: str) -> list[KeyToken]:
    """The key tokens of the record's `gold` object, in line order (duplicates included).

    Raises ValueError when the line is not an object with an object `gold` (the last
    `gold` counts, as for json.loads).
    """
    start = _skip(line, 0)
    if line[start : start + 1] != "{":
        raise ValueError("not a JSON object")
    gold = [value for key, _, _, value in _members(line, start) if key == "gold"]
    if not gold or line[gold[-1] : gold[-1] + 1] != "{":
        raise ValueError("no `gold` object")
    return [KeyToken(key, s, e) for key, s, e, _ in _members(line, gold[-1])]


def encode_key(new_key: str, old_token: str) -> str:
    """The new key as a JSON string, escaped the way the old token was (\\u or raw UTF-8)."""
    escaped = old_token.isascii() and "\\u" in old_token
    return jsonio.dumps(new_key, ensure_ascii=escaped)


def rewrite_gold_keys(line: str, replacements: Mapping[str, str]) -> str:
    """`line` with each gold key in `replacements` renamed; nothing else changes."""
    pieces: list[str] = []
    position = 0
    for token in gold_key_tokens(line):
        new_key = replacements.get(token.key)
        if new_key is None:
            continue
        pieces.append(line[position : token.start])
        pieces.append(encode_key(new_key, line[token.start : token.end]))
        position = token.end
    pieces.append(line[position:])
    return "".join(pieces)


def replace_member_value(line: str, key: str, value: str) -> str:
    """`line` with the value of the record's top-level `key` replaced by the JSON string
    `value`; nothing else changes. Raises ValueError when the line is not an object holding
    `key` (the last one counts, as for json.loads)."""
    start = _skip(line, 0)
    if line[start : start + 1] != "{":
        raise ValueError("not a JSON object")
    found = [value_start for name, _, _, value_start in _members(line, start) if name == key]
    if not found:
        raise ValueError(f"no `{key}` member")
    _, value_end = _DECODER.raw_decode(line, found[-1])
    return line[: found[-1]] + json.dumps(value, ensure_ascii=False) + line[value_end:]
