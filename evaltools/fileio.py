"""Finding files and reading them with their exact bytes (writing: `evaltools.atomic`)."""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from evaltools.catalogue import rule
from evaltools.diagnostics import Diagnostic, make

# Hand-written eval examples are a few KiB; anything this large is a mistake
# (a log or a build artefact committed under the eval folder).
MAX_TEXT_FILE_BYTES = 8 * 1024 * 1024

NOT_UTF8 = rule("IO001")
BYTE_ORDER_MARK = rule("IO002")
CRLF_LINE_ENDINGS = rule("IO003")
EMPTY_FILE = rule("IO004")
BINARY_FILE = rule("IO005")
FILE_TOO_LARGE = rule("IO006")
NOT_A_FILE = rule("IO007")


class UsageError(Exception):
    """A problem with how the tool was called: exit code 2."""


@dataclass(frozen=True)
class TextFile:
    path: Path
    display: str
    data: bytes
    text: str


def display_path(path: Path) -> str:
    """Paths relative to the working directory when below it, as linters print them.

    Symbolic links are not followed: a finding is shown under the name it was found by
    (and a link loop is a path like any other, not an error)."""
    try:
        # abspath: absolute and normalised without following links (Path has no such call)
        return Path(os.path.abspath(path)).relative_to(Path.cwd()).as_posix()  # noqa: PTH100
    except ValueError:
        return path.as_posix()


def real_path(path: Path) -> Path:
    """`path.resolve()`, except that a symbolic link loop gives the absolute path."""
    try:
        return path.resolve()
    except (RuntimeError, OSError):  # RuntimeError: a loop, before Python 3.13
        return Path(os.path.abspath(path))  # noqa: PTH100


def line_col_of_offset(data: bytes, offset: int) -> tuple[int, int]:
    line = data.count(b"\n", 0, offset) + 1
    start = data.rfind(b"\n", 0, offset) + 1
    return line, offset - start + 1


def read_text_file(
    path: Path, *, max_bytes: int | None = MAX_TEXT_FILE_BYTES
) -> TextFile | Diagnostic:
    """Read a text file whole, or say (as a diagnostic) why it cannot be one."""
    shown = display_path(path)
    if not path.is_file():
        return make(NOT_A_FILE, shown, 1, 1, _not_a_file_message(path))
    if max_bytes is not None:
        size = path.stat().st_size
        if size > max_bytes:
            return make(
                FILE_TOO_LARGE,
                shown,
                1,
                1,
                f"file is {size:,} bytes, over the {max_bytes:,}-byte limit for one example: "
                "split it, or keep bulk data in .jsonl",
            )
    try:
        data = path.read_bytes()
    except OSError as exc:  # permissions, or the file changed since `is_file`
        why = (exc.strerror or str(exc)).lower()
        return make(NOT_A_FILE, shown, 1, 1, f"cannot read the file: {why}")
    problem = check_text_bytes(shown, data)
    if problem is not None:
        return problem
    return TextFile(path, shown, data, data.decode("utf-8"))


def _not_a_file_message(path: Path) -> str:
    if path.is_dir():
        return "is a directory, not a file: pass the directory itself to search it"
    return "is not a regular file (a device, socket or broken link)"


def check_text_bytes(shown: str, data: bytes) -> Diagnostic | None:
    if not data:
        return make(EMPTY_FILE, shown, 1, 1, "file is empty: delete it or fill it in")
    nul = data.find(b"\0")
    if nul >= 0:
        line, col = line_col_of_offset(data, nul)
        return make(BINARY_FILE, shown, line, col, "file contains a NUL byte: is it binary?")
    if data.startswith(b"\xef\xbb\xbf"):
        return make(
            BYTE_ORDER_MARK,
            shown,
            1,
            1,
            "file starts with a UTF-8 byte order mark: save it as UTF-8 without BOM",
        )
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line, col = line_col_of_offset(data, exc.start)
        return make(
            NOT_UTF8,
            shown,
            line,
            col,
            f"byte 0x{data[exc.start]:02x} is not valid UTF-8: re-encode the file as UTF-8",
        )
    crlf = data.find(b"\r\n")
    if crlf >= 0:
        line, _ = line_col_of_offset(data, crlf)
        col = crlf - (data.rfind(b"\n", 0, crlf) + 1) + 1
        return make(
            CRLF_LINE_ENDINGS,
            shown,
            line,
            col,
            "line ends with CRLF: convert the file to LF line endings",
        )
    return None


def iter_files(paths: Iterable[Path], suffixes: tuple[str, ...]) -> Iterator[Path]:
    """Files named directly are yielded as given; directories are searched recursively."""
    for path in paths:
        if path.is_dir() and path.suffix not in suffixes:
            yield from _walk(path, suffixes)
        else:
            yield path


_SKIP_DIRS = {".git", ".hg", ".venv", "venv", "node_modules", "__pycache__", ".tox", ".mypy_cache"}


def _walk(root: Path, suffixes: tuple[str, ...]) -> Iterator[Path]:
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if d not in _SKIP_DIRS)
        for name in sorted(filenames):
            if name.endswith(suffixes):
                yield Path(dirpath, name)


def check_paths_exist(paths: Iterable[Path]) -> None:
    missing = [p for p in paths if str(p) != "-" and not p.exists()]
    if missing:
        names = ", ".join(p.as_posix() for p in missing)
        # `exists` follows links: a link to nowhere (or a loop of links) is not missing.
        if all(os.path.lexists(p) for p in missing):
            raise UsageError(f"broken symbolic link (its target is missing or loops): {names}")
        raise UsageError(f"no such file or directory: {names}")
