"""`evaltools check`: everything `[tool.evaltools]` asks for, one summary, one exit code.

Example files get lint and the round-trip check; retrieval sets get validation and the
gold check. This is what CI and the default pre-commit hook run.
"""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass, field
from pathlib import Path

from evaltools.config import Config, load_config
from evaltools.diagnostics import Diagnostic, worst_exit_code
from evaltools.fileio import UsageError, check_paths_exist, iter_files
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


def is_retrieval_set(path: Path) -> bool:
    """A JSONL whose first record has `qid` and `gold` is a retrieval set, not examples."""
    if not path.is_file():
        return False  # a FIFO would block; the example reader says what it is instead
    try:
        with path.open("rb") as handle:
            for raw in handle:
                if raw.strip():
                    record = json.loads(raw)
                    return isinstance(record, dict) and "qid" in record and "gold" in record
    except (OSError, ValueError, RecursionError):
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
    for path in iter_files(paths, (".md", ".jsonl")):
        if path.suffix == ".jsonl" and is_retrieval_set(path):
            out.retrieval_sets.append(path)
        elif path.suffix in (".json", ".jsonl"):
            out.example_records.append(path)
        else:
            out.examples.append(path)
    return out


def _examples(work: Plan, fix: bool, fixed: list[str]) -> list[Diagnostic]:
    from evaltools.commands.lint import lint_path
    from evaltools.commands.roundtrip import check_file

    found: list[Diagnostic] = []
    for path in work.examples:
        found.extend(lint_path(path))
        if not path.is_file():
            continue  # lint_path has said why
        result = check_file(path, fix=fix, diff=False, strict_reference=False)
        if result.fixed:
            fixed.append(f"{result.path}: rewritten in canonical layout")
        elif result.status != "invalid":  # an unreadable file is reported by lint already
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

    found: list[Diagnostic] = []
    for chunk in check_files(work.retrieval_sets, schema_text_for(None), worker_count(None)):
        found.extend(chunk)
    section = config.section("retrieval")
    if "root" not in section and "metas" not in section:
        return found, "gold check skipped: set `root` in [tool.evaltools.retrieval]"
    gold = gold_check.collect(work.retrieval_sets, root=None, rev=None, metas=None, fix=fix)
    found.extend(gold.diagnostics)
    fixed.extend(
        f"{item.file.display}:{item.line.line}: gold ID of {item.qid} repaired"
        for item in gold.items
        if item.fixed
    )
    return found, None


def run(paths: list[Path], output_format: str, fix: bool, config: Path | None) -> int:
    from evaltools.commands import rules

    rules.load_all_rules()
    settings = load_config(config)
    selection = selection_from(settings.table, None, None)
    work = plan(paths, settings)
    fixed: list[str] = []
    diagnostics = _examples(work, fix, fixed)
    found, note = _retrieval(work, settings, fix, fixed)
    diagnostics = selection.filter(diagnostics + found, settings.root)
    files = len(work.examples) + len(work.example_records) + len(work.retrieval_sets)
    from evaltools.report import render

    render(output_format, diagnostics, sys.stdout, files_checked=files)
    for line in fixed:
        sys.stderr.write(f"fixed: {line}\n")
    if note is not None:
        sys.stderr.write(f"evaltools check: {note}\n")
    return worst_exit_code(diagnostics)
