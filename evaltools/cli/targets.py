"""What each command runs: one function per command, importing its implementation only
when called (start-up of the pre-commit hooks), and reading every argument by type so
that mypy checks the call against the implementation's signature."""

from __future__ import annotations

from typing import TYPE_CHECKING, TypedDict

from evaltools.cli.arguments import Arguments

if TYPE_CHECKING:
    from pathlib import Path


class _Findings(TypedDict):
    select: list[str]
    ignore: list[str]
    max_warnings: int | None
    config: Path | None
    jobs: int | None


def _findings(a: Arguments) -> _Findings:
    """`params.FINDING_OPTIONS`, as every command that reports findings takes them."""
    return _Findings(
        select=a.texts("select"),
        ignore=a.texts("ignore"),
        max_warnings=a.optional_integer("max_warnings"),
        config=a.optional_path("config"),
        jobs=a.optional_integer("jobs"),
    )


def lint(a: Arguments) -> int:
    from evaltools.commands.lint import run

    return run(
        paths=a.paths("paths"),
        output_format=a.text("output_format"),
        **_findings(a),
        no_respect_gitignore=a.flag("no_respect_gitignore"),
    )


def roundtrip(a: Arguments) -> int:
    from evaltools.commands.roundtrip import run

    return run(
        paths=a.paths("paths"),
        fix=a.flag("fix"),
        diff=a.flag("diff"),
        strict_reference=a.flag("strict_reference"),
        output_format=a.text("output_format"),
        max_warnings=a.optional_integer("max_warnings"),
        jobs=a.optional_integer("jobs"),
        no_respect_gitignore=a.flag("no_respect_gitignore"),
    )


def convert(a: Arguments) -> int:
    from evaltools.commands.convert import run

    to = a.text("to")
    return run(
        paths=a.paths("paths"),
        to=to,
        # One JSONL file; Markdown and JSON go to a folder unless -o names one file.
        output=a.file_path("output", "-o") if to == "jsonl" else a.path("output"),
        output_is_folder=a.names_folder("output"),
        name=a.optional_text("name"),
        repo=a.optional_text("repo"),
        offset=a.integer("offset"),
        limit=a.optional_integer("limit"),
        jobs=a.optional_integer("jobs"),
        allow_lossy=a.flag("allow_lossy"),
        force=a.flag("force"),
        output_format=a.text("output_format"),
        no_respect_gitignore=a.flag("no_respect_gitignore"),
    )


def score(a: Arguments) -> int:
    from evaltools.commands.score import run

    return run(
        paths=a.paths("paths"),
        predictions=a.optional_path("predictions"),
        metric=a.text("metric"),
        by=a.optional_text("by"),
        baseline=a.optional_path("baseline"),
        write_scores=a.flag("write_scores"),
        output_format=a.text("output_format"),
        max_warnings=a.optional_integer("max_warnings"),
        jobs=a.optional_integer("jobs"),
        no_respect_gitignore=a.flag("no_respect_gitignore"),
        mode=a.text("mode"),
    )


def check(a: Arguments) -> int:
    from evaltools.commands.check import run

    return run(
        paths=a.paths("paths"),
        output_format=a.text("output_format"),
        fix=a.flag("fix"),
        **_findings(a),
        no_respect_gitignore=a.flag("no_respect_gitignore"),
        no_cache=a.flag("no_cache"),
    )


def init(a: Arguments) -> int:
    from evaltools.commands.init import run

    return run(
        config_file=a.optional_file_path("config_file", "--config-file"),
        rev=a.optional_text("rev"),
        hooks=a.texts("hooks"),
        remote=a.optional_text("remote"),
    )


def rule(a: Arguments) -> int:
    from evaltools.commands.rules import run

    return run(code=a.optional_text("code"), output_format=a.text("output_format"))


def server(a: Arguments) -> int:
    from evaltools.commands.server import run

    a.flag("stdio")  # the only transport
    return run()


def validate(a: Arguments) -> int:
    from evaltools.commands.retrieval import validate

    return validate(
        paths=a.paths("paths"),
        schema=a.optional_path("schema"),
        output_format=a.text("output_format"),
        max_errors=a.optional_integer("max_errors"),
        **_findings(a),
        no_respect_gitignore=a.flag("no_respect_gitignore"),
    )


def gold_stats(a: Arguments) -> int:
    from evaltools.commands.retrieval import gold_stats

    return gold_stats(paths=a.paths("paths"), output_format=a.text("output_format"))


def gold_check(a: Arguments) -> int:
    from evaltools.commands.gold.check import run

    return run(
        paths=a.paths("paths"),
        root=a.optional_path("root"),
        rev=a.optional_text("rev"),
        metas=a.optional_path("metas"),
        fix=a.flag("fix"),
        jobs=a.optional_integer("jobs"),
        output_format=a.text("output_format"),
        select=a.texts("select"),
        ignore=a.texts("ignore"),
        max_warnings=a.optional_integer("max_warnings"),
        config_file=a.optional_path("config"),
        no_cache=a.flag("no_cache"),
    )


def gold_mine(a: Arguments) -> int:
    from evaltools.commands.gold.discipline import mine

    return mine(
        repo=a.path("repo"),
        since=a.optional_text("since"),
        rev_range=a.optional_text("rev_range"),
        per_type=a.optional_integer("per_type"),
        seed=a.integer("seed"),
        path_prefix=a.text("path_prefix"),
        output=a.file_path("output", "-o"),
        force=a.flag("force"),
        output_format=a.text("output_format"),
    )


def gold_merge(a: Arguments) -> int:
    from evaltools.commands.gold.merge import merge

    return merge(
        first=a.path("first"),
        second=a.path("second"),
        output=a.file_path("output", "-o"),
        conflicts=a.optional_file_path("conflicts", "--conflicts"),
        force=a.flag("force"),
        output_format=a.text("output_format"),
    )


def gold_sample(a: Arguments) -> int:
    from evaltools.commands.gold.discipline import sample

    return sample(
        paths=a.paths("paths"),
        fraction=a.number("fraction"),
        seed=a.integer("seed"),
        output=a.file_path("output", "-o"),
        force=a.flag("force"),
        output_format=a.text("output_format"),
    )


def gold_split(a: Arguments) -> int:
    from evaltools.commands.gold.split import split

    return split(
        paths=a.paths("paths"),
        holdout=a.optional_number("holdout"),
        seed=a.integer("seed"),
        output_format=a.text("output_format"),
    )


def gold_eval(a: Arguments) -> int:
    from evaltools.commands.gold.evaluate import run

    return run(
        runs=a.paths("runs"),
        set_path=a.optional_path("set_path"),
        baseline=a.optional_path("baseline"),
        k=a.integer("k"),
        seed=a.integer("seed"),
        root=a.optional_path("root"),
        rev=a.optional_text("rev"),
        metas=a.optional_path("metas"),
        allow_stale=a.flag("allow_stale"),
        history=a.optional_file_path("history", "--history"),
        plot=a.optional_file_path("plot", "--plot"),
        output_format=a.text("output_format"),
        label=a.optional_text("label"),
    )


def dupes(a: Arguments) -> int:
    from evaltools.commands.dupes import run

    return run(
        paths=a.paths("paths"),
        against=a.paths("against"),
        threshold=a.optional_number("threshold"),
        output_format=a.text("output_format"),
        **_findings(a),
    )
