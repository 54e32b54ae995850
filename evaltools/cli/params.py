"""The shape of a command declaration: what `table.py` and `table_retrieval.py` fill in."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

from evaltools.report import FORMATS

if TYPE_CHECKING:
    from evaltools.cli.arguments import Arguments


HELP_FLAGS = ("-h", "--help")


class Param(NamedTuple):
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

    @property
    def is_flag(self) -> bool:
        """A bool option is a plain switch (`--fix`), never `--fix/--no-fix`."""
        return self.kind is bool


class Command(NamedTuple):
    path: tuple[str, ...]
    help: str
    # A function of `evaltools.cli.targets`: it imports the implementation when called.
    target: Callable[[Arguments], int]
    params: tuple[Param, ...]

    @property
    def name(self) -> str:
        return " ".join(self.path)


def format_param(default: str = "text", choices: tuple[str, ...] = FORMATS) -> Param:
    return Param(
        "output_format",
        # ruff's name for it, which users of ruff type
        ("--format", "--output-format"),
        default=default,
        choices=choices,
        help="Output format.",
    )


def paths_param(help_text: str, *, required: bool = True) -> Param:
    return Param(
        "paths", kind=Path, multiple=True, required=required, help=help_text, metavar="PATH"
    )


# Shared by the commands of both tables.
CONFIG = Param(
    "config",
    ("--config",),
    kind=Path,
    help="The pyproject.toml to read [tool.evaltools] from.",
    metavar="FILE",
)

# Every command that reports findings selects them by one RuleSelection
# (evaltools.selection), so these two are declared once for all of them.
SELECT = Param(
    "select",
    ("--select",),
    multiple=True,
    help="Rule codes, prefixes, names or ALL to enable (replaces the configured select and "
    "ignore; the more specific of --select and --ignore wins).",
    metavar="CODE",
)
IGNORE = Param(
    "ignore",
    ("--ignore",),
    multiple=True,
    help="Rule codes, prefixes or names to ignore.",
    metavar="CODE",
)
NO_GITIGNORE = Param(
    "no_respect_gitignore",
    ("--no-respect-gitignore",),
    kind=bool,
    default=False,
    help="Search directories without leaving out the files .gitignore ignores.",
)

# `gold check` and `check`: parsed definitions are kept in .evaltools_cache/ (or
# EVALTOOLS_CACHE_DIR) unless this is given.
NO_CACHE = Param(
    "no_cache",
    ("--no-cache",),
    kind=bool,
    default=False,
    help="Parse every file again and keep nothing in .evaltools_cache/ (or EVALTOOLS_CACHE_DIR).",
)

JOBS = Param(
    "jobs",
    ("--jobs", "-j"),
    kind=int,
    help="Worker processes: 0 is every core, 1 runs in this process; default: as many as "
    "the input is worth (none for a small one).",
    metavar="N",
)

# Every command that reports findings fails on more warnings than this (evaltools.gate).
MAX_WARNINGS = Param(
    "max_warnings",
    ("--max-warnings",),
    kind=int,
    help="Fail (exit 1) on more than N warnings; -1: no limit (default: `max-warnings` of "
    "[tool.evaltools], else no limit).",
    metavar="N",
)

# What every command that reports findings from the configuration's rules takes (lint,
# check, dupes, validate), in the order its help lists them; `targets._findings` reads them.
FINDING_OPTIONS = (SELECT, IGNORE, MAX_WARNINGS, CONFIG, JOBS)
