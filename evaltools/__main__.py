"""`evaltools` and `python -m evaltools`.

Commands run through the lean executor (`evaltools.cli.parser`, click's rules on the
declarations of `evaltools.cli.table`); Typer (about 100 ms of imports) is loaded only
to render help and shell completion, so that the pre-commit hooks start fast.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
from collections.abc import Sequence

# Set by the completion scripts Typer installs: then Typer answers.
_COMPLETE_VAR = "_EVALTOOLS_COMPLETE"


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    try:
        return _dispatch(args)
    except KeyboardInterrupt:
        from evaltools.cli.run import interrupted

        return interrupted()


def entry() -> None:
    """The process entry point (`evaltools`, `python -m evaltools`): `main`, then exit.

    After workers were killed (Ctrl-C, SIGTERM), the process leaves without running the
    interpreter's exit handlers, which join the worker pool's threads. `kill_workers`
    releases the pipes those threads could wait on (a killed worker's half-written result),
    so they end; this exit stays as a safety net should another Python version block them
    elsewhere. Output is flushed first, and every write the command made is already
    complete (atomic writes are synchronous).
    """
    code = main()
    workers = sys.modules.get("evaltools.parallel._workers")
    if workers is not None:
        # The work is done: a Ctrl-C now would stop the teardown half-way (a traceback, the
        # helpers left to PID 1 as zombies), so it waits the few milliseconds it takes.
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        workers.stop_helpers()  # reaped here, they are no zombies of PID 1
    leave_if_workers_were_killed(code)
    sys.exit(code)


def leave_if_workers_were_killed(code: int) -> None:
    """After workers were killed, flush the output and end the process with `code` now,
    without the exit handlers that could wait for ever (see `entry`)."""
    workers = sys.modules.get("evaltools.parallel._workers")
    if workers is not None and getattr(workers, "killed_pools", None):
        for stream in (sys.stdout, sys.stderr):
            with contextlib.suppress(OSError, ValueError):
                stream.flush()
        os._exit(code)


def _dispatch(args: list[str]) -> int:
    if args in (["--version"], ["-V"]):
        return _version()
    if os.environ.get(_COMPLETE_VAR):
        return typer_main(args)
    from evaltools.cli import table

    found = table.find(args)
    if found is None:
        if _asks_for_the_version(args):
            return _version()
        unknown = _unknown_command(args)
        if unknown is None:
            return typer_main(args)
        # As the commands' own parser words it: one line, and where help is.
        return _usage_error("evaltools", unknown)
    command, rest = found
    from evaltools.cli import parser
    from evaltools.cli.arguments import Arguments
    from evaltools.cli.run import invoke

    try:
        parsed = parser.parse(command, rest)
    except parser.ArgvError as exc:
        return _usage_error(f"evaltools {command.name}", str(exc))
    if parsed.eager == "help":
        return typer_main(args)
    if parsed.eager == "version":
        return _version()
    return invoke(command, Arguments(parsed.values, parsed.folders), debug=parsed.debug)


def _version() -> int:
    from evaltools import __version__

    sys.stdout.write(f"evaltools {__version__}\n")
    return 0


def _asks_for_the_version(args: list[str]) -> bool:
    """`--version` where the top level or a group takes its options (`evaltools gold
    --version`): eager, as click has it, whatever follows."""
    if args[:1] == ["--version"]:
        return True
    from evaltools.cli import table

    return len(args) > 1 and args[1] == "--version" and args[0] in table.groups()


def _usage_error(prog: str, message: str) -> int:
    sys.stderr.write(f"{prog}: error: {message}; try '{prog} --help'\n")
    return 2


def _unknown_command(args: list[str]) -> str | None:
    """What is wrong with argv that names no command, or None for what Typer serves
    (help for no arguments, a bare group or --help, shell completion)."""
    from evaltools.cli import table
    from evaltools.cli.params import HELP_FLAGS

    if not args or args[0] in HELP_FLAGS or args[0] in table.COMPLETION_FLAGS:
        return None
    if args[0].startswith("-"):
        return f"no such option: {args[0]}"
    groups = table.groups()
    if args[0] not in groups:
        return f"no such command: {args[0]!r}"
    if len(args) == 1 or args[1] in HELP_FLAGS:
        return None
    if args[1].startswith("-"):
        return f"no such option: {args[1]}"
    return f"no such command: '{args[0]} {args[1]}'"


def typer_main(args: list[str]) -> int:
    from evaltools.cli.typer_app import build_command

    try:
        build_command().main(args, prog_name="evaltools", standalone_mode=True)
    except SystemExit as exc:
        return exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 2)
    return 0


if __name__ == "__main__":
    entry()
