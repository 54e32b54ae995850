"""Writing a file whole or not at all, and never over an edit saved meanwhile.

The one write every command uses. The new bytes go to a temporary file beside the
target, named `.{name}.evaltools-{pid}-{random}.tmp`, which is renamed onto the target
once complete. Before the rename, a rewrite compares the file with the bytes the command
read (`expect`): if someone saved the file meanwhile, nothing is written and
`FileChanged` is raised. Any other failure (a full disk, a read-only file system) raises
`WriteFailed`. Either way the temporary file is gone and the target keeps its old bytes.

A symbolic link is written through: its target gets the new bytes and the link stays.
A new file gets the mode the umask gives; a rewritten one keeps its mode.

A temporary file outlives its process only when the process is killed; the next write
into that directory (or the next rewriting command reading from it) removes those whose
process is gone.
"""

from __future__ import annotations

import contextlib
import os
import re
import stat
from pathlib import Path
from types import TracebackType
from typing import BinaryIO

from evaltools.catalogue import rule
from evaltools.diagnostics import Diagnostic, make

WRITE_FAILED = rule("IO020")
FILE_CHANGED = rule("IO021")

# Matches every temporary file evaltools makes: `.{name}.evaltools-{pid}-{random}.tmp`
# (a rewrite) and `.evaltools-{pid}-{random}-{n}.tmp` (conversion output being spooled).
_TEMP_NAME = re.compile(r"\.(?:.+\.)?evaltools-(?P<pid>[0-9]+)-[0-9a-f-]+\.tmp")
# For a `.gitignore`: the same names as a glob.
GITIGNORE_PATTERN = ".*evaltools-*.tmp"


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


def write_finding(error: WriteError, shown: str) -> Diagnostic:
    """The finding for a file that was not written (`shown`: its name as reported)."""
    if isinstance(error, FileChanged):
        return make(FILE_CHANGED, shown, 1, 1, error.reason)
    return make(WRITE_FAILED, shown, 1, 1, f"{error.reason}; the file was left unchanged")


def is_evaltools_temp(name: str) -> bool:
    """Whether a file name is one of evaltools' temporary files (for discovery to skip)."""
    return _TEMP_NAME.fullmatch(name) is not None


def temp_prefix(directory: Path) -> str:
    """A prefix for spooled temporary files in `directory`: `{prefix}{n}.tmp` is recognised
    by `is_evaltools_temp` and, once this process is gone, removed as stale."""
    return f"{directory}{os.sep}.evaltools-{os.getpid()}-{os.urandom(4).hex()}-"


def atomic_write(path: Path, data: bytes, *, expect: bytes | None = None) -> None:
    """Replace `path`'s content with `data`, whole or not at all.

    `expect`: the bytes the command read from `path`; when given, the file must still
    hold exactly these right before the rename, else `FileChanged`. A device or FIFO
    (`-o /dev/null`) is written to directly: a rename would replace the node with a file.
    Raises `WriteError` (never a bare OSError)."""
    target = _through_links(path)
    if is_stream(target):
        try:
            with target.open("wb") as stream:
                stream.write(data)
        except OSError as exc:
            raise WriteFailed(path, _why(exc)) from exc
        return
    with AtomicFile(path, expect=expect) as out:
        out.write(data)
        out.commit()


class AtomicFile:
    """A file being written under a temporary name; `commit` renames it onto its target.

    Leaving the `with` block without `commit` (or after a failure) removes the temporary
    file. Every failure is raised as a `WriteError`."""

    def __init__(self, path: Path, *, expect: bytes | None = None) -> None:
        self.path = path
        self.target = _through_links(path)
        self.expect = expect
        directory = self.target.parent
        # A rename replaces even a read-only file (only the folder's mode counts): the
        # file's own mode must refuse the rewrite, as it would refuse `open(path, "w")`.
        refused = _refusal(self.target)
        if refused is not None:
            raise WriteFailed(path, refused)
        remove_stale_temps(directory)
        try:
            fd, name = _create(directory, self.target.name)
        except OSError as exc:
            raise WriteFailed(path, _why(exc)) from exc
        self.temp: Path | None = Path(name)
        self.handle: BinaryIO = os.fdopen(fd, "wb", buffering=1 << 20)

    def write(self, data: bytes) -> None:
        try:
            self.handle.write(data)
        except OSError as exc:
            self.discard()
            raise WriteFailed(self.path, _why(exc)) from exc

    def commit(self) -> None:
        assert self.temp is not None, "commit after discard"
        try:
            self.handle.flush()
            os.fsync(self.handle.fileno())
            mode = _mode_of(self.target)
            if mode is not None:
                os.fchmod(self.handle.fileno(), mode)
            self.handle.close()
            if self.expect is not None and not _holds(self.target, self.expect):
                self.discard()
                raise FileChanged(self.path)
            self.temp.replace(self.target)
        except WriteError:
            raise
        except OSError as exc:
            self.discard()
            raise WriteFailed(self.path, _why(exc)) from exc
        self.temp = None

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


def _through_links(path: Path) -> Path:
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


def _mode_of(path: Path) -> int | None:
    try:
        return stat.S_IMODE(path.stat().st_mode)
    except FileNotFoundError:
        return None


def _holds(path: Path, expect: bytes) -> bool:
    try:
        with path.open("rb") as stream:
            return stream.read(len(expect) + 1) == expect
    except FileNotFoundError:
        return False


def _create(directory: Path, name: str) -> tuple[int, str]:
    # 0o666: the umask decides a new file's mode (mkstemp's 0o600 would leak into it).
    while True:
        temp = directory / f".{name}.evaltools-{os.getpid()}-{os.urandom(4).hex()}.tmp"
        try:
            return os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666), str(temp)
        except FileExistsError:  # pragma: no cover (2**32 names)
            continue


def _refusal(target: Path) -> str | None:
    """Why an existing `target` must not be rewritten, or None.

    A file with no write bit for anyone (`chmod 444`) is refused from its mode bits, for
    root too: `os.access` says root may write anything, so a check by it alone let a
    root run rewrite a file its owner had marked read-only. Other files are refused when
    this user may not write them (another user's, a read-only file system)."""
    try:
        mode = target.stat().st_mode
    except (OSError, ValueError):  # missing: a new file
        return None
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
        return _why(exc)
    return "permission denied"


def _why(exc: OSError) -> str:
    reason = exc.strerror or str(exc)
    return reason[:1].lower() + reason[1:]


# --- stale temporary files -------------------------------------------------------------------

_swept: set[str] = set()


def remove_stale_temps(directory: Path) -> int:
    """Remove the temporary files a killed evaltools left in `directory` (once per process
    and directory); return how many. A file is stale when the process named in it is gone,
    or is a newer process that reused the number."""
    key = os.path.abspath(directory)  # noqa: PTH100
    if key in _swept:
        return 0
    _swept.add(key)
    removed = 0
    try:
        with os.scandir(key) as entries:
            for entry in entries:
                found = _TEMP_NAME.fullmatch(entry.name)
                if found is None or _in_use(int(found["pid"]), entry):
                    continue
                try:
                    os.unlink(entry.path)  # noqa: PTH108
                    removed += 1
                except OSError:
                    pass
    except OSError:  # the directory cannot be listed: the write itself will say why
        pass
    return removed


def _in_use(pid: int, entry: os.DirEntry[str]) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # alive, another user's
        pass
    started = _start_time(pid)
    try:
        modified = entry.stat(follow_symlinks=False).st_mtime
    except OSError:
        return True
    # A file last written before its process started belongs to an earlier process.
    return started is None or modified >= started - 1


def _start_time(pid: int) -> float | None:
    """When a process started (seconds since the epoch), where /proc says (Linux)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        boot = next(
            float(line.split()[1])
            for line in Path("/proc/stat").read_text().splitlines()
            if line.startswith("btime ")
        )
        return boot + int(fields[19]) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError, StopIteration):
        return None
