"""`gold merge`'s summary for people (the JSON summary is the command's dict as it is)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from pathlib import Path

from evaltools import jsonio


def percent(value: float | None) -> str:
    return "n/a" if value is None else f"{100 * value:.1f}%"


def merge_text(
    summary: dict[str, object], conflicts: list[dict[str, object]], first: Path, second: Path
) -> Iterable[str]:
    """The lines for people: agreement, each conflict with both annotators' values, totals."""
    agreement = summary["agreement"]
    assert isinstance(agreement, dict)
    kappa = agreement["weighted_kappa"]
    yield (
        f"Agreement on {agreement['pairs']} chunk IDs graded by both: "
        f"exact {percent(agreement['exact'])}, within one level "
        f"{percent(agreement['within_one'])}, linear-weighted kappa "
        f"{'n/a' if kappa is None else f'{kappa:.3f}'}; "
        f"{agreement['one_annotator']} IDs graded by one annotator only."
    )
    yield from _conflict_lines(conflicts, first, second)
    counts = summary["counts"]
    assert isinstance(counts, dict)
    # The kinds that only differing fields make are shown when they occur, so that the line
    # of a merge without them stays as it was.
    kinds = [*_CONFLICT_KINDS, *(k for k in ("classification",) if counts.get(k))]
    parts = [f"{counts.get(k, 0)} {k.replace('_', ' ')}" for k in kinds]
    left_out = sum(counts.get(k, 0) for k in kinds)
    # A query whose only conflict is `fields` was merged (with the first file's values), so
    # it is counted apart from those left out, or the breakdown would not add up to them.
    differing = counts.get("fields", 0)
    merged_apart = (
        f"; {differing} merged with differing fields ({first.name}'s kept)" if differing else ""
    )
    where = summary["conflicts_file"]
    tail = f"; conflicts written to {where}" if where else ""
    if conflicts and not where:
        tail = "; pass --conflicts FILE to write them for arbitration"
    yield (
        f"Merged {summary['merged']} queries into {summary['output']}, left out {left_out} "
        f"for a person to decide ({', '.join(parts)}){merged_apart}{tail}."
    )


_CONFLICT_KINDS = ("arbitrate", "ambiguous", "unpaired")


def _conflict_lines(conflicts: list[dict[str, object]], first: Path, second: Path) -> Iterator[str]:
    """Each conflict's status, then its differing fields and grades, both annotators' values."""
    label = {
        "arbitrate": "ARBITRATE (not merged: decide the grades one level apart)",
        "ambiguous": "AMBIGUOUS (rewrite or drop)",
        "classification": "TYPE OR SPLIT DIFFERS (not merged: agree on one)",
        "fields": f"fields differ (the merged record keeps {first.name}'s)",
    }
    for conflict in conflicts:
        status = str(conflict["status"])
        grades = conflict["grades"]
        assert isinstance(grades, dict)
        yield f"{conflict['qid']}: {label.get(status, status)}"
        fields = conflict.get("fields", {})
        assert isinstance(fields, dict)
        for key, (value_a, value_b) in fields.items():
            shown_a, shown_b = jsonio.dumps(value_a), jsonio.dumps(value_b)
            yield f"  {key}: {first.name}={shown_a} {second.name}={shown_b}"
        for chunk_id, (grade_a, grade_b) in grades.items():
            shown_a = "-" if grade_a is None else grade_a
            shown_b = "-" if grade_b is None else grade_b
            yield f"  {chunk_id}: {first.name}={shown_a} {second.name}={shown_b}"
