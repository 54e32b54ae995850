"""evaltools' temporary files: their names, their creation, and the removal of those a
killed process left.

Every temporary file is created here: `.{name}.evaltools-{pid}-{random}.tmp` beside a
file being written, and `.evaltools-{pid}-{random}-{n}.tmp` for conversion output being
spooled by a worker. Discovery skips both (`is_evaltools_temp`).
"""

from __future__ import annotations

import contextlib
import itertools
import os
import re
from pathlib import Path

# Matches every temporary file evaltools makes: `.{name}.evaltools-{pid}-{random}.tmp`
# (a rewrite) and `.evaltools-{pid}-{random}-{n}.tmp` (conversion output being spooled).
_TEMP_NAME = re.compile(r"\.(?:.+\.)?evaltools-(?P<pid>[0-9]+)-[0-9a-f-]+\.tmp")
# For a `.gitignore`: the same names as a glob.
GITIGNORE_PATTERN = ".*evaltools-*.tmp"
TEMP_SUFFIX = ".tmp"


def is_evaltools_temp(name: str) -> bool:
    """Whether a file name is one of evaltools' temporary files (for discovery to skip)."""
    return _TEMP_NAME.fullmatch(name) is not None


def temp_prefix(directory: Path) -> str:
    """A prefix for spooled temporary files in `directory`: `{prefix}{n}.tmp` is recognised
    by `is_evaltools_temp` and, once this process is gone, removed as stale."""
    return f"{directory}{os.sep}.evaltools-{os.getpid()}-{os.urandom(4).hex()}-"


def create_beside(target: Path, mode: int = 0o666) -> tuple[int, Path]:
    """A new temporary file beside `target`, open for writing (a descriptor); `mode` less
    the umask from its creation on (a key no one else may open even while it is empty)."""
    # 0o666: the umask decides a new file's mode (mkstemp's 0o600 would leak into it).
    while True:
        temp = target.parent / f".{target.name}.evaltools-{os.getpid()}-{os.urandom(4).hex()}.tmp"
        try:
            return os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, mode), temp
        except FileExistsError:  # pragma: no cover (2**32 names)
            continue


def name_beside(target: Path) -> Path:
    """A free temporary name beside `target` (for a hard link: nothing is created)."""
    return target.parent / f".{target.name}.evaltools-{os.getpid()}-{os.urandom(4).hex()}.tmp"


_counter = itertools.count()


def spool(prefix: str, data: bytes) -> str:
    """Write `data` to a new temporary file named `{prefix}{pid}-{n}.tmp`; return its name.
    Raises OSError (a full disk, a read-only folder) with no file left behind."""
    while True:
        name = f"{prefix}{os.getpid()}-{next(_counter)}{TEMP_SUFFIX}"
        try:
            fd = os.open(name, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
            break
        except FileExistsError:  # pragma: no cover (a leftover of a crashed run)
            continue
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view) :]
    except BaseException:
        os.close(fd)
        with contextlib.suppress(OSError):
            Path(name).unlink()
        raise
    os.close(fd)
    return name


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
    except (ProcessLookupError, OverflowError):  # OverflowError: no process has that number
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
