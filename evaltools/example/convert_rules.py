"""The rules of a conversion's own findings (the reader's are in `records`), by the kind
of problem the converter and its sinks name."""

from __future__ import annotations

from evaltools.diagnostics import RULES, Rule, Severity
from evaltools.example.convert_sinks import EXISTS, ONE_OUTPUT, WRITE_FAILED

LOSSY = "lossy"  # refused: the output cannot hold all of the record
LOSSY_ALLOWED = "lossy-allowed"  # written anyway (--allow-lossy)
UNWRITABLE = "unwritable"  # the written form would not read back: never written
COLLISION = "collision"


def _rule(code: str, name: str, severity: Severity, summary: str, doc: str = "") -> Rule:
    return RULES.add(Rule(code, name, severity, summary, doc))


E, W = Severity.ERROR, Severity.WARNING
RULE_OF_KIND: dict[str, Rule] = {
    LOSSY: _rule(
        "CV007",
        "lossy-conversion",
        E,
        "The target form cannot hold all of the example, so it was not converted.",
        "Runtime fields (`prompt`, `predictions`, `score`, ...), `telemetry`, "
        "`human_feedback` and `rating` have no place in Markdown, and content of a "
        "Markdown file outside the model reaches no form. `--allow-lossy` converts anyway.",
    ),
    LOSSY_ALLOWED: _rule(
        "CV008",
        "lossy-conversion-allowed",
        W,
        "Part of the example was dropped, as --allow-lossy allows.",
    ),
    UNWRITABLE: _rule(
        "CV009",
        "unwritable-example",
        E,
        "The Markdown written for the example would not read back, so it was not written.",
    ),
    EXISTS: _rule("CV010", "output-exists", E, "The output file exists; --force overwrites it."),
    COLLISION: _rule(
        "CV011",
        "name-collision",
        W,
        "Two examples map to the same file name; the later one gets a -2, -3, ... suffix.",
    ),
    WRITE_FAILED: _rule("CV012", "write-failed", E, "An output file cannot be written."),
    ONE_OUTPUT: _rule(
        "CV013",
        "several-examples-for-one-file",
        E,
        "Several examples were selected for a single output file.",
    ),
}
