"""TOML front matter between `+++` lines: reading as the reference does, writing canonically."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from evaltools.tomlio import TomlError, loads, set_twice

if TYPE_CHECKING:
    from evaltools.tomllocate import KeyLines

OPEN = "+++\n"
ROLLBACK_KEY = "uncommitted_diff_requires_edit_history_rollback"
KNOWN_KEYS = ("repository_url", "revision", "tags", ROLLBACK_KEY)


@dataclass
class FrontMatter:
    """What the front matter held, and what the reference would have made of it."""

    present: bool = False
    closed: bool = False
    raw: str = ""
    end: int = 0  # offset just past the closing `+++\n`
    repository_url: str = ""
    revision: str = ""
    tags: list[str] = field(default_factory=list)
    rollback: bool = False
    error: str | None = None  # what is wrong ("front matter has no `revision`"), no advice
    error_line: int = 1  # 1-based line in the file
    error_column: int = 1  # 1-based, in characters
    error_fix: str = "fix it"  # the advice for `error`, when there is a precise one
    rename: tuple[str, str] | None = None  # (misspelt key, meant key) as written in TOML
    unknown_keys: list[str] = field(default_factory=list)
    # Where each TOML comment starts in the file, (line, column) of its `#`: a rewrite, which
    # writes the front matter from its values, loses every one.
    comments: list[tuple[int, int]] = field(default_factory=list)
    # The front matter when it is TOML, whose keys can then be located; they are scanned for
    # only when a finding asks where one is (or the text has a `#` that may be a comment).
    _toml: str | None = field(default=None, repr=False, compare=False)
    _located: KeyLines | None = field(default=None, repr=False, compare=False)

    def key_position(self, key: str) -> tuple[int, int] | None:
        """(line, column) in the file where top-level `key` is written (a `[key]` header or a
        dotted `key.sub` counts), as TOML reads it (`"k\\u0065y"` is `key`); None when it is
        not written, or the front matter is not TOML."""
        located = self._locate()
        found = located.written((key,)) if located is not None else None
        return (1 + found[0], found[1]) if found is not None else None

    def meant_key(self, key: str) -> str | None:
        """The known key that unknown `key` looks like (`tag`, `Tags`: `tags`), when the
        front matter does not set it already (renaming onto it would set it twice)."""
        import difflib  # only a front matter with an unknown key gets here

        free = {k.lower(): k for k in KNOWN_KEYS if self.key_position(k) is None}
        close = difflib.get_close_matches(key.lower(), list(free), n=1, cutoff=0.75)
        return free[close[0]] if close else None

    def _locate(self) -> KeyLines | None:
        if self._located is None and self._toml is not None:
            from evaltools.tomllocate import KeyLines

            self._located = KeyLines(self._toml)
        return self._located


def split_front_matter(text: str) -> FrontMatter:
    if not text.startswith(OPEN):
        return FrontMatter()
    close = text.find(OPEN, len(OPEN))
    if close < 0:
        return FrontMatter(present=True, closed=False)
    raw = text[len(OPEN) : close]
    result = FrontMatter(present=True, closed=True, raw=raw, end=close + len(OPEN))
    _interpret(raw, result)
    return result


# The shape nearly every file has; read without the (pure Python) TOML parser.
_SIMPLE = re.compile(
    r'repository_url = "([^"\\\x00-\x1f\x7f]*)"\nrevision = "([^"\\\x00-\x1f\x7f]*)"\n\Z'
)
_PLAIN_STRING = re.compile(r'[^"\\\x00-\x1f\x7f]*\Z')
_BARE_KEY = re.compile(r"[A-Za-z0-9_-]+")


def _interpret(raw: str, result: FrontMatter) -> None:
    simple = _SIMPLE.match(raw)
    if simple is not None:
        result.repository_url, result.revision = simple.group(1), simple.group(2)
        result._toml = raw  # no comment: `#` can only be inside the two strings
        return
    try:
        table = loads(raw)
    except TomlError as exc:
        message, line, column = _toml_error(exc, raw)
        twice = set_twice(exc, raw)
        if twice is not None:
            key, first, line, column = twice
            message = f"key `{key}` is set twice, first on line {1 + first}"  # `+++` is 1
            result.error_fix = "delete one of the two lines"
        result.error = f"front matter is not valid TOML ({message})"
        result.error_line, result.error_column = 1 + line, column
        return
    result._toml = raw
    problems = _check_types(table)
    if problems:
        result.error, key, result.error_fix = problems
        misspelt = _misspelling(key, table) if key not in table else None
        if misspelt is not None:
            result.error += f" but has `{shown_key(misspelt)}`"
            result.error_fix = f"rename `{shown_key(misspelt)}` to `{key}`"
            result.rename = (shown_key(misspelt), shown_key(key))
            key = misspelt
        position = result.key_position(key)
        result.error_line = position[0] if position is not None else 1
        return
    result.repository_url = table["repository_url"]
    result.revision = table["revision"]
    result.tags = list(table.get("tags", []))
    result.rollback = bool(table.get(ROLLBACK_KEY, False))
    result.unknown_keys = [k for k in table if k not in KNOWN_KEYS]
    located = result._locate() if "#" in raw else None  # most front matter has no `#` at all
    if located is not None:
        result.comments = [(1 + line, column) for line, column in located.comments]


def _toml_error(exc: TomlError, raw: str) -> tuple[str, int, int]:
    """The message without its position, and the 1-based line and column in `raw` it
    points at."""
    lines = raw.split("\n")
    line, column = exc.line, exc.column
    if line >= len(lines):  # the end of the front matter: the end of its last line
        line = max(len(lines) - 1, 1)
        column = len(lines[line - 1]) + 1
    if exc.reason.startswith("Unclosed array") and lines[line - 1][: column - 1].strip():
        if not lines[line - 1][column - 1 :].strip():  # nothing follows: the `]` is missing
            return "the array is not closed: add `]` after its last item", line, column
        # The next item starts on the line of the one before it (`[1 2]`).
        return "a `,` is missing before this array item", line, column
    if exc.reason.startswith("Unclosed array"):
        above = next((n for n in range(line - 1, 0, -1) if lines[n - 1].strip()), None)
        end = _VALUE_END.search(lines[above - 1]) if above is not None else None
        if above is not None and end is not None:
            return (
                "a `,` is missing at the end of this line, between two array items",
                above,
                end.end(1) + 1,
            )
    return exc.reason, line, column


# A line that ends with an array item (a string, a number, a boolean) and no comma.
_VALUE_END = re.compile(r'(["\'0-9]|true|false)\s*(#.*)?$')


def _check_types(table: dict[str, Any]) -> tuple[str, str, str] | None:
    """What is wrong, the key it is about, and how to write it (the fix)."""
    for key in ("repository_url", "revision"):
        if key not in table:
            return f"front matter has no `{key}`", key, f'add `{key} = "…"` below the opening `+++`'
        if not isinstance(table[key], str):
            return f"front matter `{key}` is not a string", key, f'write `{key} = "…"`'
    tags = table.get("tags", [])
    if not isinstance(tags, list) or not all(isinstance(t, str) for t in tags):
        # `[[tags]]`, `[tags]`, `tags = "a"`, `tags = [1]`: one line of quoted strings.
        return "front matter `tags` is not an array of strings", "tags", 'write `tags = ["…"]`'
    if not isinstance(table.get(ROLLBACK_KEY, False), bool):
        fix = f"write `{ROLLBACK_KEY} = true` (or `false`), without quotes"
        return f"front matter `{ROLLBACK_KEY}` is not true or false", ROLLBACK_KEY, fix
    return None


def _misspelling(key: str, table: dict[str, Any]) -> str | None:
    """The unknown key that looks like `key` misspelt (`revison`), if there is one."""
    import difflib  # only a broken front matter gets here

    unknown = [k for k in table if k not in KNOWN_KEYS]
    close = difflib.get_close_matches(key, unknown, n=1, cutoff=0.75)
    return close[0] if close else None


def shown_key(key: str) -> str:
    """`key` as a TOML key, for a message: bare when it can be, else quoted with escapes, so
    that a tab or a line break in it shows as `\\t` or `\\n` in every output format."""
    return key if _BARE_KEY.fullmatch(key) else toml_string(key)


def toml_string(value: str) -> str:
    """A TOML basic string; escapes keep every value on one line."""
    if _PLAIN_STRING.match(value):
        return f'"{value}"'
    out = ['"']
    for char in value:
        code = ord(char)
        if char == '"':
            out.append('\\"')
        elif char == "\\":
            out.append("\\\\")
        elif char == "\n":
            out.append("\\n")
        elif char == "\t":
            out.append("\\t")
        elif code < 0x20 or code == 0x7F:
            out.append(f"\\u{code:04X}")
        else:
            out.append(char)
    out.append('"')
    return "".join(out)


def render_front_matter(repository_url: str, revision: str, tags: list[str], rollback: bool) -> str:
    """The body the reference's pretty TOML writer produces for these fields."""
    lines = [
        f"repository_url = {toml_string(repository_url)}",
        f"revision = {toml_string(revision)}",
    ]
    if len(tags) == 1:
        lines.append(f"tags = [{toml_string(tags[0])}]")
    elif tags:
        lines.append("tags = [")
        lines.extend(f"    {toml_string(tag)}," for tag in tags)
        lines.append("]")
    if rollback:
        lines.append(f"{ROLLBACK_KEY} = true")
    return "\n".join(lines) + "\n"
