"""The rules of a conversion's own findings (the reader's are in `records`), by the kind
of problem the converter and its sinks name. The rules themselves are in
`rules.py`, beside it."""

from __future__ import annotations

from evaltools.diagnostics import Rule
from evaltools.example.convert import sinks
from evaltools.example.convert.rules import (
    LOSSY_CONVERSION,
    LOSSY_CONVERSION_ALLOWED,
    NAME_COLLISION,
    OUTPUT_EXISTS,
    UNWRITABLE_EXAMPLE,
    WRITE_FAILED,
)

LOSSY = "lossy"  # refused: the output cannot hold all of the record
LOSSY_ALLOWED = "lossy-allowed"  # written anyway (--allow-lossy)
UNWRITABLE = "unwritable"  # the written form would not read back: never written
COLLISION = "collision"

RULE_OF_KIND: dict[str, Rule] = {
    LOSSY: LOSSY_CONVERSION,
    LOSSY_ALLOWED: LOSSY_CONVERSION_ALLOWED,
    UNWRITABLE: UNWRITABLE_EXAMPLE,
    sinks.EXISTS: OUTPUT_EXISTS,
    COLLISION: NAME_COLLISION,
    sinks.WRITE_FAILED: WRITE_FAILED,
}
