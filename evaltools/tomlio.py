"""The one TOML reader: tomllib (tomli before Python 3.11), imported on the first text read.

Most runs parse no TOML at all (front matter nearly always takes `frontmatter`'s fast path,
and most folders have no `[tool.evaltools]`), so the parser stays off the start-up path.
"""

from __future__ import annotations

import re
import sys
from typing import Any

from evaltools.positions import line_column

# How tomllib and tomli end every message; "end of document": the text ended first.
_POSITION = re.compile(r" \(at line (\d+), column (\d+)\)$| \(at end of document\)$")


class TomlError(ValueError):
    """A text that is not valid TOML. The message is the parser's, with its position; `reason`
    is the message without it, and `line` and `column` (1-based, in characters) are where the
    parser stopped: just past the last character when the text ended first."""

    def __init__(self, message: str, text: str) -> None:
        super().__init__(message)
        found = _POSITION.search(message)
        self.reason = message[: found.start()] if found is not None else message
        if found is not None and found.group(1) is not None:
            self.line, self.column = int(found.group(1)), int(found.group(2))
        else:
            self.line, self.column = line_column(text, len(text))


def loads(text: str) -> dict[str, Any]:
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover
        import tomli as tomllib
    try:
        table: dict[str, Any] = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise TomlError(str(exc), text) from exc
    except RecursionError:
        # tomllib recurses once per nested array or inline table, and does not bound it.
        raise _refused(text, _NESTING, "arrays or inline tables nested too deeply") from None
    except ValueError as exc:  # int(): "Exceeds the limit (4300 digits) for integer string"
        if "digits" not in str(exc):
            raise
        raise _refused(text, _HUGE_INT, "an integer longer than readers take") from None
    return table


# What the JSON reader refuses too (`jsonio`): an integer of more than 4,300 digits, and
# nesting deeper than the stack; at the place it starts, as the parser's own errors are.
_HUGE_INT = re.compile(r"[-+]?\d[\d_]{4300,}")
_NESTING = re.compile(r"(?:[\[{][ \t\n]*){64}")


def _refused(text: str, where: re.Pattern[str], what: str) -> TomlError:
    found = where.search(text)
    line, column = line_column(text, found.start() if found is not None else 0)
    return TomlError(f"{what} (at line {line}, column {column})", text)


_KEY_LINE = re.compile(r'\s*([A-Za-z0-9_-]+|"[^"\\]*")\s*=')


def set_twice(exc: TomlError, text: str) -> tuple[str, int, int, int] | None:
    """tomllib's "Cannot overwrite a value" for a plain key written twice in one table, as
    (the key, the line of its first, the line and column of its second), 1-based lines of
    `text`: a person needs the key's name and both places, not the end of the second line."""
    lines = text.split("\n")
    if not exc.reason.startswith("Cannot overwrite a value") or exc.line > len(lines):
        return None
    second = _KEY_LINE.match(lines[exc.line - 1])
    if second is None:
        return None
    key = second.group(1).strip('"')
    found = None
    for number, line in enumerate(lines[: exc.line - 1], start=1):
        first = _KEY_LINE.match(line)
        if line.lstrip().startswith("["):
            found = None  # a table of its own: its keys are not the second one's
        elif first is not None and first.group(1).strip('"') == key:
            found = found or number
    if found is None:
        return None
    return key, found, exc.line, second.start(1) + 1


def explain(exc: TomlError, text: str) -> tuple[int, int, str, str]:
    """(line, column, what is wrong, how to fix it) for a file that is all TOML (a
    pyproject.toml): a key set twice by name, anything else in the parser's words."""
    twice = set_twice(exc, text)
    if twice is not None:
        key, first, line, column = twice
        return (
            line,
            column,
            f"key `{key}` is set twice, first on line {first}",
            ("delete one of the two lines"),
        )
    return exc.line, exc.column, f"not valid TOML ({exc.reason})", "fix it"
