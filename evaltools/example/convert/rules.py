"""The rules of a conversion's own findings (the reader's are in `records`), by the kind
of problem the converter and its sinks name. The rules themselves are in the catalogue."""

from __future__ import annotations

from evaltools.catalogue import rule
from evaltools.diagnostics import Rule
from evaltools.example.convert.sinks import EXISTS, WRITE_FAILED

LOSSY = "lossy"  # refused: the output cannot hold all of the record
LOSSY_ALLOWED = "lossy-allowed"  # written anyway (--allow-lossy)
UNWRITABLE = "unwritable"  # the written form would not read back: never written
COLLISION = "collision"

RULE_OF_KIND: dict[str, Rule] = {
    LOSSY: rule("CV007"),
    LOSSY_ALLOWED: rule("CV008"),
    UNWRITABLE: rule("CV009"),
    EXISTS: rule("CV010"),
    COLLISION: rule("CV011"),
    WRITE_FAILED: rule("CV012"),
}
