"""Reading the `gold eval --history` file back: one entry per scored run, in file order.

Each line is what `gold eval --history` appends: `{"run", "label"?, "date"?, "k",
"set_digest", "revision", "groups": [{"type", "split", "n", "metrics": {"ndcg", ...},
"ci"?: {"ndcg": [lo, hi], ...}}]}` (lines written before `label`, `date` and `ci` existed
read as well). A line that is not of that shape becomes a diagnostic at its line, never an
exception, and is left out. What a new line records besides its scores (the revision of the
code the gold was checked against, the date, the label) is `Provenance`.
"""

from __future__ import annotations

import io
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeGuard

from evaltools.diagnostics import Diagnostic, make
from evaltools.retrieval.records.record import iter_record_lines
from evaltools.retrieval.records.validation.rules import BLANK_LINE
from evaltools.retrieval.scoring.evaluate import ALL
from evaltools.retrieval.scoring.rules import HISTORY_UNREADABLE_LINE

if TYPE_CHECKING:
    from evaltools.retrieval.gold.gold_check import GoldCheck

_SHAPE = (
    'a history line is {"run": ..., "k": ..., "revision": ..., "groups": [{"type": ..., '
    '"split": ..., "metrics": {"ndcg": ...}}]} as `gold eval --history` writes it'
)


Interval = tuple[float, float]


@dataclass(frozen=True)
class Entry:
    """One scored run: its name, the git revision, k, and nDCG@k by query type (the type
    `all` is the whole set), each over every split; of the whole set by split (`splits`:
    tune, holdout); the 95% interval of each where recorded (`ci`, by (type, split))."""

    run: str
    revision: str | None
    k: int
    ndcg: dict[str, float]
    splits: dict[str, float] = field(default_factory=dict)
    ci: dict[tuple[str, str], Interval] = field(default_factory=dict)
    date: str | None = None  # UTC, ISO 8601
    label: str | None = None


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
            history.problems.append(make(HISTORY_UNREADABLE_LINE, shown, line.line, 1, message))
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
    for key in ("revision", "date", "label"):
        if value.get(key) is not None and not isinstance(value.get(key), str):
            return f"its `{key}` is neither a string nor null"
    if not isinstance(groups, list):
        return "this line has no `groups` list"
    entry = Entry(run, revision, k, {}, date=value.get("date"), label=value.get("label"))
    for group in groups:
        found = _group_ndcg(group)
        if isinstance(found, str):
            return found
        kind, split, ndcg, interval = found
        if split == ALL:
            entry.ndcg[kind] = ndcg
        elif kind == ALL:
            entry.splits[split] = ndcg
        else:
            continue
        if interval is not None:
            entry.ci[kind, split] = interval
    if ALL not in entry.ndcg:
        return 'its `groups` have no {"type": "all", "split": "all"} group'
    return entry


def _unit(value: Any) -> TypeGuard[float]:
    return not isinstance(value, bool) and isinstance(value, (int, float)) and 0 <= value <= 1


def _group_ndcg(group: Any) -> tuple[str, str, float, Interval | None] | str:
    """(type, split, nDCG, its interval or None) of a group."""
    if not isinstance(group, dict):
        return "an entry of `groups` is not an object"
    kind, split, metrics = group.get("type"), group.get("split"), group.get("metrics")
    if not isinstance(kind, str) or not isinstance(split, str):
        return "a group has no string `type` and `split`"
    value = metrics.get("ndcg") if isinstance(metrics, dict) else None
    if not _unit(value):
        return f"group {kind!r} has no `metrics.ndcg` between 0 and 1"
    ci = group.get("ci")
    if ci is None:
        return kind, split, float(value), None
    bounds = ci.get("ndcg") if isinstance(ci, dict) else None
    if not (isinstance(bounds, list) and len(bounds) == 2 and all(map(_unit, bounds))):
        return f"group {kind!r} has a `ci` without an `ndcg` interval [lo, hi] within 0..1"
    return kind, split, float(value), (float(bounds[0]), float(bounds[1]))


@dataclass(frozen=True)
class Provenance:
    """What a history line says of a run besides its scores."""

    revision: str | None  # the commit of the code the gold was checked against
    date: str  # when it was scored, UTC, ISO 8601
    label: str | None = None  # --label: the user's name for it (a nightly's, a branch's)


def code_revision(root: Path | None, rev: str | None, checked: GoldCheck) -> str | None:
    """The commit of `--rev` (else HEAD) in the repository the gold IDs point into below
    `--root` (the deepest one holding each, as `gold check` resolves them): the code the
    gold was checked against, not the set file's repository, which may be another. IDs in
    several repositories: `name@commit` of each, space-separated. Without a root (an
    index), `--rev` as given."""
    from evaltools.retrieval.sources.git import GitError, run_git
    from evaltools.retrieval.sources.source import CodeTree

    if root is None:
        return rev
    tree = CodeTree(root)
    try:
        tops = {m.top: None for i in checked.items if i.cid and (m := tree.mount(i.cid.path))}
    finally:
        tree.close()
    found = []
    for top in tops:
        try:
            out = run_git(top, "rev-parse", "--verify", "--quiet", f"{rev or 'HEAD'}^{{commit}}")
        except GitError:
            continue
        found.append((top, out.decode().strip()))
    if len(found) == 1:
        return found[0][1]
    return " ".join(f"{top.name}@{commit[:12]}" for top, commit in found) or rev


def scored_now() -> str:
    return datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
