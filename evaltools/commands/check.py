"""`evaltools check`: everything `[tool.evaltools]` asks for, one summary, one exit code.

Example files get lint and the round-trip check; retrieval sets get validation and the
gold check. This is what CI and the default pre-commit hook run.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, field
from pathlib import Path

from evaltools.config.model import Config, load_config
from evaltools.diagnostics import Diagnostic, Severity, worst_exit_code
from evaltools.fileio import UsageError, check_paths_exist, discover, read_text_file, real_path
from evaltools.parallel.processes import check_jobs
from evaltools.retrieval.records.sniff import is_retrieval_set
from evaltools.selection import selection_from


@dataclass
class Plan:
    examples: list[Path] = field(default_factory=list)
    example_records: list[Path] = field(default_factory=list)
    retrieval_sets: list[Path] = field(default_factory=list)


def plan(paths: list[Path], config: Config, *, respect_gitignore: bool = True) -> Plan:
    out = Plan()
    ignore = respect_gitignore and config.respect_gitignore
    if not paths:
        configured = list(config.paths)
        sets = list(config.retrieval.sets)
        if not configured and not sets:
            raise UsageError(
                "nothing to check: pass paths, or set `paths` in [tool.evaltools] and `sets` "
                "in [tool.evaltools.retrieval]"
            )
        check_paths_exist(configured + sets)
        if configured:
            out.examples = discover(
                configured, (".md",), respect_gitignore=ignore, what="example files"
            )
        if sets:
            out.retrieval_sets = discover(
                sets, (".jsonl",), respect_gitignore=ignore, what="eval sets"
            )
        return out
    check_paths_exist(paths)
    known = {real_path(p) for p in config.retrieval.sets}
    for path in discover(paths, (".md", ".jsonl"), respect_gitignore=ignore, what="files"):
        if path.suffix == ".jsonl" and is_retrieval_set(path, known):
            out.retrieval_sets.append(path)
        elif path.suffix in (".json", ".jsonl"):
            out.example_records.append(path)
        else:
            out.examples.append(path)
    return out


def _examples(work: Plan, fix: bool, fixed: list[str]) -> list[Diagnostic]:
    from evaltools.commands.lint import lint_path
    from evaltools.commands.roundtrip import check_text
    from evaltools.example.lint import lint_markdown
    from evaltools.example.markdown.reader import read_markdown

    found: list[Diagnostic] = []
    for path in work.examples:
        read = read_text_file(path)
        if isinstance(read, Diagnostic):
            found.append(read)
            continue
        # One read and one parse serve both lint and the round trip.
        stem = path.name.removesuffix(".md")
        parsed = read_markdown(read.text, stem)
        linted = lint_markdown(read.text, read.display, stem, parsed)
        found.extend(linted)
        result = check_text(read, fix=fix, diff=False, strict_reference=False, parsed=parsed)
        if result.fixed:
            fixed.append(f"{result.path}: rewritten in canonical layout")
        elif result.status != "invalid":  # lint has said why the reference cannot read it
            found.extend(unexplained(result.diagnostics, linted))
    for path in work.example_records:
        found.extend(lint_path(path))
    return found


def unexplained(roundtrip: list[Diagnostic], linted: list[Diagnostic]) -> list[Diagnostic]:
    """The round trip's findings that lint has not already reported as their cause.

    A document error (EP0xx/EP1xx) misreads the file, so every round-trip difference follows
    from it; otherwise a lint finding on the same line names the same mistake, better.
    """
    own = [d for d in roundtrip if d.code.startswith("RT")]  # a failed write always shows
    others = [d for d in roundtrip if not d.code.startswith("RT")]
    if any(d.severity is Severity.ERROR and d.code.startswith(("EP0", "EP1")) for d in linted):
        return others
    # The file name (EP4xx) is reported at line 1 and explains no layout there.
    lines = {
        d.line for d in linted if d.severity is not Severity.INFO and not d.code.startswith("EP4")
    }
    return [d for d in own if d.line not in lines] + others


def _retrieval(
    work: Plan,
    config: Config,
    fix: bool,
    fixed: list[str],
    jobs: int | None = None,
    *,
    no_cache: bool = False,
) -> tuple[list[Diagnostic], str | None]:
    if not work.retrieval_sets:
        return [], None
    from evaltools.commands import gold_check
    from evaltools.commands.retrieval import check_files, schema_text_for
    from evaltools.retrieval.code.definition_cache import cache_folder

    # Everything comes from this configuration (it may be `--config`, not the cwd's).
    root, metas, schema = config.retrieval.root, config.retrieval.metas, config.retrieval.schema
    found: list[Diagnostic] = []
    for chunk in check_files(work.retrieval_sets, schema_text_for(schema), jobs):
        found.extend(chunk)
    if root is None and metas is None:
        return found, "gold check skipped: set `root` in [tool.evaltools.retrieval]"
    cache_dir = None if no_cache else cache_folder(config.root)
    gold = gold_check.collect(
        work.retrieval_sets,
        root=root,
        rev=None,
        metas=metas,
        fix=fix,
        jobs=jobs,
        cache_dir=cache_dir,
    )
    found.extend(gold.diagnostics)
    fixed.extend(
        f"{item.file.display}:{item.line.line}: gold ID of {item.qid} repaired"
        for item in gold.items
        if item.fixed
    )
    return found, None


def _dupes(work: Plan, config: Config) -> list[Diagnostic]:
    """The duplicate and leakage checks over the same files, when [tool.evaltools] enables them."""
    if not config.dupes.enabled:
        return []
    from evaltools.commands.dupes import compare

    examples = work.examples + work.example_records
    found = compare((examples, work.retrieval_sets), None, config.dupes.threshold)
    # Files that cannot be read are lint's and validate's to report, not twice.
    return [pair.to_diagnostic() for pair in found.pairs]


def run(
    paths: list[Path],
    output_format: str,
    fix: bool,
    config: Path | None,
    jobs: int | None = None,
    *,
    no_respect_gitignore: bool = False,
    no_cache: bool = False,
) -> int:
    check_jobs(jobs)
    settings = load_config(config)
    selection = selection_from(settings.rules, None, None)
    work = plan(paths, settings, respect_gitignore=not no_respect_gitignore)
    fixed: list[str] = []
    diagnostics = _examples(work, fix, fixed)
    found, note = _retrieval(work, settings, fix, fixed, jobs, no_cache=no_cache)
    found += _dupes(work, settings)
    diagnostics = selection.filter(diagnostics + found, settings.root)
    files = len(work.examples) + len(work.example_records) + len(work.retrieval_sets)
    from evaltools.report import render

    render(output_format, diagnostics, sys.stdout, files_checked=files)
    for line in fixed:
        sys.stderr.write(f"fixed: {line}\n")
    if note is not None:
        sys.stderr.write(f"evaltools check: {note}\n")
    return worst_exit_code(diagnostics)
