"""The rules of `evaltools validate` (RVxxx): what a record line can get wrong."""

from __future__ import annotations

from evaltools import jsonio
from evaltools.diagnostics import RULES, Rule, Severity

E = Severity.ERROR

# Invalid JSON is one rule for both halves (IO008, in the one strict JSON module).
INVALID_JSON = jsonio.INVALID_JSON
BLANK_LINE = RULES.add(
    Rule(
        "RV002",
        "blank-line",
        E,
        "A line is empty or holds only whitespace.",
        "JSONL has one record on every line. Many readers (`for line in f: json.loads(line)`) "
        "fail on an empty line, others skip it: either way the set's line numbers stop "
        "matching what people see. Delete the line.",
    )
)
DUPLICATE_KEY = RULES.add(
    Rule(
        "RV003",
        "duplicate-key",
        E,
        "A key occurs twice in one JSON object.",
        "JSON parsers keep one of the two values without a word (Python's keeps the last), "
        "so a chunk ID listed twice in `gold` with two grades silently loses one. A JSON "
        "Schema cannot see this: the parser has already dropped the duplicate. The column "
        "points at the repeated key.",
    )
)
DUPLICATE_QID = RULES.add(
    Rule(
        "RV004",
        "duplicate-qid",
        E,
        "Two records of one file share a `qid`.",
        "`qid` identifies a query within its set: reports, merges of annotators' grades and "
        "audit samples are keyed by it. The finding is on the later record and names the "
        "line of the first. Files are checked one by one: the same qid in two files is not "
        "reported.",
    )
)
MISSING_FIELD = RULES.add(
    Rule(
        "RV005",
        "missing-field",
        E,
        "A required field is missing (`qid`, `query`, `type`, `gold`, or one the schema adds).",
    )
)
WRONG_TYPE = RULES.add(
    Rule(
        "RV006",
        "wrong-type",
        E,
        "A value has the wrong JSON type (the record is not an object, `qid` is a number, ...).",
    )
)
INVALID_GRADE = RULES.add(
    Rule(
        "RV007",
        "invalid-grade",
        E,
        "A relevance grade is not the integer 1, 2 or 3.",
        "3 = exactly what was asked for, 2 = relevant or partial, 1 = marginally related. "
        'Integers only: not `"3"`, not `true`, and not `3.0`, which JSON Schema counts as an '
        "integer but which other tools read as a float.",
    )
)
INVALID_CHUNK_ID = RULES.add(
    Rule(
        "RV008",
        "invalid-chunk-id",
        E,
        "A gold key is not a chunk ID `path:start-end:symbol` (or `path:start-end`).",
        "The span is the last `:<digits>-<digits>` followed by `:` or by the end of the ID; "
        "the path is everything before it, the symbol everything after the `:` (non-empty "
        "when the `:` is there). Lines are 1-based. The path is a POSIX path relative to the "
        "root: parts joined by `/`, none of them empty, `.` or `..`, and no `\\` or control "
        "character, so that it names a file below the root on every system (`gold check` "
        "reports the same IDs as RG006). See retrieval-eval-set.md, section 2.",
    )
)
REVERSED_SPAN = RULES.add(
    Rule(
        "RV009",
        "reversed-span",
        E,
        "A chunk ID's span starts after it ends (`start > end`).",
        "Spans are 1-based and inclusive, so `start <= end`. A JSON Schema pattern cannot "
        "compare two numbers, so this is checked beside the schema.",
    )
)
INVALID_VALUE = RULES.add(
    Rule(
        "RV010",
        "invalid-value",
        E,
        "A field has the right type but a value the schema does not allow.",
        "An unknown `type` or `split`, an empty `qid` or `query`, an empty `gold`, a "
        "`revision` that is not a full 40-character commit hash, an annotator listed twice, "
        "or any other `enum`, `pattern`, length or range constraint of the schema.",
    )
)
SCHEMA_VIOLATION = RULES.add(
    Rule(
        "RV011",
        "schema-violation",
        E,
        "The record breaks another constraint of the schema (usually a team's own `--schema`).",
        "Fields the schema forbids (`additionalProperties: false`), `anyOf`/`oneOf`/`not`, "
        "conditionals and every other keyword without a rule of its own.",
    )
)
UNREADABLE_FILE = RULES.add(
    Rule(
        "RV012",
        "unreadable-file",
        E,
        "The file cannot be read (permissions, or it vanished during the run).",
    )
)
