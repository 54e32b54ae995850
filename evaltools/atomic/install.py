"""Putting a finished temporary file in its target's place, checking what it replaced, and
putting that back when it must not be lost.

A rewrite (`expect`: the bytes the command read) is checked twice: before the rename
(nothing visible happens if the file changed) and after it, on the very file the rename
replaced. An edit that lands between the first check and the rename (an editor's save
renamed over the file, or bytes written into it) is found by the second check, and the
replaced file is put back. On Linux the rename is an exchange (renameat2 with
RENAME_EXCHANGE), so the replaced file keeps a name whatever happened meanwhile; where
the system cannot exchange, a hard link to the file read is taken just before the rename,
which misses only a save renamed over the file between that link and the rename.
"""

from __future__ import annotations

import contextlib
import errno
import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from evaltools.atomic.temps import name_beside
from evaltools.fileio import Refused, open_input


class Missing:
    """`expect=MISSING`: the target must not exist (a new file no one else created)."""


MISSING: Final = Missing()
Expect = bytes | Missing | None


class Changed(Exception):
    """The target is not what the command read: nothing of it was replaced."""


# Called with the target between the first comparison and the rename: the window an edit
# can land in. For tests, which make an edit land there; None otherwise.
before_rename: Callable[[Path], None] | None = None


@dataclass
class Placed:
    """A temporary file renamed onto its target, with what it replaced."""

    target: Path
    displaced: Path | None  # the name now holding the file it replaced (None: none kept)
    exchanged: bool = False  # the names were swapped (undo swaps them back)
    created: bool = False  # the target did not exist before


def put(temp: Path, target: Path, expect: Expect, *, keep: bool) -> Placed:
    """Rename `temp` onto `target` if `target` still holds `expect`; `keep`: keep what it
    replaced, to `undo` or `settle` later. Raises `Changed` (the target as it was) or
    OSError (with `temp` still there, the target untouched)."""
    if isinstance(expect, Missing):
        if before_rename is not None:
            before_rename(target)
        _link_new(temp, target)
        return Placed(target, None, created=True)
    if isinstance(expect, bytes) and not holds(target, expect):
        raise Changed
    if before_rename is not None:
        before_rename(target)
    if expect is None and not keep:
        temp.replace(target)
        return Placed(target, None)
    if not os.path.lexists(target):  # expect is None: a new file
        temp.replace(target)
        return Placed(target, None, created=True)
    placed = _swap(temp, target)
    try:
        if placed.displaced is not None and os.path.isdir(placed.displaced):  # noqa: PTH112
            # An exchange swaps even a folder put there meanwhile: a rename would refuse.
            raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), str(target))
        kept = not isinstance(expect, bytes) or holds(placed.displaced, expect)
    except OSError:
        undo(placed)
        raise
    if not kept:
        undo(placed)
        raise Changed
    if not keep:
        settle(placed)
    return placed


def undo(placed: Placed) -> None:
    """Put back what `put` replaced (best effort: it runs after a failure)."""
    with contextlib.suppress(OSError):
        if placed.created:
            placed.target.unlink()
        elif placed.displaced is not None:
            if placed.exchanged and _exchange(placed.displaced, placed.target):
                placed.displaced.unlink()
            else:
                placed.displaced.replace(placed.target)
            placed.displaced = None


def settle(placed: Placed) -> None:
    """Let go of what `put` replaced."""
    if placed.displaced is not None:
        with contextlib.suppress(FileNotFoundError):
            placed.displaced.unlink()
        placed.displaced = None


def holds(path: Path | None, expect: bytes) -> bool:
    if path is None:
        return True  # nothing kept to compare (a file system without hard links)
    # By the input policy: a FIFO put in the file's place must not hang the rewrite.
    opened = open_input(path, max_bytes=None)
    if isinstance(opened, Refused):
        return False
    with opened as stream:
        return stream.read(len(expect) + 1) == expect


def _link_new(temp: Path, target: Path) -> None:
    """Give `temp` the name `target` only if no file has that name: a link never replaces."""
    try:
        os.link(temp, target)
    except FileExistsError as exc:
        raise Changed from exc
    except OSError as exc:
        if exc.errno not in _NO_LINKS:
            raise
        if os.path.lexists(target):
            raise Changed from exc
        temp.replace(target)
        return
    temp.unlink()


def _swap(temp: Path, target: Path) -> Placed:
    if _exchange(temp, target):
        return Placed(target, temp, exchanged=True)
    backup = name_beside(target)
    try:
        os.link(target, backup)
    except OSError as exc:
        if exc.errno not in _NO_LINKS:
            raise
        temp.replace(target)
        return Placed(target, None)
    try:
        temp.replace(target)
    except OSError:
        backup.unlink()
        raise
    return Placed(target, backup)


# A file system without hard links (some FUSE and network ones): no copy of the old file.
_NO_LINKS = {errno.EPERM, errno.EOPNOTSUPP, errno.ENOTSUP, errno.EMLINK, errno.EXDEV}
_RENAME_EXCHANGE = 2
_AT_FDCWD = -100
_renameat2: object = None  # the C function, False where there is none


def _exchange(first: Path, second: Path) -> bool:
    """Swap two names atomically (Linux's renameat2 with RENAME_EXCHANGE); False where
    this system or file system cannot."""
    global _renameat2  # noqa: PLW0603 (looked up once)
    if _renameat2 is None:
        _renameat2 = _lookup()
    if _renameat2 is False:
        return False
    import ctypes

    function = _renameat2
    assert callable(function)
    done = function(_AT_FDCWD, os.fsencode(first), _AT_FDCWD, os.fsencode(second), _RENAME_EXCHANGE)
    if done == 0:
        return True
    code = ctypes.get_errno()
    if code in (errno.EINVAL, errno.ENOSYS, errno.EOPNOTSUPP, errno.ENOTSUP):
        return False
    raise OSError(code, os.strerror(code), str(second))


def _lookup() -> object:
    import sys

    if not sys.platform.startswith("linux"):
        return False
    import ctypes

    try:
        return ctypes.CDLL(None, use_errno=True).renameat2
    except (OSError, AttributeError):  # a C library before glibc 2.28
        return False
