"""The one TOML reader: tomllib (tomli before Python 3.11), imported on the first text read.

Most runs parse no TOML at all (front matter nearly always takes `frontmatter`'s fast path,
and most folders have no `[tool.evaltools]`), so the parser stays off the start-up path.
"""

from __future__ import annotations

import re
import sys
from typing import Any

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
            self.line, self.column = text.count("\n") + 1, len(text) - text.rfind("\n")


def loads(text: str) -> dict[str, Any]:
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover
        import tomli as tomllib
    try:
        table: dict[str, Any] = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise TomlError(str(exc), text) from exc
    return table
