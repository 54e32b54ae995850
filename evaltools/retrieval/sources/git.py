"""Git plumbing for gold check and gold mine: every git process this package starts.

One environment for all of them (`git_env`), blobs through one long-lived
`git cat-file --batch` process (`BlobReader`), tracked files, and rename evidence from
`git log`/`git diff` rename detection. Nothing here checks anything out or touches the index.
Failures are `GitError`; the commands turn them into usage errors.
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import threading
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import IO, Any, NamedTuple

from evaltools.parallel.closing import Closing


class GitError(Exception):
    """Git is missing, or refused a command (unknown revision, not a repository)."""


class GitRefused(GitError):
    """Git refuses to read a repository at all (another user's: "dubious ownership"). Never
    taken for "no repository here": every verdict that reads history would change."""


# What `git rev-parse --local-env-vars` lists: the variables that tie git to one repository.
# A git hook runs with some of them set (GIT_DIR, GIT_INDEX_FILE, GIT_PREFIX, ...); inherited,
# they would point every command at the hook's repository, whatever `-C` names.
REPOSITORY_VARIABLES = frozenset(
    {
        "GIT_ALTERNATE_OBJECT_DIRECTORIES",
        "GIT_CONFIG",
        "GIT_CONFIG_PARAMETERS",
        "GIT_CONFIG_COUNT",
        "GIT_OBJECT_DIRECTORY",
        "GIT_DIR",
        "GIT_WORK_TREE",
        "GIT_IMPLICIT_WORK_TREE",
        "GIT_GRAFT_FILE",
        "GIT_INDEX_FILE",
        "GIT_NO_REPLACE_OBJECTS",
        "GIT_REPLACE_REF_BASE",
        "GIT_PREFIX",
        "GIT_INTERNAL_SUPER_PREFIX",
        "GIT_SHALLOW_FILE",
        "GIT_COMMON_DIR",
        "GIT_QUARANTINE_PATH",
    }
)


def git_env() -> dict[str, str]:
    """The environment of git processes whose output is parsed: untranslated messages, no
    pager or prompt, and none of the variables that would pick another repository."""
    env = {k: v for k, v in os.environ.items() if k not in REPOSITORY_VARIABLES}
    env.update({"LC_ALL": "C", "GIT_PAGER": "cat", "GIT_TERMINAL_PROMPT": "0"})
    return env


def start_git(repo: Path, args: Sequence[str], **streams: Any) -> subprocess.Popen[bytes]:
    """`git -C repo ARGS...` started, its streams as `subprocess.Popen` takes them."""
    try:
        return subprocess.Popen(["git", "-C", str(repo), *args], env=git_env(), **streams)
    except (OSError, ValueError) as exc:  # ValueError: an argument holds a NUL
        raise GitError(f"cannot run git: {exc}") from exc


def run_git(repo: Path, *args: str) -> bytes:
    """The output of `git -C repo ARGS...`; GitError with git's last word when it fails."""
    try:
        proc = subprocess.run(
            ["git", "-C", str(repo), *args], capture_output=True, env=git_env(), check=False
        )
    except (OSError, ValueError) as exc:
        raise GitError(f"cannot run git: {exc}") from exc
    if proc.returncode != 0:
        if b"dubious ownership" in proc.stderr:
            raise GitRefused(
                f"git refuses to read the repository holding {repo.absolute()}: it "
                'belongs to another user ("dubious ownership"), so no verdict could be '
                "trusted; run as its owner, or trust it with "
                "`git config --global --add safe.directory PATH`"
            )
        raise GitError(
            f"git {args[0]} failed in {repo}: {last_message(proc.stderr, proc.returncode)}"
        )
    return proc.stdout


def last_message(stderr: bytes, code: int) -> str:
    """The line of git's error output that says why (git prints it last)."""
    lines = stderr.decode("utf-8", "replace").strip().splitlines()
    return lines[-1] if lines else f"exit code {code}"


def toplevel(path: Path) -> Path | None:
    """The work tree root of the repository holding `path`, or None outside any."""
    try:
        out = run_git(path, "rev-parse", "--show-toplevel")
    except GitRefused:
        raise
    except GitError:
        return None
    text = out.decode("utf-8", "surrogateescape").strip()
    return Path(text) if text else None


def resolve_commit(repo: Path, rev: str) -> str | None:
    """The full commit id that `rev` names in `repo`, or None if it names none."""
    try:
        out = run_git(
            repo, "rev-parse", "--verify", "--quiet", "--end-of-options", f"{rev}^{{commit}}"
        )
    except GitRefused:
        raise
    except GitError:
        return None
    return out.decode("ascii").strip() or None


# What to do when a clone's history is too short for a verdict.
FETCH_HISTORY = (
    "fetch the full history (`git fetch --unshallow`; in CI, `fetch-depth: 0` for "
    "actions/checkout) and check again"
)


def is_shallow(repo: Path) -> bool:
    """The repository is a shallow clone (`git clone --depth`): its history stops at the
    commits listed in `.git/shallow`, so renames and revisions before them are unknown."""
    try:
        out = run_git(repo, "rev-parse", "--is-shallow-repository")
    except GitError:
        return False
    return out.strip() == b"true"


def shallow_edge(repo: Path) -> frozenset[str]:
    """The commits a shallow clone's history stops at (listed in its `shallow` file), which
    git shows without their parents; empty for a full clone."""
    if not is_shallow(repo):
        return frozenset()
    try:
        out = run_git(repo, "rev-parse", "--git-path", "shallow")
        where = repo / out.decode("utf-8", "surrogateescape").strip()
        return frozenset(where.read_text("ascii").split())
    except (GitError, OSError, UnicodeDecodeError):
        return frozenset()


def is_ancestor(repo: Path, ancestor: str, descendant: str) -> bool:
    """`ancestor` is reachable from `descendant` through the commits the repository has."""
    try:
        run_git(repo, "merge-base", "--is-ancestor", ancestor, descendant)
    except GitError:
        return False
    return True


def list_files(repo: Path, rev: str | None) -> list[str]:
    """Paths (POSIX, repository-relative) tracked at `rev`, or in the index for the work tree."""
    if rev is None:
        out = run_git(repo, "ls-files", "-z", "--cached")
    else:
        out = run_git(repo, "ls-tree", "-r", "-z", "--name-only", "--end-of-options", rev)
    return [os.fsdecode(p) for p in out.split(b"\0") if p]


def changed_from_head(repo: Path) -> frozenset[str]:
    """Paths (repository-relative) whose content in the index or the work tree is not HEAD's:
    modified, staged, added or deleted (untracked files are not listed: `list_files` at
    HEAD tells them apart)."""
    out = run_git(repo, "diff", "-z", "--no-renames", "--no-ext-diff", "--name-only", "HEAD", "--")
    return frozenset(os.fsdecode(p) for p in out.split(b"\0") if p)


def list_links(repo: Path, rev: str) -> list[str]:
    """Paths tracked at `rev` as symbolic links (mode 120000): their blob is the link's
    target, a path, not the content of a file."""
    out = run_git(repo, "ls-tree", "-r", "-z", "--end-of-options", rev)
    links: list[str] = []
    for entry in out.split(b"\0"):
        meta, _, path = entry.partition(b"\t")
        if meta.startswith(b"120000 "):
            links.append(os.fsdecode(path))
    return links


def blob_ids(repo: Path, rev: str) -> dict[str, str]:
    """Path -> blob id of the regular files tracked at `rev` (not links, not submodules):
    the content's name, so what was computed from a blob can be kept under it."""
    out = run_git(repo, "ls-tree", "-r", "-z", "--end-of-options", rev)
    found: dict[str, str] = {}
    for entry in out.split(b"\0"):
        meta, _, path = entry.partition(b"\t")
        mode, kind, oid = [*meta.split(b" "), b"", b""][:3]
        if kind == b"blob" and mode in (b"100644", b"100755"):
            found[os.fsdecode(path)] = oid.decode("ascii")
    return found


class BlobReader(Closing):
    """Blobs through one `git cat-file --batch` process, by object name: a blob id, or
    `rev:path`. A name that names no blob (missing, a tree, or holding a newline, which
    would end the request early) reads as None."""

    def __init__(self, repo: Path) -> None:
        self._proc = start_git(
            repo,
            ["cat-file", "--batch"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
        )
        self._stdin: IO[bytes] = self._proc.stdin  # type: ignore[assignment]
        self._stdout: IO[bytes] = self._proc.stdout  # type: ignore[assignment]

    def close(self) -> None:
        # Closed even when git is gone: an unflushed request would otherwise fail again,
        # unseen, when the pipe is collected.
        with contextlib.suppress(OSError):  # the process died first
            self._stdin.close()
        self._proc.wait()
        self._stdout.close()

    def read(self, name: str) -> bytes | None:
        """The blob `name` names, or None. One request, answered before the next."""
        if "\n" in name:
            return None
        try:
            self._stdin.write(_request(name))
            self._stdin.flush()
        except OSError as exc:
            raise GitError("git cat-file stopped answering") from exc
        return self._read_response()

    def read_many(self, rev: str, paths: Iterable[str]) -> Iterator[tuple[str, bytes | None]]:
        """The blobs of `rev:path`, in request order. Requests are written by a thread, so
        that neither pipe fills up while the other waits."""
        wanted = list(paths)
        names = [f"{rev}:{path}" for path in wanted if "\n" not in path]
        writer = threading.Thread(target=self._write_requests, args=(names,), daemon=True)
        writer.start()
        try:
            for path in wanted:
                yield path, (None if "\n" in path else self._read_response())
        finally:
            writer.join()

    def _write_requests(self, names: list[str]) -> None:
        try:
            self._stdin.write(b"".join(map(_request, names)))
            self._stdin.flush()
        except (OSError, ValueError):  # pragma: no cover - the reader reports it
            pass

    def _read_response(self) -> bytes | None:
        header = self._stdout.readline()
        if not header:
            raise GitError("git cat-file stopped answering")
        # `<name> missing`: the name may hold spaces, so it is told by its end.
        fields = header.split()
        if len(fields) != 3 or header.endswith((b" missing\n", b" ambiguous\n")):
            return None
        size = int(fields[2])
        data = self._stdout.read(size)
        self._stdout.read(1)  # the newline after the content
        return data if fields[1] == b"blob" else None


def _request(name: str) -> bytes:
    # surrogateescape: a path git gave us as undecodable bytes goes back as the same bytes
    return name.encode("utf-8", "surrogateescape") + b"\n"


class Rename(NamedTuple):
    """`old` became `new` in `commit` (None: uncommitted work tree change)."""

    old: str
    new: str
    commit: str | None
    similarity: int


def rename_history(
    repo: Path, target: str | None, since: str | None = None, *, copies: bool = False
) -> list[Rename]:
    """Every rename git detects between `since` (or the first commit) and `target`, oldest first.

    `target` None means the work tree: the history to HEAD plus what is renamed but not
    committed yet (`git mv` staged, or a rename git sees against HEAD). With `copies`, also
    every copy (`-C`): a file moved elsewhere whose old path was re-created (as a thin shell
    that imports the moved code) is a copy to git, not a rename.
    """
    detect = ("-M", "-C", "--diff-filter=RC") if copies else ("-M", "--diff-filter=R")
    head = target if target is not None else "HEAD"
    renames: list[Rename] = []
    if resolve_commit(repo, head) is None:
        return renames
    span = head if since is None else f"{since}..{head}"
    out = run_git(
        repo,
        "log",
        "-z",
        *detect,
        "--name-status",
        "--reverse",
        "--format=%x01%H",
        "--end-of-options",
        span,
        "--",
    )
    renames.extend(parse_name_status(out))
    if target is None:
        out = run_git(repo, "diff", "-z", *detect, "--name-status", "HEAD", "--")
        renames.extend(parse_name_status(out))
    return renames


def parse_name_status(out: bytes) -> Iterator[Rename]:
    """Renames (and copies) in `-z --name-status` output; commits are marked by `\\x01<hash>`."""
    tokens = out.split(b"\0")
    commit: str | None = None
    i = 0
    while i < len(tokens):
        token = tokens[i].lstrip(b"\n")
        i += 1
        if token.startswith(b"\x01"):
            commit = token[1:].decode("ascii")
        elif token[:1] in (b"R", b"C") and i + 1 < len(tokens):
            similarity = int(token[1:] or b"0")
            old, new = os.fsdecode(tokens[i]), os.fsdecode(tokens[i + 1])
            i += 2
            yield Rename(old, new, commit, similarity)


def rename_targets(renames: list[Rename], path: str) -> list[str]:
    """Where `path` went: each chain of renames that starts by renaming `path`, to its end.

    A chain follows the file through later renames only (history order), so a path that
    was reused after being renamed away is not confused with its successor.
    """
    later: dict[str, list[int]] = {}
    for index, rename in enumerate(renames):
        later.setdefault(rename.old, []).append(index)
    ends: list[str] = []
    for index in later.get(path, []):
        current, position = renames[index].new, index
        while True:
            following = [i for i in later.get(current, []) if i > position]
            if not following:
                break
            position = following[0]
            current = renames[position].new
        if current not in ends:
            ends.append(current)
    return ends
