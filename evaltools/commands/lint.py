"""`evaltools lint`: the rule catalogue over example files."""

from __future__ import annotations

import sys
from pathlib import Path

from evaltools.config import Config, load_config
from evaltools.diagnostics import Diagnostic, make, worst_exit_code
from evaltools.fileio import UsageError, check_paths_exist, iter_files, read_text_file
from evaltools.selection import RuleSelection, selection_from

SUFFIXES = (".md", ".json", ".jsonl")


def lint_path(path: Path) -> list[Diagnostic]:
    if path.suffix == ".md" or path.is_dir():
        from evaltools.example.lint import lint_markdown

        read = read_text_file(path)
        if isinstance(read, Diagnostic):
            return [read]
        return lint_markdown(read.text, read.display, path.name.removesuffix(".md"))
    return _lint_records(path)


def _lint_records(path: Path) -> list[Diagnostic]:
    from evaltools.example.lint import catalogue, lint_spec
    from evaltools.example.records import iter_records

    out: list[Diagnostic] = []
    for record in iter_records(path):
        for error in record.errors:
            if error.diagnostic is not None:
                out.append(error.diagnostic)
                continue
            out.append(
                make(
                    catalogue.BAD_RECORD,
                    error.path,
                    error.line,
                    error.column,
                    error.message,
                    pointer=error.pointer,
                )
            )
        if record.example is not None:
            out.extend(lint_spec(record.example.spec, record.path, record.line))
    return out


def configured_paths(config: Config, paths: list[Path]) -> list[Path]:
    if paths:
        return paths
    configured = config.get("paths")
    if not configured:
        raise UsageError("no paths given and no `paths` in [tool.evaltools]")
    if not isinstance(configured, list) or not all(isinstance(p, str) for p in configured):
        raise UsageError("[tool.evaltools] `paths` must be a list of strings")
    return [config.root / p for p in configured]


def collect(paths: list[Path], selection: RuleSelection) -> tuple[list[Diagnostic], int]:
    diagnostics: list[Diagnostic] = []
    files = 0
    for path in iter_files(paths, SUFFIXES[:1]):
        files += 1
        diagnostics.extend(selection.filter(lint_path(path)))
    return diagnostics, files


def run(
    paths: list[Path],
    output_format: str,
    select: list[str],
    ignore: list[str],
    config: Path | None,
) -> int:
    import evaltools.example.lint  # noqa: F401  (registers the rules that selectors name)

    settings = load_config(config)
    selection = selection_from(settings.table, select, ignore)
    targets = configured_paths(settings, paths)
    check_paths_exist(targets)
    diagnostics, files = collect(targets, selection)
    from evaltools.report import render

    render(output_format, diagnostics, sys.stdout, files_checked=files)
    return worst_exit_code(diagnostics)
