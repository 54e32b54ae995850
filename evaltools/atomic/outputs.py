"""A command's output files (`-o`): refused when they exist without `--force` or are one of
its inputs, `-` for stdout, written atomically one at a time or several all or none."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path

from evaltools.atomic import (
    MISSING,
    Expect,
    FileExists,
    WriteError,
    WriteSet,
    atomic_write,
    preflight,
    write_finding,
)
from evaltools.diagnostics import Diagnostic
from evaltools.discover import refuse_input_as_output
from evaltools.fileio import UsageError, display_path


def check_output(
    path: Path, force: bool, *, inputs: Sequence[Path] = (), option: str = "-o"
) -> Diagnostic | None:
    """Refuse, before any work, an output the write would refuse after it (the atomic
    writer's `preflight`, whose rules the write applies again with `output_expect(force)`):
    an existing file unless --force, and an input ever (usage errors: the output is written
    before the command ends, so the input would be lost); a read-only file or a folder that
    cannot be written is the write's own finding (IO020), returned."""
    if str(path) == "-":
        return None
    if path.is_dir():
        raise UsageError(f"{option} {path}: is a directory; name the output file")
    refuse_input_as_output(path, inputs, option)
    if not path.parent.is_dir():
        raise UsageError(f"{option} {path}: no such directory {path.parent}")
    try:
        preflight(path, expect=output_expect(force))
    except FileExists as error:
        raise UsageError(f"{option} {path}: {error.reason}") from None
    except WriteError as error:
        return write_finding(error, display_path(path))
    return None


def output_expect(force: bool) -> Expect:
    """What a new output's write expects to replace: nothing unless --force (a file created
    while the command worked is refused at the rename, not replaced)."""
    return None if force else MISSING


def write_output(path: Path, data: bytes, *, expect: Expect = None) -> Diagnostic | None:
    """Write one output (or rewrite an input read as `expect`); the finding if it failed."""
    if str(path) == "-":
        sys.stdout.flush()
        sys.stdout.buffer.write(data)
        sys.stdout.buffer.flush()
        return None
    try:
        atomic_write(path, data, expect=expect)
    except WriteError as error:
        return write_finding(error, display_path(path))
    return None


def write_outputs(outputs: Sequence[tuple[Path, bytes, Expect]]) -> Diagnostic | None:
    """Write files that belong together (a merge and its conflicts, the files of one set
    split), each `(path, data, expect)`: all of them, or none and the finding why. Stdout
    (`-`) gets its bytes once the files are in place."""
    files = [(path, data, expect) for path, data, expect in outputs if str(path) != "-"]
    with WriteSet() as written:
        for path, data, expect in files:
            try:
                written.add(path, data, expect=expect)
            except WriteError as error:
                return write_finding(error, display_path(path))
        try:
            written.commit()
        except WriteError as error:
            return write_finding(error, display_path(error.path))
    for path, data, _ in outputs:
        if str(path) == "-":
            write_output(path, data)
    return None
