"""`inserted_tokens` / `deleted_tokens` (upstream `count_patch_token_changes`, reference
section 2, step 7): each run of `-` and `+` lines of the prediction is split into code tokens
and the two token lists are diffed; the counts are the tokens outside a longest common
subsequence (a minimal diff, as upstream's Myers diff is, inserts and deletes exactly those).

The character classes follow Rust's `char` predicates; Python's differ only on rare code points
(combining marks that Rust calls alphabetic, numeric CJK ideographs)."""

from __future__ import annotations

import re
from typing import NamedTuple

from evaltools.example.diffs.udiff import rust_lines

# Longest first where one is a prefix of another, as upstream tries them in this order.
_PUNCTUATION = (
    ">>>=", "<<=", ">>=", "...", "..=", "??=", "**=", ">>>", "::", "->", "=>", "==", "!=", "<=",
    ">=", "&&", "||", "<<", ">>", "..", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "++",
    "--", "**", "??", "?.", ":=", "<-", "//", "/*", "*/",
)  # fmt: skip
# Rust's `char::is_whitespace` (the Unicode White_Space property), less the newlines.
_SPACE = "\t\x0b\x0c \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000"
_TOKEN = re.compile(
    r"(?P<nl>[\r\n]+)|(?P<ws>["
    + _SPACE
    + r"]+)|(?P<id>[^\W]+)|(?P<p>"
    + "|".join(re.escape(p) for p in _PUNCTUATION)
    + r"|.)",
    re.DOTALL,
)
# The same splits as `_split_identifier`, for ASCII words: underscore runs; capitals before a
# capitalised word; a word with its leading capitals; a run of capitals.
_ASCII_WORD = r"_+|[A-Z]+(?=[A-Z][a-z])|[A-Z]*[a-z0-9]+|[A-Z]+"
_ASCII_PARTS = re.compile(_ASCII_WORD)
# All of `tokenize` for ASCII text in one pattern: no part crosses the end of a word.
_ASCII_TOKEN = re.compile(
    r"[\r\n]+|[\t\x0b\x0c ]+|"
    + _ASCII_WORD
    + "|"
    + "|".join(re.escape(p) for p in _PUNCTUATION)
    + r"|.",
    re.DOTALL,
)
# `tokenize` with each run of identifier tokens merged back into one unit: every part of a word
# is an identifier token and nothing else is, so a unit is a whole word.
_UNIT = re.compile(
    r"[\r\n]+|[" + _SPACE + r"]+|\w+|" + "|".join(re.escape(p) for p in _PUNCTUATION) + r"|.",
    re.DOTALL,
)
_HEADERS = ("---", "+++", "@@", "diff ", "index ")


class TokenChanges(NamedTuple):
    inserted: int
    deleted: int


def _upper(c: str) -> bool:
    return c.isupper()


def _split_identifier(word: str, out: list[str]) -> None:
    """`snake_case` splits at each run of underscores (kept as a token), `camelCase` and
    `HTTPServer` at their case boundaries."""
    start = 0
    i = 0
    n = len(word)
    while i < n:
        c = word[i]
        if c == "_":
            if start < i:
                out.append(word[start:i])
            end = i + 1
            while end < n and word[end] == "_":
                end += 1
            out.append(word[i:end])
            start = i = end
            continue
        if i > start and _upper(c):
            prev = word[i - 1]
            nxt = word[i + 1] if i + 1 < n else ""
            if prev.islower() or prev.isnumeric() or (_upper(prev) and nxt.islower()):
                out.append(word[start:i])
                start = i
        i += 1
    if start < n:
        out.append(word[start:])


def tokenize(text: str) -> list[str]:
    """Identifier parts, runs of spaces, runs of newlines, and punctuation (the multi-character
    operators kept whole)."""
    if text.isascii():
        return _ASCII_TOKEN.findall(text)
    out: list[str] = []
    for match in _TOKEN.finditer(text):
        word = match.group("id")
        if word is None:
            out.append(match.group())
        elif word.isascii():
            out += _ASCII_PARTS.findall(word)
        else:
            _split_identifier(word, out)
    return out


def word_units(text: str) -> list[str]:
    """The tokens of `text` with runs of identifier tokens (letters, digits, `_`) joined: the
    units upstream's kept rate compares."""
    return _UNIT.findall(text)


def changed_tokens(old: list[str], new: list[str]) -> TokenChanges:
    """(inserted, deleted) of a minimal diff: the lengths less the longest common subsequence,
    whose length a bit-parallel pass over `old` finds (Allison-Dix, Hyyro)."""
    start = 0
    while start < len(old) and start < len(new) and old[start] == new[start]:
        start += 1
    end_old, end_new = len(old), len(new)
    while end_old > start and end_new > start and old[end_old - 1] == new[end_new - 1]:
        end_old -= 1
        end_new -= 1
    a, b = old[start:end_old], new[start:end_new]
    if not a or not b:
        return TokenChanges(len(b), len(a))
    where: dict[str, int] = {}
    for i, token in enumerate(b):
        where[token] = where.get(token, 0) | (1 << i)
    full = (1 << len(b)) - 1
    row = full  # a 0 bit per token of `new` matched so far
    for token in a:
        matches = row & where.get(token, 0)
        row = ((row + matches) | (row - matches)) & full
    common = len(b) - row.bit_count()
    return TokenChanges(len(b) - common, len(a) - common)


def count_patch_token_changes(patch: str) -> TokenChanges:
    """Over every run of changed lines: a header or any other line ends a run. Lines that
    start with `---`/`+++` are headers here, even inside a hunk, as upstream reads them."""
    inserted = deleted = 0
    old: list[str] = []
    new: list[str] = []

    def flush() -> None:
        nonlocal inserted, deleted
        if old or new:
            found = changed_tokens(tokenize("\n".join(old)), tokenize("\n".join(new)))
            inserted += found.inserted
            deleted += found.deleted
            old.clear()
            new.clear()

    for line in rust_lines(patch):
        if line.startswith(_HEADERS):
            flush()
        elif line.startswith("-"):
            old.append(line[1:])
        elif line.startswith("+"):
            new.append(line[1:])
        else:
            flush()
    flush()
    return TokenChanges(inserted, deleted)
