"""`gold check --fix` over one set file: which gold keys are rewritten, and whether each
rewritten record's `revision` moves to the commit its gold now resolves at.

A record's `revision` says which commit its gold IDs were last verified against; it is
where the next refactor is followed from (`follow` reads the IDs' old bodies there). Left
at the old commit after a rewrite, it names a commit where the new IDs do not exist. So
when every gold ID of a rewritten record resolves at the target, `revision` becomes the
target's commit: `--rev`'s, or in the work tree HEAD's, but only if the record's files are
HEAD's too (else no commit holds the IDs as fixed, and a warning says to commit: a rerun
of --fix on the rewritten record would find nothing to rewrite, so it would not move it).

A record --fix does not rewrite gets `revision` moved to HEAD too when its gold all resolves
`ok` there, its files are HEAD's, and one of them changed since `revision`: left behind (a
rewrite committed after RG014, or code committed since), it makes each later check follow a
longer history, and once an ID in it was rewritten, from a commit where that ID never existed
(RG003 where RG009 would repair it). A `revision` whose files are as at HEAD is as good as
HEAD, and is left: else the commit of each move (a CI step's) would call for another.
Without --fix, one RG017 per file says so.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

from evaltools.diagnostics import Diagnostic, make
from evaltools.retrieval.code.chunk_id import parse_chunk_id
from evaltools.retrieval.gold.reanchor.resolve import Status
from evaltools.retrieval.gold.rules import (
    GOLD_REVISION_BEHIND,
    GOLD_REVISION_KEPT,
    GOLD_REVISION_UPDATED,
)
from evaltools.retrieval.sources import git

if TYPE_CHECKING:
    from evaltools.retrieval.code.chunk_id import ChunkId
    from evaltools.retrieval.gold.items import GoldItem
    from evaltools.retrieval.gold.repair import KeyRepair
    from evaltools.retrieval.records.set_file import JsonlFile
    from evaltools.retrieval.sources.source import CodeTree, RepoMount

_COMMIT = re.compile("[0-9a-f]{40}")


class RevisionTarget:
    """The commit a set's gold is checked at (`--rev`, else HEAD), per repository, and
    whether the work tree still holds it for a record's files."""

    def __init__(
        self,
        root: Path | None,
        rev: str | None,
        *,
        from_index: bool,
        fix_command: str = "evaltools gold check --fix",
    ) -> None:
        self._root, self._rev, self._from_index = root, rev, from_index
        self._fix_command = fix_command  # what the warning says to run again
        self._tree: CodeTree | None = None
        self._commits: dict[Path, str | None] = {}
        self._changed: dict[Path, frozenset[str]] = {}
        self._at_head: dict[Path, frozenset[str]] = {}
        self._since: dict[tuple[Path, str], frozenset[str] | None] = {}

    @property
    def at_head(self) -> bool:
        """Whether the check is of the work tree (not `--rev`, not `--metas`)."""
        return self._rev is None and not self._from_index and self._root is not None

    def close(self) -> None:
        if self._tree is not None:
            self._tree.close()

    def commit_for(self, paths: set[str], current: object = None) -> tuple[str | None, str]:
        """The commit every one of `paths` (chunk ID paths) is verified at, or None and why
        there is none; `current` (the record's `revision`) when it is that commit already."""
        try:
            return self._commit_for(paths, current)
        except git.GitError as exc:  # the keys are rewritten all the same: say why not this
            return None, str(exc)

    def _commit_for(self, paths: set[str], current: object) -> tuple[str | None, str]:
        if self._from_index or self._root is None:
            return None, "gold was checked against the index (--metas), which names no commit"
        if self._tree is None:
            from evaltools.retrieval.sources.source import CodeTree

            self._tree = CodeTree(self._root, self._rev)
        mounts = {self._tree.mount(p) for p in paths}
        if None in mounts:
            shown = sorted(p for p in paths if self._tree.mount(p) is None)[0]
            return None, f"no git repository holds {shown}"
        if len(mounts) > 1:
            return None, "its gold lies in several git repositories"
        mount = mounts.pop()
        assert mount is not None
        top = mount.top
        if top not in self._commits:
            self._commits[top] = git.resolve_commit(top, self._rev or "HEAD")
        commit = self._commits[top]
        if commit is None:
            return None, f"the repository {top} has no commit yet"
        if commit == current or (
            isinstance(current, str) and not self._changed_since(top, current, mount, paths)
        ):
            return current if isinstance(current, str) else commit, ""  # nothing to move
        if self._rev is None:
            changed = [p for p in sorted(paths) if self._differs(top, mount.to_repo(p), p)]
            if changed:
                return None, (
                    f"{', '.join(changed[:3])} differ{'s' if len(changed) == 1 else ''} from "
                    "HEAD in the work tree, so no commit holds the rewritten IDs yet: commit "
                    "the code, then set `revision` to that commit (or undo this rewrite and "
                    f"run `{self._fix_command}` again, which then moves it too)"
                )
        return commit, ""

    def window_changed(
        self, windows: list[tuple[ChunkId, ChunkId]], revision: str, commit: str
    ) -> str | None:
        """The first window ID (old, as the record has it; new, after its rewrite) whose
        lines at `commit` are not the ones it named at `revision` (or cannot be read): a
        window has no name to be found by, so only its text says it still holds the same."""
        if self._tree is None:
            return None
        for old, new in windows:
            before = self._tree.read_old(old.path, revision)
            after = self._tree.read_old(new.path, commit)
            if before is None or after is None or _lines(before, old) != _lines(after, new):
                return str(old)
        return None

    def _changed_since(self, top: Path, revision: str, mount: RepoMount, paths: set[str]) -> bool:
        """Whether a file of `paths` is not at HEAD what it was at `revision` (or git cannot
        say: a commit this clone lacks)."""
        key = (top, revision)
        if key not in self._since:
            self._since[key] = None
            if not _COMMIT.fullmatch(revision):  # never an option to git, and no commit
                return True
            try:
                out = git.run_git(
                    top, "diff", "-z", "--no-renames", "--name-only", revision, "HEAD", "--"
                )
                self._since[key] = frozenset(os.fsdecode(p) for p in out.split(b"\0") if p)
            except git.GitError:
                self._since[key] = None
        changed = self._since[key]
        return changed is None or any(mount.to_repo(p) in changed for p in paths)

    def lacks(self, paths: set[str], revision: str) -> str | None:
        """How the repository holding `paths` lacks the commit `revision`, or None."""
        return None if self._tree is None or not paths else self._tree.lacks(min(paths), revision)

    def _differs(self, top: Path, repo_path: str, id_path: str) -> bool:
        """Whether the work tree's `id_path` is not HEAD's: changed, or there on one side."""
        if top not in self._changed:
            self._changed[top] = git.changed_from_head(top)
            self._at_head[top] = frozenset(git.list_files(top, "HEAD"))
        if repo_path in self._changed[top]:
            return True
        assert self._tree is not None
        on_disk = os.path.lexists(self._tree.local_path(id_path))
        return on_disk != (repo_path in self._at_head[top])


def fix_file(
    set_file: JsonlFile, items: list[GoldItem], target: RevisionTarget
) -> list[Diagnostic]:
    """Rewrite the repairable keys of one file in place (see `repair.repair_file`), and the
    `revision` of each record they all were rewritten in when its gold then resolves; the
    findings about revisions are returned (a rewritten key is told by its item). A record
    not rewritten whose gold all resolves at HEAD gets HEAD's commit as its `revision`."""
    from evaltools.atomic import write_finding
    from evaltools.retrieval.gold.repair import KeyRepair, repair_file

    by_line = _by_line(items)
    wanted: dict[KeyRepair, GoldItem] = {}
    for item in items:
        result = item.result
        held = item.conflict is not None  # a repair the check already refused
        if result is not None and result.status.repairable and result.new_chunk_id and not held:
            wanted[KeyRepair(item.line.line, item.ref.chunk_id, result.new_chunk_id)] = item
    revisions: dict[int, str] = {}
    kept: dict[int, str] = {}
    rewritten = {r.line for r in wanted}
    for number in rewritten:
        revision, why = _revision(by_line[number], target)
        if revision is not None:
            revisions[number] = revision
        elif why:
            kept[number] = why
    revisions.update(_behind(by_line, rewritten, target))
    if not revisions and not wanted:
        return []
    outcome = repair_file(set_file.path, set_file.data, set_file.lines, wanted, revisions)
    for repair, refused in outcome.keys.items():
        item = wanted[repair]
        item.conflict = refused
        item.fixed = outcome.written(repair)
    found: list[Diagnostic] = []
    if outcome.write_error is not None:
        found.append(write_finding(outcome.write_error, set_file.display))
    for number in sorted(outcome.revised):
        first = by_line[number][0]
        message = (
            f"`revision` of {first.qid or 'the record'} set to {revisions[number]} (was "
            f"{first.ref.revision}): every gold ID of the record resolves there"
        )
        found.append(make(GOLD_REVISION_UPDATED, set_file.display, number, 1, message))
    for number, why in sorted(kept.items()):
        if all(item.fixed for repair, item in wanted.items() if repair.line == number):
            first = by_line[number][0]
            message = (
                f"`revision` of {first.qid or 'the record'} left at {first.ref.revision} "
                f"although its gold was rewritten: {why}"
            )
            found.append(make(GOLD_REVISION_KEPT, set_file.display, number, 1, message))
    return found


def stale_revisions(
    set_file: JsonlFile, items: list[GoldItem], target: RevisionTarget, fix_command: str
) -> list[Diagnostic]:
    """Without --fix: the records whose `revision` --fix would move to HEAD, as one RG017 at
    the first one's `revision` (a count of the others in its message)."""
    by_line = _by_line(items)
    behind = sorted(_behind(by_line, set(), target))
    if not behind:
        return []
    number, commit = behind[0]
    first = by_line[number][0]
    old = str((first.line.record or {}).get("revision"))
    others = f" (and {len(behind) - 1} more records)" if len(behind) > 1 else ""
    paths = {item.cid.path for item in by_line[number] if item.cid is not None}
    unknown = target.lacks(paths, old)
    where = (
        f", behind HEAD {commit[:12]}"
        if unknown is None
        else f", {unknown}, and HEAD is {commit[:12]}"
    )
    message = (
        f"`revision` of {first.qid or 'the record'}{others} is {old[:12]}{where} where all "
        f"its gold resolves: run `{fix_command}` to move it, so that the next refactor is "
        "followed from HEAD"
    )
    column = _value_column(first, "/revision")
    return [make(GOLD_REVISION_BEHIND, set_file.display, number, column, message)]


def _by_line(items: list[GoldItem]) -> dict[int, list[GoldItem]]:
    by_line: dict[int, list[GoldItem]] = {}
    for item in items:
        by_line.setdefault(item.line.line, []).append(item)
    return by_line


def _behind(
    by_line: dict[int, list[GoldItem]], skip: set[int], target: RevisionTarget
) -> Iterator[tuple[int, str]]:
    """(line, HEAD's commit) of each record but `skip`'s whose `revision` is not HEAD though
    its gold all resolves `ok` there; at `--rev` none (that would move it backwards)."""
    if not target.at_head:
        return
    for number, line_items in by_line.items():
        resolved = all(i.result is not None and i.result.status is Status.OK for i in line_items)
        if number not in skip and resolved:
            revision, _ = _revision(line_items, target, rewritten=False)
            if revision is not None:
                yield number, revision


def _lines(data: bytes, cid: ChunkId) -> list[bytes]:
    return data.split(b"\n")[cid.start - 1 : cid.end]


def _value_column(item: GoldItem, pointer: str) -> int:
    return item.line.column_of(pointer)


def _revision(
    line_items: list[GoldItem], target: RevisionTarget, *, rewritten: bool = True
) -> tuple[str | None, str]:
    """The `revision` the record gets once its repairs are written, or None and why not
    (empty: nothing to say, as for a record without `revision` or with gold unresolved).
    A record not `rewritten` already at the commit is not compared with the work tree."""
    record = line_items[0].line.record or {}
    current = record.get("revision")
    gold = record.get("gold")
    if not isinstance(current, str) or not isinstance(gold, dict):
        return None, ""
    if len(gold) != len(line_items):
        return None, ""  # an invalid key resolves nowhere
    paths: set[str] = set()
    for item in line_items:
        result = item.result
        if result is None or item.cid is None:
            return None, ""
        if result.status is not Status.OK and not (
            result.status.repairable and result.new_chunk_id
        ):
            return None, ""  # still unresolved after the rewrite: verified nowhere
        paths.add(item.cid.path)
        if result.new_chunk_id:
            paths.add(parse_chunk_id(result.new_chunk_id).path)
    commit, why = target.commit_for(paths, None if rewritten else current)
    if commit is None or commit == current:
        return None, why
    windows = [
        (
            item.cid,
            parse_chunk_id(item.result.new_chunk_id) if item.result.new_chunk_id else item.cid,
        )
        for item in line_items
        if item.cid is not None and item.cid.symbol is None and item.result is not None
    ]
    shifted = target.window_changed(windows, current, commit)
    if shifted is not None:
        return None, (
            f"the lines of window `{shifted}` are not at {commit[:12]} what they were at "
            "`revision`, so nothing verified what they now hold: check them, then set "
            "`revision` by hand"
        )
    return commit, ""
