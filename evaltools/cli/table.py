"""The declaration of every command and parameter: the one source of truth for both parsers."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from evaltools.report import FORMATS


@dataclass(frozen=True)
class Param:
    name: str
    flags: tuple[str, ...] = ()  # empty: positional
    kind: type = str
    default: object = None
    help: str = ""
    multiple: bool = False
    required: bool = False
    choices: tuple[str, ...] | None = None
    metavar: str | None = None

    @property
    def positional(self) -> bool:
        return not self.flags


@dataclass(frozen=True)
class Command:
    path: tuple[str, ...]
    help: str
    target: str  # "module:function", imported only when the command runs
    params: tuple[Param, ...]

    @property
    def name(self) -> str:
        return " ".join(self.path)


def format_param(default: str = "text", choices: tuple[str, ...] = FORMATS) -> Param:
    return Param(
        "output_format",
        ("--format",),
        default=default,
        choices=choices,
        help="Output format.",
    )


def paths_param(help_text: str, *, required: bool = True) -> Param:
    return Param(
        "paths", kind=Path, multiple=True, required=required, help=help_text, metavar="PATH"
    )


_CONFIG = Param(
    "config", ("--config",), kind=Path, help="The pyproject.toml to read [tool.evaltools] from."
)

EXAMPLE_COMMANDS: tuple[Command, ...] = (
    Command(
        ("lint",),
        "Lint edit-prediction examples (.md; .json/.jsonl named directly).",
        "evaltools.commands.lint:run",
        (
            paths_param(
                "Example files or directories (searched for *.md); default: `paths` of "
                "[tool.evaltools].",
                required=False,
            ),
            format_param(),
            Param(
                "select",
                ("--select",),
                multiple=True,
                help="Rule codes, prefixes or names to enable (replaces the configured ones).",
                metavar="CODE",
            ),
            Param(
                "ignore",
                ("--ignore",),
                multiple=True,
                help="Rule codes, prefixes or names to ignore.",
                metavar="CODE",
            ),
            _CONFIG,
            Param(
                "jobs",
                ("--jobs",),
                kind=int,
                default=0,
                help="Worker processes for more than 50 files (0: every core; 1: none).",
                metavar="N",
            ),
        ),
    ),
    Command(
        ("roundtrip",),
        "Check that to_markdown(from_markdown(x)) reproduces each example file byte for byte.",
        "evaltools.commands.roundtrip:run",
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
        ),
    ),
    Command(
        ("convert",),
        "Convert examples between .md, .json and .jsonl, in bulk. Sources are files, "
        "directories (searched for *.md, *.json, *.jsonl) or - (JSONL on stdin). Examples "
        "keep their input order; --name and --repo (substrings) select, then --offset "
        "skips, then --limit stops (the reference sorts by repository first; this does "
        "not). A conversion that would drop data is refused unless --allow-lossy.",
        "evaltools.commands.convert:run",
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
            Param(
                "jobs",
                ("--jobs",),
                kind=int,
                help="Worker processes (default and 0: the number of CPUs).",
                metavar="N",
            ),
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
        ),
    ),
    Command(
        ("check",),
        "Everything [tool.evaltools] asks for: lint and round-trip on the example files, "
        "validate and gold check on the retrieval sets. What CI and the default hook run.",
        "evaltools.commands.check:run",
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
            _CONFIG,
        ),
    ),
    Command(
        ("dupes",),
        "Exact and near-duplicate examples or retrieval queries, and leakage between "
        "holdout and tune; with --against, only pairs across the two sets.",
        "evaltools.commands.dupes:run",
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
                help="Estimated Jaccard similarity that makes a near-duplicate (default: "
                "threshold of [tool.evaltools.dupes], else 0.5).",
                metavar="X",
            ),
            format_param(),
            _CONFIG,
            Param(
                "jobs",
                ("--jobs",),
                kind=int,
                help="Worker processes that read examples (default and 0: every core).",
                metavar="N",
            ),
        ),
    ),
    Command(
        ("init",),
        "Add evaltools' hook to .pre-commit-config.yaml, keeping its comments and layout.",
        "evaltools.commands.init:run",
        (
            Param(
                "config_file",
                ("--config-file",),
                kind=Path,
                default=Path(".pre-commit-config.yaml"),
                help="The pre-commit configuration to edit (created if missing).",
            ),
            Param("rev", ("--rev",), help="The revision to pin (default: this version's tag)."),
            Param(
                "hooks",
                ("--hook",),
                multiple=True,
                help="Hook ids to add to a new entry (default: evaltools-check).",
                metavar="ID",
            ),
        ),
    ),
    Command(
        ("rule",),
        "Explain a rule, or list every rule.",
        "evaltools.commands.rules:run",
        (
            Param("code", help="Rule code or name; omit to list all.", metavar="CODE"),
            Param(
                "output_format",
                ("--format",),
                default="text",
                choices=("text", "json", "markdown"),
                help="Output format.",
            ),
        ),
    ),
)


def all_commands() -> tuple[Command, ...]:
    from evaltools.cli import table_retrieval

    return EXAMPLE_COMMANDS + table_retrieval.COMMANDS


HELP_FLAGS = frozenset({"-h", "--help", "--install-completion", "--show-completion"})


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


def groups() -> list[str]:
    return sorted({c.path[0] for c in all_commands() if len(c.path) > 1})
