"""RG101-RG105, RG401: what the statistics of a set and the reading of its records find
(`evaltools gold stats`, the gold discipline's checks over a set read whole)."""

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
