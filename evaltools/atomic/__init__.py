"""Writing files whole or not at all, and never over an edit saved meanwhile.

The one writer every command uses, with its refusal rules in one place:

* the new bytes go to a temporary file beside the target (`temps`), fsync'ed, then
  renamed onto it: a reader sees the old file or the new one;
* an existing file with no write bit for anyone is refused, as `open(path, "w")` refuses
  it (`rules.refuse`), for every output: a rename alone would replace it;
* a rewrite compares the file with the bytes the command read (`expect`) before the
  rename and, on the file the rename replaced, after it (`install`): if it changed, the
  edit is put back and `FileChanged` raised; `expect=MISSING` asks for a file no one else
  created meanwhile;
* files that belong together are written all or none (`WriteSet`);
* a command whose output takes long to compute asks `preflight` first: the same refusals,
  before the work rather than after it;
* a symbolic link is written through (its target gets the bytes, the link stays); a
  device or FIFO is written into, not replaced;
* a new file gets the mode the umask gives; a rewritten one keeps its mode.

Any other failure (a full disk, a read-only file system) raises `WriteFailed`. Either way
no temporary file is left and the target keeps its old bytes.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from pathlib import Path
from types import TracebackType
from typing import BinaryIO

from evaltools.atomic.install import MISSING, Changed, Expect, Placed, put, settle, undo
from evaltools.atomic.rules import (
    FileChanged,
    FileExists,
    WriteError,
    WriteFailed,
    is_stream,
    mode_of,
    refuse,
    through_links,
    why,
    write_finding,
)
from evaltools.atomic.temps import (
    GITIGNORE_PATTERN,
    create_beside,
    is_evaltools_temp,
    remove_stale_temps,
    spool,
    temp_prefix,
)

__all__ = [
    "GITIGNORE_PATTERN",
    "MISSING",
    "AtomicFile",
    "Expect",
    "FileChanged",
    "FileExists",
    "WriteError",
    "WriteFailed",
    "WriteSet",
    "atomic_write",
    "is_evaltools_temp",
    "is_stream",
    "locked",
    "place_spooled",
    "preflight",
    "remove_stale_temps",
    "spool",
    "temp_prefix",
    "why",
    "write_finding",
]


def atomic_write(path: Path, data: bytes, *, expect: Expect = None) -> None:
    """Replace `path`'s content with `data`, whole or not at all.

    `expect`: the bytes the command read from `path` (the file must still hold exactly
    these, else `FileChanged`), or `MISSING` (it must still not exist). A device or FIFO
    (`-o /dev/null`) is written to directly: a rename would replace the node with a file.
    Raises `WriteError` (never a bare OSError)."""
    with WriteSet() as files:
        files.add(path, data, expect=expect)
        files.commit()


def preflight(path: Path, *, expect: Expect = None) -> None:
    """Raise the `WriteError` that writing `path` would raise by the rules known before its
    bytes are (a read-only file, a folder that cannot be written, a file where `MISSING`
    wants none), so a long command fails before its work, not after. The write itself
    applies the same rules again (`atomic_write` with the same `expect`): one rule, and a
    file created or made read-only meanwhile is still refused, never replaced."""
    target = through_links(path)
    if is_stream(target):
        return
    if expect is MISSING and os.path.lexists(target):
        raise FileExists(path)
    refuse(path, target)
    folder = target.parent
    if not os.access(folder, os.W_OK | os.X_OK):
        try:  # the kernel's reason (a read-only file system), as the write would meet it
            fd, temp = create_beside(target)
        except OSError as exc:
            raise WriteFailed(path, why(exc)) from exc
        os.close(fd)
        temp.unlink()


def _write_stream(path: Path, target: Path, data: bytes) -> None:
    try:
        with target.open("wb") as stream:
            stream.write(data)
    except OSError as exc:
        raise WriteFailed(path, why(exc)) from exc


class AtomicFile:
    """A file being written under a temporary name; `commit` renames it onto its target.

    Leaving the `with` block without `commit` (or after a failure) removes the temporary
    file. Every failure is raised as a `WriteError`."""

    def __init__(self, path: Path, *, expect: Expect = None, mode: int | None = None) -> None:
        """`mode`: the new file's mode, from its creation on (a key no one else may
        open); else the target's, set when it is finished."""
        self.path = path
        self.target = through_links(path)
        self.expect = expect
        self.mode = mode
        refuse(path, self.target)
        remove_stale_temps(self.target.parent)
        try:
            fd, temp = create_beside(self.target, 0o666 if mode is None else mode)
        except OSError as exc:
            raise WriteFailed(path, why(exc)) from exc
        self.temp: Path | None = temp
        self.handle: BinaryIO = os.fdopen(fd, "wb", buffering=1 << 20)
        self.finished = False

    def write(self, data: bytes) -> None:
        try:
            self.handle.write(data)
        except OSError as exc:
            self.discard()
            raise WriteFailed(self.path, why(exc)) from exc

    def finish(self) -> None:
        """Make the temporary file complete and durable, with the target's mode."""
        try:
            self.handle.flush()
            os.fsync(self.handle.fileno())
            mode = self.mode if self.mode is not None else mode_of(self.target)
            if mode is not None:
                os.fchmod(self.handle.fileno(), mode)
            self.handle.close()
        except OSError as exc:
            self.discard()
            raise WriteFailed(self.path, why(exc)) from exc
        self.finished = True

    def place(self, *, keep: bool) -> Placed:
        """Rename the finished file onto its target (see `install.put`)."""
        assert self.finished and self.temp is not None, "place before finish, or twice"
        try:
            placed = put(self.temp, self.target, self.expect, keep=keep)
        except Changed:
            self.discard()
            raise FileChanged(self.path) from None
        except OSError as exc:
            self.discard()
            raise WriteFailed(self.path, why(exc)) from exc
        self.temp = None  # placed: the name now belongs to `placed`, if to anyone
        return placed

    def commit(self) -> None:
        if not self.finished:
            self.finish()
        self.place(keep=False)

    def discard(self) -> None:
        """Remove the temporary file (idempotent; never raises)."""
        with contextlib.suppress(OSError):  # unflushed bytes: they are not wanted
            self.handle.close()
        if self.temp is not None:
            with contextlib.suppress(OSError):
                self.temp.unlink()
            self.temp = None

    def __enter__(self) -> AtomicFile:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.discard()


class WriteSet:
    """Files that belong together (a history and its chart, a merge and its conflicts):
    written all, or none.

    `add` writes each to a temporary file beside its target (a refusal, a full disk: the
    failure is raised there, and every file of the set is discarded); `commit` then renames
    them all, and if one rename fails, puts back what the others replaced. A kill between
    the renames can still leave some new and some old, each file whole."""

    def __init__(self) -> None:
        self.files: list[AtomicFile] = []
        self.streams: list[tuple[Path, Path, bytes]] = []

    def add(self, path: Path, data: bytes, *, expect: Expect = None) -> None:
        target = through_links(path)
        if is_stream(target):  # a device takes its bytes at the commit, last
            if isinstance(expect, bytes):  # the file read is now a FIFO or a device
                raise FileChanged(path)
            self.streams.append((path, target, data))
            return
        try:
            out = AtomicFile(path, expect=expect)
            self.files.append(out)
            out.write(data)
            out.finish()
        except WriteError:
            self.discard()
            raise

    def commit(self) -> None:
        placed: list[Placed] = []
        keep = len(self.files) > 1
        try:
            for out in self.files:
                placed.append(out.place(keep=keep))
        except WriteError:
            for done in reversed(placed):
                undo(done)
            self.discard()
            raise
        for done in placed:
            settle(done)
        self.files = []
        for path, target, data in self.streams:
            _write_stream(path, target, data)

    def discard(self) -> None:
        for out in self.files:
            out.discard()
        self.files = []

    def __enter__(self) -> WriteSet:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.discard()


def place_spooled(spooled: Path, path: Path) -> None:
    """Put a file spooled in `path`'s folder (`temps.spool`) in `path`'s place, under the
    same rules as every write: a read-only target is refused, a link is written through,
    a replaced file's mode is kept. `spooled` is gone afterwards, whatever happened."""
    try:
        target = through_links(path)
        if target.parent != spooled.parent:  # a link out of the folder: a rename cannot
            atomic_write(path, spooled.read_bytes())
            spooled.unlink()
            return
        mode = refuse(path, target)
        if mode is not None:
            spooled.chmod(mode)
        spooled.replace(target)
    except OSError as exc:
        with contextlib.suppress(OSError):
            spooled.unlink()
        if isinstance(exc, WriteError):
            raise
        raise WriteFailed(path, why(exc)) from exc


@contextlib.contextmanager
def locked(path: Path) -> Iterator[None]:
    """Hold an exclusive lock for a read-modify-write of `path` (an append to a history):
    another evaltools process doing the same waits. The lock is on the folder, so the file
    need not exist and no lock file is left behind."""
    import fcntl

    folder = through_links(path).parent
    try:
        fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
    except OSError as exc:
        raise WriteFailed(path, why(exc)) from exc
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)  # releases the lock
