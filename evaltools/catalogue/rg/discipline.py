"""RG1xx, RG4xx, RG5xx: set statistics (`gold stats`), the discipline
commands (`gold merge`, `gold sample`, `gold split`) and runs and their history (`gold eval`)."""

from __future__ import annotations

from evaltools.diagnostics import Rule, Severity

E, W, INFO = Severity.ERROR, Severity.WARNING, Severity.INFO

SMALL_SET = Rule(
    "RG101",
    "small-set",
    W,
    "The set has fewer than 30 queries.",
    "Counts the records of the set.",
    "Under 30 queries the confidence interval of a metric is too wide to tell a 2-point "
    "improvement from noise. Start with 50-100; past about 200 each query adds little.",
    "(a set of 12 queries)",
    "(a set of 60 queries)",
    check="evaltools.retrieval.records.stats",
)

NO_HOLDOUT = Rule(
    "RG102",
    "no-holdout",
    W,
    'No query has `"split": "holdout"`.',
    "Counts the records whose `split` is `holdout`.",
    "Keep about 20% of the queries as holdout, never used for tuning: a gain on the "
    "tuning part that the holdout does not show is overfitting. `gold split` assigns it.",
    '{"qid": "q1", ..., "split": "tune"}   (every record)',
    '{"qid": "q9", ..., "split": "holdout"}   (about one record in five)',
    check="evaltools.retrieval.records.stats",
)

TYPE_MIX_DRIFT = Rule(
    "RG103",
    "type-mix-drift",
    W,
    "A query type's share is more than 10 points away from the target mix.",
    "Compares the shares of `identifier`, `intent` and `mixed` queries with the target.",
    "The mix should follow the query logs; with no logs, identifier:intent:mixed = 3:5:2. "
    "Set the project's target with `target-mix` under `[tool.evaltools.retrieval]`.",
    "(90% identifier queries)",
    "(30% identifier, 50% intent, 20% mixed)",
    check="evaltools.retrieval.records.stats",
)

HOLDOUT_SHARE_DRIFT = Rule(
    "RG104",
    "holdout-share-drift",
    W,
    "The holdout share is more than 10 points, and more than one query, away from its "
    "target (20% by default).",
    "Compares the share of `holdout` records with the target; a set too small to come "
    "closer than one query is not flagged.",
    "Too small a holdout cannot catch overfitting; too large a one leaves little to tune "
    "on. Set the project's target with `holdout-share` under `[tool.evaltools.retrieval]`.",
    "(45% of the records are holdout)",
    "(20% of the records are holdout)",
    check="evaltools.retrieval.records.stats",
)

UNCOUNTED_LINES = Rule(
    "RG105",
    "uncounted-lines",
    W,
    "Some lines are not records (blank, not JSON, not an object) and were not counted.",
    "Counts the lines `gold stats` had to skip.",
    "The figures describe fewer queries than the file holds; `evaltools validate` says "
    "what is wrong with each of them.",
    '{"qid": "q1", ...}\n\n{"qid": "q2", ...',
    '{"qid": "q1", ...}\n{"qid": "q2", ...}',
    check="evaltools.retrieval.records.stats",
)

GOLD_RECORD_UNUSABLE = Rule(
    "RG401",
    "gold-record-unusable",
    E,
    "A record that the gold discipline commands cannot use.",
    "`gold merge`, `gold sample` and `gold split` need every record to be a JSON object "
    "with a non-empty string `qid`; merge and sample also need `gold` to map chunk IDs "
    "to integer grades 1-3.",
    "Nothing is written while such a line exists, so no record is silently left out. "
    "`evaltools validate` explains the full record format.",
    '{"query": "where is the retry loop", "gold": {}}',
    '{"qid": "q1", "query": "where is the retry loop", "gold": {"net/retry.py:10-42:retry": 3}}',
    check="evaltools.retrieval.records.set_file",
)

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

RUN_UNREADABLE_LINE = Rule(
    "RG501",
    "run-unreadable-line",
    E,
    "A line of a retriever's run given to `gold eval` cannot be read.",
    "TREC lines need 6 fields (qid Q0 docid rank score tag) with a finite numeric score "
    "(not `nan` or `inf`, which leave the ranking to the order of the lines); JSONL lines "
    'need a `qid` and `results` ({"id", "score"} objects) or a ranked `ids` list.',
    "A result that is silently skipped changes the metrics; `gold eval` refuses the run "
    "(exit 1) until the line is fixed.",
    "q1 Q0 auth/session.py:3-8:kill_session 1 high run1",
    "q1 Q0 auth/session.py:3-8:kill_session 1 12.5 run1",
    check="evaltools.retrieval.scoring.runs",
)

RUN_DUPLICATE_RESULT = Rule(
    "RG502",
    "run-duplicate-result",
    E,
    "A run lists the same document twice for one query.",
    "Checks every (qid, chunk ID) pair of the run given to `gold eval`.",
    "Tools disagree on which copy counts (pytrec_eval keeps the last, trec_eval refuses), "
    "so the metrics would depend on the tool: remove the repeat.",
    "q1 Q0 a.py:1-4:f 1 9.0 run1\nq1 Q0 a.py:1-4:f 2 8.0 run1",
    "q1 Q0 a.py:1-4:f 1 9.0 run1",
    check="evaltools.retrieval.scoring.runs",
)

HISTORY_UNREADABLE_LINE = Rule(
    "RG503",
    "history-unreadable-line",
    E,
    "A line of the `gold eval --history` file cannot be read.",
    "Each line needs a string `run`, a positive `k`, a `revision` (string or null) and "
    '`groups` holding the {"type": "all", "split": "all"} group, each group with a '
    "`metrics.ndcg` between 0 and 1, as `gold eval --history` writes them.",
    "A line left out would make the plot's series skip a run without saying so, and a "
    "line appended to a file that is not a history corrupts it: `gold eval --plot` draws "
    "nothing and `--history` appends nothing (exit 1) until the line is fixed or deleted.",
    '{"run": "bm25.txt", "k": 10, "revision": null, "groups": []}',
    '{"run": "bm25.txt", "k": 10, "revision": null, "groups": [{"type": "all", '
    '"split": "all", "n": 40, "metrics": {"ndcg": 0.61}}]}',
    check="evaltools.retrieval.scoring.history",
)
