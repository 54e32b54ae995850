"""Where each key of a TOML document is written, by its full dotted path: the key's line and
column, its value's, each array item's; and where each comment is.

tomllib gives values but no positions, and drops comments; a configuration error should
point at its place, and a front matter comment that a rewrite would lose at itself. This
scanner runs only on text tomllib has accepted, so it can be lenient: it follows table
headers, dotted and quoted keys, inline tables, arrays and the four string forms (whose
contents may look like keys or comments), and records where each path is first written and
where each `#` starts a comment.
"""

from __future__ import annotations

import re

from evaltools.positions import Lines

Key = tuple[str, ...]
Position = tuple[int, int]  # 1-based line and column (in characters)

_BARE = re.compile(r"[A-Za-z0-9_-]+")
# Each string form from its opening quotes to just past its closing ones; a one-line form's
# body is group 1. Multi-line content may end with one or two quotes of its own (`""""`), so
# up to five quotes close it. Each repetition takes one unit (a character, an escape, one or
# two quotes), so no text can be split two ways and a failed match backtracks in linear time.
# No possessive quantifiers: Python 3.11 before 3.11.3 mismatches some of them (gh-101955).
_STRING_FORMS = {
    '"""': re.compile(r'"""(?:[^"\\]|\\.|""?(?!"))*"{3,5}', re.DOTALL),
    "'''": re.compile(r"'''(?:[^']|''?(?!'))*'{3,5}"),
    '"': re.compile(r'"((?:[^"\\\n]|\\.)*)"'),
    "'": re.compile(r"'([^'\n]*)'"),
}
_ESCAPE = re.compile(r"\\(u[0-9A-Fa-f]{4}|U[0-9A-Fa-f]{8}|.)")
_SCALAR = re.compile(r"[^,\]}\n#]*")
_SIMPLE_ESCAPES = {"b": "\b", "t": "\t", "n": "\n", "f": "\f", "r": "\r", '"': '"', "\\": "\\"}


class KeyLines:
    """`key(path)`, `value(path)`, `item(path, index)`: where `path` (its value, its array's
    item) is written; else where its nearest written ancestor is; else 1:1. `written(path)`:
    where `path` is written, or None. `comments`: where each comment starts."""

    def __init__(self, text: str) -> None:
        self.comments: list[Position] = []  # where each comment's `#` is, in text order
        self._explicit: dict[Key, Position] = {}
        self._implicit: dict[Key, Position] = {}
        self._values: dict[Key, Position] = {}
        self._items: dict[tuple[Key, int], Position] = {}
        _Scanner(text, self).run()

    def record(self, path: Key, at: Position) -> None:
        self._explicit.setdefault(path, at)
        for cut in range(1, len(path)):  # a dotted key or header also defines its parents
            self._implicit.setdefault(path[:cut], at)

    def record_value(self, path: Key, at: Position) -> None:
        self._values.setdefault(path, at)

    def record_item(self, path: Key, index: int, at: Position) -> None:
        self._items.setdefault((path, index), at)

    def written(self, path: Key) -> Position | None:
        """Where `path` itself is first written (a dotted key or header under it counts); None
        when it is not."""
        return self._explicit.get(path, self._implicit.get(path))

    def key(self, path: Key) -> Position:
        for cut in range(len(path), 0, -1):
            found = self.written(path[:cut])
            if found is not None:
                return found
        return (1, 1)

    def value(self, path: Key) -> Position:
        return self._values.get(path) or self.key(path)

    def item(self, path: Key, index: int) -> Position:
        return self._items.get((path, index)) or self.value(path)


def _unescape(body: str) -> str:
    def one(match: re.Match[str]) -> str:
        code = match.group(1)
        if code[0] in "uU":
            return chr(int(code[1:], 16))
        return _SIMPLE_ESCAPES.get(code, code)

    return _ESCAPE.sub(one, body)


class _Scanner:
    def __init__(self, text: str, out: KeyLines) -> None:
        self.text = text
        self.i = 0
        self.out = out
        self._lines = Lines(text)

    def _at(self, offset: int) -> Position:
        return self._lines.line_column(offset)

    def _peek(self, ahead: int = 0) -> str:
        at = self.i + ahead
        return self.text[at] if at < len(self.text) else ""

    def _skip(self, newlines: bool) -> None:
        """Blanks, comments and (inside arrays, between statements) line breaks."""
        while self.i < len(self.text):
            char = self.text[self.i]
            if char in " \t" or (newlines and char in "\r\n"):
                self.i += 1
            elif char == "#":
                self.out.comments.append(self._at(self.i))
                end = self.text.find("\n", self.i)
                self.i = len(self.text) if end < 0 else end
            else:
                return

    def run(self) -> None:
        table: Key = ()
        while True:
            self._skip(newlines=True)
            if self.i >= len(self.text):
                return
            start = self.i
            if self._peek() == "[":
                self.i += 2 if self._peek(1) == "[" else 1
                table = self._key()
                self._skip(newlines=False)
                self.i += 2 if self.text.startswith("]]", self.i) else 1
                self.out.record(table, self._at(start))
            else:
                self._pair(table)

    def _pair(self, prefix: Key) -> None:
        start = self.i
        path = prefix + self._key()
        self._skip(newlines=False)
        self.i += 1  # "="
        self.out.record(path, self._at(start))
        self._skip(newlines=False)
        self.out.record_value(path, self._at(self.i))
        self._value(path)

    def _key(self) -> Key:
        parts: list[str] = []
        while True:
            self._skip(newlines=False)
            char = self._peek()
            if char in "\"'":
                parts.append(self._string())
            else:
                match = _BARE.match(self.text, self.i)
                end = match.end() if match else self.i + 1
                parts.append(self.text[self.i : end])
                self.i = end
            self._skip(newlines=False)
            if self._peek() != ".":
                return tuple(parts)
            self.i += 1

    def _value(self, path: Key, top: bool = True) -> None:
        self._skip(newlines=False)
        char = self._peek()
        if char in "\"'":
            self._string()
        elif char == "[":
            self.i += 1
            index = 0
            while True:
                self._skip(newlines=True)
                if self._peek() in ("]", ""):
                    self.i += 1
                    return
                if top:  # an item of a nested array is not the key's item
                    self.out.record_item(path, index, self._at(self.i))
                index += 1
                self._value(path, top=False)
                self._skip(newlines=True)
                if self._peek() == ",":
                    self.i += 1
        elif char == "{":
            self.i += 1
            while True:
                self._skip(newlines=True)
                if self._peek() in ("}", ""):
                    self.i += 1
                    return
                self._pair(path)
                self._skip(newlines=True)
                if self._peek() == ",":
                    self.i += 1
        else:  # number, boolean, date: up to the next delimiter (a date may hold a space)
            match = _SCALAR.match(self.text, self.i)
            self.i = match.end() if match and match.end() > self.i else self.i + 1

    def _string(self) -> str:
        """Skip a string of any of the four forms; the value matters only for quoted keys."""
        self.i, value = _skip_string(self.text, self.i)
        return value


def _skip_string(text: str, start: int) -> tuple[int, str]:
    """Just past the string whose opening quote is at `start`, in any of the four forms, and
    its value if it is a one-line string (a quoted key is one); "" for a multi-line one."""
    quote = text[start]
    opening = quote * 3 if text.startswith(quote * 3, start) else quote
    found = _STRING_FORMS[opening].match(text, start)
    if found is None:  # not TOML after all: a string that never ends
        return len(text), ""
    if len(opening) == 3:
        return found.end(), ""
    body = found.group(1)
    return found.end(), _unescape(body) if quote == '"' else body
