"""TOML front matter between `+++` lines: reading as the reference does, writing canonically."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from evaltools.tomlio import TomlError, loads

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
    unknown_keys: list[str] = field(default_factory=list)
    key_lines: dict[str, int] = field(default_factory=dict)  # top-level key -> line in the file
    comment_line: int = 0  # line in the file of the first TOML comment; 0: none


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


def _interpret(raw: str, result: FrontMatter) -> None:
    simple = _SIMPLE.match(raw)
    if simple is not None:
        result.repository_url, result.revision = simple.group(1), simple.group(2)
        result.key_lines = {"repository_url": 2, "revision": 3}
        return
    try:
        table = loads(raw)
    except TomlError as exc:
        message, line, column = _toml_error(exc, raw)
        result.error = f"front matter is not valid TOML ({message})"
        result.error_line, result.error_column = 1 + line, column
        return
    problems = _check_types(table)
    if problems:
        result.error, key = problems
        misspelt = _misspelling(key, table) if key not in table else None
        if misspelt is not None:
            result.error += f" but has `{misspelt}`"
            result.error_fix = f"rename `{misspelt}` to `{key}`"
            key = misspelt
        result.error_line = 1 + _key_line(raw, key)
        return
    result.repository_url = table["repository_url"]
    result.revision = table["revision"]
    result.tags = list(table.get("tags", []))
    result.rollback = bool(table.get(ROLLBACK_KEY, False))
    result.unknown_keys = [k for k in table if k not in KNOWN_KEYS]
    result.key_lines = {k: 1 + (_key_line(raw, k) or 1) for k in table}
    comments = (i for i, line in enumerate(raw.split("\n")) if line.lstrip().startswith("#"))
    result.comment_line = next((i + 2 for i in comments), 0)


def _toml_error(exc: TomlError, raw: str) -> tuple[str, int, int]:
    """The message without its position, and the 1-based line and column in `raw` it
    points at."""
    lines = raw.split("\n")
    line, column = exc.line, exc.column
    if line >= len(lines):  # the end of the front matter: the end of its last line
        line = max(len(lines) - 1, 1)
        column = len(lines[line - 1]) + 1
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


def _check_types(table: dict[str, Any]) -> tuple[str, str] | None:
    for key in ("repository_url", "revision"):
        if key not in table:
            return f"front matter has no `{key}`", key
        if not isinstance(table[key], str):
            return f"front matter `{key}` is not a string", key
    tags = table.get("tags", [])
    if not isinstance(tags, list) or not all(isinstance(t, str) for t in tags):
        return "front matter `tags` is not an array of strings", "tags"
    if not isinstance(table.get(ROLLBACK_KEY, False), bool):
        return f"front matter `{ROLLBACK_KEY}` is not true or false", ROLLBACK_KEY
    return None


def _misspelling(key: str, table: dict[str, Any]) -> str | None:
    """The unknown key that looks like `key` misspelt (`revison`), if there is one."""
    import difflib  # only a broken front matter gets here

    unknown = [k for k in table if k not in KNOWN_KEYS]
    close = difflib.get_close_matches(key, unknown, n=1, cutoff=0.75)
    return close[0] if close else None


def _key_line(raw: str, key: str) -> int:
    """1-based line inside the front matter where top-level `key` is defined: `key = `,
    `"key" = `, `key.sub = `, `[key]` or `[[key]]`; 0 when there is none (a missing key)."""
    name = re.escape(key)
    pattern = re.compile(
        rf"""^[ \t]*(?:\[\[?[ \t]*)?(?:{name}|"{name}"|'{name}')[ \t]*[=.\]]""", re.MULTILINE
    )
    found = pattern.search(raw)
    return raw.count("\n", 0, found.start()) + 1 if found is not None else 0


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
