"""Reading the `gold eval --history` file back: one entry per scored run, in file order.

Each line is what `gold eval --history` appends: `{"run", "k", "set_digest", "revision",
"groups": [{"type", "split", "n", "metrics": {"ndcg", ...}}]}`. A line that is not of that
shape becomes a diagnostic at its line, never an exception, and is left out.
"""

from __future__ import annotations

import io
from dataclasses import dataclass, field
from typing import Any

from evaltools.catalogue import rule
from evaltools.diagnostics import Diagnostic, make
from evaltools.retrieval.records.record import iter_record_lines
from evaltools.retrieval.records.record_rules import BLANK_LINE
from evaltools.retrieval.scoring.evaluate import ALL

HISTORY_UNREADABLE = rule("RG503")

_SHAPE = (
    'a history line is {"run": ..., "k": ..., "revision": ..., "groups": [{"type": ..., '
    '"split": ..., "metrics": {"ndcg": ...}}]} as `gold eval --history` writes it'
)


@dataclass(frozen=True)
class Entry:
    """One scored run: its name, the git revision, k, and nDCG@k by query type (the type
    `all` is the whole set), each over every split."""

    run: str
    revision: str | None
    k: int
    ndcg: dict[str, float]


@dataclass
class History:
    entries: list[Entry] = field(default_factory=list)
    problems: list[Diagnostic] = field(default_factory=list)


def parse_history(data: bytes, shown: str) -> History:
    """The entries of a history's bytes (`shown`: the file's name in diagnostics)."""
    history = History()
    for line in iter_record_lines(io.BytesIO(data)):
        wrong = [p for p in line.problems if p.rule is not BLANK_LINE]
        history.problems.extend(p.at(shown, line.line) for p in wrong)
        if not line.parsed or wrong:
            continue
        entry = _entry(line.value)
        if isinstance(entry, str):
            message = f"{_SHAPE}: {entry}; fix or delete the line"
            history.problems.append(make(HISTORY_UNREADABLE, shown, line.line, 1, message))
        else:
            history.entries.append(entry)
    return history


def _entry(value: Any) -> Entry | str:
    """The entry of one line, or what is wrong with it."""
    if not isinstance(value, dict):
        return "this line is not a JSON object"
    run, k, revision, groups = (value.get(key) for key in ("run", "k", "revision", "groups"))
    if not isinstance(run, str):
        return "this line has no string `run`"
    if isinstance(k, bool) or not isinstance(k, int) or k < 1:
        return "its `k` is not a positive integer"
    if revision is not None and not isinstance(revision, str):
        return "its `revision` is neither a string nor null"
    if not isinstance(groups, list):
        return "this line has no `groups` list"
    ndcg: dict[str, float] = {}
    for group in groups:
        found = _group_ndcg(group)
        if isinstance(found, str):
            return found
        if found is not None:
            ndcg[found[0]] = found[1]
    if ALL not in ndcg:
        return 'its `groups` have no {"type": "all", "split": "all"} group'
    return Entry(run, revision, k, ndcg)


def _group_ndcg(group: Any) -> tuple[str, float] | str | None:
    """(type, nDCG) of a group over every split; None for a group of one split."""
    if not isinstance(group, dict):
        return "an entry of `groups` is not an object"
    kind, split, metrics = group.get("type"), group.get("split"), group.get("metrics")
    if not isinstance(kind, str) or not isinstance(split, str):
        return "a group has no string `type` and `split`"
    if split != ALL:
        return None
    value = metrics.get("ndcg") if isinstance(metrics, dict) else None
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value <= 1:
        return f"group {kind!r} has no `metrics.ndcg` between 0 and 1"
    return kind, float(value)
