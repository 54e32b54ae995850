"""Reading a repository's history in one streaming pass: commits, changed lines, file contents.

One `git log -p -U0` process streams every commit with its diff; one `git cat-file --batch`
process (`git.BlobReader`) serves file contents. Two processes for the whole range, never one
per commit: that is what keeps mining 10,000 commits close to the cost of `git log -p` itself.
"""

from __future__ import annotations

import hashlib
import re
import subprocess
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO

from unidiff.errors import UnidiffParseError
from unidiff.patch import PatchSet

from evaltools.retrieval.code.spans import Hunk
from evaltools.retrieval.sources.git import (
    GitError,
    last_message,
    resolve_commit,
    run_git,
    start_git,
)

# A line starting with NUL never occurs in a diff, so it is a safe commit separator.
_FORMAT = "--format=%x00%H%x00%P%x00%s"
_INDEX = re.compile(r"^index ([0-9a-f]+)\.\.([0-9a-f]+)")
_NO_BLOB = re.compile(r"^0+$")
_LINK_OR_MODULE = ("120000", "160000")


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


def git_log_command(since: str | None, rev_range: str | None) -> list[str]:
    """The arguments after `git -C repo` that stream the range with its diffs."""
    if rev_range is not None and (not rev_range or rev_range.startswith("-")):
        raise GitError(f"--rev-range {rev_range!r} is not a revision range like A..B")
    command = [
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


def check_date(repo: Path, date: str) -> None:
    """GitError unless git understands `date` (as `--since` takes it).

    `git log --since` reads what it cannot parse as "now" and lists nothing, without a word;
    git's careful date parser (the one `git config --type=expiry-date` uses) says so instead.
    """
    try:
        run_git(
            repo, "-c", f"evaltools.since={date}", "config", "--type=expiry-date", "evaltools.since"
        )
    except GitError as exc:
        raise GitError(
            f"--since {date!r} is not a date git understands: write e.g. 2024-01-31 or "
            "'2 weeks ago'"
        ) from exc


def iter_commits(repo: Path, since: str | None, rev_range: str | None) -> Iterator[RawCommit]:
    """Every commit of the range, newest first (git log order), merges included (no diff)."""
    command = git_log_command(since, rev_range)
    if not repo.is_dir():
        raise GitError(f"--repo {repo}: not a directory")
    if since is not None:
        check_date(repo, since)
    with tempfile.TemporaryFile() as errors:
        # stderr to a file: a pipe could fill up and block git while we read stdout.
        process = start_git(repo, command, stdout=subprocess.PIPE, stderr=errors)
        assert process.stdout is not None
        try:
            yield from _split_commits(process.stdout)
        finally:
            process.stdout.close()
            code = process.wait()
        if code != 0:
            errors.seek(0)
            raise GitError(_log_failure(repo, rev_range, last_message(errors.read(), code)))


def _log_failure(repo: Path, rev_range: str | None, detail: str) -> str:
    """Why `git log` failed, in words for the likely cause rather than git's."""
    if rev_range is None and resolve_commit(repo, "HEAD") is None:
        try:
            run_git(repo, "rev-parse", "--git-dir")
        except GitError:
            pass  # not a repository at all: git's own message says so
        else:
            return f"{repo} has no commits yet: commit something, then mine it"
    return f"git log failed in {repo}: {detail}"


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
