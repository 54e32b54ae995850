"""What the writer refuses to replace, and the errors it raises: the rules of every write.

A read-only file is refused as `open(path, "w")` refuses it, though a rename would replace
it; a symbolic link is written through to its target; a device or FIFO is written into; a
rewritten file keeps its mode. The check that a file is still what the command read (a lost
update) is `install`'s, made at the rename.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from evaltools.catalogue.io import FILE_CHANGED, FILE_NOT_WRITTEN
from evaltools.diagnostics import Diagnostic, make


class WriteError(OSError):
    """A file was not written; `reason` says why (the file keeps its old bytes)."""

    def __init__(self, path: Path, reason: str) -> None:
        super().__init__(reason)
        self.path = path
        self.reason = reason

    def __str__(self) -> str:
        return f"{self.path}: {self.reason}"


class WriteFailed(WriteError):
    """The system refused the write (no space, read-only, no permission)."""


class FileChanged(WriteError):
    """The file is no longer what the command read: writing would lose an edit."""

    def __init__(self, path: Path) -> None:
        super().__init__(
            path, "file changed while evaltools was working on it; nothing was written, run again"
        )


class FileExists(WriteError):
    """A new file was asked for (`MISSING`) and the path is taken."""

    def __init__(self, path: Path) -> None:
        super().__init__(path, "file exists; pass --force to overwrite it")


def write_finding(error: WriteError, shown: str) -> Diagnostic:
    """The finding for a file that was not written (`shown`: its name as reported)."""
    if isinstance(error, FileChanged):
        return make(FILE_CHANGED, shown, 1, 1, error.reason)
    return make(FILE_NOT_WRITTEN, shown, 1, 1, f"{error.reason}; the file was left unchanged")


def through_links(path: Path) -> Path:
    """Where the bytes go: a symbolic link's final target (the link itself stays)."""
    if not path.is_symlink():
        return path
    try:
        return path.resolve()
    except (RuntimeError, OSError):  # a loop (RuntimeError before Python 3.13)
        return path


def is_stream(path: Path) -> bool:
    """An existing path that is neither a file nor a directory: a device such as /dev/null,
    or a FIFO. It is written to directly (and needs no --force: nothing in it is lost)."""
    try:
        mode = path.stat().st_mode
    except (OSError, ValueError):
        return False
    return not (stat.S_ISREG(mode) or stat.S_ISDIR(mode))


def mode_of(path: Path) -> int | None:
    try:
        return stat.S_IMODE(path.stat().st_mode)
    except FileNotFoundError:
        return None


def refuse(path: Path, target: Path) -> int | None:
    """Raise `WriteFailed` if `target` (`path` through its links) must not be replaced:
    the one rule for every output, since a rename would replace even a read-only file (only
    the folder's mode counts), where `open(path, "w")` would be refused. Else the mode bits
    of the file it replaces (None: a new file), which the new one keeps."""
    try:
        mode = os.stat(target).st_mode  # noqa: PTH116 (once per file of a conversion)
    except (OSError, ValueError):  # missing: a new file
        return None
    refused = _refusal(target, mode)
    if refused is not None:
        raise WriteFailed(path, refused)
    return stat.S_IMODE(mode)


def _refusal(target: Path, mode: int) -> str | None:
    """Why an existing `target` of mode `mode` must not be rewritten, or None.

    A file with no write bit for anyone (`chmod 444`) is refused from its mode bits, for
    root too: `os.access` says root may write anything, so a check by it alone let a
    root run rewrite a file its owner had marked read-only. Other files are refused when
    this user may not write them (another user's, a read-only file system)."""
    if stat.S_ISREG(mode) and not mode & (stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH):
        return (
            f"the file is read-only (mode {stat.S_IMODE(mode):04o}, no write permission for "
            "anyone): make it writable (chmod u+w) to let evaltools rewrite it"
        )
    if not os.access(target, os.W_OK):
        return _why_not_writable(target)
    return None


def _why_not_writable(target: Path) -> str:
    """The kernel's reason (a read-only file system, say), asked by opening without writing."""
    try:
        os.close(os.open(target, os.O_WRONLY | os.O_NONBLOCK))
    except OSError as exc:
        return why(exc)
    return "permission denied"


def why(exc: OSError) -> str:
    """The system's reason, as a clause (`no space left on device`)."""
    reason = exc.strerror or str(exc)
    return reason[:1].lower() + reason[1:]
