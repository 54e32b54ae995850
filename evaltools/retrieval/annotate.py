"""The gold discipline: merging two annotators' grades, agreement, audit samples, holdout split.

Everything here is a pure function of its input and a seed, so that re-running a command
gives byte-identical output, and assignments that depend on chance depend on a hash of the
record's identity instead of on its position, so that adding records never changes what was
decided for the old ones.
"""

from __future__ import annotations

import hashlib
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from evaltools import jsonio
from evaltools.diagnostics import RULES, Diagnostic, Rule, Severity, make
from evaltools.retrieval._gold_jsonl import GRADES, Line

DUPLICATE_QID = RULES.add(
    Rule(
        "RG402",
        "merge-duplicate-qid",
        Severity.ERROR,
        "An annotator's file holds the same qid twice.",
        "`gold merge` pairs the two files' records by qid, so each qid must occur once per "
        "file: merge or rename the duplicates first.",
    )
)
QUERY_DIFFERS = RULES.add(
    Rule(
        "RG403",
        "merge-query-differs",
        Severity.ERROR,
        "The two annotators graded different query texts under the same qid.",
        "Grades of two different queries cannot be compared: give both annotators the same "
        "query text (or different qids) and merge again.",
    )
)
INVALID_SPLIT = RULES.add(
    Rule(
        "RG404",
        "split-invalid",
        Severity.ERROR,
        "A record's `split` is neither `tune` nor `holdout`.",
        "`gold split` fills only records without a split and never overwrites one, so a wrong "
        "value stays until someone fixes it by hand (or deletes the key to let split assign it).",
    )
)

TYPE_ORDER = ("identifier", "intent", "mixed")
SPLITS = ("tune", "holdout")


def unit_hash(*parts: str) -> float:
    """A deterministic, uniform number in [0, 1) from the parts (seed, qid, ...)."""
    digest = hashlib.sha256("\x1f".join(parts).encode("utf-8")).digest()
    return int.from_bytes(digest[:8], "big") / 2**64


def type_key(type_name: str) -> tuple[int, str]:
    """Strata in a fixed order: the three spec types first, then any others by name."""
    if type_name in TYPE_ORDER:
        return (TYPE_ORDER.index(type_name), "")
    return (len(TYPE_ORDER), type_name)


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
    ``one_annotator`` instead: a missing grade means the annotator did not see or did not
    list the chunk, not that they judged it irrelevant, and counting it as a 0 would mix
    the coverage of the candidate lists into the agreement on grades.
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
ONE_ANNOTATOR = "one_annotator"
UNPAIRED = "unpaired"


@dataclass
class MergeResult:
    """``merged``: records to write; ``conflicts``: everything a person must still decide.

    Every query of either file ends up in ``merged`` (with its accepted grades), in
    ``conflicts``, or in both (accepted IDs merged, the rest pending), so nothing is lost.
    """

    merged: list[dict[str, object]] = field(default_factory=list)
    conflicts: list[dict[str, object]] = field(default_factory=list)
    agreement: Agreement = field(default_factory=lambda: Agreement(0, None, None, None, 0))
    counts: Counter[str] = field(default_factory=Counter)
    diagnostics: list[Diagnostic] = field(default_factory=list)


def merge_annotations(first: Sequence[Line], second: Sequence[Line]) -> MergeResult:
    """Merge two annotators' files by qid, following the grading discipline.

    Per chunk ID graded by both: same grade -> accepted; one level apart -> arbitration;
    two or more apart anywhere in a query -> the whole query is ambiguous (rewrite or drop)
    and is not merged. IDs graded by one annotator only, and queries in one file only, are
    listed as conflicts and never merged.
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
    result.agreement = Agreement.of(pairs, one_annotator)
    for conflict in result.conflicts:
        result.counts[str(conflict["status"])] += 1
    result.counts["merged"] = len(result.merged)
    return result


def _index(lines: Sequence[Line], problems: list[Diagnostic]) -> dict[str, Line]:
    seen: dict[str, Line] = {}
    for line in lines:
        earlier = seen.get(line.qid)
        if earlier is not None:
            problems.append(
                make(
                    DUPLICATE_QID,
                    line.path,
                    line.number,
                    1,
                    f"qid {line.qid!r} already occurs on line {earlier.number}: "
                    "each query must occur once per annotator's file",
                    pointer="/qid",
                )
            )
        else:
            seen[line.qid] = line
    return seen


def _query_differs(line_a: Line, line_b: Line) -> Diagnostic:
    return make(
        QUERY_DIFFERS,
        line_b.path,
        line_b.number,
        1,
        f"query of {line_b.qid!r} differs from {line_a.path}:{line_a.number}: both annotators "
        "must grade the same query text",
        pointer="/query",
    )


def _merge_query(line_a: Line, line_b: Line, result: MergeResult) -> None:
    gold_a, gold_b = line_a.gold(), line_b.gold()
    accepted: dict[str, int] = {}
    pending: dict[str, list[int | None]] = {}
    ambiguous = False
    for cid in [*gold_a, *(c for c in gold_b if c not in gold_a)]:
        grade_a, grade_b = gold_a.get(cid), gold_b.get(cid)
        if grade_a is not None and grade_a == grade_b:
            accepted[cid] = grade_a
            continue
        pending[cid] = [grade_a, grade_b]
        if grade_a is not None and grade_b is not None and abs(grade_a - grade_b) >= 2:
            ambiguous = True
    if ambiguous:
        # The annotators read the query differently: every grade is shown, nothing merged.
        all_grades = {cid: [gold_a.get(cid), gold_b.get(cid)] for cid in (*accepted, *pending)}
        result.conflicts.append(_conflict(line_a, AMBIGUOUS, all_grades))
        return
    if pending:
        disputed = any(None not in grades for grades in pending.values())
        result.conflicts.append(
            _conflict(line_a, ARBITRATE if disputed else ONE_ANNOTATOR, pending)
        )
    if accepted:
        result.merged.append(_merged_record(line_a.record, line_b.record, accepted))


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


def _conflict(line: Line, status: str, grades: dict[str, list[int | None]]) -> dict[str, object]:
    return {"qid": line.qid, "query": line.query, "status": status, "grades": grades}


def _unpaired(line: Line, side: int) -> dict[str, object]:
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


def sample_pairs(lines: Sequence[Line], fraction: float, seed: int) -> SampleResult:
    """A reproducible audit sample of gold pairs, stratified by type.

    A pair (qid, chunk ID) is in the sample when ``unit_hash(seed, qid, chunk_id) <
    fraction``. Each pair's fate depends only on itself and the seed, so audits accumulate:
    when the set grows, every pair sampled before is still sampled, and only the new pairs
    in the sample need auditing. The price is that each type's sample is ``fraction`` of
    its pairs only on average (binomial), not exactly; the command reports the achieved
    share per type. Output is grouped by type (identifier, intent, mixed, others), then in
    input order.
    """
    chosen: list[tuple[tuple[int, str], int, dict[str, object]]] = []
    totals: Counter[str] = Counter()
    sampled: Counter[str] = Counter()
    for order, line in enumerate(lines):
        type_name = line.type_name
        for chunk_id, grade in line.gold().items():
            totals[type_name] += 1
            if unit_hash(str(seed), line.qid, chunk_id) >= fraction:
                continue
            sampled[type_name] += 1
            pair: dict[str, object] = {
                "qid": line.qid,
                "type": line.record.get("type"),
                "query": line.query,
                "chunk_id": chunk_id,
                "grade": grade,
                "file": line.path,
                "line": line.number,
            }
            chosen.append((type_key(type_name), order, pair))
    chosen.sort(key=lambda item: (item[0], item[1]))
    return SampleResult([pair for _, _, pair in chosen], totals, sampled)


# --- holdout split ---------------------------------------------------------------------------


def split_of(qid: str, holdout: float, seed: int) -> str:
    """``holdout`` when ``unit_hash(seed, qid) < holdout``, else ``tune``.

    Why a per-record threshold: the assignment is a function of the qid and the seed alone,
    so adding queries (in any file, in any order, even on a fresh copy of the set without
    any `split` written yet) never moves an old query between tune and holdout. Exact
    per-type quotas would need to look at the other records of the type, and then adding
    one record could move another. So stratification by type is approximate: since the hash
    ignores the type, each type's holdout share is ``holdout`` on average (binomial: for a
    type of 20 queries at 20% the standard deviation is 9 points, for 200 queries 3). The
    type is left out of the hash on purpose: retyping a query does not move it either.
    `gold split` reports the achieved share per type so that a skewed small type is seen.
    """
    return SPLITS[1] if unit_hash(str(seed), qid) < holdout else SPLITS[0]


@dataclass
class SplitResult:
    data: bytes
    assigned: list[tuple[Line, str]]
    diagnostics: list[Diagnostic]
    # type -> [records, holdout records], counting the split each record has after the run
    per_type: dict[str, list[int]]


def split_file(
    raws: Sequence[bytes], lines: Sequence[Line], holdout: float, seed: int
) -> SplitResult:
    """Add `split` to the records lacking it; every other byte of the file stays as it was.

    ``raws``: every line of the file with its line end; ``lines``: the records among them.
    """
    raw_lines = list(raws)
    assigned: list[tuple[Line, str]] = []
    problems: list[Diagnostic] = []
    per_type: dict[str, list[int]] = {}
    for line in lines:
        current = line.record.get("split")
        if "split" in line.record and current not in SPLITS:
            problems.append(
                make(
                    INVALID_SPLIT,
                    line.path,
                    line.number,
                    1,
                    f"split of {line.qid!r} is {current!r}, not 'tune' or 'holdout': "
                    "fix it, or delete the key to let `gold split` assign one",
                    pointer="/split",
                )
            )
            continue
        if current is None:
            current = split_of(line.qid, holdout, seed)
            raw_lines[line.number - 1] = insert_key(line.raw, "split", current)
            assigned.append((line, current))
        counts = per_type.setdefault(line.type_name, [0, 0])
        counts[0] += 1
        counts[1] += current == SPLITS[1]
    ordered = dict(sorted(per_type.items(), key=lambda item: type_key(item[0])))
    return SplitResult(b"".join(raw_lines), assigned, problems, ordered)


_COMPACT = re.compile(rb'":[^\s]')


def insert_key(raw: bytes, key: str, value: str) -> bytes:
    """Insert ``"key": "value"`` textually before the object's closing brace.

    Everything else stays: key order, spacing (a space before the brace stays before it),
    the line end. The separators follow the line: compact (``,"k":"v"``) when no key's
    colon is followed by a space, else the ``json.dumps`` default (``, "k": "v"``).
    """
    body = raw.rstrip()
    trailing = raw[len(body) :]
    before = body[:-1].rstrip()
    pad = body[len(before) : -1]
    compact = _COMPACT.search(body) is not None and b'": ' not in body
    item_sep, key_sep = (b",", b":") if compact else (b", ", b": ")
    lead = b"" if before.endswith(b"{") else item_sep
    pair = jsonio.dumps(key, ensure_ascii=True).encode() + key_sep
    pair += jsonio.dumps(value, ensure_ascii=True).encode()
    return before + lead + pair + pad + b"}" + trailing
