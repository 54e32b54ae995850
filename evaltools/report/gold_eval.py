"""`gold eval`'s output: text table, JSON, Markdown (for a pull-request comment), history."""

from __future__ import annotations

import hashlib
from typing import TYPE_CHECKING, Any

from evaltools import jsonio
from evaltools.retrieval.gold.gold_check import GoldCheck
from evaltools.retrieval.scoring.evaluate import (
    ALL,
    SIGNIFICANCE,
    SMALL_GROUP,
    Evaluation,
    Group,
    query_split,
    query_type,
)
from evaltools.retrieval.scoring.history import Entry, Provenance

if TYPE_CHECKING:
    from evaltools.report.svg_chart import Series
from evaltools.retrieval.scoring.metrics import METRICS
from evaltools.retrieval.scoring.resampling import BOOTSTRAP_RESAMPLES, PERMUTATIONS

PLOT_GENERATOR = "evaltools gold eval --plot"
_PLOT_MARKER = f'data-generator="{PLOT_GENERATOR}"'.encode()

_OVERFIT = (
    "nDCG improves significantly on tune but not on holdout: the overfitting signal; "
    "trust the holdout"
)


def _rounded(x: float) -> float:
    return round(x, 6)


def _group_json(group: Group) -> dict[str, Any]:
    return {
        "type": group.type,
        "split": group.split,
        "n": len(group.members),
        "metrics": {m: _rounded(group.means[m]) for m in METRICS},
        "ci": {m: [_rounded(lo), _rounded(hi)] for m, (lo, hi) in group.ci.items()},
        "too_small": group.small,
    }


def as_json(result: Evaluation, stale: list[str]) -> dict[str, Any]:
    comparison: dict[str, Any] | None = None
    if result.baseline is not None:
        comparison = {
            "baseline": result.baseline,
            "test": f"paired randomization, {PERMUTATIONS} sign flips, seed {result.seed}",
            "baseline_missing": result.baseline_missing,
            "groups": [
                {
                    "type": d.type,
                    "split": d.split,
                    "n": d.n,
                    "diff": {m: _rounded(v) for m, v in d.diff.items()},
                    "p": {m: _rounded(v) for m, v in d.p.items()},
                }
                for d in result.comparison
            ],
            "overfitting": result.overfitting,
        }
    return {
        "run": result.run,
        "k": result.k,
        "ci": f"95% percentile bootstrap, {BOOTSTRAP_RESAMPLES} resamples, seed {result.seed}",
        "groups": [_group_json(g) for g in result.groups],
        "missing": result.missing,
        "unknown": result.unknown,
        "stale": stale,
        "comparison": comparison,
        "queries": _queries_json(result),
    }


def _queries_json(result: Evaluation) -> list[dict[str, Any]]:
    """Each query's values, in the set's order: which queries failed is what a user looks
    at next."""
    missing = set(result.missing)
    return [
        {
            "qid": query.qid,
            "type": query_type(query),
            "split": query_split(query),
            "missing": query.qid in missing,
            "metrics": {m: _rounded(v) for m, v in zip(METRICS, values, strict=True)},
        }
        for query, values in zip(result.queries, result.scores, strict=True)
    ]


def _rows(result: Evaluation) -> list[list[str]]:
    rows = []
    for group in result.groups:
        cells = [group.type, group.split, str(len(group.members))]
        for metric in METRICS:
            lo, hi = group.ci.get(metric, (0.0, 0.0))
            cells.append(f"{group.means[metric]:.3f} [{lo:.3f}, {hi:.3f}]")
        cells.append(f"under {SMALL_GROUP}" if group.small else "")
        rows.append(cells)
    return rows


_HEADER = ["type", "split", "n", *(f"{m}@k" for m in METRICS), "note"]


def _notes(result: Evaluation, stale: list[str]) -> list[str]:
    notes = [
        f"k = {result.k}; 95% bootstrap intervals ({BOOTSTRAP_RESAMPLES} resamples, seed "
        f"{result.seed}); a group under {SMALL_GROUP} queries cannot separate 2 points."
    ]
    if result.missing:
        notes.append(
            f"{len(result.missing)} queries have no results and score 0: "
            + ", ".join(result.missing)
        )
    if result.unknown:
        notes.append(
            f"{len(result.unknown)} qids of the run are not in the set (ignored): "
            + ", ".join(result.unknown)
        )
    if stale:
        notes.append(f"scored with stale gold IDs (--allow-stale): {', '.join(stale)}")
    return notes


def _comparison_rows(result: Evaluation) -> list[list[str]]:
    rows = []
    for d in result.comparison:
        cells = [d.type, d.split, str(d.n)]
        for metric in METRICS:
            mark = "*" if d.p[metric] < SIGNIFICANCE else ""
            cells.append(f"{d.diff[metric]:+.3f} (p={d.p[metric]:.3f}){mark}")
        rows.append(cells)
    return rows


def as_text(result: Evaluation, stale: list[str]) -> str:
    out = [f"run {result.run}"]
    out += _table(_HEADER, _rows(result))
    out += _notes(result, stale)
    if result.baseline is not None:
        out.append(f"run - baseline {result.baseline} (* p < {SIGNIFICANCE}):")
        out += _table(_HEADER[:-1], _comparison_rows(result))
        if result.overfitting:
            out.append(f"warning: {_OVERFIT}")
    return "\n".join(out) + "\n"


def _table(header: list[str], rows: list[list[str]]) -> list[str]:
    widths = [max(len(r[c]) for r in [header, *rows]) for c in range(len(header))]
    return [
        "  ".join(cell.ljust(w) for cell, w in zip(r, widths, strict=True)).rstrip()
        for r in [header, *rows]
    ]


def as_markdown(result: Evaluation, stale: list[str]) -> str:
    out = [f"### gold eval: `{result.run}`", ""]
    out += _markdown_table(_HEADER, _rows(result))
    out += [""] + [f"- {note}" for note in _notes(result, stale)]
    if result.baseline is not None:
        out += ["", f"**run − baseline `{result.baseline}`** (* p < {SIGNIFICANCE})", ""]
        out += _markdown_table(_HEADER[:-1], _comparison_rows(result))
        if result.overfitting:
            out += ["", f"> **Warning**: {_OVERFIT}"]
    return "\n".join(out) + "\n"


def _markdown_table(header: list[str], rows: list[list[str]]) -> list[str]:
    def line(cells: list[str]) -> str:
        return "| " + " | ".join(c.replace("|", "\\|") for c in cells) + " |"

    return [line(header), line(["---"] * len(header)), *(line(r) for r in rows)]


def history_lines(results: list[Evaluation], checked: GoldCheck, made: Provenance) -> bytes:
    """One JSON line per run: its overall, per-type and per-split metrics with their
    intervals, the set's digest, the revision, the date and the label, so a series of
    evaluations can be followed and drawn."""
    digest = hashlib.sha256(b"".join(f.data for f in checked.files)).hexdigest()
    lines = "".join(
        jsonio.dumps(
            {
                "run": r.run,
                **({"label": made.label} if made.label is not None else {}),
                "date": made.date,
                "k": r.k,
                "set_digest": digest,
                "revision": made.revision,
                "groups": [
                    {
                        "type": g.type,
                        "split": g.split,
                        "n": len(g.members),
                        "metrics": {m: _rounded(g.means[m]) for m in METRICS},
                        "ci": {m: [_rounded(lo), _rounded(hi)] for m, (lo, hi) in g.ci.items()},
                    }
                    for g in r.groups
                    if ALL in (g.type, g.split)
                ],
            },
            compact=True,
        )
        + "\n"
        for r in results
    )
    return lines.encode()


def history_chart(entries: list[Entry], source: str) -> str:
    """The SVG of nDCG@k over the runs of the history, in file order: the whole set
    (`all`) first, then each type in the order it first appears, then the whole set on
    each split (tune, holdout: the overfitting warning compares them), each with its 95%
    interval as a band where the history holds it."""
    from evaltools.report.svg_chart import line_chart

    types = list(dict.fromkeys(t for e in entries for t in e.ndcg))
    types.sort(key=lambda t: t != ALL)  # stable: `all` first, the others as they came
    splits = list(dict.fromkeys(s for e in entries for s in e.splits))
    splits.sort(key=lambda s: (s not in _SPLIT_ORDER, _SPLIT_ORDER.get(s, 0)))
    series = [_series(entries, kind, ALL, kind) for kind in types]
    series += [_series(entries, ALL, split, f"{split} (all types)") for split in splits]
    ks = sorted({e.k for e in entries})
    metric = f"nDCG@{ks[0]}" if len(ks) == 1 else "nDCG@k"
    title = f"{metric} by query type: {source}, {len(entries)} run{'s' * (len(entries) != 1)}"
    if len(ks) > 1:
        title += f" (k = {', '.join(map(str, ks))})"
    labels = [_run_label(e) for e in entries]
    empty = f"no runs in {source} yet"
    axis = "run (label or file, date UTC, @ revision); bands: 95% intervals"
    return line_chart(
        title, metric, labels, series, empty=empty, generator=PLOT_GENERATOR, x_label=axis
    )


# Splits in this order; holdout dashed, so that it reads apart from tune in grey too.
_SPLIT_ORDER = {"tune": 0, "holdout": 1}
_SPLIT_DASH = {"tune": "", "holdout": "7 4"}


def _series(entries: list[Entry], kind: str, split: str, name: str) -> Series:
    from evaltools.report.svg_chart import Series

    def value(e: Entry) -> float | None:
        return e.ndcg.get(kind) if split == ALL else e.splits.get(split)

    present = [(i, e, v) for i, e in enumerate(entries) if (v := value(e)) is not None]
    return Series(
        name,
        [(i, v) for i, _, v in present],
        [
            f"{name}: nDCG@{e.k} {v:.3f}{_interval(e, kind, split)} ({_run_label(e)})"
            for _, e, v in present
        ],
        band=[(i, *e.ci[kind, split]) for i, e, _ in present if (kind, split) in e.ci],
        dash=_SPLIT_DASH.get(split, "2 3") if split != ALL else None,
        faint=kind != ALL,  # the types: the whole set and its splits stand out
    )


def _interval(entry: Entry, kind: str, split: str) -> str:
    bounds = entry.ci.get((kind, split))
    return f" [{bounds[0]:.3f}, {bounds[1]:.3f}]" if bounds else ""


def is_history_chart(head: bytes) -> bool:
    """Whether a file that starts with `head` is a chart `history_chart` drew: the only
    file `gold eval --plot` replaces (the marker is on the first line)."""
    first = head.split(b"\n", 1)[0]
    return first.startswith(b"<svg ") and _PLOT_MARKER in first


def _run_label(entry: Entry) -> str:
    """The label, else the run file's name; the date (to the minute); the revision."""
    parts = [entry.label if entry.label else entry.run]
    if entry.date:
        parts.append(entry.date[:16].replace("T", " "))
    label = " ".join(parts)
    if not entry.revision:
        return label
    if " " in entry.revision:  # several repositories: name@commit each
        return f"{label} @ {entry.revision}"
    return f"{label} @ {entry.revision[:7]}"
