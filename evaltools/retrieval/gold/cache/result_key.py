"""The key of `result_cache`: everything a `gold check` result depends on, taken from the
tree, git and the installed code as they are now (see `result_cache` for why each part).
"""

# os.path over str paths throughout: the key stats every file of the tree on every run,
# where pathlib would cost several times as much.
# ruff: noqa: PTH109, PTH110, PTH116, PTH117, PTH118, PTH120

from __future__ import annotations

import json
import os
import stat
import subprocess
import time
from pathlib import Path
from typing import NamedTuple

from evaltools.blake2 import blake2b
from evaltools.config.evalfiles import discover_sets
from evaltools.discover import walk_files
from evaltools.fileio import UsageError, display_path, real_path
from evaltools.retrieval.code.cache_store import OWN_FILES, RACY_SECONDS, stat_signature
from evaltools.retrieval.code.definition_cache import code_versions
from evaltools.retrieval.sources import git

# The cache folder's own files (`OWN_FILES`) are left out of the key when it is below the
# root. None of them can be read by a check (no grammar reads these suffixes, so they are
# no candidates); only an ID that names one of them by its file name could see them (a
# missing file's namesakes are candidates), and then nothing is stored.

# Bump when what `gold check` prints for the same inputs changes without a release.
RESULTS_VERSION = 4  # 2: JSON objects carry every finding (kind, code, ...); 3: evidence;
# 4: a symbol gone from its file carries the caveat of missing history
PREFIX = f"goldcheck{RESULTS_VERSION}:"
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


class State(NamedTuple):
    digest: str
    racy: bool
    walked: list[str]  # the walk's files, relative to the root
    folders: set[str]  # real absolute paths of the folders the key covers
    mounts: list[str]  # repository tops, real absolute paths


class Request:
    """One invocation: what it names, and when its key was first taken (nanoseconds)."""

    def __init__(  # noqa: PLR0917 (what names one invocation)
        self,
        sets: list[Path],
        root: Path,
        rev: str | None,
        output_format: str,
        cache_dir: Path,
        selection: str = "",
    ) -> None:
        self.sets, self.root, self.rev = sets, root, rev
        self.root_real = os.path.realpath(root)
        self.cache_real = os.path.realpath(cache_dir)
        self.started = time.time_ns()
        invocation = [os.getcwd(), str(root), self.root_real, rev, output_format, selection]
        invocation += [str(p) for p in sets]
        self.row = PREFIX + digest(json.dumps(invocation, ensure_ascii=False))


def racy_after(request: Request) -> int:
    """The time (ns) from which a stat is too recent to be trusted (see cache_store)."""
    return request.started - int(RACY_SECONDS * 1e9)


def state_of(request: Request) -> State | None:
    """The key's state, now: None when some part of it cannot be taken."""
    newer_is_racy = racy_after(request)
    parts: list[str] = [PREFIX, *code_versions(), request.row, display_path(request.root)]
    # Git answers while the tree is walked and stat'ed (its processes run beside this one).
    probes: list[_GitProbe] = []
    try:
        probes.append(_GitProbe(request.root, request.rev, toplevel=True))
        sets = discover_sets(request.sets)
        unique = {real_path(p): p for p in sets}
        for path in unique.values():
            if not stat.S_ISREG(os.stat(path).st_mode):
                return None  # a FIFO would block; the check reports it
            parts += [display_path(path), blake2b(path.read_bytes()).hexdigest()]
        names = walk_files(request.root, None).names
        folders = _folders(request.root_real, names)
        mounts = [f for f in sorted(folders) if f != request.root_real and has_git(f)]
        probes += [_GitProbe(Path(top), request.rev) for top in mounts]
        racy = _tree(request, names, folders, parts, newer_is_racy)
        top = probes[0].toplevel()
        if top is None:
            probes.pop(0)
        else:
            mounts.insert(0, top)
        parts.append(f"mounts\0{mounts}")
        for probe in probes:
            racy |= probe.state(parts, newer_is_racy)
    except (OSError, UsageError, git.GitError):
        return None
    finally:
        for probe in probes:
            probe.close()
    return State(digest("\0".join(parts)), racy, names, folders, mounts)


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
    request: Request, names: list[str], folders: set[str], parts: list[str], racy_after: int
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
            sig, link_newest = signature(path)
            parts.append(f"{name}\0{sig}")
            newest = max(newest, link_newest)
            continue
        parts.append(f"{name}\0{st.st_mode}:{stat_signature(st)}")
        newest = max(newest, st.st_mtime_ns, st.st_ctime_ns)
    for folder in sorted(folders):
        sig, attributes_newest = signature(os.path.join(folder, ".gitattributes"))
        newest = max(newest, attributes_newest)
        real = os.path.realpath(folder)  # a repository's folder may lead out of the root
        parts.append(f"{folder}\0{real}\0{has_git(folder)}\0{sig}")
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
        parts += [git_dir, common, head, digest(os.fsdecode(config))]
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
            sig, path_newest = signature(path)
            newest = max(newest, path_newest)
            parts.append(sig)
        return newest >= racy_after


def _resolve(rev: str) -> list[str]:
    """The arguments of `git.resolve_commit`'s rev-parse."""
    return ["rev-parse", "--verify", "--quiet", "--end-of-options", f"{rev}^{{commit}}"]


def signature(path: str) -> tuple[str, int]:
    """The lstat of `path` (a link: with where it leads and its target's stat), and the
    newest of its times; "-" and 0 when there is nothing there."""
    try:
        st = os.lstat(path)
    except (OSError, ValueError):
        return "-", 0
    sig = f"{st.st_mode}:{stat_signature(st)}"
    newest = max(st.st_mtime_ns, st.st_ctime_ns)
    if stat.S_ISLNK(st.st_mode):
        real = os.path.realpath(path)
        try:
            target = os.stat(real)
        except (OSError, ValueError):  # dangling, or a loop (realpath stops at a link)
            return f"{sig} -> {real} -", newest
        sig += f" -> {real} {target.st_mode}:{stat_signature(target)}"
        newest = max(newest, target.st_mtime_ns, target.st_ctime_ns)
    return sig, newest


def outside_signature(path: str) -> str:
    """A path outside the walk: its signature, and where its folder really is (a link
    out of the root is no file of the tree: `CodeTree.outside`)."""
    return f"{signature(path)[0]} in {os.path.realpath(os.path.dirname(path))}"


def has_git(folder: str) -> bool:
    return os.path.exists(os.path.join(folder, ".git"))  # as CodeTree.mount


def digest(text: str) -> str:
    return blake2b(text.encode("utf-8", "surrogatepass"), digest_size=20).hexdigest()
