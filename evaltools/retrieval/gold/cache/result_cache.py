"""Whole results of `gold check`, kept between runs: a run on an unchanged tree prints what
the run before it printed, without reading the set's records or resolving any ID.

A stale entry would silently give wrong answers, so an entry is used only when everything
the check could have read is as it was when the entry was stored:

- the code: `definition_cache.code_versions` (evaltools, with a stat of each of its
  modules for a checkout edited without a version bump; Python; tree-sitter and the
  grammars), and `RESULTS_VERSION`;
- the invocation: the working directory and project root (shown paths depend on them),
  the root (as named and resolved), `--rev`, the output format;
- each set file found (`discover.discover`, as the check finds them): its shown path and a
  hash of its bytes;
- the tree: every file the check's own walk lists (`discover.walk_files`, the candidates'
  search space, gitignore and all), each with its lstat (mode, size, mtime_ns, ctime_ns,
  inode, device; a link also with its resolved path and target's stat); in each folder
  holding such files (and right below the root), its real path, whether it has a `.git`
  (a nested repository is another mount) and its `.gitattributes`. At --rev no file of
  the work tree is read, so only the folders count;
- git, for each repository the paths map to: its directories, HEAD's commit, `--rev`
  resolved to a commit, the config as `git config --list` prints it, and the stat of what
  else changes history or rename detection without moving HEAD (index, shallow,
  packed-refs, replace refs, grafts, alternates, info/attributes);
- and, written in the entry by the run that stored it and checked again before use: the
  stat of every path the check looked at outside the walk (referenced files that are
  hidden, ignored or gone, rename targets, the tracked files `git diff` compares; at
  --rev, only whether their folders hold a repository), and the commit each record's
  `revision` named.

Every stat in the key must be older than `RACY_SECONDS` when the key is taken (as the
definition cache's stat rows), and the key is taken again after the check: a file changed
during the run, or within the same timestamp tick as the key, leaves nothing stored. What
cannot be established cheaply (stdin, `--metas`, a repository nested below a folder the
walk does not list) runs uncached. The cache folder's own files are left out of the key
when it lies below the root (`cache_store.OWN_FILES`).

Entries live in the one store (`cache_store.CacheStore`: its folder, trust, lock and
MAC-checked rows), one row per invocation, replaced by each store; a row that does not
decode, or another version's, is a miss.
"""

# ruff: noqa: PTH118, PTH120 (os.path over str paths, as in result_key)

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import NamedTuple

from evaltools.retrieval.code.cache_store import OWN_FILES, CacheStore
from evaltools.retrieval.gold.cache import result_key
from evaltools.retrieval.gold.cache.result_key import (
    Request,
    State,
    has_git,
    outside_signature,
    signature,
    state_of,
)
from evaltools.retrieval.sources import git

STDIN = "-"


class Outcome(NamedTuple):
    """What a check printed and how it ended."""

    stdout: str
    stderr: str
    code: int


class _Entry(NamedTuple):
    state: str
    code: int
    repairable: bool
    files: list[tuple[str, str]]
    folders: list[tuple[str, bool]]
    revisions: list[tuple[str, str, str | None]]
    stdout: str
    stderr: str


class Watch:
    """What a check consulted beyond the key: filled in by the check (`gold_check`)."""

    def __init__(self) -> None:
        self.paths: set[str] = set()  # ID paths, relative to the root
        self.revisions: set[str] = set()


class ResultCache:
    """The entry of one invocation: `lookup` before the check, `store` after it."""

    def __init__(self, cache: CacheStore, request: Request, state: State) -> None:
        self._cache = cache
        self._request = request
        self._state = state
        self.watch = Watch()

    def close(self) -> None:
        self._cache.close()

    def lookup(self, *, fix: bool) -> Outcome | None:
        """The stored outcome when it holds for the tree as it is now. With `fix`, only
        one whose check had nothing to repair: then --fix would print the same."""
        value = self._cache.get_values([self._request.row]).get(self._request.row)
        entry = _decode(value) if value is not None else None
        if entry is None or entry.state != self._state.digest or (fix and entry.repairable):
            return None
        if any(outside_signature(path) != sig for path, sig in entry.files):
            return None
        if any(has_git(folder) != has for folder, has in entry.folders):
            return None
        for top, since, commit in entry.revisions:
            if git.resolve_commit(Path(top), since) != commit:
                return None
        return Outcome(entry.stdout, entry.stderr, entry.code)

    def store(self, outcome: Outcome, *, repairable: bool) -> None:
        """Keep `outcome` when the inputs were the same before and after the check and
        none of them changed within RACY_SECONDS of the key."""
        state = self._state
        if state.racy or outcome.code not in (0, 1):
            return
        entry = self._entry(outcome, repairable)
        again = state_of(self._request)
        if entry is None or again is None or again.digest != state.digest or again.racy:
            return
        self._cache.put_values({self._request.row: _encode(entry)})

    def _entry(self, outcome: Outcome, repairable: bool) -> _Entry | None:
        request, state = self._request, self._state
        if any(path.rpartition("/")[2] in OWN_FILES for path in self.watch.paths):
            return None
        racy_after = result_key.racy_after(request)
        files: list[tuple[str, str]] = []
        folders: dict[str, bool] = {}
        try:
            wanted, read = self._looked_at()
        except git.GitError:
            return None
        for path in sorted(wanted):
            if read:  # at --rev no file of the work tree is read: only its mount counts
                if signature(path)[1] >= racy_after:
                    return None
                files.append((path, outside_signature(path)))
            parent = os.path.dirname(path)
            # The folders that decide its mount (`CodeTree.mount`).
            while parent.startswith(request.root_real + os.sep) and parent not in state.folders:
                folders[parent] = has_git(parent)
                parent = os.path.dirname(parent)
        if any(folders.values()):
            return None  # a repository the key does not cover
        revisions = [
            (top, since, git.resolve_commit(Path(top), since))
            for top in state.mounts
            for since in sorted(self.watch.revisions)
        ]
        return _Entry(
            state.digest,
            outcome.code,
            repairable,
            files,
            sorted(folders.items()),
            revisions,
            outcome.stdout,
            outcome.stderr,
        )

    def _looked_at(self) -> tuple[set[str], bool]:
        """The paths the check could have looked at beyond the walk's files (absolute),
        and whether it read them from the work tree (not at --rev). In the work tree:
        the paths asked about and the files each repository tracks (`git diff HEAD`
        compares them); at --rev: the paths asked about and the files tracked there."""
        request, state = self._request, self._state
        wanted = {os.path.join(request.root_real, p) for p in self.watch.paths}
        for top in state.mounts:
            wanted.update(os.path.join(top, p) for p in git.list_files(Path(top), request.rev))
        if request.rev is not None:
            return wanted, False
        return wanted - {f"{request.root_real}/{name}" for name in state.walked}, True


def open_results(
    cache_dir: Path | None,
    paths: list[Path],
    *,
    root: Path | None,
    rev: str | None,
    metas: Path | None,
    output_format: str,
    selection: str = "",
) -> ResultCache | None:
    """The result cache for this invocation, or None when its key cannot be taken (no
    cache, stdin, --metas, no root, a set that is not a plain file, git refusing)."""
    if cache_dir is None or root is None or metas is not None:
        return None
    if any(str(p) == STDIN for p in paths) or not paths:
        return None
    request = Request(paths, root, rev, output_format, cache_dir, selection)
    state = state_of(request)
    if state is None:
        return None
    return ResultCache(CacheStore(cache_dir), request, state)


def _encode(entry: _Entry) -> bytes:
    out = entry.stdout.encode("utf-8", "surrogatepass")
    err = entry.stderr.encode("utf-8", "surrogatepass")
    header = {
        "state": entry.state,
        "code": entry.code,
        "repairable": entry.repairable,
        "files": entry.files,
        "folders": entry.folders,
        "revisions": entry.revisions,
        "stdout": len(out),
        "stderr": len(err),
    }
    text = json.dumps(header, ensure_ascii=True, separators=(",", ":"))
    return text.encode("ascii") + b"\n" + out + err


def _decode(value: bytes) -> _Entry | None:
    """The entry, or None for bytes this version did not write."""
    head, newline, rest = value.partition(b"\n")
    try:
        header = json.loads(head) if newline else None
        if not isinstance(header, dict):
            return None
        size_out, size_err = header["stdout"], header["stderr"]
        if not (_ints(size_out, size_err) and size_out + size_err == len(rest)):
            return None
        files = [(_str(p), _str(s)) for p, s in header["files"]]
        folders = [(_str(f), _bool(h)) for f, h in header["folders"]]
        revisions = [(_str(t), _str(s), _opt_str(c)) for t, s, c in header["revisions"]]
        return _Entry(
            _str(header["state"]),
            _int(header["code"]),
            _bool(header["repairable"]),
            files,
            folders,
            revisions,
            rest[:size_out].decode("utf-8", "surrogatepass"),
            rest[size_out:].decode("utf-8", "surrogatepass"),
        )
    except (ValueError, TypeError, KeyError):
        return None


def _ints(*values: object) -> bool:
    return all(isinstance(v, int) and not isinstance(v, bool) and v >= 0 for v in values)


def _int(value: object) -> int:
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    raise TypeError(value)


def _str(value: object) -> str:
    if isinstance(value, str):
        return value
    raise TypeError(value)


def _opt_str(value: object) -> str | None:
    return None if value is None else _str(value)


def _bool(value: object) -> bool:
    if isinstance(value, bool):
        return value
    raise TypeError(value)
