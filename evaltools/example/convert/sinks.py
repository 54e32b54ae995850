"""Where a conversion writes: one JSONL file (or stdout), a directory of files, or one file.

Every file appears whole or not at all, through the one writer (`evaltools.atomic`) and
its rules (a read-only file is refused, a link written through, a mode kept). For a
directory, the workers write ("spool") each example's file under a temporary name, and the
main process only puts it in place (`place_spooled`), in input order, once the name is
settled; temporary files of a run share a prefix, so whatever an interrupted run leaves is
removed at the end (or, after a kill, by the next run writing there).

Files of a directory are not fsync'ed one by one (that costs a journal commit per
example, several times the conversion itself); the JSONL file, written once, is. An
existing file is replaced only with `force`.
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path
from typing import BinaryIO

from evaltools.atomic import (
    AtomicFile,
    WriteError,
    atomic_write,
    is_stream,
    place_spooled,
    remove_stale_temps,
    temp_prefix,
    why,
)
from evaltools.atomic.outputs import output_expect
from evaltools.fileio import UsageError, display_path

EXISTS = "exists"
WRITE_FAILED = "write-failed"

Problem = tuple[str, str]  # (finding kind, message)


class SinkFailed(Exception):
    """The one output file cannot be written: the run stops, and nothing was written."""

    def __init__(self, path: Path, reason: str) -> None:
        # A refused rename (FileChanged) says so already.
        said = "nothing was written" in reason
        tail = "" if said else "; nothing was written"
        super().__init__(f"cannot write {display_path(path)}: {reason}{tail}")
        self.path = path


def _exists_message(path: Path) -> str:
    return f"{display_path(path)} already exists: pass --force to overwrite it"


class Sink:
    named = False  # True when each example gets its own file name
    one_example = False  # True when the output holds a single example
    suffix = ""
    spool: str | None = None  # the temporary-file prefix workers write to
    stem: str | None = None  # the one output's file stem ("" for stdout)

    def refusal(self) -> tuple[str, str] | None:
        """(path, message) when the whole run must not start (an existing output)."""
        return None

    def write(self, stem: str, text: str) -> Problem | None:
        raise NotImplementedError

    def place(self, stem: str, spooled: str) -> Problem | None:
        """Move a spooled file into place (only sinks with a `spool` get any)."""
        raise NotImplementedError

    def shown(self, stem: str) -> str:
        """The file a spooled example of `stem` goes to, as reported."""
        raise NotImplementedError

    def commit(self, keep_empty: bool = True) -> None:
        """Make the output visible (after a complete run); raises `SinkFailed`.
        `keep_empty` false: a file that would hold nothing is not made (a stream, which a
        reader waits on, is still opened and closed)."""

    def close(self) -> None:
        """Release everything; without `commit` first, leave no output behind."""


class JsonlSink(Sink):
    """One line per example, streamed into a temporary file renamed at the end."""

    def __init__(self, path: Path | None, stdout: BinaryIO | None, *, force: bool) -> None:
        if path is not None and path.is_dir():
            raise UsageError(f"-o {path} is a directory: --to jsonl writes one file")
        if path is not None and path.suffix in (".md", ".json"):
            # The reference's --in-place writes JSONL over a `.md`; never do that.
            raise UsageError(f"-o {path}: --to jsonl writes JSONL, name the file *.jsonl")
        self.path = path
        self.stdout = stdout
        self.force = force
        self.stream = path is not None and is_stream(path)
        self.handle: BinaryIO | None = None
        self.file: AtomicFile | None = None
        self.written = False

    def refusal(self) -> tuple[str, str] | None:
        if self.path is not None and not self.force and not self.stream and self.path.exists():
            return display_path(self.path), _exists_message(self.path)
        return None

    def _open(self) -> BinaryIO | AtomicFile:
        if self.file is not None:
            return self.file
        if self.handle is None:
            if self.path is None:
                assert self.stdout is not None
                self.handle = self.stdout
            elif self.stream:
                self.handle = self.path.open("wb")
            else:
                self.path.parent.mkdir(parents=True, exist_ok=True)
                # Without --force the rename refuses a file created while the run worked.
                self.file = AtomicFile(self.path, expect=output_expect(self.force))
                return self.file
        return self.handle

    def write(self, stem: str, text: str) -> Problem | None:
        try:
            self._open().write(text.encode("utf-8"))
        except OSError as exc:  # WriteError included
            raise SinkFailed(self._target(), _why(exc)) from exc
        self.written = True
        return None

    def commit(self, keep_empty: bool = True) -> None:
        if not (keep_empty or self.written or self.path is None or self.stream):
            return
        try:
            out = self._open()
            if isinstance(out, AtomicFile):
                out.commit()
            else:
                out.flush()
        except WriteError as exc:
            raise SinkFailed(self._target(), exc.reason) from exc
        except OSError as exc:
            raise SinkFailed(self._target(), _why(exc)) from exc

    def _target(self) -> Path:
        return Path("-") if self.path is None else self.path

    def close(self) -> None:
        if self.file is not None:
            self.file.discard()  # after `commit`: nothing left to remove
            self.file = None
        if self.path is not None and self.handle is not None:
            with contextlib.suppress(OSError):  # a device that cannot take the rest
                self.handle.close()


class DirectorySink(Sink):
    """One file per example, named by the caller (`stem` + suffix), in a directory."""

    named = True

    def __init__(self, directory: Path, suffix: str, *, force: bool) -> None:
        if directory.exists() and not directory.is_dir():
            raise UsageError(
                f"-o {directory} is a file: --to {suffix[1:]} writes one file per example "
                f"into a directory (name a directory, or a *{suffix} file for one example)"
            )
        # The folders this run makes, deepest first: a run that writes nothing leaves none.
        self.created = [d for d in (directory, *directory.parents) if not d.exists()]
        try:
            directory.mkdir(parents=True, exist_ok=True)
        except OSError as exc:  # a read-only file system, a folder it may not write
            raise SinkFailed(directory, _why(exc)) from exc
        remove_stale_temps(directory)  # from an earlier run that was killed
        self.directory = directory
        self.suffix = suffix
        self.force = force
        # Everything is spooled (by the workers): `write` is never called.
        self.directory_name = f"{directory}{os.sep}"
        self.spool = temp_prefix(directory)
        self.prefix = self.spool[len(self.directory_name) :]

    def place(self, stem: str, spooled: str) -> Problem | None:
        path = f"{self.directory_name}{stem}{self.suffix}"
        if not self.force and os.path.lexists(path):
            with contextlib.suppress(OSError):
                os.unlink(spooled)  # noqa: PTH108
            return EXISTS, _exists_message(Path(path))
        try:
            place_spooled(Path(spooled), Path(path))
        except WriteError as exc:
            return WRITE_FAILED, f"cannot write {display_path(Path(path))}: {exc.reason}"
        except ValueError as exc:  # a name the system cannot take
            return WRITE_FAILED, f"cannot write {display_path(Path(path))}: {exc}"
        return None

    def shown(self, stem: str) -> str:
        return display_path(Path(f"{self.directory_name}{stem}{self.suffix}"))

    def close(self) -> None:
        # Spooled files nobody placed: after --limit, an error, or an interruption.
        with contextlib.suppress(OSError), os.scandir(self.directory) as entries:
            for entry in entries:
                if entry.name.startswith(self.prefix):
                    with contextlib.suppress(OSError):
                        Path(entry.path).unlink()
        for made in self.created:
            try:
                made.rmdir()  # only an empty folder: anything written keeps it
            except OSError:
                break


class SingleSink(Sink):
    """Exactly one example, into one file or onto stdout.

    The caller writes only once the run is known to select one example: several are a
    usage error, and the output must not hold the first of them.
    """

    one_example = True

    def __init__(self, path: Path | None, stdout: BinaryIO | None, *, force: bool) -> None:
        self.path = path
        self.stdout = stdout
        self.force = force
        self.stem = "" if path is None else path.name[: -len(path.suffix) or None]
        self.stream = path is not None and is_stream(path)

    def refusal(self) -> tuple[str, str] | None:
        if self.path is not None and not self.force and not self.stream and self.path.exists():
            return display_path(self.path), _exists_message(self.path)
        return None

    def write(self, stem: str, text: str) -> Problem | None:
        target = "stdout" if self.path is None else display_path(self.path)
        data = text.encode("utf-8")
        if self.path is None:
            assert self.stdout is not None
            self.stdout.write(data)
            self.stdout.flush()
            return None
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            atomic_write(self.path, data, expect=output_expect(self.force))
        except WriteError as exc:
            return WRITE_FAILED, f"cannot write {target}: {exc.reason}"
        except OSError as exc:
            return WRITE_FAILED, f"cannot write {target}: {_why(exc)}"
        return None


def _why(exc: OSError) -> str:
    return exc.reason if isinstance(exc, WriteError) else why(exc)
