"""DU: examples and queries that count twice, and holdout leakage (`evaltools dupes`)."""

from __future__ import annotations

from evaltools.diagnostics import Rule, Severity

E, W = Severity.ERROR, Severity.WARNING

DUPLICATE_EXAMPLE = Rule(
    "DU001",
    "duplicate-example",
    E,
    "Two examples hold the same edit under different names.",
    "Compares the parsed examples, not the bytes: the repository, revision, uncommitted "
    "diff, cursor file and position, edit history, rejected patch and the expected "
    "patches (in any order) are equal; the name, tags, reasoning and feedback may differ.",
    "The pair counts twice in every score, so the set looks larger and more varied than it "
    "is. Delete one.",
    "flask--add-import.md and flask--add-import-copy.json: the same example",
    "(one of the two deleted)",
    check="evaltools.example.dupes",
)

NEAR_DUPLICATE_EXAMPLE = Rule(
    "DU002",
    "near-duplicate-example",
    W,
    "Two examples are nearly the same edit (MinHash over cursor excerpt and patches).",
    "Compares the 5-token shingles of the cursor excerpt and the expected patches together: "
    "every pair of a set of up to 200 examples, else the pairs MinHash with 128 hashes and "
    "LSH propose (bands chosen for the threshold: a pair 0.01 above it is missed with "
    "probability below 1%), and a pair whose exact Jaccard similarity is at or above the "
    "threshold (0.5 by default, as Zed's `ep --max-duplicates`; `--threshold`, or "
    "`threshold` in [tool.evaltools.dupes]) is reported with the parts that are alike. "
    "An example lists the first 5 partners it finds and counts the others (+N more); "
    "counting stops after 64 exact comparisons once 5 are found, and the count is then a "
    "lower bound (+N or more): a set of alike items costs time in proportion to its size.",
    "A renamed variable or one added line does not make a new test: the pair weighs the "
    "same behaviour twice. Keep both only when they test different behaviour.",
    "two examples whose cursor excerpts differ only in a variable name",
    "(one kept, or the second changed to test another behaviour)",
    check="evaltools.example.dupes",
)

DUPLICATE_QUERY = Rule(
    "DU101",
    "duplicate-query",
    E,
    "Two queries are the same after normalising case, whitespace and punctuation.",
    "Compares every query of the set (or of the two sets with --against) after lower-"
    "casing, folding whitespace and dropping punctuation.",
    "The query counts twice in every metric. Delete one, or merge their gold.",
    '{"qid": "q1", "query": "Where is retry?", ...}  {"qid": "q7", "query": "where is retry", ...}',
    '{"qid": "q1", "query": "Where is retry?", ...}',
    check="evaltools.retrieval.gold.discipline.dupes",
)

NEAR_DUPLICATE_QUERY = Rule(
    "DU102",
    "near-duplicate-query",
    W,
    "Two queries are nearly the same text (MinHash over character 3-grams).",
    "Compares the queries' character 3-grams (every pair of up to 200 queries, else the "
    "pairs MinHash and LSH propose, as for DU002) and reports a pair whose Jaccard "
    "similarity is at or above the threshold; a query lists the first 5 partners it finds "
    "and counts the others (+N more, or +N or more past 64 comparisons, as for DU002).",
    "A reworded query with the same intent adds little; keep it only when the wording is "
    "what is being tested.",
    '"how does retry back off"  /  "how does the retry back off"',
    '"how does retry back off"  /  "which errors are retried"',
    check="evaltools.retrieval.gold.discipline.dupes",
)

DUPLICATE_GOLD_SET = Rule(
    "DU103",
    "duplicate-gold-set",
    W,
    "Two qids have exactly the same gold chunk IDs.",
    "Compares the sets of gold chunk IDs of every two queries.",
    "Often one query asked twice in other words: check that both are needed.",
    '"q3": {"net/retry.py:14-46:retry": 3}   "q9": {"net/retry.py:14-46:retry": 3}',
    '"q3": {"net/retry.py:14-46:retry": 3}   "q9": {"net/pool.py:5-30:Pool": 3}',
    check="evaltools.retrieval.gold.discipline.dupes",
)

HOLDOUT_LEAK = Rule(
    "DU104",
    "holdout-leak",
    E,
    "A holdout query duplicates or paraphrases a tuning query, or shares its gold set.",
    'Looks at every pair across `split = "holdout"` and `split = "tune"`: the same or a '
    "near query, or the same gold set.",
    "The holdout must never take part in tuning; a holdout query that repeats a tune query "
    "is tuned on, and the holdout stops showing overfitting. Move both to the same split, "
    "or delete one.",
    '{"qid": "q2", "split": "holdout", "query": "retry backoff"}  '
    '{"qid": "q5", "split": "tune", "query": "retry back-off"}',
    '{"qid": "q2", "split": "tune", ...}  {"qid": "q5", "split": "tune", ...}',
    check="evaltools.retrieval.gold.discipline.dupes",
)
