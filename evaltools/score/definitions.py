"""The metric definitions `--metric` selects: each one of upstream's history (reference
section 4) that changes the numbers and that can be computed from an `ep predict` file."""

from __future__ import annotations

from typing import NamedTuple

from evaltools.score.metrics.chrf import Whitespace


class Definition(NamedTuple):
    name: str
    since: str  # upstream commit date
    summary: str
    beta: float
    whitespace: Whitespace
    # Since the 2026-06-24 rewrite: context documents, one joint best patch, a missing or
    # non-applying prediction scored rather than zeroed, the inline cursor marker.
    context_scoring: bool


DEFINITIONS = (
    Definition(
        "v6",
        "2026-06-24",
        "current: scored on context documents (cursor excerpt when excerpt_start_row is "
        "set, related files), beta 0.5, whitespace collapsed (784b14e207, #59837)",
        0.5,
        "collapse",
        True,
    ),
    Definition(
        "v5",
        "2026-03-25",
        "cursor excerpt as base text, beta 0.5, whitespace collapsed (6aaf08de09, #52422)",
        0.5,
        "collapse",
        False,
    ),
    Definition(
        "v4",
        "2026-03-04",
        "cursor excerpt as base text, beta 2, whitespace collapsed (0394341c81, #50716)",
        2.0,
        "collapse",
        False,
    ),
    Definition(
        "v3",
        "2026-02-23",
        "cursor excerpt as base text, beta 2, whitespace ignored (5ef898d61e, #49936)",
        2.0,
        "ignore",
        False,
    ),
)
DEFAULT = DEFINITIONS[0]
ALIASES = {"current": DEFAULT.name}
NAMES = tuple(d.name for d in DEFINITIONS) + tuple(ALIASES)
# Earlier definitions need what an `ep predict` file no longer holds (the full file, the
# diff lines alone): named so that --help can say why they are not offered.
NOT_OFFERED = (
    "v2 (2026-01-03, full-file base text: needs the whole file, which prompt_inputs no "
    "longer carries)",
    "v1 (2025-11-27, texts rebuilt from diff lines)",
)


def definition(name: str) -> Definition:
    name = ALIASES.get(name, name)
    for d in DEFINITIONS:
        if d.name == name:
            return d
    raise KeyError(name)
