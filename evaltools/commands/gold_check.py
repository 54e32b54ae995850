"""`evaltools gold check PATH... --root DIR [--rev REV] [--metas FILE] [--fix]`."""

from __future__ import annotations

import io
import json
import sys
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from evaltools.config import load_config
from evaltools.diagnostics import Diagnostic, make
from evaltools.fileio import (
    UsageError,
    atomic_write,
    check_paths_exist,
    display_path,
    iter_files,
    real_path,
)
from evaltools.processes import check_jobs
from evaltools.retrieval.chunk_id import ChunkIdError, parse_chunk_id
from evaltools.retrieval.gold_keys import gold_key_tokens, rewrite_gold_keys
from evaltools.retrieval.record import RecordLine, iter_record_lines
from evaltools.retrieval.resolve import (
    INVALID_CHUNK_ID,
    RULE_OF_STATUS,
    UNREADABLE_RECORD,
    GoldRef,
    Resolution,
    Status,
)

STDIN = "-"
STDIN_DISPLAY = "<stdin>"


@dataclass
class SetFile:
    path: Path
    display: str
    data: bytes
    lines: list[RecordLine] = field(default_factory=list)
    _columns: dict[int, dict[str, int]] = field(default_factory=dict)

    def column(self, line: RecordLine, key: str) -> int:
        """The column of `key`'s token in the line; scanned only for lines that report."""
        columns = self._columns.get(line.line)
        if columns is None:
            columns = self._columns[line.line] = {}
            try:
                for token in gold_key_tokens(line.text):
                    columns.setdefault(token.key, line.column(token.start))
            except ValueError:  # pragma: no cover - json parsed it, so the scanner does too
                pass
        return columns.get(key, 1)


@dataclass
class GoldItem:
    """One gold ID where it is written: the file and the record's line."""

    file: SetFile
    line: RecordLine
    qid: str | None
    ref: GoldRef
    result: Resolution | None = None
    fixed: bool = False
    conflict: str | None = None  # why a repair was not written

    @property
    def column(self) -> int:
        return self.file.column(self.line, self.ref.chunk_id)


@dataclass
class GoldCheck:
    files: list[SetFile]
    items: list[GoldItem]
    problems: list[Diagnostic]
    diagnostics: list[Diagnostic]


def collect(
    paths: list[Path],
    *,
    root: Path | None,
    rev: str | None,
    metas: Path | None,
    fix: bool,
    jobs: int | None = None,
) -> GoldCheck:
    """Resolve (and with `fix`, repair) every gold ID of the sets; print nothing."""
    root, metas = _configured(root, metas)
    check_paths_exist(paths)
    if fix and any(str(p) == STDIN for p in paths):
        raise UsageError("--fix rewrites files in place: it cannot take - (stdin)")
    check_jobs(jobs)
    problems: list[Diagnostic] = []
    files: list[SetFile] = []
    items: list[GoldItem] = []
    # A file named twice (`evals evals/set.jsonl`) is checked, and fixed, once.
    unique = {real_path(p): p for p in iter_files(paths, (".jsonl",))}
    for path in unique.values():
        set_file = _read_set(path, problems)
        if set_file is not None:
            files.append(set_file)
            items.extend(_gold_items(set_file, problems))
    _resolve(items, root=root, rev=rev, metas_path=metas, jobs=jobs, problems=problems)
    if fix:
        by_file: dict[int, list[GoldItem]] = {}
        for item in items:
            by_file.setdefault(id(item.file), []).append(item)
        for set_file in files:
            _fix_file(set_file, by_file.get(id(set_file), []))
    diagnostics = problems + [d for i in items if (d := _diagnostic(i)) is not None]
    return GoldCheck(files, items, problems, diagnostics)


def run(
    *,
    paths: list[Path],
    root: Path | None,
    rev: str | None,
    metas: Path | None,
    fix: bool,
    output_format: str,
    jobs: int | None = None,
) -> int:
    found = collect(paths, root=root, rev=rev, metas=metas, fix=fix, jobs=jobs)
    _report(output_format, found.items, found.diagnostics, found.problems, len(found.files))
    return 1 if found.diagnostics else 0


def _configured(root: Path | None, metas: Path | None) -> tuple[Path | None, Path | None]:
    """Flags first, then `[tool.evaltools.retrieval]` (paths relative to its pyproject)."""
    if root is None or metas is None:
        config = load_config()
        section = config.section("retrieval")
        for key in ("root", "metas"):
            if key in section and not isinstance(section[key], str):
                raise UsageError(
                    f"{config.path}: [tool.evaltools.retrieval] {key} must be a string"
                )
        if root is None and "root" in section:
            root = config.root / section["root"]
        if metas is None and "metas" in section:
            metas = config.root / section["metas"]
    if root is None and metas is None:
        raise UsageError(
            "gold check needs --root DIR (the code the gold IDs point into) or --metas FILE, "
            "or `root` in [tool.evaltools.retrieval]"
        )
    if root is not None and not root.is_dir():
        raise UsageError(f"--root {root.as_posix()} is not a directory")
    if metas is not None and not metas.is_file():
        raise UsageError(f"--metas {metas.as_posix()} is not a file")
    return root, metas


def _read_set(path: Path, problems: list[Diagnostic]) -> SetFile | None:
    from evaltools.fileio import NOT_A_FILE

    if str(path) == STDIN:
        data = sys.stdin.buffer.read()
        return SetFile(path, STDIN_DISPLAY, data, list(iter_record_lines(io.BytesIO(data))))
    shown = display_path(path)
    if path.exists() and not path.is_file() and not path.is_dir():
        # A FIFO (or device) would block the run on reading it.
        message = "is not a regular file: pass .jsonl files"
        problems.append(make(NOT_A_FILE, shown, 1, 1, message))
        return None
    try:
        data = path.read_bytes()
    except OSError as exc:
        problems.append(make(NOT_A_FILE, shown, 1, 1, f"cannot read the file: {exc.strerror}"))
        return None
    return SetFile(path, shown, data, list(iter_record_lines(io.BytesIO(data))))


def _gold_items(set_file: SetFile, problems: list[Diagnostic]) -> list[GoldItem]:
    items: list[GoldItem] = []
    for line in set_file.lines:
        record = line.record
        if record is None:
            if line.problems and line.problems[-1].kind == "blank":
                continue  # holds no gold ID; `validate` reports the blank line
            reason = line.problems[-1].message if line.problems else "line is not a JSON object"
            problems.append(
                make(UNREADABLE_RECORD, set_file.display, line.line, _problem_column(line), reason)
            )
            continue
        items.extend(_items_of(set_file, line, record, problems))
    return items


def _problem_column(line: RecordLine) -> int:
    return line.problems[-1].column if line.problems else 1


def _items_of(
    set_file: SetFile, line: RecordLine, record: dict[str, object], problems: list[Diagnostic]
) -> list[GoldItem]:
    gold = record.get("gold")
    qid = record.get("qid")
    qid_text = qid if isinstance(qid, str) else None
    if not isinstance(gold, dict) or not gold:
        message = "record has no non-empty `gold` object: add its graded chunk IDs"
        problems.append(make(UNREADABLE_RECORD, set_file.display, line.line, 1, message))
        return []
    revision = record.get("revision")
    since = revision if isinstance(revision, str) and revision else None
    items: list[GoldItem] = []
    for key in gold:
        try:
            parse_chunk_id(key)
        except ChunkIdError as exc:
            column = set_file.column(line, key)
            problems.append(make(INVALID_CHUNK_ID, set_file.display, line.line, column, str(exc)))
            continue
        items.append(GoldItem(set_file, line, qid_text, GoldRef(key, since)))
    return items


def _resolve(
    items: list[GoldItem],
    *,
    root: Path | None,
    rev: str | None,
    metas_path: Path | None,
    jobs: int | None,
    problems: list[Diagnostic],
) -> None:
    from evaltools.retrieval.git import GitError
    from evaltools.retrieval.lookup import Lookup, MetasLookup, TreeLookup
    from evaltools.retrieval.metas import read_metas
    from evaltools.retrieval.parsing import FileParser
    from evaltools.retrieval.resolve import resolve_all
    from evaltools.retrieval.source import CodeTree

    if rev is not None and root is None:
        raise UsageError("--rev needs --root: the repository the revision is in")
    refs = list(dict.fromkeys(i.ref for i in items))
    tree: CodeTree | None = None
    try:
        tree = CodeTree(root, rev) if root is not None else None
        # The pool is closed before the tree: forked workers inherit the pipes of the
        # tree's git cat-file processes, which see end-of-input only once all are closed.
        with FileParser(jobs) as pool:
            lookup: Lookup
            if metas_path is not None:
                index, metas_problems = read_metas(metas_path)
                problems.extend(metas_problems)
                lookup = MetasLookup(index, tree)
            else:
                assert tree is not None
                lookup = TreeLookup(tree, pool)
            results = resolve_all(refs, lookup)
    except GitError as exc:
        raise UsageError(str(exc)) from exc
    finally:
        if tree is not None:
            tree.close()
    for item in items:
        item.result = results[item.ref]


def _fix_file(set_file: SetFile, items: list[GoldItem]) -> None:
    """Rewrite the repairable keys of one file in place, or nothing if it changed meanwhile."""
    by_line: dict[int, list[GoldItem]] = {}
    for item in items:
        if item.result is not None and item.result.status.repairable:
            by_line.setdefault(item.line.line, []).append(item)
    if not by_line:
        return
    new_raw: dict[int, bytes] = {}
    for number, stale in by_line.items():
        line = stale[0].line
        replacements = _safe_replacements(line, stale)
        if replacements:
            new_raw[number] = _rewrite_line(line, replacements)
    if not new_raw:
        return
    try:
        if set_file.path.read_bytes() != set_file.data:
            raise OSError("the file changed while it was being checked: run the check again")
        data = b"".join(new_raw.get(line.line, line.raw) for line in set_file.lines)
        atomic_write(set_file.path, data)
    except OSError as exc:
        for item in items:
            item.conflict = f"not rewritten: {exc.strerror or exc}"
        return
    for stale in by_line.values():
        for item in stale:
            item.fixed = item.conflict is None


def _safe_replacements(line: RecordLine, stale: list[GoldItem]) -> dict[str, str]:
    """Old key -> new key, except where the new key would collide with another key."""
    record = line.record or {}
    gold = record.get("gold")
    keys = set(gold) if isinstance(gold, dict) else set()
    targets = Counter(i.result.new_chunk_id for i in stale if i.result is not None)
    replacements: dict[str, str] = {}
    for item in stale:
        assert item.result is not None and item.result.new_chunk_id is not None
        new = item.result.new_chunk_id
        if new in keys or targets[new] > 1:
            item.conflict = (
                f"not rewritten: `{new}` would then be a gold key twice in this record; "
                "merge the two grades by hand"
            )
        else:
            replacements[item.ref.chunk_id] = new
    return replacements


def _rewrite_line(line: RecordLine, replacements: dict[str, str]) -> bytes:
    body = line.raw[:-1] if line.raw.endswith(b"\n") else line.raw
    prefix = b"\xef\xbb\xbf" if line.bom else b""
    new_body = prefix + rewrite_gold_keys(line.text, replacements).encode("utf-8")
    return new_body + line.raw[len(body) :]


def _diagnostic(item: GoldItem) -> Diagnostic | None:
    result = item.result
    if result is None or result.status is Status.OK or item.fixed:
        return None
    rule = RULE_OF_STATUS[result.status]
    return make(rule, item.file.display, item.line.line, item.column, _message(item, result))


def _message(item: GoldItem, result: Resolution) -> str:
    gold = f"gold `{item.ref.chunk_id}`" + (f" of {item.qid}" if item.qid else "")
    shown = ", ".join(f"`{c}`" for c in result.candidates[:3])
    if result.status.repairable:
        fix = (
            item.conflict
            or f"run `evaltools gold check --fix` to rewrite it to `{result.new_chunk_id}`"
        )
        return f"{gold} is stale ({result.detail}): {fix}"
    if result.status is Status.AMBIGUOUS:
        return f"{gold} is ambiguous ({result.detail}): rewrite it to the one meant, e.g. {shown}"
    hint = f"replace it with one of {shown}" if shown else "replace it with what it became"
    return f"{gold} does not resolve ({result.detail}): {hint}, or remove it"


def _report(
    fmt: str,
    items: list[GoldItem],
    diagnostics: list[Diagnostic],
    problems: list[Diagnostic],
    files_checked: int,
) -> None:
    if fmt == "json":
        from evaltools.report.text import format_line

        # One object a line: readable, greppable, and fast for 10,000 IDs.
        objects = ",\n".join("  " + json.dumps(_item_json(i), ensure_ascii=False) for i in items)
        sys.stdout.write(f"[\n{objects}\n]\n" if items else "[]\n")
        for problem in sorted(problems, key=Diagnostic.sort_key):
            sys.stderr.write(format_line(problem) + "\n")
        return
    if fmt != "text":
        from evaltools.report import render

        render(fmt, diagnostics, sys.stdout, files_checked=files_checked)
        return
    from evaltools.report.text import format_line

    for diagnostic in sorted(diagnostics, key=Diagnostic.sort_key):
        sys.stdout.write(format_line(diagnostic) + "\n")
    sys.stdout.write(_summary(items, problems, files_checked) + "\n")


def _item_json(item: GoldItem) -> dict[str, object]:
    result = item.result or Resolution(Status.MISSING_FILE)
    return {
        "path": item.file.display,
        "line": item.line.line,
        "qid": item.qid,
        "chunk_id": item.ref.chunk_id,
        "status": result.status.value,
        "new_chunk_id": result.new_chunk_id,
        "candidates": list(result.candidates),
    }


def _summary(items: list[GoldItem], problems: list[Diagnostic], files_checked: int) -> str:
    counts = Counter(i.result.status for i in items if i.result is not None)
    fixed = sum(1 for i in items if i.fixed)
    parts = [f"{counts[s]} {s.value}" for s in Status if counts[s]]
    noun = "file" if files_checked == 1 else "files"
    text = f"{len(items)} gold IDs in {files_checked} {noun}: {', '.join(parts) or 'none'}"
    if fixed:
        text += f"; {fixed} fixed"
    if problems:
        text += f"; {len(problems)} other error{'s' if len(problems) != 1 else ''}"
    return text + "."
