"""RG1xx, RG4xx, RG5xx: set statistics (`gold stats`), the discipline
commands (`gold merge`, `gold sample`, `gold split`) and runs and their history (`gold eval`)."""

from __future__ import annotations

from evaltools.diagnostics import Rule, Severity

E, W, INFO = Severity.ERROR, Severity.WARNING, Severity.INFO

MERGE_DUPLICATE_QID = Rule(
    "RG402",
    "merge-duplicate-qid",
    E,
    "An annotator's file holds the same qid twice.",
    "Checks each input of `gold merge` for repeated qids.",
    "`gold merge` pairs the two files' records by qid, so each qid must occur once per "
    "file: merge or rename the duplicates first.",
    '{"qid": "q1", ...}\n{"qid": "q1", ...}   (in ana.jsonl)',
    '{"qid": "q1", ...}\n{"qid": "q2", ...}',
    check="evaltools.retrieval.gold.discipline.annotate",
)

MERGE_QUERY_DIFFERS = Rule(
    "RG403",
    "merge-query-differs",
    E,
    "The two annotators graded different query texts under the same qid.",
    "Compares the `query` of the two records `gold merge` pairs.",
    "Grades of two different queries cannot be compared: give both annotators the same "
    "query text (or different qids) and merge again.",
    'ana.jsonl: {"qid": "q1", "query": "retry loop", ...}\n'
    'ben.jsonl: {"qid": "q1", "query": "backoff", ...}',
    'ana.jsonl: {"qid": "q1", "query": "retry loop", ...}\n'
    'ben.jsonl: {"qid": "q1", "query": "retry loop", ...}',
    check="evaltools.retrieval.gold.discipline.annotate",
)

SPLIT_INVALID = Rule(
    "RG404",
    "split-invalid",
    E,
    "A record's `split` is neither `tune` nor `holdout`.",
    "Checks `split` in the input of `gold split`.",
    "`gold split` moves records only between `tune` and `holdout`, so it cannot tell what "
    "another value meant: fix it by hand, or delete the key to let split assign one.",
    '{"qid": "q1", ..., "split": "test"}',
    '{"qid": "q1", ..., "split": "holdout"}',
    check="evaltools.retrieval.gold.discipline.holdout",
)

MERGE_CLASSIFICATION_DIFFERS = Rule(
    "RG405",
    "merge-classification-differs",
    E,
    "The two annotators gave the same query a different `type` or `split`.",
    "Compares `type` and `split` of the two records `gold merge` pairs, when both hold them.",
    "Type and split decide which figures a query counts in (per-type metrics, holdout), "
    "so neither annotator's value may win unseen: the query is not merged and goes to the "
    "conflicts file with both values; agree on one and merge again. Other fields that "
    "differ (`notes`, unknown fields) are listed there too, while the merged record keeps "
    "the first file's.",
    'ana.jsonl: {"qid": "q1", "type": "intent", ...}\n'
    'ben.jsonl: {"qid": "q1", "type": "mixed", ...}',
    'ana.jsonl: {"qid": "q1", "type": "intent", ...}\n'
    'ben.jsonl: {"qid": "q1", "type": "intent", ...}',
    check="evaltools.retrieval.gold.discipline.annotate",
)

MERGE_NEEDS_ARBITRATION = Rule(
    "RG406",
    "merge-needs-arbitration",
    E,
    "The two annotators graded a chunk one level apart.",
    "Compares the grades of every chunk ID either record of a query `gold merge` pairs "
    "holds; a chunk only one annotator graded counts as the other's grade 0 (not "
    "relevant), so a one-sided grade 1 is one level apart too.",
    "The spec has a third person or a discussion decide such a grade. A record holding "
    "only the agreed grades would look final while a chunk an annotator called relevant "
    "is missing from its gold (a miss in every metric until someone arbitrates), so the "
    "whole query is left out of the merged file and written to `--conflicts` with both "
    "grades of every chunk; fix the grade in both files and merge again.",
    'ana.jsonl: "gold": {"a.py:5-9:g": 2}\nben.jsonl: "gold": {"a.py:5-9:g": 1}',
    'ana.jsonl: "gold": {"a.py:5-9:g": 2}\nben.jsonl: "gold": {"a.py:5-9:g": 2}',
    check="evaltools.retrieval.gold.discipline.annotate",
)

MERGE_AMBIGUOUS_QUERY = Rule(
    "RG407",
    "merge-ambiguous-query",
    E,
    "The two annotators graded a chunk two or more levels apart.",
    "Compares grades as RG406 does (a chunk one annotator did not grade counts as 0, so "
    "a one-sided grade 2 or 3 is two or more apart).",
    "Grades that far apart mean the annotators read the query differently: it is "
    "ambiguous, so it is not merged; rewrite the query (and grade it again) or drop it.",
    'ana.jsonl: "gold": {"a.py:5-9:g": 3}\nben.jsonl: "gold": {"a.py:5-9:g": 1}',
    'ana.jsonl: {"query": "where is the retry backoff computed", "gold": '
    '{"a.py:5-9:g": 3}}\nben.jsonl: (the same query) "gold": {"a.py:5-9:g": 3}',
    check="evaltools.retrieval.gold.discipline.annotate",
)

MERGE_UNPAIRED_QUERY = Rule(
    "RG408",
    "merge-unpaired-query",
    E,
    "A query is in one annotator's file only.",
    "Pairs the records of the two inputs of `gold merge` by qid.",
    "One annotator's grades are not the double annotation the spec asks for, so the "
    "query is not merged and goes to `--conflicts`: have the other annotator grade it, "
    "or take it out of this file.",
    'ana.jsonl: {"qid": "q7", ...}   (no q7 in ben.jsonl)',
    'ana.jsonl: {"qid": "q7", ...}\nben.jsonl: {"qid": "q7", ...}',
    check="evaltools.retrieval.gold.discipline.annotate",
)
