"""The gold discipline: merging two annotators' grades, agreement, audit samples, holdout split.

Everything here is a pure function of its input and a seed, so that re-running a command
gives byte-identical output; what depends on chance depends on a hash of the record's
identity instead of on its position (see strata.py). The holdout split is in holdout.py.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from evaltools.diagnostics import Diagnostic, make
from evaltools.jsonlocate import pointer
from evaltools.retrieval.gold.discipline.rules import (
    MERGE_AMBIGUOUS_QUERY,
    MERGE_CLASSIFICATION_DIFFERS,
    MERGE_DUPLICATE_QID,
    MERGE_NEEDS_ARBITRATION,
    MERGE_QUERY_DIFFERS,
    MERGE_UNPAIRED_QUERY,
)
from evaltools.retrieval.records.record import RecordLine
from evaltools.retrieval.records.set_file import GRADES, index_by_qid
from evaltools.retrieval.records.strata import quotas, type_key, unit_hash

# --- agreement -------------------------------------------------------------------------------


def weighted_kappa(pairs: Sequence[tuple[int, int]]) -> float | None:
    """Linear-weighted Cohen's kappa over grade pairs on the 1..3 scale.

    Agreement weight of grades i, j is ``1 - |i - j| / 2``, so one level apart counts half.
    ``(p_o - p_e) / (1 - p_e)`` with p_o the observed and p_e the chance weighted agreement
    (from each annotator's own grade distribution). None when it is undefined: no pairs, or
    both annotators always gave one and the same grade (p_e = 1).
    """
    if not pairs:
        return None
    n = len(pairs)
    span = GRADES[-1] - GRADES[0]

    def weight(i: int, j: int) -> Fraction:
        return 1 - Fraction(abs(i - j), span)

    rows = Counter(a for a, _ in pairs)
    cols = Counter(b for _, b in pairs)
    observed = sum((weight(a, b) for a, b in pairs), Fraction(0)) / n
    expected = sum(
        (weight(i, j) * rows[i] * cols[j] for i in GRADES for j in GRADES), Fraction(0)
    ) / (n * n)
    if expected == 1:
        return None
    return float((observed - expected) / (1 - expected))


@dataclass(frozen=True)
class Agreement:
    """Agreement over IDs graded by both annotators.

    An ID graded by only one annotator is left out of all three figures and counted in
    ``one_annotator`` instead: the figures measure how alike two given grades are, and
    counting a missing one as 0 would mix the coverage of the candidate lists into them.
    Deciding a query is another matter: there the missing grade is a 0 (`_merge_query`).
    """

    pairs: int
    exact: float | None
    within_one: float | None
    kappa: float | None
    one_annotator: int

    @classmethod
    def of(cls, pairs: Sequence[tuple[int, int]], one_annotator: int) -> Agreement:
        n = len(pairs)
        if not n:
            return cls(0, None, None, None, one_annotator)
        exact = sum(1 for a, b in pairs if a == b) / n
        within = sum(1 for a, b in pairs if abs(a - b) <= 1) / n
        return cls(n, exact, within, weighted_kappa(pairs), one_annotator)


# --- merge -----------------------------------------------------------------------------------

AMBIGUOUS = "ambiguous"
ARBITRATE = "arbitrate"
UNPAIRED = "unpaired"
CLASSIFICATION = "classification"
FIELDS = "fields"

# Fields that decide which figures a query counts in: A's value must not win over B's unseen.
CLASSIFYING = ("type", "split")
# Fields the merge itself decides: the pairing key, RG403's, the graded map, the union.
_MERGED_BY_RULE = frozenset({"qid", "query", "gold", "annotators"})


@dataclass
class MergeResult:
    """``merged``: records to write; ``conflicts``: everything a person must still decide.

    Every query of either file ends up in ``merged`` (all its grades agreed) or in
    ``conflicts`` (with every grade of both annotators), never in part in each: a merged
    record is final. A query in both has only differing non-classifying ``fields``.
    """

    merged: list[dict[str, object]] = field(default_factory=list)
    conflicts: list[dict[str, object]] = field(default_factory=list)
    agreement: Agreement = field(default_factory=lambda: Agreement(0, None, None, None, 0))
    counts: Counter[str] = field(default_factory=Counter)
    # Input that stops the merge: nothing may be written.
    diagnostics: list[Diagnostic] = field(default_factory=list)
    # Why each query in the conflicts was left out (RG405-RG408): written, and reported.
    findings: list[Diagnostic] = field(default_factory=list)


def merge_annotations(first: Sequence[RecordLine], second: Sequence[RecordLine]) -> MergeResult:
    """Merge two annotators' files by qid, following the grading discipline.

    Per chunk ID either graded (a missing grade is 0, not relevant): same grade ->
    accepted; one level apart -> arbitration (RG406); two or more apart -> the query is
    ambiguous, rewrite or drop it (RG407). A query is merged only when every grade is
    accepted; otherwise the whole query goes to the conflicts. Queries in one file only go
    there too (RG408). Fields both records hold with different values
    are listed in the query's conflict under ``fields`` (name -> [A's, B's]); a different
    `type` or `split` also keeps the query out of the merge (an RG405 finding), any other
    field leaves A's value in the merged record.
    """
    result = MergeResult()
    by_qid_a = _index(first, result.diagnostics)
    by_qid_b = _index(second, result.diagnostics)
    if result.diagnostics:
        return result
    pairs: list[tuple[int, int]] = []
    one_annotator = 0
    for qid, line_a in by_qid_a.items():
        line_b = by_qid_b.get(qid)
        if line_b is None:
            result.conflicts.append(_unpaired(line_a, 0))
            result.findings.append(_unpaired_query(line_a))
            continue
        if line_a.query != line_b.query:
            result.diagnostics.append(_query_differs(line_a, line_b))
            continue
        gold_a, gold_b = line_a.gold(), line_b.gold()
        both = [cid for cid in gold_a if cid in gold_b]
        pairs.extend((gold_a[cid], gold_b[cid]) for cid in both)
        one_annotator += len(gold_a) + len(gold_b) - 2 * len(both)
        _merge_query(line_a, line_b, result)
    for qid, line_b in by_qid_b.items():
        if qid not in by_qid_a:
            result.conflicts.append(_unpaired(line_b, 1))
            result.findings.append(_unpaired_query(line_b))
    result.agreement = Agreement.of(pairs, one_annotator)
    for conflict in result.conflicts:
        result.counts[str(conflict["status"])] += 1
    result.counts["merged"] = len(result.merged)
    return result


def _index(lines: Sequence[RecordLine], problems: list[Diagnostic]) -> dict[str, RecordLine]:
    seen, repeats = index_by_qid(lines)
    problems.extend(
        make(
            MERGE_DUPLICATE_QID,
            line.path,
            line.line,
            line.column_of("/qid"),
            f"qid {line.qid!r} already occurs on line {earlier.line}: "
            "each query must occur once per annotator's file",
            pointer="/qid",
        )
        for line, earlier in repeats
    )
    return seen


def _query_differs(line_a: RecordLine, line_b: RecordLine) -> Diagnostic:
    return make(
        MERGE_QUERY_DIFFERS,
        line_b.path,
        line_b.line,
        line_b.column_of("/query"),
        f"query of {line_b.qid!r} differs from {line_a.path}:{line_a.line}: both annotators "
        "must grade the same query text",
        pointer="/query",
    )


def _differing_fields(line_a: RecordLine, line_b: RecordLine) -> dict[str, list[object]]:
    """Fields both records hold with different JSON values (key order inside them aside)."""
    record_a, record_b = line_a.value, line_b.value
    return {
        key: [record_a[key], record_b[key]]
        for key in record_a
        if key in record_b
        and key not in _MERGED_BY_RULE
        and _canonical(record_a[key]) != _canonical(record_b[key])
    }


def _canonical(value: object) -> str:
    # json.dumps keeps 1, 1.0 and true apart, which == does not.
    return json.dumps(value, sort_keys=True, ensure_ascii=False)


def _classification_differs(line_a: RecordLine, line_b: RecordLine, key: str) -> Diagnostic:
    return make(
        MERGE_CLASSIFICATION_DIFFERS,
        line_b.path,
        line_b.line,
        line_b.column_of(f"/{key}"),
        f"{key} of {line_b.qid!r} is {json.dumps(line_b.value[key])} here but "
        f"{json.dumps(line_a.value[key])} in {line_a.path}:{line_a.line}, so the query was "
        f"not merged: agree on one {key}, then merge again",
        pointer=f"/{key}",
    )


def _merge_query(line_a: RecordLine, line_b: RecordLine, result: MergeResult) -> None:
    """Merge one query both annotators graded, or hold all of it back for a person.

    A query with any chunk the two graded differently is not merged at all: a record
    holding only the agreed grades would look final while a chunk an annotator called
    relevant is missing from its gold, and would count as a miss until someone arbitrated.
    """
    fields = _differing_fields(line_a, line_b)
    classifying = [key for key in CLASSIFYING if key in fields]
    result.findings.extend(_classification_differs(line_a, line_b, k) for k in classifying)
    gold_a, gold_b = line_a.gold(), line_b.gold()
    grades = {cid: [gold_a.get(cid), gold_b.get(cid)] for cid in {**gold_a, **gold_b}}
    # A chunk an annotator did not grade, they judged not relevant: grade 0.
    gaps = {cid: abs((a or 0) - (b or 0)) for cid, (a, b) in grades.items()}
    ambiguous = [cid for cid, gap in gaps.items() if gap >= 2]
    # An ambiguous query is rewritten or dropped, so its one-level gaps need no arbiter.
    disputed = ambiguous or [cid for cid, gap in gaps.items() if gap == 1]
    result.findings.extend(_disputed(line_a, line_b, cid, gaps[cid]) for cid in disputed)
    if disputed or classifying:
        # Read differently, filed differently, or graded differently: every grade is
        # shown, nothing merged.
        status = AMBIGUOUS if ambiguous else CLASSIFICATION if classifying else ARBITRATE
        result.conflicts.append(_conflict(line_a, status, grades, fields))
        return
    if fields:
        result.conflicts.append(_conflict(line_a, FIELDS, {}, fields))
    result.merged.append(_merged_record(line_a.value, line_b.value, gold_a))


def _disputed(line_a: RecordLine, line_b: RecordLine, chunk_id: str, gap: int) -> Diagnostic:
    """A chunk graded `gap` levels apart, at its grade in B's file (A's when B lacks it)."""
    here, there = (line_b, line_a) if chunk_id in line_b.gold() else (line_a, line_b)
    other = there.gold().get(chunk_id)
    graded_there = (
        f"not graded in {there.path}:{there.line} (counts as 0, not relevant)"
        if other is None
        else f"{other} in {there.path}:{there.line}"
    )
    if gap >= 2:
        code = MERGE_AMBIGUOUS_QUERY
        verdict = "two or more levels apart, so the query is ambiguous: rewrite or drop it"
    else:
        code = MERGE_NEEDS_ARBITRATION
        verdict = "one level apart, so a third person or a discussion decides the grade"
    where = pointer(["gold", chunk_id])
    return make(
        code,
        here.path,
        here.line,
        here.column_of(where),
        f"{chunk_id} of {here.qid!r} is graded {here.gold()[chunk_id]} here and "
        f"{graded_there}: {verdict}; the query was not merged",
        pointer=where,
    )


def _unpaired_query(line: RecordLine) -> Diagnostic:
    return make(
        MERGE_UNPAIRED_QUERY,
        line.path,
        line.line,
        line.column_of("/qid"),
        f"query {line.qid!r} is in this annotator's file only, so it was not merged: the other "
        "annotator grades it too, or it leaves this file",
        pointer="/qid",
    )


def _merged_record(
    record_a: dict[str, object], record_b: dict[str, object], accepted: dict[str, int]
) -> dict[str, object]:
    """A's record (its key order and fields) with the accepted gold, plus B's extra fields."""
    merged = dict(record_a)
    merged["gold"] = accepted
    for key, value in record_b.items():
        merged.setdefault(key, value)
    names_a, names_b = record_a.get("annotators"), record_b.get("annotators")
    if isinstance(names_a, list) and isinstance(names_b, list):
        merged["annotators"] = [*names_a, *(n for n in names_b if n not in names_a)]
    return merged


def _conflict(
    line: RecordLine,
    status: str,
    grades: dict[str, list[int | None]],
    fields: dict[str, list[object]] | None = None,
) -> dict[str, object]:
    entry = {"qid": line.qid, "query": line.query, "status": status, "grades": grades}
    if fields:
        entry["fields"] = fields
    return entry


def _unpaired(line: RecordLine, side: int) -> dict[str, object]:
    grades: dict[str, list[int | None]] = {}
    for cid, grade in line.gold().items():
        grades[cid] = [grade, None] if side == 0 else [None, grade]
    return _conflict(line, UNPAIRED, grades)


# --- audit sample ----------------------------------------------------------------------------


@dataclass
class SampleResult:
    pairs: list[dict[str, object]]
    totals: Counter[str]
    sampled: Counter[str]
    quotas: dict[str, int]


def sample_pairs(lines: Sequence[RecordLine], fraction: float, seed: int) -> SampleResult:
    """A reproducible audit sample of gold pairs, stratified by the query's type.

    Each type contributes the floor or the ceiling of ``fraction`` of its pairs, and all
    types together the rounded ``fraction`` of all pairs (`strata.quotas`), so a small type
    is never left out by chance. Within a type the pairs with the lowest
    ``unit_hash(seed, qid, chunk_id)`` are taken: a pair's rank depends on itself and the
    seed only, so when the set grows a pair sampled before stays sampled unless a new pair
    ranks ahead of it. Output is grouped by type (identifier, intent, mixed, others), then in
    input order.
    """
    by_type: dict[str, list[tuple[float, int, dict[str, object]]]] = {}
    order = 0
    for line in lines:
        for chunk_id, grade in line.gold().items():
            pair: dict[str, object] = {
                "qid": line.qid,
                "type": line.value.get("type"),
                "query": line.query,
                "chunk_id": chunk_id,
                "grade": grade,
                "file": line.path,
                "line": line.line,
            }
            rank = unit_hash(str(seed), line.qid, chunk_id)
            by_type.setdefault(line.type_name, []).append((rank, order, pair))
            order += 1
    totals = Counter({name: len(pairs) for name, pairs in by_type.items()})
    wanted = quotas(totals, fraction)
    sampled: Counter[str] = Counter()
    chosen: list[tuple[tuple[int, str], int, dict[str, object]]] = []
    for name, pairs in by_type.items():
        best = sorted(pairs, key=lambda item: (item[0], item[1]))[: wanted[name]]
        sampled[name] = len(best)
        chosen.extend((type_key(name), position, pair) for _, position, pair in best)
    chosen.sort(key=lambda item: (item[0], item[1]))
    return SampleResult([pair for _, _, pair in chosen], totals, sampled, wanted)
