"""The argparse front end: what runs the commands, built from `table.COMMANDS`."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from evaltools import __version__
from evaltools.cli.run import invoke
from evaltools.cli.table import Command, Param


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        sys.stderr.write(f"{self.prog}: error: {message}\nTry '{self.prog} --help' for help.\n")
        raise SystemExit(2)


def _add(parser: argparse.ArgumentParser, param: Param) -> None:
    kwargs: dict[str, Any] = {"help": param.help}
    if param.metavar:
        kwargs["metavar"] = param.metavar
    if param.choices:
        kwargs["choices"] = param.choices
    if param.kind is bool:
        parser.add_argument(
            *param.flags, dest=param.name, action="store_true", default=param.default, **kwargs
        )
        return
    convert = Path if param.kind is Path else param.kind
    if param.positional:
        nargs = (
            ("+" if param.required else "*")
            if param.multiple
            else (None if param.required else "?")
        )
        parser.add_argument(param.name, type=convert, nargs=nargs, default=param.default, **kwargs)
        return
    if param.multiple:
        kwargs["action"] = "append"
    parser.add_argument(
        *param.flags,
        dest=param.name,
        type=convert,
        default=param.default,
        required=param.required,
        **kwargs,
    )


def build_parser(command: Command) -> argparse.ArgumentParser:
    parser = _Parser(prog=f"evaltools {command.name}", description=command.help)
    for param in command.params:
        _add(parser, param)
    parser.add_argument("--debug", action="store_true", help="Show tracebacks of internal errors.")
    parser.add_argument("--version", action="version", version=version_line())
    return parser


def run(command: Command, argv: list[str]) -> int:
    namespace = vars(build_parser(command).parse_args(argv))
    debug = bool(namespace.pop("debug"))
    return invoke(command, namespace, debug=debug)


def version_line() -> str:
    return f"evaltools {__version__}"
