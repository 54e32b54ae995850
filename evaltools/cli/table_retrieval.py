"""Commands of the retrieval eval sets (validate, gold …)."""

from __future__ import annotations

from pathlib import Path

from evaltools.cli import targets
from evaltools.cli.params import (
    CONFIG,
    FINDING_OPTIONS,
    IGNORE,
    JOBS,
    MAX_WARNINGS,
    NO_CACHE,
    NO_GITIGNORE,
    SELECT,
    Command,
    Param,
    format_param,
    paths_param,
)

COMMANDS: tuple[Command, ...] = ()


# --- gold discipline: mine, merge, sample, split (evaltools.commands.gold) ------------------

_OUTPUT_FORMAT = format_param(choices=("text", "json"))
_FORCE = Param("force", ("--force",), kind=bool, default=False, help="Overwrite output files.")
_SEED = Param("seed", ("--seed",), kind=int, required=True, help="Seed of the hash.", metavar="N")

GOLD_DISCIPLINE_COMMANDS: tuple[Command, ...] = (
    Command(
        ("gold", "mine"),
        "Weak-label candidate records from git history: commit subject as query, the "
        "definitions the commit changed as gold (source git_weak, status draft).",
        targets.gold_mine,
        (
            Param(
                "repo",
                ("--repo",),
                kind=Path,
                required=True,
                help="The code repository.",
                metavar="DIR",
            ),
            Param(
                "since",
                ("--since",),
                help="Only commits after DATE (as git log --since).",
                metavar="DATE",
            ),
            Param(
                "rev_range",
                ("--rev-range",),
                help="Commits in A..B (default: HEAD).",
                metavar="A..B",
            ),
            Param(
                "per_type",
                ("--per-type",),
                kind=int,
                help="Write a review sample of at most N candidates per guessed type.",
                metavar="N",
            ),
            Param(
                "seed", ("--seed",), kind=int, default=0, help="Seed of --per-type.", metavar="N"
            ),
            Param(
                "path_prefix",
                ("--path-prefix",),
                default="",
                help="Prefix for chunk ID paths, when gold is checked from the repository's "
                "parent folder (e.g. 'demo_repo/').",
                metavar="PREFIX",
            ),
            Param(
                "output",
                ("-o", "--output"),
                kind=Path,
                required=True,
                help="Output JSONL.",
                metavar="FILE",
            ),
            _FORCE,
            _OUTPUT_FORMAT,
        ),
    ),
    Command(
        ("gold", "merge"),
        "Merge two annotators' grades: same grade accepted, one level apart to arbitration, "
        "two or more apart the query is ambiguous (a chunk one annotator did not grade counts "
        "as their 0). Only queries whose grades all agree are written to -o; the others (and "
        "queries in one file only) are left out, written to --conflicts, reported as "
        "findings, and exit 1; prints the agreement.",
        targets.gold_merge,
        (
            Param("first", kind=Path, required=True, help="First annotator's JSONL.", metavar="A"),
            Param(
                "second", kind=Path, required=True, help="Second annotator's JSONL.", metavar="B"
            ),
            Param(
                "output",
                ("-o", "--output"),
                kind=Path,
                required=True,
                help="Merged JSONL.",
                metavar="FILE",
            ),
            Param(
                "conflicts",
                ("--conflicts",),
                kind=Path,
                help="Write the queries left out for a person (arbitration, ambiguous, "
                "unpaired, type or split differs) here, with both grades of every chunk.",
                metavar="FILE",
            ),
            _FORCE,
            _OUTPUT_FORMAT,
        ),
    ),
    Command(
        ("gold", "sample"),
        "A reproducible audit sample of gold pairs, stratified by query type: each type "
        "gives --fraction of its pairs to within one pair, chosen by a hash of "
        "(seed, qid, chunk ID).",
        targets.gold_sample,
        (
            paths_param("Eval set files or directories (searched for *.jsonl)."),
            Param(
                "fraction",
                ("--fraction",),
                kind=float,
                default=0.1,
                help="Share of gold pairs to sample.",
                metavar="SHARE",
            ),
            _SEED,
            Param(
                "output",
                ("-o", "--output"),
                kind=Path,
                default=Path("-"),
                help="Sample JSONL ('-': stdout, the default).",
                metavar="FILE",
            ),
            _FORCE,
            _OUTPUT_FORMAT,
        ),
    ),
    Command(
        ("gold", "split"),
        "Split the set into tune and holdout, in place: records without a split are drawn, "
        "per type by a hash of (seed, qid), toward --holdout of the type's queries to within "
        "one query. Records keep their split: a tune query never enters the holdout (it may "
        "have been tuned on), so a type short of holdout is reported with how many queries "
        "it misses, to be filled by new queries; holdout queries move to tune only when "
        "--holdout asks for a smaller holdout than the type holds. The files are one set: "
        "a qid repeated in one or across them is reported (RV004) and nothing is written.",
        targets.gold_split,
        (
            paths_param("Eval set files or directories (searched for *.jsonl)."),
            Param(
                "holdout",
                ("--holdout",),
                kind=float,
                help="Share of queries to hold out (default: `holdout-share` of "
                "[tool.evaltools.retrieval] in pyproject.toml, else 0.2).",
                metavar="SHARE",
            ),
            _SEED,
            _OUTPUT_FORMAT,
        ),
    ),
)

COMMANDS += GOLD_DISCIPLINE_COMMANDS


# --- gold check (evaltools.commands.gold.check) ---------------------------------------------

GOLD_CHECK = Command(
    ("gold", "check"),
    "Resolve every gold chunk ID against the code (work tree or --rev) or the index's "
    "metas.jsonl; --fix rewrites only the IDs whose one new place the evidence names "
    "(moved, renamed file, relocated), and then the record's `revision`.",
    targets.gold_check,
    (
        paths_param(
            "Eval set files or directories (searched for *.jsonl); '-' is stdin (not with "
            "--fix); default: `sets` of [tool.evaltools.retrieval].",
            required=False,
        ),
        Param(
            "root",
            ("--root",),
            kind=Path,
            help="The folder chunk ID paths are relative to: the code repository or the "
            "folder holding it (default: `root` of [tool.evaltools.retrieval] in pyproject.toml).",
            metavar="DIR",
        ),
        Param(
            "rev",
            ("--rev",),
            help="Read the code at this git revision instead of the work tree (nothing is "
            "checked out).",
            metavar="REV",
        ),
        Param(
            "metas",
            ("--metas",),
            kind=Path,
            help="The index's chunk list (metas.jsonl): an ID not in it is unresolved "
            "(default: `metas` of [tool.evaltools.retrieval] in pyproject.toml).",
            metavar="FILE",
        ),
        Param(
            "fix",
            ("--fix",),
            kind=bool,
            default=False,
            help="Rewrite moved, renamed_file and relocated IDs in place (each rewrite is "
            "listed), and the `revision` of a record whose gold then all resolves; never "
            "applies a guess.",
        ),
        JOBS,
        format_param(),
        SELECT,
        IGNORE,
        MAX_WARNINGS,
        CONFIG,
        NO_CACHE,
    ),
)

COMMANDS += (GOLD_CHECK,)


# --- record validation and set statistics (evaltools.commands.retrieval) ---------------------

VALIDATE_COMMANDS: tuple[Command, ...] = (
    Command(
        ("validate",),
        "Validate retrieval eval records (.jsonl) against the record schema, plus what a "
        "schema cannot express: duplicate qids and keys, grades like 3.0, start > end.",
        targets.validate,
        (
            paths_param("Eval set files or directories (searched for *.jsonl); '-' is stdin."),
            Param(
                "schema",
                ("--schema",),
                kind=Path,
                help="A JSON Schema of your own (default: `schema` of [tool.evaltools.retrieval] "
                "in pyproject.toml, else the shipped retrieval-record.schema.json); it can "
                "$ref the shipped one by its $id.",
                metavar="FILE",
            ),
            format_param(),
            Param(
                "max_errors",
                ("--max-errors",),
                kind=int,
                help="Print at most N findings and say how many were left out.",
                metavar="N",
            ),
            *FINDING_OPTIONS,
            NO_GITIGNORE,
        ),
    ),
    Command(
        ("gold", "stats"),
        "Size, type mix, split, sources and grades of a retrieval eval set, against its "
        "targets: 3:5:2 mix, 20% holdout, 30+ queries, or `target-mix` and `holdout-share` of "
        "[tool.evaltools.retrieval] in pyproject.toml.",
        targets.gold_stats,
        (
            paths_param("Eval set files or directories (searched for *.jsonl); '-' is stdin."),
            format_param(),
        ),
    ),
)

COMMANDS += VALIDATE_COMMANDS


# --- gold eval (evaltools.commands.gold.evaluate) ------------------------------------------

GOLD_EVAL = Command(
    ("gold", "eval"),
    "Score retriever runs (TREC or JSONL) against the set at --k: nDCG, recall, MRR, hit "
    "rate overall, by type, by split, with bootstrap intervals; every query counts, and "
    "stale gold IDs refuse the evaluation. Conventions, where trec_eval's defaults differ: "
    "MRR is cut at k; nDCG has linear gains (grade / log2(rank + 1)); ties in a run are "
    "broken by score, then docid, both descending; a query missing from a run scores 0 and "
    "counts in every mean (trec_eval averages only the queries the run has). --format json "
    "also lists each query's values (qid, type, split, every metric).",
    targets.gold_eval,
    (
        Param(
            "runs",
            kind=Path,
            multiple=True,
            help="Run files (at least one, unless --plot only draws the history).",
            metavar="RUN",
        ),
        Param("set_path", ("--set",), kind=Path, help="The eval set (JSONL).", metavar="SET"),
        Param(
            "baseline",
            ("--baseline",),
            kind=Path,
            help="Compare each run with this one (paired randomization test).",
            metavar="RUN",
        ),
        Param("k", ("--k",), kind=int, default=10, help="Cut-off rank.", metavar="K"),
        Param(
            "seed",
            ("--seed",),
            kind=int,
            default=0,
            help="Seed of the bootstrap and test.",
            metavar="N",
        ),
        Param("root", ("--root",), kind=Path, help="As in gold check.", metavar="DIR"),
        Param("rev", ("--rev",), help="As in gold check.", metavar="REV"),
        Param("metas", ("--metas",), kind=Path, help="As in gold check.", metavar="FILE"),
        Param(
            "allow_stale",
            ("--allow-stale",),
            kind=bool,
            default=False,
            help="Score even when gold IDs do not resolve (the queries are listed); a set with "
            "invalid records still refuses.",
        ),
        Param(
            "history",
            ("--history",),
            kind=Path,
            help="Append one JSON line per run: metrics by type and by split with their "
            "intervals, set digest, date (UTC), the --label, and the git revision of the code "
            "(--rev, else the HEAD of --root's repository).",
            metavar="FILE",
        ),
        Param(
            "label",
            ("--label",),
            help="A name for the runs in --history and on the --plot x axis (e.g. "
            "nightly-2026-12-05); default: the run file's name.",
            metavar="TEXT",
        ),
        Param(
            "plot",
            ("--plot",),
            kind=Path,
            help="Draw nDCG@k over the runs of --history as an SVG line chart: a line per query "
            "type, and for tune and holdout (dashed), each with a band for its 95% interval; "
            "x axis: label or run file, date, revision (an existing file is replaced only if "
            "gold eval drew it).",
            metavar="SVG",
        ),
        format_param(choices=("text", "json", "markdown")),
    ),
)

COMMANDS += (GOLD_EVAL,)

GROUP_HELP: dict[str, str] = {
    "gold": "The gold discipline of a retrieval eval set: every query's gold chunk IDs "
    "must resolve in the code, grades come from two annotators, and a held-out split "
    "stays untouched while tuning. check: resolve every gold chunk ID (and repair the "
    "ones that moved); stats: size, type mix, split and grades against the targets; "
    "mine: weak-label candidates from git history; merge: combine two annotators' "
    "grades; sample: a reproducible audit sample; split: hold out a share of each query type; "
    "eval: score a retriever's runs against the set.",
}
