"""RV: records of a retrieval eval set (`evaltools validate`)."""

from __future__ import annotations

from evaltools.diagnostics import Rule, Severity

E = Severity.ERROR
W = Severity.WARNING
GOOD = (
    '{"qid": "q1", "query": "where is the retry loop", "type": "intent", '
    '"gold": {"net/retry.py:10-42:retry": 3}}'
)

BLANK_LINE = Rule(
    "RV002",
    "blank-line",
    E,
    "A line is empty or holds only whitespace.",
    "Reports every blank line, including one at the end of the file before the last newline.",
    "JSONL has one record on every line. Many readers (`for line in f: json.loads(line)`) "
    "fail on an empty line, others skip it: either way the set's line numbers stop "
    "matching what people see. Delete the line.",
    GOOD + "\n\n" + GOOD.replace("q1", "q2"),
    GOOD + "\n" + GOOD.replace("q1", "q2"),
    check="evaltools.retrieval.records.record",
)

DUPLICATE_KEY = Rule(
    "RV003",
    "duplicate-key",
    E,
    "A key occurs twice in one JSON object.",
    "Reports the repeated key (at any depth), with the column of its second occurrence.",
    "JSON parsers keep one of the two values without a word (Python's keeps the last), "
    "so a chunk ID listed twice in `gold` with two grades silently loses one. A JSON "
    "Schema cannot see this: the parser has already dropped the duplicate.",
    GOOD.replace("}}", ', "net/retry.py:10-42:retry": 1}}'),
    GOOD,
    check="evaltools.retrieval.records.validation.validate",
)

DUPLICATE_QID = Rule(
    "RV004",
    "duplicate-qid",
    E,
    "Two records of one file share a `qid` (of one set, for `gold split`).",
    "The finding is on the later record and names the line of the first. `validate` "
    "checks files one by one: the same qid in two files is not reported. `gold split` "
    "takes the files it is given as one set, so it reports a qid repeated across them "
    "too, and splits nothing: copies drawn apart could put a tuned query in the holdout.",
    "`qid` identifies a query within its set: reports, merges of annotators' grades and "
    "audit samples are keyed by it, so a duplicate makes one of the two invisible.",
    GOOD + "\n" + GOOD,
    GOOD + "\n" + GOOD.replace("q1", "q2"),
    check="evaltools.retrieval.records.validation.validate",
)

MISSING_FIELD = Rule(
    "RV005",
    "missing-field",
    E,
    "A required field is missing (`qid`, `query`, `type`, `gold`, or one the schema adds).",
    "Checks the required fields of the schema in use (the built-in one, or `--schema`).",
    "A record without its query or its gold cannot be evaluated.",
    '{"qid": "q1", "query": "where is the retry loop", "type": "intent"}',
    GOOD,
    check="evaltools.retrieval.records.validation.explain",
)

WRONG_TYPE = Rule(
    "RV006",
    "wrong-type",
    E,
    "A value has the wrong JSON type (the record is not an object, `qid` is a number, ...).",
    "Checks the JSON type of the record and of each field against the schema.",
    'Tools downstream compare and hash these values; `1` and `"1"` are different qids.',
    GOOD.replace('"q1"', "1"),
    GOOD,
    check="evaltools.retrieval.records.validation.explain",
)

INVALID_GRADE = Rule(
    "RV007",
    "invalid-grade",
    E,
    "A relevance grade is not the integer 1, 2 or 3.",
    "3 = exactly what was asked for, 2 = relevant or partial, 1 = marginally related.",
    'Integers only: not `"3"`, not `true`, and not `3.0`, which JSON Schema counts as an '
    "integer but which other tools read as a float; a wrong grade skews graded metrics.",
    GOOD.replace(": 3}", ": 5}"),
    GOOD,
    check="evaltools.retrieval.records.validation.explain",
)

INVALID_CHUNK_ID = Rule(
    "RV008",
    "invalid-chunk-id",
    E,
    "A gold key is not a chunk ID `path:start-end:symbol` (or `path:start-end`).",
    "The span is the last `:<digits>-<digits>` followed by `:` or by the end of the ID; "
    "the path is everything before it, the symbol everything after the `:` (non-empty "
    "when the `:` is there). Lines are 1-based. The path is a POSIX path relative to the "
    "root: parts joined by `/`, none of them empty, `.` or `..`, and no `\\` or control "
    "character (`gold check` reports the same IDs as RG006).",
    "A key that is not a chunk ID matches no retrieved chunk, so the query can never "
    "score. See retrieval-eval-set.md, section 2.",
    GOOD.replace("net/retry.py:10-42:retry", "net\\\\retry.py:10:retry"),
    GOOD,
    check="evaltools.retrieval.records.validation.explain",
)

REVERSED_SPAN = Rule(
    "RV009",
    "reversed-span",
    E,
    "A chunk ID's span starts after it ends (`start > end`).",
    "Spans are 1-based and inclusive, so `start <= end`.",
    "A reversed span covers no line and matches nothing. A JSON Schema pattern cannot "
    "compare two numbers, so this is checked beside the schema.",
    GOOD.replace("10-42", "42-10"),
    GOOD,
    check="evaltools.retrieval.records.validation.explain",
)

INVALID_VALUE = Rule(
    "RV010",
    "invalid-value",
    E,
    "A field has the right type but a value the schema does not allow.",
    "An unknown `type` or `split`, an empty `qid` or `query`, an empty `gold`, a "
    "`revision` that is not a full 40-character commit hash, an annotator listed twice, "
    "or any other `enum`, `pattern`, length or range constraint of the schema.",
    "Reports and slices of the set are keyed by these values; one outside the allowed "
    "set lands in no bucket.",
    GOOD.replace('"intent"', '"intnet"'),
    GOOD,
    check="evaltools.retrieval.records.validation.explain",
)

SCHEMA_VIOLATION = Rule(
    "RV011",
    "schema-violation",
    E,
    "The record breaks another constraint of the schema (usually a team's own `--schema`).",
    "Fields the schema forbids (`additionalProperties: false`), `anyOf`/`oneOf`/`not`, "
    "conditionals and every other keyword without a rule of its own.",
    "The schema is the team's contract for the set; a record outside it breaks a tool "
    "that relies on it.",
    GOOD.replace('{"qid"', '{"note": "check", "qid"') + "   (schema forbids extra fields)",
    GOOD,
    check="evaltools.retrieval.records.validation.explain",
)

UNREADABLE_FILE = Rule(
    "RV012",
    "unreadable-file",
    E,
    "The file cannot be read (permissions, or it vanished during the run).",
    "Reports the operating system's reason for the file given on the command line.",
    "A set that cannot be read cannot be validated; passing silently would hide it.",
    "evaltools validate gold.jsonl   (mode 000)",
    "chmod u+r gold.jsonl && evaltools validate gold.jsonl",
    always_reported=True,
    check="evaltools.retrieval.records.validation.validate",
)

DRAFT_RECORD = Rule(
    "RV013",
    "draft-record",
    E,
    'A record is a draft (`"status": "draft"`) in a set that does not collect drafts.',
    "`gold mine` writes every candidate as a draft. A set listed in `drafts` of "
    '[tool.evaltools.retrieval] (`drafts = ["evals/mined.jsonl"]`, files or folders '
    "relative to pyproject.toml) may hold drafts; in any other set, and on the command "
    "line without a configuration, a draft is an error. Any other `status` passes.",
    "A weak label from git history is a candidate, not gold: scored as it stands it "
    "measures the retriever against noise. Review the query and its grades, then remove "
    "`status`.",
    GOOD.replace("}}", '}, "source": "git_weak", "status": "draft"}'),
    GOOD.replace("}}", '}, "source": "git_weak"}'),
    check="evaltools.retrieval.records.validation.explain",
)

MISSPELT_FIELD = Rule(
    "RV014",
    "misspelt-field",
    W,
    "An unknown top-level field is one typo away from a field the schema knows.",
    "A letter left out, added, changed or two swapped (case aside), from a known field "
    "the record does not have (`splt` without `split`). The finding is at the key and "
    "names the field meant. Other unknown fields are allowed and kept as they are.",
    'Unknown fields pass the schema, so `"splt": "holdout"` would leave the query '
    "in no split without a word, and it could end up tuned on.",
    GOOD.replace("}}", '}, "splt": "holdout"}'),
    GOOD.replace("}}", '}, "split": "holdout"}'),
    check="evaltools.retrieval.records.validation.explain",
)
