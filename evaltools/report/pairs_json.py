"""`evaltools dupes --format json`: one array, one object per pair."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TextIO

from evaltools import jsonio
from evaltools.diagnostics import Severity
from evaltools.dupes.pairs import Pair


def render(pairs: Sequence[Pair], out: TextIO, severities: Sequence[Severity] = ()) -> None:
    """`severities[i]`, when given, is pair `i`'s severity as configured (evaltools.gate)."""
    items = [pair.to_json() for pair in pairs]
    for item, severity in zip(items, severities, strict=False):
        item["severity"] = severity.value
    out.write(jsonio.dumps(items, indent=2))
    out.write("\n")
