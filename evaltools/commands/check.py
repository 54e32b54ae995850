"""`evaltools check`: everything `[tool.evaltools]` asks for, one summary, one exit code.

Example files get lint and the round-trip check; retrieval sets get validation and the
gold check. This is what CI and the default pre-commit hook run.
"""

from __future__ import annotations

import itertools
import json
import sys
from dataclasses import dataclass, field
from pathlib import Path

from evaltools.config import Config, load_config
from evaltools.diagnostics import Diagnostic, worst_exit_code
from evaltools.fileio import UsageError, check_paths_exist, iter_files, read_text_file, real_path
from evaltools.selection import selection_from


@dataclass
class Plan:
    examples: list[Path] = field(default_factory=list)
    example_records: list[Path] = field(default_factory=list)
    retrieval_sets: list[Path] = field(default_factory=list)


def _strings(config: Config, table: dict[str, object], key: str, where: str) -> list[Path]:
    value = table.get(key, [])
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise UsageError(f"{config.path}: [{where}] `{key}` must be a list of paths")
    return [config.root / v for v in value]


def is_retrieval_set(path: Path, configured: set[Path]) -> bool:
    """A configured set, or a JSONL whose records have `qid` and `gold` (not examples).

    The first readable record decides, so one broken first line does not turn a retrieval
    set into example records.
    """
    if real_path(path) in configured:
        return True
    if not path.is_file():
        return False  # a FIFO would block; the example reader says what it is instead
    try:
        with path.open("rb") as handle:
            for raw in itertools.islice(handle, 20):
                try:
                    record = json.loads(raw)
                except (ValueError, RecursionError):
                    continue
                if isinstance(record, dict):
                    return "qid" in record and "gold" in record
    except OSError:
        return False
    return False


def plan(paths: list[Path], config: Config) -> Plan:
    out = Plan()
    retrieval = config.section("retrieval")
    if not paths:
        configured = _strings(config, config.table, "paths", "tool.evaltools")
        sets = _strings(config, retrieval, "sets", "tool.evaltools.retrieval")
        if not configured and not sets:
            raise UsageError(
                "nothing to check: pass paths, or set `paths` in [tool.evaltools] and `sets` "
                "in [tool.evaltools.retrieval]"
            )
        check_paths_exist(configured + sets)
        out.examples = list(iter_files(configured, (".md",)))
        out.retrieval_sets = list(iter_files(sets, (".jsonl",)))
        return out
    check_paths_exist(paths)
    known = {real_path(p) for p in _strings(config, retrieval, "sets", "tool.evaltools.retrieval")}
    for path in iter_files(paths, (".md", ".jsonl")):
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
    from evaltools.example.markdown import read_markdown

    found: list[Diagnostic] = []
    for path in work.examples:
        read = read_text_file(path)
        if isinstance(read, Diagnostic):
            found.append(read)
            continue
        # One read and one parse serve both lint and the round trip.
        stem = path.name.removesuffix(".md")
        parsed = read_markdown(read.text, stem)
        found.extend(lint_markdown(read.text, read.display, stem, parsed))
        result = check_text(read, fix=fix, diff=False, strict_reference=False, parsed=parsed)
        if result.fixed:
            fixed.append(f"{result.path}: rewritten in canonical layout")
        elif result.status != "invalid":  # lint has said why the reference cannot read it
            found.extend(result.diagnostics)
    for path in work.example_records:
        found.extend(lint_path(path))
    return found


def _retrieval(
    work: Plan, config: Config, fix: bool, fixed: list[str]
) -> tuple[list[Diagnostic], str | None]:
    if not work.retrieval_sets:
        return [], None
    from evaltools.commands import gold_check
    from evaltools.commands.retrieval import check_files, schema_text_for, worker_count

    # Everything comes from this configuration (it may be `--config`, not the cwd's).
    section = config.section("retrieval")
    root, metas, schema = (
        _configured_path(config, section, key) for key in ("root", "metas", "schema")
    )
    found: list[Diagnostic] = []
    for chunk in check_files(work.retrieval_sets, schema_text_for(schema), worker_count(None)):
        found.extend(chunk)
    if root is None and metas is None:
        return found, "gold check skipped: set `root` in [tool.evaltools.retrieval]"
    gold = gold_check.collect(work.retrieval_sets, root=root, rev=None, metas=metas, fix=fix)
    found.extend(gold.diagnostics)
    fixed.extend(
        f"{item.file.display}:{item.line.line}: gold ID of {item.qid} repaired"
        for item in gold.items
        if item.fixed
    )
    return found, None


def _dupes(work: Plan, config: Config) -> list[Diagnostic]:
    """`evaltools dupes` over the same files, when [tool.evaltools] enables it."""
    from evaltools.config import dupes_settings

    settings = dupes_settings(config)
    if not settings.enabled:
        return []
    from evaltools.commands.dupes import compare

    examples = work.examples + work.example_records
    found = compare((examples, work.retrieval_sets), None, settings.threshold)
    # Files that cannot be read are lint's and validate's to report, not twice.
    return [pair.to_diagnostic() for pair in found.pairs]


def _configured_path(config: Config, section: dict[str, object], key: str) -> Path | None:
    value = section.get(key)
    if value is None:
        return None
    if not isinstance(value, str):
        raise UsageError(f"{config.path}: [tool.evaltools.retrieval] `{key}` must be a path")
    return config.root / value


def run(paths: list[Path], output_format: str, fix: bool, config: Path | None) -> int:
    # Only the rules of what always runs; retrieval rules load with the retrieval half, and
    # selectors of families not loaded are accepted as they are (start-up matters here).
    import evaltools.commands.roundtrip
    import evaltools.example.lint  # noqa: F401

    settings = load_config(config)
    selection = selection_from(settings.table, None, None)
    work = plan(paths, settings)
    fixed: list[str] = []
    diagnostics = _examples(work, fix, fixed)
    found, note = _retrieval(work, settings, fix, fixed)
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
