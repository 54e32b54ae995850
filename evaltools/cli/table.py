"""The declaration of every command and parameter: the one source of truth for both parsers."""

from __future__ import annotations

from pathlib import Path

from evaltools.cli import targets
from evaltools.cli.params import (
    FINDING_OPTIONS,
    JOBS,
    MAX_WARNINGS,
    NO_CACHE,
    NO_GITIGNORE,
    Command,
    Param,
    format_param,
    paths_param,
)

# The names of evaltools.score.definitions (kept literal: the table is on the lint hook's path;
# tests/score/test_cli.py checks they agree).
METRICS = ("v6", "v5", "v4", "v3", "current")

EXAMPLE_COMMANDS: tuple[Command, ...] = (
    Command(
        ("lint",),
        "Lint edit-prediction examples (.md; .json/.jsonl named directly).",
        targets.lint,
        (
            paths_param(
                "Example files or directories (searched for *.md); default: `paths` of "
                "[tool.evaltools].",
                required=False,
            ),
            format_param(),
            *FINDING_OPTIONS,
            NO_GITIGNORE,
        ),
    ),
    Command(
        ("roundtrip",),
        "Check that to_markdown(from_markdown(x)) reproduces each example file byte for byte.",
        targets.roundtrip,
        (
            paths_param("Example files or directories (searched for *.md)."),
            Param("fix", ("--fix",), kind=bool, default=False, help="Rewrite `reformat` files."),
            Param("diff", ("--diff",), kind=bool, default=False, help="Show a unified diff."),
            Param(
                "strict_reference",
                ("--strict-reference",),
                kind=bool,
                default=False,
                help="Compare with the reference writer's exact output (title, one history "
                "fence, trailing blank line).",
            ),
            format_param(choices=("text", "json")),
            MAX_WARNINGS,
            JOBS,
            NO_GITIGNORE,
        ),
    ),
    Command(
        ("convert",),
        "Convert examples between .md, .json and .jsonl, in bulk. Sources are files, "
        "directories (searched for *.md, *.json, *.jsonl) or - (JSONL on stdin). Examples "
        "keep their input order; --name and --repo (substrings) select, then --offset "
        "skips, then --limit stops (the reference sorts by repository first; this does "
        "not). A conversion that would drop data is refused unless --allow-lossy.",
        targets.convert,
        (
            paths_param("Example files, directories, or - for JSONL on stdin."),
            Param(
                "to",
                ("--to",),
                required=True,
                choices=("md", "json", "jsonl"),
                help="Target form.",
            ),
            Param(
                "output",
                ("-o", "--output"),
                kind=Path,
                required=True,
                help="Output: a .jsonl file for --to jsonl; a directory (created if missing) "
                "for --to md/json, or a single .md/.json file for one example; - for stdout.",
                metavar="OUT",
            ),
            Param(
                "name",
                ("--name",),
                help="Only examples whose name contains SUBSTR.",
                metavar="SUBSTR",
            ),
            Param(
                "repo",
                ("--repo",),
                help="Only examples whose repository_url contains SUBSTR.",
                metavar="SUBSTR",
            ),
            Param(
                "offset",
                ("--offset",),
                kind=int,
                default=0,
                help="Skip the first N selected examples.",
                metavar="N",
            ),
            Param("limit", ("--limit",), kind=int, help="Convert at most N examples.", metavar="N"),
            JOBS,
            Param(
                "allow_lossy",
                ("--allow-lossy",),
                kind=bool,
                default=False,
                help="Convert even when the target cannot hold everything (runtime fields "
                "into .md, content outside the model of a .md).",
            ),
            Param(
                "force",
                ("--force",),
                kind=bool,
                default=False,
                help="Overwrite existing output files.",
            ),
            format_param(choices=("text", "json")),
            NO_GITIGNORE,
        ),
    ),
    Command(
        ("check",),
        "Everything [tool.evaltools] asks for: lint and round-trip on the example files, "
        "validate and gold check on the retrieval sets. What CI and the default hook run.",
        targets.check,
        (
            paths_param(
                "Files or directories; default: `paths` of [tool.evaltools] and `sets` of "
                "[tool.evaltools.retrieval].",
                required=False,
            ),
            format_param(),
            Param(
                "fix",
                ("--fix",),
                kind=bool,
                default=False,
                help="Apply the safe fixes: canonical layout, moved gold IDs.",
            ),
            *FINDING_OPTIONS,
            NO_GITIGNORE,
            NO_CACHE,
        ),
    ),
    Command(
        ("dupes",),
        "Exact and near-duplicate examples or retrieval queries, and leakage between "
        "holdout and tune; with --against, only pairs across the two sets.",
        targets.dupes,
        (
            paths_param(
                "Example files (.md, .json, .jsonl), retrieval sets (.jsonl), or directories "
                "(searched for *.md and *.jsonl)."
            ),
            Param(
                "against",
                ("--against",),
                kind=Path,
                multiple=True,
                help="Compare PATHs with this set only (e.g. a new batch against the "
                "existing set); repeatable.",
                metavar="PATH",
            ),
            Param(
                "threshold",
                ("--threshold",),
                kind=float,
                help="Jaccard similarity (exact, of the shingles) that makes a near-duplicate "
                "(default: `threshold` of [tool.evaltools.dupes], else 0.5). Up to 200 items are "
                "compared pair by pair; a larger set through LSH bands chosen for X, missing a "
                "pair 0.01 above X with probability below 1% (at 0.5: 42 bands of 3 rows, "
                "0.25%). Each item lists 5 partners and counts the rest (+N more); counting "
                "stops after 64 comparisons, the count then a lower bound (+N or more).",
                metavar="X",
            ),
            format_param(),
            *FINDING_OPTIONS,
        ),
    ),
    Command(
        ("score",),
        "Score predictions as Zed's `ep score`/`ep eval` do, offline: delta chrF (with its "
        "precision, recall and counts), exact lines, braces, cursor, wrong editable region, "
        "isolated whitespace, inserted/deleted tokens, reversal ratio, and under v6 kept and "
        "recall rate, jump location and editable-context coverage. Inputs: `ep predict` "
        "examples (.json/.jsonl with prompt_inputs and predictions), or .md/.json examples "
        "with --predictions, scored on the file lines they hold (cursor block, expected "
        "patches' old sides, edit history's new sides; a prediction outside them is SC007). "
        "Not implemented, so not in the output: reading a patch out of "
        "actual_output (SC103), and a reversal ratio where "
        "upstream's diff falls back to Myers or before v6 (SC006).",
        targets.score,
        (
            paths_param("Example files or directories (searched for *.md, *.json and *.jsonl)."),
            Param(
                "predictions",
                ("--predictions",),
                kind=Path,
                help="JSONL of {name, patch, cursor_offset}, several lines per name for "
                "repetitions; replaces the predictions stored in the named examples.",
                metavar="FILE",
            ),
            Param(
                "metric",
                ("--metric",),
                default="v6",
                choices=METRICS,
                help="Metric definition: v6 (current, default; also `current`), v5 (beta 0.5, "
                "cursor excerpt as base text), v4 (beta 2, whitespace collapsed), v3 (beta 2, "
                "whitespace ignored). v1/v2 (full-file base text) need data an `ep predict` "
                "file no longer holds.",
            ),
            Param(
                "mode",
                ("--mode",),
                default="score",
                choices=("score", "eval"),
                help="score (default): each prediction as `ep score` writes score[]: every "
                "related excerpt is a document, and an example without a prediction is not "
                "scored (the summary names them). eval: as `ep eval` scores before its "
                "summary: related excerpts kept in their `order` while they fit in 12,000 "
                "bytes (4,000 x 3), and an example without a prediction scores one empty "
                "prediction.",
            ),
            Param(
                "by",
                ("--by",),
                choices=("tag", "repo", "provider"),
                help="Also summarise per tag, repository or prediction provider.",
            ),
            Param(
                "baseline",
                ("--baseline",),
                kind=Path,
                help="An earlier run (`score --format json` output, or examples with score[]) "
                "to compare with: per group, the mean delta chrF difference over predictions "
                "present in both, with a seeded paired bootstrap 95% interval.",
                metavar="FILE",
            ),
            Param(
                "write_scores",
                ("--write-scores",),
                kind=bool,
                default=False,
                help="Fill score[] in the .json/.jsonl examples, as `ep score` does "
                "(atomically; other records and keys unchanged). A file is left unchanged "
                "(SC006) when a prediction's reversal_ratio is unknown (rare: see SC006).",
            ),
            format_param(choices=("text", "json", "markdown")),
            MAX_WARNINGS,
            JOBS,
            NO_GITIGNORE,
        ),
    ),
    Command(
        ("init",),
        "Set up pre-commit: a local evaltools hook in .pre-commit-config.yaml (keeping its "
        "comments and layout) and [tool.evaltools] in pyproject.toml from what the repository "
        "holds.",
        targets.init,
        (
            Param(
                "config_file",
                ("--config-file",),
                kind=Path,
                help="The pre-commit configuration to edit (created if missing); default: "
                ".pre-commit-config.yaml at the top level of the git repository, where "
                "pre-commit reads it.",
                metavar="FILE",
            ),
            Param(
                "rev",
                ("--rev",),
                help="With --remote: the tag or commit to pin (moves an existing remote entry).",
                metavar="REV",
            ),
            Param(
                "hooks",
                ("--hook",),
                multiple=True,
                help="Hook ids to write (default: evaltools-check), or to add to an existing "
                "evaltools entry, whose hooks are otherwise kept as they are.",
                metavar="ID",
            ),
            Param(
                "remote",
                ("--remote",),
                help="Write the `repo: URL` form (needs --rev) instead of a local entry that "
                "runs the installed evaltools.",
                metavar="URL",
            ),
        ),
    ),
    Command(
        ("server",),
        "Serve the Language Server Protocol over stdio: diagnostics, fixes, hover, formatting.",
        targets.server,
        (
            Param(
                "stdio",
                ("--stdio",),
                kind=bool,
                default=False,
                help="Talk over stdin and stdout (the only transport; accepted for clients "
                "that pass it).",
            ),
        ),
    ),
    Command(
        ("rule",),
        "Explain a rule, or list every rule.",
        targets.rule,
        (
            Param(
                "code",
                help="Rule code, name or prefix; ALL or nothing lists every rule.",
                metavar="CODE",
            ),
            format_param(choices=("text", "json", "markdown")),
        ),
    ),
)


def all_commands() -> tuple[Command, ...]:
    from evaltools.cli import table_retrieval

    return EXAMPLE_COMMANDS + table_retrieval.COMMANDS


COMPLETION_FLAGS = ("--install-completion", "--show-completion")


def find(argv: list[str]) -> tuple[Command, list[str]] | None:
    """The command that argv names and the arguments after its name."""
    # The example commands are one word and no group shares their names: finding them
    # without building the retrieval table keeps it off the start-up of the lint hook.
    for command in EXAMPLE_COMMANDS:
        if command.path == tuple(argv[:1]):
            return command, argv[1:]
    for depth in (2, 1):
        head = tuple(argv[:depth])
        for command in all_commands():
            if command.path == head:
                return command, argv[depth:]
    return None


def groups() -> dict[str, str]:
    """Each command group and its description."""
    from evaltools.cli import table_retrieval

    names = sorted({c.path[0] for c in all_commands() if len(c.path) > 1})
    return {name: table_retrieval.GROUP_HELP[name] for name in names}
