"""`--write-scores`: put each example's `score[]` into its `ep predict` file, as `ep score`
does. Only the scored records change: other JSONL lines keep their bytes, and within a
record only the `score` member's text changes (it goes where upstream writes it, after
`predictions`): every other byte, blanks and number spellings included, stays."""

from __future__ import annotations

import json
from pathlib import Path
from typing import NamedTuple

from evaltools import jsonio
from evaltools.atomic import WriteError, atomic_write, write_finding
from evaltools.catalogue.io import FILE_NOT_WRITTEN
from evaltools.diagnostics import Diagnostic, make
from evaltools.positions import lines_of
from evaltools.score.prediction import Score

# Upstream's Example keys after the spec's, in its order: `score` goes before the first of
# these that follow it, or after the last of those before it.
_AFTER_SCORE = ("qa", "zed_version")


class _Member(NamedTuple):
    key: str
    start: int  # the key's opening quote
    key_end: int  # just past the key's closing quote
    colon_end: int  # where the blanks after the colon end: the value's start
    end: int  # just past the value


_DECODER = json.JSONDecoder()
_BLANK = " \t\r\n"


def _skip(text: str, at: int) -> int:
    while at < len(text) and text[at] in _BLANK:
        at += 1
    return at


def _members(text: str) -> tuple[list[_Member], int]:
    """The top-level members of the JSON object `text` holds, and where its `}` is. The text
    was read as JSON already: a surprise raises ValueError."""
    at = _skip(text, 0)
    if text[at : at + 1] != "{":
        raise ValueError("not a JSON object")
    at = _skip(text, at + 1)
    members: list[_Member] = []
    while text[at : at + 1] != "}":
        key, after = _DECODER.raw_decode(text, at)
        colon = _skip(text, after)
        if not isinstance(key, str) or text[colon : colon + 1] != ":":
            raise ValueError("not a JSON object")
        value = _skip(text, colon + 1)
        _, end = _DECODER.raw_decode(text, value)
        members.append(_Member(key, at, after, value, end))
        at = _skip(text, end)
        if text[at : at + 1] == ",":
            at = _skip(text, at + 1)
    return members, at


def _encoded(scores: list[Score], text: str, members: list[_Member]) -> tuple[str, str, str]:
    """(the score array, the text between a key and its value, the text between members), in
    the style of the record: one line, or indented as serde_json's pretty printer does."""
    first = members[0] if members else None
    between = ", "
    if len(members) > 1:
        between = text[members[0].end : members[1].start]
    colon = ": " if first is None else text[first.key_end : first.colon_end]
    if first is not None and "\n" in between:
        indent = between[between.rindex("\n") + 1 :]
        value = jsonio.dumps(scores, indent=len(indent)).replace("\n", "\n" + indent)
    else:
        value = jsonio.dumps(scores, compact=not colon.endswith(" "))
    return value, colon, between


def with_scores(text: str, scores: list[Score]) -> str:
    """`text` (one JSON object) with its `score` member's value replaced, or the member added
    where upstream writes it: every other byte stays as it was."""
    members, close = _members(text)
    value, colon, between = _encoded(scores, text, members)
    for member in members:
        if member.key == "score":
            return text[: member.colon_end] + value + text[member.end :]
    for member in members:
        if member.key in _AFTER_SCORE:
            return f'{text[: member.start]}"score"{colon}{value}{between}{text[member.start :]}'
    if not members:
        return f'{text[:close]}"score"{colon}{value}{text[close:]}'
    last = members[-1].end
    return f'{text[:last]}{between}"score"{colon}{value}{text[last:]}'


def _jsonl(data: bytes, by_index: dict[int, list[Score]], names: dict[int, str]) -> bytes:
    lines = lines_of(data)
    for index, scores in by_index.items():
        raw = lines[index]
        body = raw.rstrip(b"\r\n")
        text = body.decode("utf-8")
        _same_record(text, names.get(index), index)
        lines[index] = with_scores(text, scores).encode("utf-8") + raw[len(body) :]
    return b"".join(lines)


def _json(data: bytes, scores: list[Score], name: str | None) -> bytes:
    text = data.decode("utf-8")
    _same_record(text, name, 0)
    return with_scores(text, scores).encode("utf-8")


def _same_record(text: str, name: str | None, index: int) -> None:
    """The scores are placed by record index, on the file read again: a record added,
    removed or moved while they were computed would take another's. ValueError then."""
    if name is None:
        return
    value = jsonio.loads(text.lstrip("\ufeff"))
    if not isinstance(value, dict) or value.get("name") != name:
        raise ValueError(f"record {index + 1} is no longer {name!r}: the file changed meanwhile")


Key = tuple[str, str, int]


def write_scores(
    writable: dict[Key, list[Score]],
    unwritable: dict[Key, Diagnostic] | None = None,
    *,
    names: dict[Key, str] | None = None,
) -> list[Diagnostic]:
    """`writable`: (shown path, form, record index) -> score[] entries. Shown paths are
    relative to the working directory or absolute, so they name the file. Each file is
    replaced whole or not at all: not at all if it changed while it was being rewritten, if
    a record of `names` ((shown path, form, index) -> the example's name) is no longer at its
    index, or if one of its records is in `unwritable` (whose findings are returned)."""
    refused, known = unwritable or {}, names or {}
    files: dict[tuple[str, str], dict[int, list[Score]]] = {}
    for (shown, form, index), scores in writable.items():
        files.setdefault((shown, form), {})[index] = scores
    problems: list[Diagnostic] = []
    for (shown, form), by_index in files.items():
        why = [refused[(shown, form, i)] for i in sorted(by_index) if (shown, form, i) in refused]
        if why:
            problems += why
            continue
        path = Path(shown)
        try:
            data = path.read_bytes()
            named = {i: known[shown, form, i] for i in by_index if (shown, form, i) in known}
            new = (
                _jsonl(data, by_index, named)
                if form == "jsonl"
                else _json(data, by_index[0], named.get(0))
            )
            if new != data:
                atomic_write(path, new, expect=data)
        except WriteError as exc:
            problems.append(write_finding(exc, shown))
        except (OSError, ValueError, IndexError) as exc:
            message = f"could not read the file back to write its scores ({exc}); left unchanged"
            problems.append(make(FILE_NOT_WRITTEN, shown, 1, 1, message))
    return problems
