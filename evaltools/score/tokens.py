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
    out: list[str] = []
    for match in _TOKEN.finditer(text):
        word = match.group("id")
        if word is None:
            out.append(match.group())
        elif word.isascii() and "_" not in word and (word.islower() or word.isdigit()):
            out.append(word)  # the common case, nothing to split
        else:
            _split_identifier(word, out)
    return out


def changed_tokens(old: list[str], new: list[str]) -> TokenChanges:
    """(inserted, deleted) of a minimal diff: the lengths less the longest common subsequence,
    found by Myers' greedy search for the edit distance."""
    start = 0
    while start < len(old) and start < len(new) and old[start] == new[start]:
        start += 1
    end_old, end_new = len(old), len(new)
    while end_old > start and end_new > start and old[end_old - 1] == new[end_new - 1]:
        end_old -= 1
        end_new -= 1
    a, b = old[start:end_old], new[start:end_new]
    n, m = len(a), len(b)
    if not n or not m:
        return TokenChanges(m, n)
    furthest = {1: 0}
    for d in range(n + m + 1):
        for k in range(-d, d + 1, 2):
            if k == -d or (k != d and furthest[k - 1] < furthest[k + 1]):
                x = furthest[k + 1]
            else:
                x = furthest[k - 1] + 1
            y = x - k
            while x < n and y < m and a[x] == b[y]:
                x += 1
                y += 1
            furthest[k] = x
            if x >= n and y >= m:
                common = (n + m - d) // 2
                return TokenChanges(m - common, n - common)
    raise AssertionError("unreachable: the search ends by d = n + m")


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
