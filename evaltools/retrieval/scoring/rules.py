"""RG501-RG503: what reading a retriever's runs and the scores' history finds
(`evaltools gold eval`)."""

from __future__ import annotations

from evaltools.diagnostics import Rule, Severity

E, W, INFO = Severity.ERROR, Severity.WARNING, Severity.INFO


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
