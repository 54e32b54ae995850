"""No repair into code that does not parse. tree-sitter recovers from a syntax error
without a word: a line typed at column 0 inside a Python function (`import os` under its
`def`) leaves the function a one-line definition, so a gold ID would be "moved" onto its
first line. Python's own parser says the file is broken there; the repair waits for the fix.
A syntax error elsewhere in the file (a Python 2 module, a template) leaves it alone."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING

from evaltools.fileio import read_regular
from evaltools.retrieval.code.chunk_id import parse_chunk_id

if TYPE_CHECKING:
    from evaltools.retrieval.gold.items import GoldItem


def refuse_repairs_into_broken_python(items: list[GoldItem], root: Path) -> None:
    """Set `conflict` on each repairable item whose new ID is in a `.py` file of the work
    tree below `root` that Python cannot parse: the check says why, and --fix skips it."""
    verdicts: dict[str, tuple[int, str] | None] = {}
    for item in items:
        result = item.result
        if result is None or not result.status.repairable or not result.new_chunk_id:
            continue
        new = parse_chunk_id(result.new_chunk_id)
        if not new.path.endswith(".py"):
            continue
        if new.path not in verdicts:
            verdicts[new.path] = _syntax_error(root / new.path)
        found = verdicts[new.path]
        # In the span, or just below it: where a definition cut short ends.
        if found is not None and new.start <= found[0] <= new.end + _BELOW:
            version = f"{sys.version_info[0]}.{sys.version_info[1]}"
            item.conflict = (
                f"not rewritten: {new.path} does not parse as Python {version} (line "
                f"{found[0]}: {found[1]}), so the lines of `{new.symbol}` there cannot be "
                "trusted: fix the code, then check again"
            )


_BELOW = 3


def _syntax_error(path: Path) -> tuple[int, str] | None:
    import ast  # only when a repair into Python is proposed

    try:
        source = read_regular(path)
    except OSError:
        return None  # not the work tree's to judge: the resolution read it another way
    try:
        ast.parse(source, str(path))
    except SyntaxError as exc:  # IndentationError is one
        return (exc.lineno or 1), exc.msg
    except (ValueError, RecursionError, MemoryError):
        return None
    return None
