"""`evaltools dupes --format json`: one array, one object per pair."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import TextIO

from evaltools.dupes.pairs import Pair


def render(pairs: Sequence[Pair], out: TextIO) -> None:
    json.dump([pair.to_json() for pair in pairs], out, ensure_ascii=False, indent=2)
    out.write("\n")
