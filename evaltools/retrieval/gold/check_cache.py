"""Whole results of `gold check`, kept between runs: a run on an unchanged tree prints what
the run before it printed, without reading the set's records or resolving any ID.

A stale entry would silently give wrong answers, so an entry is used only when everything
the check could have read is as it was when the entry was stored:

- the code: the versions of evaltools (and a stat of each of its modules, for a checkout
  edited without a version bump), of Python, tree-sitter and the grammars
  (`definition_cache.version_tag`), and `RESULTS_VERSION`;
- the invocation: the working directory and project root (shown paths depend on them),
  the root (as named and resolved), `--rev`, the output format;
- each set file found (`fileio.discover`, as the check finds them): its shown path and a
  hash of its bytes;
- the tree: every file the check's own walk lists (`fileio.walk_files`, the candidates'
  search space, gitignore and all), each with its lstat (mode, size, mtime_ns, ctime_ns,
  inode, device; a link also with its resolved path and target's stat); in each folder
  holding such files, whether it has a `.git` (a nested repository is another mount) and
  its `.gitattributes`;
- git, for each repository the paths map to: its directories, HEAD's commit, `--rev`
  resolved to a commit, the config as `git config --list` prints it, and the stat of what
  else changes history or rename detection without moving HEAD (index, shallow,
  packed-refs, replace refs, grafts, alternates, info/attributes);
- and, written in the entry by the run that stored it and checked again before use: the
  stat of every path the check looked at outside the walk (referenced files that are
  hidden, ignored or gone, rename targets, the tracked files `git diff` compares), and the
  commit each record's `revision` named.

Every stat in the key must be older than `RACY_SECONDS` when the key is taken (as the
definition cache's stat rows), and the key is taken again after the check: a file changed
during the run, or within the same timestamp tick as the key, leaves nothing stored. What
cannot be established cheaply (stdin, `--metas`, a repository nested below a folder the
walk does not list) runs uncached.

Entries live in the definition cache's database (`DefinitionCache`: its folder, lock and
CRC-checked rows), one row per invocation, replaced by each store; a row that does not
decode, or another version's, is a miss.
"""

# os.path over str paths throughout: the key stats every file of the tree on every run,
# where pathlib would cost several times as much.
# ruff: noqa: PTH109, PTH110, PTH116, PTH117, PTH118, PTH120

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
import time
from pathlib import Path
from typing import NamedTuple

from evaltools.blake2 import blake2b
from evaltools.fileio import UsageError, discover, display_path, real_path, walk_files
from evaltools.retrieval.code.definition_cache import DB_NAME, RACY_SECONDS, DefinitionCache
from evaltools.retrieval.sources import git

# The files the cache folder holds (`definition_cache`), left out of the key when it is
# below the root. None of them can be read by a check (no grammar reads these suffixes, so
# they are no candidates); only an ID that names one of them by its file name could see
# them (a missing file's namesakes are candidates), and then nothing is stored.
OWN_FILES = frozenset(
    [".gitignore", "CACHEDIR.TAG", *(DB_NAME + s for s in ("", "-wal", "-shm", "-journal"))]
)
# Bump when what `gold check` prints for the same inputs changes without a release.
RESULTS_VERSION = 1
PREFIX = f"goldcheck{RESULTS_VERSION}:"
STDIN = "-"
# Paths below a repository's git directory that change its history or rename detection
# without moving HEAD (`index` only for the work tree: `git diff HEAD` reads it).
_GIT_FILES = (
    "shallow",
    "packed-refs",
    "info/grafts",
    "objects/info/alternates",
    "info/attributes",
    "refs/replace",
)


class Outcome(NamedTuple):
    """What a check printed and how it ended."""

    stdout: str
    stderr: str
    code: int


class _State(NamedTuple):
    digest: str
    racy: bool
    walked: list[str]  # the walk's files, relative to the root
    folders: set[str]  # real absolute paths of the folders the key covers
    mounts: list[str]  # repository tops, real absolute paths


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

    def __init__(self, cache: DefinitionCache, request: _Request, state: _State) -> None:
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
        if any(_outside_signature(path) != sig for path, sig in entry.files):
            return None
        if any(_has_git(folder) != has for folder, has in entry.folders):
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
        again = _state_of(self._request)
        if entry is None or again is None or again.digest != state.digest or again.racy:
            return
        self._cache.put_values({self._request.row: _encode(entry)})

    def _entry(self, outcome: Outcome, repairable: bool) -> _Entry | None:
        request, state = self._request, self._state
        if any(path.rpartition("/")[2] in OWN_FILES for path in self.watch.paths):
            return None
        racy_after = request.started - int(RACY_SECONDS * 1e9)
        files: list[tuple[str, str]] = []
        folders: dict[str, bool] = {}
        try:
            wanted, read = self._looked_at()
        except git.GitError:
            return None
        for path in sorted(wanted):
            if read:  # at --rev no file of the work tree is read: only its mount counts
                if _signature(path)[1] >= racy_after:
                    return None
                files.append((path, _outside_signature(path)))
            parent = os.path.dirname(path)
            # The folders that decide its mount (`CodeTree.mount`).
            while parent.startswith(request.root_real + os.sep) and parent not in state.folders:
                folders[parent] = _has_git(parent)
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


class _Request:
    """One invocation: what it names, and when its key was first taken (nanoseconds)."""

    def __init__(
        self, sets: list[Path], root: Path, rev: str | None, output_format: str, cache_dir: Path
    ) -> None:
        self.sets, self.root, self.rev = sets, root, rev
        self.root_real = os.path.realpath(root)
        self.cache_real = os.path.realpath(cache_dir)
        self.started = time.time_ns()
        invocation = [os.getcwd(), str(root), self.root_real, rev, output_format]
        invocation += [str(p) for p in sets]
        self.row = PREFIX + _digest(json.dumps(invocation, ensure_ascii=False))


def open_results(
    cache_dir: Path | None,
    paths: list[Path],
    *,
    root: Path | None,
    rev: str | None,
    metas: Path | None,
    output_format: str,
) -> ResultCache | None:
    """The result cache for this invocation, or None when its key cannot be taken (no
    cache, stdin, --metas, no root, a set that is not a plain file, git refusing)."""
    if cache_dir is None or root is None or metas is not None:
        return None
    if any(str(p) == STDIN for p in paths) or not paths:
        return None
    request = _Request(paths, root, rev, output_format, cache_dir)
    state = _state_of(request)
    if state is None:
        return None
    return ResultCache(DefinitionCache(cache_dir), request, state)


def _state_of(request: _Request) -> _State | None:
    """The key's state, now: None when some part of it cannot be taken."""
    racy_after = request.started - int(RACY_SECONDS * 1e9)
    parts: list[str] = [*_versions(), request.row, display_path(request.root)]
    # Git answers while the tree is walked and stat'ed (its processes run beside this one).
    probes: list[_GitProbe] = []
    try:
        probes.append(_GitProbe(request.root, request.rev, toplevel=True))
        sets = discover(request.sets, (".jsonl",), what="eval sets")
        unique = {real_path(p): p for p in sets}
        for path in unique.values():
            if not stat.S_ISREG(os.stat(path).st_mode):
                return None  # a FIFO would block; the check reports it
            parts += [display_path(path), blake2b(path.read_bytes()).hexdigest()]
        names, _ = walk_files(request.root, None)
        folders = _folders(request.root_real, names)
        mounts = [f for f in sorted(folders) if f != request.root_real and _has_git(f)]
        probes += [_GitProbe(Path(top), request.rev) for top in mounts]
        racy = _tree(request, names, folders, parts, racy_after)
        top = probes[0].toplevel()
        if top is None:
            probes.pop(0)
        else:
            mounts.insert(0, top)
        parts.append(f"mounts\0{mounts}")
        for probe in probes:
            racy |= probe.state(parts, racy_after)
    except (OSError, UsageError, git.GitError):
        return None
    finally:
        for probe in probes:
            probe.close()
    return _State(_digest("\0".join(parts)), racy, names, folders, mounts)


def _folders(root: str, names: list[str]) -> set[str]:
    """The folders holding the walk's files, and those right below the root (where
    `CodeTree` looks for repositories at --rev)."""
    folders = {root}
    for name in names:
        folders.add(f"{root}/{name.rpartition('/')[0]}".rstrip("/"))
    with os.scandir(root) as entries:  # `CodeTree` follows links there
        folders.update(e.path for e in entries if e.is_dir())
    return folders


def _tree(
    request: _Request, names: list[str], folders: set[str], parts: list[str], racy_after: int
) -> bool:
    """Add every walked file's stat to `parts`, and each folder's `.git` and
    `.gitattributes`. The cache's own files are left out when the cache folder is below
    the root: they change with every run (see `OWN_FILES`)."""
    root = request.root_real
    folder = os.path.relpath(request.cache_real, root)
    inside = not (folder == "." or folder.startswith("../") or os.path.isabs(folder))
    own = {f"{folder}/{name}" for name in OWN_FILES} if inside else set()
    newest = 0
    lstat = os.lstat
    # At --rev the work tree's files are not read (only its folders' repositories count).
    for name in names if request.rev is None else ():
        path = f"{root}/{name}"
        if name in own:
            continue
        try:
            st = lstat(path)
        except OSError:
            parts.append(f"{name}\0-")
            continue
        if stat.S_ISLNK(st.st_mode):
            sig, link_newest = _signature(path)
            parts.append(f"{name}\0{sig}")
            newest = max(newest, link_newest)
            continue
        parts.append(
            f"{name}\0{st.st_mode}:{st.st_size}:{st.st_mtime_ns}:{st.st_ctime_ns}:"
            f"{st.st_ino}:{st.st_dev}"
        )
        newest = max(newest, st.st_mtime_ns, st.st_ctime_ns)
    for folder in sorted(folders):
        sig, attributes_newest = _signature(os.path.join(folder, ".gitattributes"))
        newest = max(newest, attributes_newest)
        real = os.path.realpath(folder)  # a repository's folder may lead out of the root
        parts.append(f"{folder}\0{real}\0{_has_git(folder)}\0{sig}")
    return newest >= racy_after


class _GitProbe:
    """What decides a repository's history and renames, asked of git while the tree is
    walked: its folders and HEAD (one rev-parse), its config, --rev's commit."""

    def __init__(self, where: Path, rev: str | None, *, toplevel: bool = False) -> None:
        self.where, self.rev, self._lines = where, rev, 3 if toplevel else 2
        info = ["rev-parse", *(["--show-toplevel"] if toplevel else [])]
        # HEAD as `git.resolve_commit` asks for it: exit 1 (after the folders) when it
        # names no commit yet.
        info += ["--absolute-git-dir", "--git-common-dir", *_resolve("HEAD")[1:]]
        self._runs = [self._start(info)]
        self._outputs: list[tuple[int, bytes]] = []
        if not toplevel:  # a repository for sure: ask the rest at once
            self._start_rest()

    def _start(self, args: list[str]) -> subprocess.Popen[bytes]:
        return git.start_git(self.where, args, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)

    def _start_rest(self) -> None:
        self._runs.append(self._start(["config", "--list", "-z"]))
        if self.rev is not None:
            self._runs.append(self._start(_resolve(self.rev)))

    def close(self) -> None:
        """Reap the processes (killed first when their answers were not needed)."""
        for run in self._runs[len(self._outputs) :]:
            run.kill()
            run.communicate()

    def _result(self, index: int) -> tuple[int, bytes]:
        while len(self._outputs) <= index:
            run = self._runs[len(self._outputs)]
            out = run.communicate()[0]
            self._outputs.append((run.returncode, out))
        return self._outputs[index]

    def toplevel(self) -> str | None:
        """The work tree holding `where` (as `git.toplevel`), or None outside any."""
        code, out = self._result(0)
        lines = os.fsdecode(out).splitlines()
        if code not in (0, 1) or len(lines) < self._lines or not lines[0]:
            return None
        if len(self._runs) == 1:
            self._start_rest()
        return os.path.realpath(lines[0])

    def state(self, parts: list[str], racy_after: int) -> bool:
        """Add the repository's state to `parts`; whether any of it is racy."""
        (info_code, info), (config_code, config) = self._result(0), self._result(1)
        lines = os.fsdecode(info).splitlines()
        if info_code not in (0, 1) or len(lines) < self._lines or config_code != 0:
            raise git.GitError(f"git refused {self.where}")
        git_dir, common = lines[self._lines - 2 : self._lines]
        head = lines[self._lines] if info_code == 0 else "None"  # None: no commit yet
        common = os.path.join(self.where, common)
        parts += [git_dir, common, head, _digest(os.fsdecode(config))]
        if self.rev is not None:
            code, out = self._result(2)
            if code != 0:
                raise git.GitError(self.rev)  # the check says why
            parts.append(out.decode("ascii").strip())
        watched = [os.path.join(common, name) for name in _GIT_FILES]
        if self.rev is None:
            watched.append(os.path.join(git_dir, "index"))
        newest = 0
        for path in watched:
            sig, path_newest = _signature(path)
            newest = max(newest, path_newest)
            parts.append(sig)
        return newest >= racy_after


def _resolve(rev: str) -> list[str]:
    """The arguments of `git.resolve_commit`'s rev-parse."""
    return ["rev-parse", "--verify", "--quiet", "--end-of-options", f"{rev}^{{commit}}"]


def _versions() -> list[str]:
    from evaltools import __version__
    from evaltools.retrieval.code.definition_cache import version_tag
    from evaltools.retrieval.code.grammars import GRAMMARS

    parts = [PREFIX, __version__, sys.version, *map(version_tag, sorted(GRAMMARS))]
    package = os.path.dirname(os.path.dirname(os.path.dirname(__file__)))
    for folder, dirnames, filenames in os.walk(package):
        dirnames[:] = sorted(d for d in dirnames if d != "__pycache__")
        for name in sorted(filenames):
            if name.endswith(".py"):
                st = os.stat(os.path.join(folder, name))
                parts.append(f"{folder}/{name}:{st.st_size}:{st.st_mtime_ns}")
    return parts


def _signature(path: str) -> tuple[str, int]:
    """The lstat of `path` (a link: with where it leads and its target's stat), and the
    newest of its times; "-" and 0 when there is nothing there."""
    try:
        st = os.lstat(path)
    except (OSError, ValueError):
        return "-", 0
    sig = f"{st.st_mode}:{st.st_size}:{st.st_mtime_ns}:{st.st_ctime_ns}:{st.st_ino}:{st.st_dev}"
    newest = max(st.st_mtime_ns, st.st_ctime_ns)
    if stat.S_ISLNK(st.st_mode):
        target, target_newest = _signature(os.path.realpath(path))
        sig += f" -> {os.path.realpath(path)} {target}"
        newest = max(newest, target_newest)
    return sig, newest


def _outside_signature(path: str) -> str:
    """A path outside the walk: its signature, and where its folder really is (a link
    out of the root is no file of the tree: `CodeTree.outside`)."""
    return f"{_signature(path)[0]} in {os.path.realpath(os.path.dirname(path))}"


def _has_git(folder: str) -> bool:
    return os.path.exists(os.path.join(folder, ".git"))  # as CodeTree.mount


def _digest(text: str) -> str:
    return blake2b(text.encode("utf-8", "surrogatepass"), digest_size=20).hexdigest()


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
