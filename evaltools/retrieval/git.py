"""Git plumbing for gold checks: blobs at a revision, tracked files, rename evidence.

Nothing here checks anything out or touches the index: blobs come from one long-lived
`git cat-file --batch` process and renames from `git log`/`git diff` rename detection.
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import threading
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import IO


class GitError(Exception):
    """Git is missing, or refused a command (unknown revision, not a repository)."""


def _env() -> dict[str, str]:
    env = dict(os.environ)
    # Output is parsed: no pager, no translated messages, no prompts.
    env.update({"GIT_PAGER": "cat", "LC_ALL": "C", "GIT_TERMINAL_PROMPT": "0"})
    env.pop("GIT_DIR", None)
    env.pop("GIT_WORK_TREE", None)
    env.pop("GIT_INDEX_FILE", None)
    return env


def run_git(repo: Path, *args: str) -> bytes:
    try:
        proc = subprocess.run(
            ["git", "-C", str(repo), *args],
            capture_output=True,
            env=_env(),
            check=False,
        )
    except OSError as exc:
        raise GitError(f"cannot run git: {exc}") from exc
    if proc.returncode != 0:
        message = proc.stderr.decode("utf-8", "replace").strip().splitlines()
        detail = message[-1] if message else f"exit code {proc.returncode}"
        raise GitError(f"git {args[0]} failed in {repo}: {detail}")
    return proc.stdout


def toplevel(path: Path) -> Path | None:
    """The work tree root of the repository holding `path`, or None outside any."""
    try:
        out = run_git(path, "rev-parse", "--show-toplevel")
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
    except GitError:
        return None
    return out.decode("ascii").strip() or None


def list_files(repo: Path, rev: str | None) -> list[str]:
    """Paths (POSIX, repository-relative) tracked at `rev`, or in the index for the work tree."""
    if rev is None:
        out = run_git(repo, "ls-files", "-z", "--cached")
    else:
        out = run_git(repo, "ls-tree", "-r", "-z", "--name-only", "--end-of-options", rev)
    return [os.fsdecode(p) for p in out.split(b"\0") if p]


class BlobReader:
    """Blobs by `rev:path` through one `git cat-file --batch` process."""

    def __init__(self, repo: Path) -> None:
        try:
            self._proc = subprocess.Popen(
                ["git", "-C", str(repo), "cat-file", "--batch"],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
                env=_env(),
            )
        except OSError as exc:
            raise GitError(f"cannot run git: {exc}") from exc
        self._stdin: IO[bytes] = self._proc.stdin  # type: ignore[assignment]
        self._stdout: IO[bytes] = self._proc.stdout  # type: ignore[assignment]

    def __enter__(self) -> BlobReader:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    def close(self) -> None:
        if self._proc.poll() is None:
            with contextlib.suppress(OSError):  # the process died first
                self._stdin.close()
            self._proc.wait()
        self._stdout.close()

    def read(self, rev: str, path: str) -> bytes | None:
        """The blob at `rev:path`; None when there is none (or it is not a file)."""
        return next(self.read_many(rev, [path]))[1]

    def read_many(self, rev: str, paths: Iterable[str]) -> Iterator[tuple[str, bytes | None]]:
        """Blobs in request order; requests are written by a thread so neither pipe stalls."""
        wanted = list(paths)
        for path in wanted:
            if "\n" in path:
                raise GitError(f"cannot read a path holding a newline through git: {path!r}")
        writer = threading.Thread(target=self._write_requests, args=(rev, wanted), daemon=True)
        writer.start()
        try:
            for path in wanted:
                yield path, self._read_response()
        finally:
            writer.join()

    def _write_requests(self, rev: str, paths: list[str]) -> None:
        try:
            for path in paths:
                self._stdin.write(f"{rev}:{path}\n".encode("utf-8", "surrogateescape"))
            self._stdin.flush()
        except (BrokenPipeError, ValueError):  # pragma: no cover - reader reports it
            pass

    def _read_response(self) -> bytes | None:
        header = self._stdout.readline()
        if not header:
            raise GitError("git cat-file stopped answering")
        fields = header.split()
        if len(fields) < 3 or fields[-2] in (b"missing", b"ambiguous"):
            return None
        size = int(fields[2])
        data = self._stdout.read(size + 1)[:size]  # each blob is followed by a newline
        return data if fields[1] == b"blob" else None


@dataclass(frozen=True)
class Rename:
    """`old` became `new` in `commit` (None: uncommitted work tree change)."""

    old: str
    new: str
    commit: str | None
    similarity: int


def rename_history(repo: Path, target: str | None, since: str | None = None) -> list[Rename]:
    """Every rename git detects between `since` (or the first commit) and `target`, oldest first.

    `target` None means the work tree: the history to HEAD plus what is renamed but not
    committed yet (`git mv` staged, or a rename git sees against HEAD).
    """
    head = target if target is not None else "HEAD"
    renames: list[Rename] = []
    if resolve_commit(repo, head) is None:
        return renames
    span = head if since is None else f"{since}..{head}"
    out = run_git(
        repo,
        "log",
        "-z",
        "-M",
        "--name-status",
        "--diff-filter=R",
        "--reverse",
        "--format=%x01%H",
        "--end-of-options",
        span,
        "--",
    )
    renames.extend(parse_name_status(out))
    if target is None:
        out = run_git(repo, "diff", "-z", "-M", "--name-status", "--diff-filter=R", "HEAD", "--")
        renames.extend(parse_name_status(out))
    return renames


def parse_name_status(out: bytes) -> Iterator[Rename]:
    """Renames in `-z --name-status` output; commits are marked by `\\x01<hash>`."""
    tokens = out.split(b"\0")
    commit: str | None = None
    i = 0
    while i < len(tokens):
        token = tokens[i].lstrip(b"\n")
        i += 1
        if token.startswith(b"\x01"):
            commit = token[1:].decode("ascii")
        elif token[:1] == b"R" and i + 1 < len(tokens):
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
