"""One JSON array, one object per finding."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TextIO

from evaltools import jsonio
from evaltools.diagnostics import Diagnostic


def render(diagnostics: Sequence[Diagnostic], out: TextIO) -> None:
    out.write(jsonio.dumps([d.to_json() for d in diagnostics], indent=2))
    out.write("\n")
