"""`evaltools init`: add evaltools' hook to `.pre-commit-config.yaml`, keeping everything else."""

from __future__ import annotations

import sys
from pathlib import Path

from evaltools import __version__
from evaltools.atomic import WriteError, atomic_write
from evaltools.fileio import UsageError, display_path
from evaltools.precommit import ConfigEditError, add_evaltools, same_except_evaltools


def run(config_file: Path, rev: str | None, hooks: list[str]) -> int:
    rev = rev or f"v{__version__}"
    shown = display_path(config_file)
    try:
        before = _read(config_file)
        read = None if before is None else before.encode("utf-8")
        # The edit is made on LF text; a CRLF file gets its line endings back.
        crlf = before is not None and "\r\n" in before and "\n" not in before.replace("\r\n", "")
        if before is not None and crlf:
            before = before.replace("\r\n", "\n")
        edit = add_evaltools(before, rev, tuple(hooks) or ("evaltools-check",))
    except ConfigEditError as exc:
        sys.stdout.write(f"{shown}:{exc.line}:{exc.column}: {exc} (file left unchanged)\n")
        return 1
    if edit.action == "unchanged":
        sys.stdout.write(f"{shown}: evaltools is already at {rev}; nothing to do\n")
        return 0
    if not same_except_evaltools(before, edit.text):
        sys.stdout.write(
            f"{shown}: the edit would change more than the evaltools entry; file left "
            "unchanged (please add the entry by hand)\n"
        )
        return 1
    text = edit.text.replace("\n", "\r\n") if crlf else edit.text
    try:
        atomic_write(config_file, text.encode("utf-8"), expect=read)
    except WriteError as error:
        sys.stdout.write(f"{shown}: not written: {error.reason}\n")
        return 1
    what = {
        "created": f"created with evaltools {rev}",
        "added": f"added evaltools {rev}",
        "updated": f"updated evaltools from {edit.old_rev} to {rev}",
    }[edit.action]
    sys.stdout.write(f"{shown}: {what}; run `pre-commit install` to enable the hooks\n")
    return 0


def _read(config_file: Path) -> str | None:
    """The file's text, None when there is none yet; a usage error when it is not a file."""
    if not config_file.exists():
        if not config_file.parent.is_dir():
            raise UsageError(f"cannot create {display_path(config_file)}: no such directory")
        return None
    if not config_file.is_file():
        raise UsageError(f"--config-file {display_path(config_file)} is not a regular file")
    data = config_file.read_bytes()
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        column = exc.start - (data.rfind(b"\n", 0, exc.start) + 1) + 1
        raise ConfigEditError(
            f"byte 0x{data[exc.start]:02x} is not valid UTF-8: re-encode the file as UTF-8",
            line,
            column,
        ) from exc
