"""Running one command: the parsed arguments in, the exit code out, with the exit-code
contract around it (usage error 2, internal error 2, Ctrl-C 130, closed pipe)."""

from __future__ import annotations

import contextlib
import os
import sys
from typing import Any, TextIO, cast

from evaltools.cli.arguments import Arguments
from evaltools.cli.params import Command
from evaltools.fileio import UsageError

INTERRUPTED = 130
# Output cut short before the command could say how it ended: not a success.
PIPE_CLOSED = 1


def invoke(command: Command, arguments: Arguments, *, debug: bool = False) -> int:
    print_names_as_bytes(sys.stdout)
    guard = PipeGuard(sys.stdout)
    sys.stdout = cast(TextIO, guard)
    try:
        code = command.target(arguments)
        guard.flush()
        return code
    except UsageError as exc:
        sys.stderr.write(f"evaltools {command.name}: error: {exc}\n")
        return 2
    except KeyboardInterrupt:
        return interrupted()
    except BrokenPipeError:
        # Written past the guard (to stdout's binary buffer): the findings are unknown.
        silence(guard.wrapped)
        return PIPE_CLOSED
    except Exception as exc:
        if debug:
            import traceback

            traceback.print_exc()
        sys.stderr.write(
            f"evaltools {command.name}: internal error: {type(exc).__name__}: {exc} "
            "(run with --debug for a traceback)\n"
        )
        return 2
    finally:
        sys.stdout = guard.wrapped


def print_names_as_bytes(stream: TextIO) -> None:
    """Text output prints a file name that is not UTF-8 as the bytes the file system holds
    (as ruff does): under a UTF-8 locale Python's stdout is strict and would raise on it.
    The JSON writer and the GitHub reporter make their output valid UTF-8 themselves."""
    reconfigure = getattr(stream, "reconfigure", None)
    if reconfigure is not None:
        with contextlib.suppress(OSError, ValueError):
            reconfigure(errors="surrogateescape")


def interrupted() -> int:
    sys.stderr.write("evaltools: interrupted\n")
    return INTERRUPTED


def silence(stream: TextIO) -> None:
    """Point the stream's file descriptor at devnull, so that the flush at interpreter
    exit does not raise a second BrokenPipeError (as the Python docs on SIGPIPE advise)."""
    try:
        fd = stream.fileno()
    except (OSError, ValueError):
        return
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, fd)
    os.close(devnull)


class PipeGuard:
    """stdout that, once its reader has gone (`evaltools check | head -1`), drops the
    rest of the output instead of raising, so that the command still finishes and
    returns the exit code its findings give."""

    def __init__(self, wrapped: TextIO) -> None:
        self.wrapped = wrapped
        self.closed_pipe = False

    def write(self, text: str) -> int:
        if not self.closed_pipe:
            try:
                self.wrapped.write(text)
            except BrokenPipeError:
                self._closed()
        return len(text)

    def flush(self) -> None:
        if not self.closed_pipe:
            try:
                self.wrapped.flush()
            except BrokenPipeError:
                self._closed()

    def _closed(self) -> None:
        self.closed_pipe = True
        silence(self.wrapped)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.wrapped, name)
