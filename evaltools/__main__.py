"""`evaltools` and `python -m evaltools`.

Commands run through the lean argparse front end; Typer (about 100 ms of imports)
is loaded only to render help and shell completion, or for anything argparse does
not recognise, so that the pre-commit hooks start fast.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if args in (["--version"], ["-V"]):
        from evaltools import __version__

        sys.stdout.write(f"evaltools {__version__}\n")
        return 0
    from evaltools.cli import table

    found = table.find(args)
    if found is not None and not table.HELP_FLAGS.intersection(found[1]):
        from evaltools.cli import fast

        try:
            return fast.run(*found)
        except SystemExit as exc:
            return exc.code if isinstance(exc.code, int) else 2
    if found is None and not table.HELP_FLAGS.intersection(args):
        unknown = _unknown_command(args)
        if unknown is not None:
            # As the argparse front end words it: one line, and where help is.
            sys.stderr.write(f"evaltools: error: {unknown}\nTry 'evaltools --help' for help.\n")
            return 2
    return typer_main(args)


def _unknown_command(args: list[str]) -> str | None:
    """What is wrong with argv that names no command, or None for what Typer serves
    (help for no arguments or a bare group, --version, shell completion)."""
    from evaltools.cli import table

    if not args or args[0] in ("--version", "-V"):
        return None
    if args[0].startswith("-"):
        return f"no such option: {args[0]}"
    commands = table.all_commands()
    if args[0] not in {c.path[0] for c in commands}:
        return f"no such command: {args[0]!r}"
    if args[0] in table.groups() and len(args) > 1:
        if args[1].startswith("-"):
            return f"no such option: {args[1]}"
        return f"no such command: '{args[0]} {args[1]}'"
    return None


def typer_main(args: list[str]) -> int:
    from evaltools.cli.typer_app import build_app

    try:
        build_app()(args, prog_name="evaltools", standalone_mode=True)
    except SystemExit as exc:
        return exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 2)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
