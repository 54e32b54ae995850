"""Finding files and reading them with their exact bytes (writing: `evaltools.atomic`)."""

from __future__ import annotations

import contextlib
import errno
import functools
import os
import stat
from pathlib import Path
from typing import BinaryIO, NamedTuple

from evaltools.catalogue.io import (
    BINARY_FILE,
    BYTE_ORDER_MARK,
    CRLF_LINE_ENDINGS,
    EMPTY_FILE,
    FILE_TOO_LARGE,
    NOT_A_FILE,
    NOT_UTF8,
)
from evaltools.diagnostics import Diagnostic, Rule, make
from evaltools.positions import line_column

# Hand-written eval examples are a few KiB; anything this large is a mistake
# (a log or a build artefact committed under the eval folder).
MAX_TEXT_FILE_BYTES = 8 * 1024 * 1024
# A file of records (a retrieval set, a run, predictions, examples in bulk): past this a
# file is a dump, or a sparse file that would hold a run for minutes; shard it instead.
MAX_DATA_FILE_BYTES = 1 << 30
# A UTF-8 byte order mark at a file's start: an editor's or a shell's, said the same way
# whatever the file holds.
UTF8_BOM = b"\xef\xbb\xbf"
BOM_AT_START = "file starts with a UTF-8 byte order mark: save it as UTF-8 without BOM"


class UsageError(Exception):
    """A problem with how the tool was called: exit code 2."""


class TextFile(NamedTuple):
    path: Path
    display: str
    data: bytes
    text: str


def display_path(path: Path) -> str:
    """Paths relative to the working directory (`../evals/x.md` from a subdirectory of the
    project), one rule for every output format, whichever way the path was named; absolute
    for a file outside the project (the nearest folder at or above the working directory
    that holds a pyproject.toml or a .git), where a `../../..` path helps nobody.

    Symbolic links are not followed: a finding is shown under the name it was found by
    (and a link loop is a path like any other, not an error)."""
    # abspath: absolute and normalised without following links (Path has no such call)
    absolute = os.path.abspath(path)  # noqa: PTH100
    cwd = os.getcwd()  # noqa: PTH109
    try:
        inside = os.path.commonpath([absolute, _project_root(cwd)]) == _project_root(cwd)
    except ValueError:  # another drive on Windows
        inside = False
    if not inside:
        return Path(absolute).as_posix()
    return Path(os.path.relpath(absolute, cwd)).as_posix()


@functools.lru_cache(maxsize=8)
def _project_root(cwd: str) -> str:
    here = Path(cwd)
    for folder in (here, *here.parents):
        if (folder / "pyproject.toml").is_file() or (folder / ".git").exists():
            return str(folder)
    return cwd


def real_path(path: Path) -> Path:
    """`path.resolve()`, except that a symbolic link loop gives the absolute path."""
    try:
        return path.resolve()
    except (RuntimeError, OSError):  # RuntimeError: a loop, before Python 3.13
        return Path(os.path.abspath(path))  # noqa: PTH100


class Refused(NamedTuple):
    """Why the input policy refused a file (IO006 or IO007), with its one wording."""

    rule: Rule
    message: str

    def at(self, shown: str) -> Diagnostic:
        return make(self.rule, shown, 1, 1, self.message)


def open_input(path: Path | str, *, max_bytes: int | None) -> BinaryIO | Refused:
    """The one input policy, applied before any byte is parsed: `path` opened for reading
    without blocking (a FIFO or a device must not hang a run, nor one that replaced a file
    since it was listed), then refused unless it is a regular file (IO007) of at most
    `max_bytes` (IO006). A path longer than the system's PATH_MAX is opened a folder at a
    time, so that a file the walk found is read, never passed over."""
    try:
        fd, info = _open_regular(path)
    except _NotRegular as exc:
        return Refused(NOT_A_FILE, exc.what)
    except OSError as exc:
        return Refused(NOT_A_FILE, cannot_read(exc))
    try:
        if max_bytes is not None and info.st_size > max_bytes:
            os.close(fd)
            return Refused(FILE_TOO_LARGE, too_large(info.st_size, max_bytes))
        return os.fdopen(fd, "rb")
    except BaseException:
        with contextlib.suppress(OSError):
            os.close(fd)
        raise


class _NotRegular(OSError):
    """A path that is no regular file: `what` says what it is."""

    def __init__(self, mode: int) -> None:
        self.what = _not_regular(mode)
        super().__init__(errno.EISDIR if stat.S_ISDIR(mode) else errno.ENXIO, self.what)


class _Folder(_NotRegular, IsADirectoryError):
    pass


def _open_regular(path: Path | str) -> tuple[int, os.stat_result]:
    """`path` opened without blocking, and its stat; `_NotRegular` (`_Folder` for a
    folder) unless it is a regular file, any other OSError if it cannot be opened."""
    fd = _open_nonblocking(os.fspath(path))
    try:
        info = os.fstat(fd)
    except BaseException:
        os.close(fd)
        raise
    if not stat.S_ISREG(info.st_mode):
        os.close(fd)
        raise (_Folder if stat.S_ISDIR(info.st_mode) else _NotRegular)(info.st_mode)
    return fd, info


def read_regular(path: Path | str) -> bytes:
    """The bytes of `path`, a file of a code tree (no input of the command's, so no size
    limit), opened as `open_input` opens one: a FIFO or a device there raises OSError at
    once, never waits for a writer; a folder raises an IsADirectoryError."""
    fd, _ = _open_regular(path)
    with os.fdopen(fd, "rb") as stream:
        return stream.read()


class InputRefused(OSError):
    """`open_records`' refusal, raised where a reader streams (a generator cannot return)."""

    def __init__(self, refused: Refused) -> None:
        super().__init__(refused.message)
        self.refused = refused


def open_records(path: Path | str) -> BinaryIO:
    """A file of records (JSONL) opened by the input policy; `InputRefused` if it may not be."""
    opened = open_input(path, max_bytes=MAX_DATA_FILE_BYTES)
    if isinstance(opened, Refused):
        raise InputRefused(opened)
    return opened


def read_input(path: Path | str, *, max_bytes: int | None) -> bytes | Refused:
    """A whole file's bytes by `open_input`'s policy (a file that grew past `max_bytes`
    since its size was taken is refused too)."""
    opened = open_input(path, max_bytes=max_bytes)
    if isinstance(opened, Refused):
        return opened
    with opened:
        try:
            data = opened.read() if max_bytes is None else opened.read(max_bytes + 1)
        except OSError as exc:
            return Refused(NOT_A_FILE, cannot_read(exc))
    if max_bytes is not None and len(data) > max_bytes:
        return Refused(FILE_TOO_LARGE, too_large(len(data), max_bytes))
    return data


def cannot_read(exc: OSError) -> str:
    if exc.errno == errno.ENXIO:  # a socket, or a device with nothing behind it
        return "is not a regular file (a device, socket or FIFO)"
    if exc.errno == errno.ELOOP or (
        exc.errno == errno.ENOENT and exc.filename and Path(exc.filename).is_symlink()
    ):
        return "is not a regular file (a device, socket or broken link)"
    return f"cannot read the file: {(exc.strerror or str(exc)).lower()}"


def too_large(size: int, limit: int) -> str:
    if limit >= MAX_DATA_FILE_BYTES:
        return (
            f"file is {size:,} bytes, over the {limit:,}-byte limit for one file of records: "
            "shard it into several files"
        )
    return (
        f"file is {size:,} bytes, over the {limit:,}-byte limit for one example: "
        "split it, or keep bulk data in .jsonl"
    )


def _not_regular(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "is a directory, not a file: pass the directory itself to search it"
    return "is not a regular file (a device, socket or FIFO)"


_READ_FLAGS = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
_FOLDER_FLAGS = os.O_RDONLY | getattr(os, "O_DIRECTORY", 0)


def _open_nonblocking(path: str) -> int:
    try:
        return os.open(path, _READ_FLAGS)
    except OSError as exc:
        if exc.errno != errno.ENAMETOOLONG:
            raise
    folder, _, name = path.rpartition("/")
    parent = open_folder(folder or "/")
    try:
        return os.open(name, _READ_FLAGS, dir_fd=parent)
    finally:
        os.close(parent)


def open_folder(path: str) -> int:
    """A descriptor of the folder `path`, however long: past PATH_MAX, one component at a
    time, each relative to the one before (links followed, as the kernel follows them)."""
    try:
        return os.open(path, _FOLDER_FLAGS)
    except OSError as exc:
        if exc.errno != errno.ENAMETOOLONG:
            raise
    fd = os.open("/" if path.startswith("/") else ".", _FOLDER_FLAGS)
    try:
        for part in path.split("/"):
            if part:
                below = os.open(part, _FOLDER_FLAGS, dir_fd=fd)
                os.close(fd)
                fd = below
    except BaseException:
        os.close(fd)
        raise
    return fd


def read_text_file(
    path: Path, *, max_bytes: int | None = MAX_TEXT_FILE_BYTES
) -> TextFile | Diagnostic:
    """Read a text file whole by the input policy (`open_input`), or say (as a diagnostic)
    why it cannot be one."""
    shown = display_path(path)
    data = read_input(path, max_bytes=max_bytes)
    if isinstance(data, Refused):
        return data.at(shown)
    problem = check_text_bytes(shown, data)
    if problem is not None:
        return problem
    return TextFile(path, shown, data, data.decode("utf-8"))


def buffer_text(path: Path, data: bytes) -> TextFile | Diagnostic:
    """`data`, an editor's unsaved text of `path`, as `read_text_file` would read the file."""
    shown = display_path(path)
    if len(data) > MAX_TEXT_FILE_BYTES:
        return make(FILE_TOO_LARGE, shown, 1, 1, too_large(len(data), MAX_TEXT_FILE_BYTES))
    problem = check_text_bytes(shown, data)
    return problem if problem is not None else TextFile(path, shown, data, data.decode("utf-8"))


def wrong_encoding(data: bytes) -> str | None:
    """What to do with a file saved as UTF-16 or UTF-32 (Notepad's "Unicode", PowerShell's
    `>`), told by its first bytes; None for any other. Said so, it is not taken for a
    binary file (its NULs) nor for a stray byte 0xff."""
    for marks, name in (
        ((b"\xff\xfe\0\0", b"\0\0\xfe\xff"), "32"),
        ((b"\xff\xfe", b"\xfe\xff"), "16"),
    ):
        if data.startswith(marks):
            mark = f"it starts with a UTF-{name} byte order mark"
            return f"file is UTF-{name} ({mark}): save it as UTF-8"
    head = data[:64]  # ASCII text in UTF-16 without a mark: every other byte NUL
    if len(head) >= 4 and any(not any(head[s::2]) and all(head[1 - s :: 2]) for s in (0, 1)):
        return "file is UTF-16 (every other byte is NUL): save it as UTF-8"
    return None


def check_text_bytes(shown: str, data: bytes) -> Diagnostic | None:
    if not data:
        return make(EMPTY_FILE, shown, 1, 1, "file is empty: delete it or fill it in")
    encoding = wrong_encoding(data)
    if encoding is not None:
        return make(NOT_UTF8, shown, 1, 1, encoding)
    nul = data.find(b"\0")
    if nul >= 0:
        line, col = line_column(data, nul)
        return make(BINARY_FILE, shown, line, col, "file contains a NUL byte: is it binary?")
    if data.startswith(UTF8_BOM):
        return make(BYTE_ORDER_MARK, shown, 1, 1, BOM_AT_START)
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line, col = line_column(data, exc.start)
        return make(
            NOT_UTF8,
            shown,
            line,
            col,
            f"byte 0x{data[exc.start]:02x} is not valid UTF-8: re-encode the file as UTF-8",
        )
    crlf = data.find(b"\r\n")
    if crlf >= 0:
        line, col = line_column(data, crlf)
        return make(
            CRLF_LINE_ENDINGS,
            shown,
            line,
            col,
            "line ends with CRLF: convert the file to LF line endings",
        )
    return None
