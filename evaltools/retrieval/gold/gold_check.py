"""`gold check` as a service: read eval sets, resolve every gold ID, repair what is safe.

It prints nothing: it returns the gold items with their resolutions and the diagnostics, and
the command (`evaltools.commands.gold.check`) reports them.
"""

from __future__ import annotations

import sys
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from evaltools import jsonlocate
from evaltools.catalogue.io import TOO_MANY_GOLD_ENTRIES
from evaltools.config.evalfiles import discover_sets
from evaltools.diagnostics import Diagnostic, make
from evaltools.discover import check_paths_exist
from evaltools.fileio import MAX_DATA_FILE_BYTES, Refused, UsageError, display_path, read_input
from evaltools.retrieval.code.chunk_id import ChunkIdError, parse_chunk_id
from evaltools.retrieval.gold.items import GoldItem
from evaltools.retrieval.gold.reanchor.resolve import RULE_OF_STATUS, GoldRef, Resolution, Status
from evaltools.retrieval.gold.rules import (
    GOLD_ID_REWRITTEN,
    GOLD_INVALID_CHUNK_ID,
    GOLD_RECORD_UNREADABLE,
)
from evaltools.retrieval.records.record import RecordLine
from evaltools.retrieval.records.set_file import JsonlFile
from evaltools.retrieval.records.validation.gold_limit import gold_over_limit
from evaltools.retrieval.records.validation.rules import BLANK_LINE

if TYPE_CHECKING:
    from evaltools.retrieval.code.parsing import OnParsed
    from evaltools.retrieval.gold.cache.result_cache import Watch
    from evaltools.retrieval.sources.source import CodeTree


STDIN = "-"
STDIN_DISPLAY = "<stdin>"


@dataclass
class GoldCheck:
    files: list[JsonlFile]
    items: list[GoldItem]
    problems: list[Diagnostic]
    diagnostics: list[Diagnostic]
    # The problems that are invalid gold keys: their record's qid and the key as written.
    invalid: dict[Diagnostic, tuple[str | None, str]] = field(default_factory=dict)
    # A `revision` --fix would move to HEAD (RG017): --fix has work even if no ID is stale.
    behind: bool = False


def check_gold(
    paths: list[Path],
    *,
    root: Path | None,
    rev: str | None,
    metas: Path | None,
    fix: bool,
    jobs: int | None = None,
    cache_dir: Path | None = None,
    on_parsed: OnParsed | None = None,
    watch: Watch | None = None,
    fix_command: str = "evaltools gold check --fix",
    texts: Mapping[Path, bytes] | None = None,
) -> GoldCheck:
    """Resolve (and with `fix`, repair) every gold ID of the sets against `root` (at `rev`)
    or the index's `metas`; definitions parsed are kept in `cache_dir` (None: no cache).
    `on_parsed` is told how many source files have been parsed, as each one is; `watch`
    is told the paths below the root the check looked for and the records' revisions
    (for `result_cache`). `fix_command` is what a stale ID's finding says to run: the
    command that printed it, with --fix, so that the advice works where it is read.
    `texts` holds an editor's unsaved text of some sets (`evaltools server`), read instead
    of the files."""
    check_paths_exist(paths)
    if fix and any(str(p) == STDIN for p in paths):
        raise UsageError("--fix rewrites files in place: it cannot take - (stdin)")
    problems: list[Diagnostic] = []
    invalid: dict[Diagnostic, tuple[str | None, str]] = {}
    files, items = _read_sets(paths, texts, problems, invalid)
    _resolve(
        items,
        root=root,
        rev=rev,
        metas_path=metas,
        jobs=jobs,
        problems=problems,
        cache_dir=cache_dir,
        on_parsed=on_parsed,
        watch=watch,
    )
    checked_at = (root, rev, metas is not None)
    behind = _repair_or_report_behind(
        files, items, problems, checked_at, fix=fix, fix_command=fix_command
    )
    for item in items:
        item.finding = _diagnostic(item, fix_command)
    diagnostics = problems + [i.finding for i in items if i.finding is not None]
    return GoldCheck(files, items, problems, diagnostics, invalid, behind)


def _read_sets(
    paths: list[Path],
    texts: Mapping[Path, bytes] | None,
    problems: list[Diagnostic],
    invalid: dict[Diagnostic, tuple[str | None, str]],
) -> tuple[list[JsonlFile], list[GoldItem]]:
    """The sets that can be read (an editor's text in place of a file's), and their gold
    IDs; what cannot be read goes to `problems`, an invalid key to `invalid` too."""
    files: list[JsonlFile] = []
    items: list[GoldItem] = []
    # A file named twice (`evals evals/set.jsonl`) is checked, and fixed, once: discover
    # takes each file once.
    for path in discover_sets(paths):
        given = None if texts is None else texts.get(path)
        if given is not None:
            set_file: JsonlFile | None = JsonlFile.of(path, display_path(path), given)
        else:
            set_file = _read_set(path, problems)
        if set_file is not None:
            files.append(set_file)
            items.extend(_gold_items(set_file, problems, invalid))
    return files, items


def _repair_or_report_behind(
    files: list[JsonlFile],
    items: list[GoldItem],
    problems: list[Diagnostic],
    checked_at: tuple[Path | None, str | None, bool],
    *,
    fix: bool,
    fix_command: str,
) -> bool:
    """With `fix`, repair `items`; else say where --fix would move a `revision` to HEAD
    (RG017), and whether it would. Either way a repair into a work tree's `.py` file that
    Python cannot parse is refused."""
    root, rev, from_index = checked_at
    if root is not None and rev is None and not from_index:
        from evaltools.retrieval.gold.syntax_guard import refuse_repairs_into_broken_python

        refuse_repairs_into_broken_python(items, root)
    behind = False
    if fix:
        _fix(files, items, problems, checked_at, fix_command)
    elif root is not None and rev is None and not from_index:
        behind = _behind_head(files, items, problems, root, fix_command)
    return behind


def _fix(
    files: list[JsonlFile],
    items: list[GoldItem],
    problems: list[Diagnostic],
    checked_at: tuple[Path | None, str | None, bool],
    fix_command: str,
) -> None:
    """Repair `items` in place; `checked_at` is (root, rev, from_index) of the check."""
    # Only --fix rewrites: a check alone does not import the rewriting machinery.
    from evaltools.retrieval.gold.fix_records import RevisionTarget, fix_file

    root, rev, from_index = checked_at
    target = RevisionTarget(root, rev, from_index=from_index, fix_command=fix_command)
    by_file: dict[int, list[GoldItem]] = {}
    for item in items:
        by_file.setdefault(id(item.file), []).append(item)
    try:
        for set_file in files:
            problems.extend(fix_file(set_file, by_file.get(id(set_file), []), target))
    finally:
        target.close()


def _behind_head(
    files: list[JsonlFile],
    items: list[GoldItem],
    problems: list[Diagnostic],
    root: Path,
    fix_command: str,
) -> bool:
    """Say where --fix would move a `revision` to HEAD (RG017), and whether it would; git
    is asked only when a record of the sets carries one."""
    if not any(item.ref.revision for item in items):
        return False
    from evaltools.retrieval.gold.fix_records import RevisionTarget, stale_revisions

    target = RevisionTarget(root, None, from_index=False, fix_command=fix_command)
    by_file: dict[int, list[GoldItem]] = {}
    for item in items:
        by_file.setdefault(id(item.file), []).append(item)
    found: list[Diagnostic] = []
    try:
        for set_file in files:
            found += stale_revisions(set_file, by_file.get(id(set_file), []), target, fix_command)
    finally:
        target.close()
    problems.extend(found)
    return bool(found)


def _read_set(path: Path, problems: list[Diagnostic]) -> JsonlFile | None:
    if str(path) == STDIN:
        data = sys.stdin.buffer.read()
        return JsonlFile.of(path, STDIN_DISPLAY, data)
    shown = display_path(path)
    data = read_input(path, max_bytes=MAX_DATA_FILE_BYTES)
    if isinstance(data, Refused):
        problems.append(data.at(shown))
        return None
    return JsonlFile.of(path, shown, data)


def _gold_items(
    set_file: JsonlFile,
    problems: list[Diagnostic],
    invalid: dict[Diagnostic, tuple[str | None, str]],
) -> list[GoldItem]:
    items: list[GoldItem] = []
    for line in set_file.lines:
        record = line.record
        if record is None:
            if not line.problems:
                message = "line is not a JSON object"
                problems.append(
                    make(GOLD_RECORD_UNREADABLE, set_file.display, line.line, 1, message)
                )
            elif line.problems[-1].rule is not BLANK_LINE:  # `validate` reports blank lines
                # Invalid JSON (or bytes) has the one code every command gives it.
                problems.append(line.problems[-1].at(set_file.display, line.line))
            continue
        items.extend(_items_of(set_file, line, record, problems, invalid))
    return items


def _items_of(
    set_file: JsonlFile,
    line: RecordLine,
    record: dict[str, object],
    problems: list[Diagnostic],
    invalid: dict[Diagnostic, tuple[str | None, str]],
) -> list[GoldItem]:
    gold = record.get("gold")
    qid = record.get("qid")
    qid_text = qid if isinstance(qid, str) else None
    if not isinstance(gold, dict) or not gold:
        message = "record has no non-empty `gold` object: add its graded chunk IDs"
        problems.append(make(GOLD_RECORD_UNREADABLE, set_file.display, line.line, 1, message))
        return []
    too_many = gold_over_limit(gold)
    if too_many is not None:  # refused before any of its gold is followed through git
        key, message = too_many
        where = jsonlocate.pointer(("gold", key))
        column = line.column(jsonlocate.locate(line.text, [where]).nearest(where, at_key=True))
        problems.append(make(TOO_MANY_GOLD_ENTRIES, set_file.display, line.line, column, message))
        return []
    revision = record.get("revision")
    since = revision if isinstance(revision, str) and revision else None
    items: list[GoldItem] = []
    for key in gold:
        try:
            cid = parse_chunk_id(key)
        except ChunkIdError as exc:
            column = line.gold_key_column(key)
            problem = make(GOLD_INVALID_CHUNK_ID, set_file.display, line.line, column, str(exc))
            problems.append(problem)
            invalid[problem] = (qid_text, key)
            continue
        items.append(GoldItem(set_file, line, GoldRef(key, since), cid=cid))
    return items


def _resolve(
    items: list[GoldItem],
    *,
    root: Path | None,
    rev: str | None,
    metas_path: Path | None,
    jobs: int | None,
    problems: list[Diagnostic],
    cache_dir: Path | None,
    on_parsed: OnParsed | None,
    watch: Watch | None = None,
) -> None:
    from evaltools.retrieval.code.cache_store import CacheStore
    from evaltools.retrieval.code.parsing import FileParser
    from evaltools.retrieval.gold.reanchor.anchor import resolve_all
    from evaltools.retrieval.gold.reanchor.lookup import Lookup, TreeLookup
    from evaltools.retrieval.gold.reanchor.metas_lookup import MetasLookup
    from evaltools.retrieval.sources.git import GitError
    from evaltools.retrieval.sources.metas import read_metas

    if rev is not None and root is None:
        raise UsageError("--rev needs --root: the repository the revision is in")
    refs = list(dict.fromkeys(i.ref for i in items))
    tree: CodeTree | None = None
    cache = CacheStore(cache_dir) if cache_dir is not None else None
    try:
        tree = _tree(root, rev, watch) if root is not None else None
        with FileParser(jobs, on_parsed) as pool:
            lookup: Lookup
            if metas_path is not None:
                index, metas_problems = read_metas(metas_path)
                problems.extend(metas_problems)
                lookup = MetasLookup(index, tree)
            else:
                assert tree is not None
                lookup = TreeLookup(tree, pool, cache)
            parsed = {i.ref.chunk_id: i.cid for i in items if i.cid is not None}
            results = resolve_all(refs, lookup, parsed)
    except GitError as exc:
        raise UsageError(str(exc)) from exc
    finally:
        if cache is not None:
            cache.close()
        if tree is not None:
            tree.close()
    for item in items:
        item.result = results[item.ref]
    if watch is not None:
        watch.paths.update(i.cid.path for i in items if i.cid is not None)
        watch.revisions.update(r.revision for r in refs if r.revision)


def _tree(root: Path, rev: str | None, watch: Watch | None) -> CodeTree:
    from evaltools.retrieval.sources.source import CodeTree

    if watch is None:
        return CodeTree(root, rev)
    asked = watch.paths

    class WatchedTree(CodeTree):
        """Tells `watch` every path asked about: rename targets are found this way."""

        def exists(self, id_path: str) -> bool:
            asked.add(id_path)
            return super().exists(id_path)

    return WatchedTree(root, rev)


def _diagnostic(item: GoldItem, fix_command: str) -> Diagnostic | None:
    result = item.result
    if result is None or result.status is Status.OK:
        return None
    where = (item.file.display, item.line.line, item.column)
    if item.fixed:
        # Every rewrite is shown, so that the set's diff can be reviewed against it.
        message = f"{item.ref.chunk_id} -> {result.new_chunk_id} ({result.status.value}: "
        return make(GOLD_ID_REWRITTEN, *where, message + f"{_detail(result)})")
    return make(RULE_OF_STATUS[result.status], *where, _message(item, result, fix_command))


def _message(item: GoldItem, result: Resolution, fix_command: str) -> str:
    gold = f"gold `{item.ref.chunk_id}`" + (f" of {item.qid}" if item.qid else "")
    shown = ", ".join(f"`{c}`" for c in result.candidates[:3])
    if result.status.repairable:
        fix = item.conflict or f"run `{fix_command}` to rewrite it to `{result.new_chunk_id}`"
        return f"{gold} is stale ({_detail(result)}): {fix}"
    if result.status is Status.AMBIGUOUS:
        return f"{gold} is ambiguous ({result.detail}): rewrite it to the one meant, e.g. {shown}"
    if result.status is Status.COPIED:
        return (
            f"{gold} has several right targets ({result.detail}): keep one or grade each of {shown}"
        )
    if result.status is Status.HOLLOWED:
        return (
            f"{gold} was hollowed out ({result.detail}): keep the name or follow the body, {shown}"
        )
    if result.status is Status.MISSING_LINES:
        hint = "choose the lines meant, or remove it"
        return f"{gold} names lines that are gone ({result.detail}): {hint}"
    if result.caveat:  # the history to decide from is missing: get it before editing
        found = f"; candidates: {shown}" if shown else ""
        return f"{gold} does not resolve ({result.detail}{found}), but {result.caveat}"
    hint = f"replace it with one of {shown}" if shown else "replace it with what it became"
    return f"{gold} does not resolve ({result.detail}): {hint}, or remove it"


def _detail(result: Resolution) -> str:
    """What was found, and for a repair, the evidence it rests on."""
    if result.evidence is None:
        return result.detail
    return f"{result.detail}; evidence: {result.evidence}"
