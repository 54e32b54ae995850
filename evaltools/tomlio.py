"""The one TOML reader: tomllib (tomli before Python 3.11), imported on the first text read.

Most runs parse no TOML at all (front matter nearly always takes `frontmatter`'s fast path,
and most folders have no `[tool.evaltools]`), so the parser stays off the start-up path.
"""

from __future__ import annotations

import sys
from typing import Any


class TomlError(ValueError):
    """A text that is not valid TOML; the message is the parser's, with its position."""


def loads(text: str) -> dict[str, Any]:
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover
        import tomli as tomllib
    try:
        table: dict[str, Any] = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise TomlError(str(exc)) from exc
    return table
