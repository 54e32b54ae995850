"""Reading a repository's history in one streaming pass: commits, changed lines, file contents.

One `git log -p -U0` process streams every commit with its diff; one `git cat-file --batch`
process serves file contents. Two processes for the whole range, never one per commit:
that is what keeps mining 10,000 commits close to the cost of `git log -p` itself.
"""

from __future__ import annotations

import hashlib
import os
import re
import subprocess
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from unidiff.errors import UnidiffParseError
from unidiff.patch import PatchSet

from evaltools.fileio import UsageError
from evaltools.retrieval.spans import Hunk

# A line starting with NUL never occurs in a diff, so it is a safe commit separator.
_FORMAT = "--format=%x00%H%x00%P%x00%s"
_INDEX = re.compile(r"^index ([0-9a-f]+)\.\.([0-9a-f]+)")
_NO_BLOB = re.compile(r"^0+$")
_LINK_OR_MODULE = ("120000", "160000")


def git_env() -> dict[str, str]:
    """The environment for git processes whose output is parsed.

    Untranslated messages, no pager or prompt, and none of the variables a git hook sets
    (GIT_DIR and friends would point every command at the hook's repository).
    """
    env = {k: v for k, v in os.environ.items() if k not in _HOOK_VARIABLES}
    env.update({"LC_ALL": "C", "GIT_PAGER": "cat", "GIT_TERMINAL_PROMPT": "0"})
    return env


_HOOK_VARIABLES = frozenset(
    {"GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_OBJECT_DIRECTORY", "GIT_PREFIX"}
)


def _start(command: list[str], **streams: Any) -> subprocess.Popen[bytes]:
    try:
        return subprocess.Popen(command, env=git_env(), **streams)
    except OSError as exc:
        raise UsageError(f"cannot run git: {exc}") from exc


@dataclass(frozen=True)
class RawCommit:
    sha: str
    parents: tuple[str, ...]
    subject: str
    diff: bytes


@dataclass
class FileChange:
    """A file as the commit left it, and the hunks that changed it.

    ``blob``/``old_blob``: the blob ids after and before, or None when the diff names none
    (a pure rename; a new file has no old blob). ``removed``: per hunk, the lines it took
    out of the old version (without line ends), which with the new version's text gives
    back the old one. ``old_ends_without_newline``/``new_...``: the diff's markers.
    """

    path: str
    blob: str | None
    old_blob: str | None = None
    hunks: list[Hunk] = field(default_factory=list)
    removed: list[list[bytes]] = field(default_factory=list)
    old_ends_without_newline: bool = False
    new_ends_without_newline: bool = False


def git_log_command(repo: Path, since: str | None, rev_range: str | None) -> list[str]:
    if rev_range is not None and (not rev_range or rev_range.startswith("-")):
        raise UsageError(f"--rev-range {rev_range!r} is not a revision range like A..B")
    command = [
        "git",
        "-C",
        str(repo),
        "-c",
        "core.quotePath=false",
        "log",
        "-p",
        "-U0",
        "-M",
        "--root",
        "--full-index",
        "--no-color",
        "--no-ext-diff",
        "--no-textconv",
        "--no-show-signature",
        "--src-prefix=a/",
        "--dst-prefix=b/",
        _FORMAT,
    ]
    if since is not None:
        command.append(f"--since={since}")
    command += [rev_range or "HEAD", "--"]
    return command


def iter_commits(repo: Path, since: str | None, rev_range: str | None) -> Iterator[RawCommit]:
    """Every commit of the range, newest first (git log order), merges included (no diff)."""
    if not repo.is_dir():
        raise UsageError(f"--repo {repo}: not a directory")
    with tempfile.TemporaryFile() as errors:
        # stderr to a file: a pipe could fill up and block git while we read stdout.
        process = _start(
            git_log_command(repo, since, rev_range), stdout=subprocess.PIPE, stderr=errors
        )
        assert process.stdout is not None
        try:
            yield from _split_commits(process.stdout)
        finally:
            process.stdout.close()
            code = process.wait()
        if code != 0:
            errors.seek(0)
            message = errors.read().decode("utf-8", "replace").strip().splitlines()
            detail = message[0] if message else f"exit code {code}"
            raise UsageError(f"git log failed in {repo}: {detail}")


def _split_commits(stream: IO[bytes]) -> Iterator[RawCommit]:
    """Commits from the stream, cut at the NUL that starts each header line.

    Cut in whole chunks rather than line by line: this loop sees every byte git writes.
    """
    pending = bytearray()
    while True:
        chunk = stream.read(1 << 16)
        if not chunk:
            break
        pending += chunk
        start = 0
        while True:
            cut = pending.find(b"\n\x00", start + 1)
            if cut < 0:
                break
            yield _commit(bytes(pending[start : cut + 1]))
            start = cut + 1
        del pending[:start]
    if pending:
        yield _commit(bytes(pending))


def _commit(block: bytes) -> RawCommit:
    header, _, diff = block.partition(b"\n")
    sha, parents, subject = header[1:].split(b"\x00", 2)
    return RawCommit(
        sha.decode("ascii"),
        tuple(parents.decode("ascii").split()),
        subject.decode("utf-8", "replace").strip(),
        diff,
    )


def file_changes(diff: bytes) -> list[FileChange] | None:
    """The text files a commit's diff leaves behind, with its hunks; None if unparsable.

    Deleted files, binaries, symlinks and submodules have no chunks, so they are left out.
    """
    # surrogateescape: removed lines must encode back to their exact bytes
    parts = diff.lstrip(b"\n").decode("utf-8", "surrogateescape").split("\n")
    if parts[-1] == "":
        parts.pop()
    try:
        patch = PatchSet([part + "\n" for part in parts])
    except UnidiffParseError:
        return None
    changes: list[FileChange] = []
    for patched in patch:
        if patched.is_removed_file or patched.is_binary_file:
            continue
        if patched.target_mode in _LINK_OR_MODULE:
            continue
        old_blob, new_blob = _blobs(patched.patch_info)
        change = FileChange(patched.path, new_blob, old_blob)
        for hunk in patched:
            change.hunks.append(
                (hunk.source_start, hunk.source_length, hunk.target_start, hunk.target_length)
            )
            removed: list[bytes] = []
            previous = ""
            for line in hunk:
                if line.is_removed:
                    removed.append(line.value.rstrip("\n").encode("utf-8", "surrogateescape"))
                elif line.line_type == "\\":
                    if previous == "-":
                        change.old_ends_without_newline = True
                    elif previous == "+":
                        change.new_ends_without_newline = True
                previous = line.line_type
            change.removed.append(removed)
        changes.append(change)
    return changes


def older_text(lines: list[bytes], change: FileChange) -> list[bytes] | None:
    """The old version's text (as ``content.split(b"\\n")``) from the new one and the diff.

    None unless the result hashes to the diff's old blob id: a text is used only when it is
    exactly the file git stored.
    """
    if change.old_blob is None or len(change.removed) != len(change.hunks):
        return None
    old = list(lines)
    if change.new_ends_without_newline:
        old.append(b"")
    for (_, _, target_start, target_length), removed in zip(
        reversed(change.hunks), reversed(change.removed), strict=True
    ):
        first = target_start - 1 if target_length else target_start
        old[first : first + target_length] = removed
    if change.old_ends_without_newline and old and old[-1] == b"":
        old.pop()
    content = b"\n".join(old)
    return old if blob_id(content, len(change.old_blob)) == change.old_blob else None


def blob_id(content: bytes, hex_length: int = 40) -> str:
    """Git's object id of a blob (SHA-1, or SHA-256 in repositories that use it)."""
    digest = hashlib.sha256() if hex_length == 64 else hashlib.sha1()
    digest.update(b"blob %d\0" % len(content))
    digest.update(content)
    return digest.hexdigest()


def _blobs(patch_info: list[str] | None) -> tuple[str | None, str | None]:
    for line in patch_info or ():
        match = _INDEX.match(line)
        if match:
            old, new = match.groups()
            return (None if _NO_BLOB.match(old) else old), (None if _NO_BLOB.match(new) else new)
    return None, None


class BlobReader:
    """File contents through one long-running `git cat-file --batch`."""

    def __init__(self, repo: Path) -> None:
        self._process = _start(
            ["git", "-C", str(repo), "cat-file", "--batch"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
        )

    def read(self, name: str) -> bytes | None:
        """The blob that `name` (an object id or `commit:path`) names, or None."""
        if "\n" in name:
            return None
        process = self._process
        assert process.stdin is not None and process.stdout is not None
        process.stdin.write(name.encode("utf-8") + b"\n")
        process.stdin.flush()
        header = process.stdout.readline().split()
        if len(header) != 3:
            # `<name> missing` or `<name> ambiguous`
            return None
        size = int(header[2])
        data = process.stdout.read(size)
        process.stdout.read(1)
        return data if header[1] == b"blob" else None

    def close(self) -> None:
        assert self._process.stdin is not None
        self._process.stdin.close()
        if self._process.stdout is not None:
            self._process.stdout.close()
        self._process.wait()

    def __enter__(self) -> BlobReader:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
