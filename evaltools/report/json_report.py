"""One JSON array, one object per finding."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import TextIO

from evaltools.diagnostics import Diagnostic


def render(diagnostics: Sequence[Diagnostic], out: TextIO) -> None:
    json.dump([d.to_json() for d in diagnostics], out, ensure_ascii=False, indent=2)
    out.write("\n")
