"""`evaltools dupes --format json`: one array, one object per pair."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TextIO

from evaltools import jsonio
from evaltools.dupes.pairs import Pair


def render(pairs: Sequence[Pair], out: TextIO) -> None:
    out.write(jsonio.dumps([pair.to_json() for pair in pairs], indent=2))
    out.write("\n")
