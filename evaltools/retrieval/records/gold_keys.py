"""Where each gold key's JSON string token is in a record's line, to rewrite only that token.

A rewrite that re-serialised the record would reorder keys, change spacing and escapes;
replacing the token's characters keeps every other byte of the line. The spans are
`jsonlocate.locate`'s, the one map of where a JSON text's keys and values are.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass

from evaltools import jsonio, jsonlocate


@dataclass(frozen=True)
class KeyToken:
    """A key of the `gold` object: decoded text and its token's span in the line (characters)."""

    key: str
    start: int  # offset of the opening quote
    end: int  # offset just past the closing quote

    @property
    def column(self) -> int:
        return self.start + 1


def _record_members(line: str) -> tuple[jsonlocate.Locations, list[jsonlocate.Member]]:
    """Where everything in the record's line is, and the record's own members."""
    found = jsonlocate.locate(line)
    root = found.values.get("")
    if root is None or line[root : root + 1] != "{":
        raise ValueError("not a JSON object")
    if not found.complete:
        raise ValueError("not valid JSON")
    return found, found.members_of(root)


def gold_key_tokens(line: str) -> list[KeyToken]:
    """The key tokens of the record's `gold` object, in line order (duplicates included).

    Raises ValueError when the line is not an object with an object `gold` (the last
    `gold` counts, as for json.loads).
    """
    found, members = _record_members(line)
    gold = [member.value_start for member in members if member.key == "gold"]
    if not gold or line[gold[-1]] != "{":
        raise ValueError("no `gold` object")
    return [KeyToken(m.key, m.key_start, m.key_end) for m in found.members_of(gold[-1])]


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
    value_of = [member for member in _record_members(line)[1] if member.key == key]
    if not value_of:
        raise ValueError(f"no `{key}` member")
    start, end = value_of[-1].value_start, value_of[-1].value_end
    return line[:start] + json.dumps(value, ensure_ascii=False) + line[end:]
