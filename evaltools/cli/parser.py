"""The executor's parser: one command's argv to its arguments, by click's rules.

The Typer app (`typer_app.py`) is what users see in help and completion; this is what
runs, because importing Typer costs about 100 ms on every pre-commit hook call. It
accepts exactly what click accepts for the same declaration (`tests/cli/test_parity.py`
proves it command by command): options anywhere among the arguments, no abbreviated
option names, `--opt=value`, `-ovalue`, `--` ending the options, the last of a repeated
single option winning, eager `--help`/`--version` before any value is checked.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

from evaltools.cli.params import HELP_FLAGS, Command, Param

DEBUG = Param(
    "debug", ("--debug",), kind=bool, default=False, help="Show tracebacks of internal errors."
)
VERSION = Param(
    "version", ("--version",), kind=bool, default=False, help="Show the version and exit."
)
HELP = Param("help", HELP_FLAGS, kind=bool, default=False, help="Show this message and exit.")
EAGER = (HELP, VERSION)


class ArgvError(Exception):
    """A usage error, in one sentence."""


class Parsed:
    # A plain class, not a dataclass: this is on every hook run's start-up path.
    def __init__(self, *, debug: bool = False, eager: str | None = None) -> None:
        self.values: dict[str, object] = {}
        # Path options typed with a trailing separator (`-o out/`), which pathlib drops.
        self.folders: dict[str, str] = {}
        self.debug = debug
        self.eager = eager  # "help" or "version": shown before anything is checked


_CONVERTERS: dict[type, tuple[Callable[[str], object], str]] = {
    int: (int, "integer"),
    float: (float, "float"),
}


def parse(command: Command, argv: list[str]) -> Parsed:
    scan = _Scan(command, list(argv))
    scan.run()
    for name in scan.order:
        if name in ("help", "version"):
            return Parsed(eager=name)
    parsed = Parsed(debug=bool(scan.given.get("debug")))
    positionals = [p for p in command.params if p.positional]
    assigned, extra = _unpack(scan.positionals, positionals)
    for param in command.params:
        given = scan.given.get(param.name)
        parsed.values[param.name] = _value(param, given, assigned)
        typed = given[-1] if given else None
        if param.kind is Path and isinstance(typed, str) and _names_folder(typed):
            parsed.folders[param.name] = typed
    if extra:
        s = "s" if len(extra) > 1 else ""
        raise ArgvError(f"unexpected extra argument{s}: {' '.join(extra)}")
    return parsed


class _Scan:
    """Splits argv into option values (by parameter name) and positional arguments."""

    def __init__(self, command: Command, rargs: list[str]) -> None:
        self.rargs = rargs
        self.long: dict[str, Param] = {}
        self.short: dict[str, Param] = {}
        for param in (*command.params, DEBUG, *EAGER):
            for flag in param.flags:
                (self.long if flag.startswith("--") else self.short)[flag] = param
        self.given: dict[str, list[str | bool]] = {}
        self.order: list[str] = []
        self.positionals: list[str] = []

    def run(self) -> None:
        while self.rargs:
            arg = self.rargs.pop(0)
            if arg == "--":
                self.positionals.extend(self.rargs)
                return
            if arg.startswith("-") and len(arg) > 1:
                self._option(arg)
            else:
                self.positionals.append(arg)

    def _option(self, arg: str) -> None:
        name, explicit = arg.split("=", 1) if "=" in arg else (arg, None)
        if name in self.long:
            param = self.long[name]
            if param.is_flag:
                if explicit is not None:
                    raise ArgvError(f"option '{name}' does not take a value")
                self._record(param, True)
            else:
                self._record(param, explicit if explicit is not None else self._next(name))
            return
        if arg.startswith("--"):
            raise ArgvError(f"no such option: {name}{_suggestion(name, self.long)}")
        for i, char in enumerate(arg[1:], start=2):
            short = "-" + char
            if short not in self.short:
                raise ArgvError(f"no such option: {short}")
            param = self.short[short]
            if param.is_flag:
                self._record(param, True)
                continue
            self._record(param, arg[i:] if i < len(arg) else self._next(short))
            return

    def _next(self, name: str) -> str:
        if not self.rargs:
            raise ArgvError(f"option '{name}' requires an argument")
        return self.rargs.pop(0)

    def _record(self, param: Param, value: str | bool) -> None:
        self.given.setdefault(param.name, []).append(value)
        self.order.append(param.name)


def _unpack(args: list[str], params: list[Param]) -> tuple[dict[str, list[str]], list[str]]:
    """Positional arguments to parameters, as click's `_unpack_args`: single ones in order
    from the front, then from the back after a repeatable one, which takes the rest."""
    rest = list(args)
    assigned: dict[str, list[str]] = {}
    spread = next((i for i, p in enumerate(params) if p.multiple), len(params))
    for param in params[:spread]:
        if rest:
            assigned[param.name] = [rest.pop(0)]
    for param in reversed(params[spread + 1 :]):
        if rest:
            assigned[param.name] = [rest.pop()]
    if spread < len(params):
        assigned[params[spread].name], rest = rest, []
    return assigned, rest


def _value(param: Param, given: list[str | bool] | None, assigned: dict[str, list[str]]) -> object:
    raw: list[str | bool] = list(assigned.get(param.name, [])) if param.positional else given or []
    if not raw:
        if param.required:
            raise ArgvError(_missing(param))
        return [] if param.multiple else param.default
    if param.is_flag:
        return True
    converted = [_convert(param, value) for value in raw if isinstance(value, str)]
    return converted if param.multiple else converted[-1]


def _names_folder(value: str) -> bool:
    if value.endswith(("/", os.sep)):
        return True
    # `new/.`: a folder too, though pathlib keeps only `new`
    return value.replace(os.sep, "/").rpartition("/")[2] in {".", ".."} and "/" in value


def _missing(param: Param) -> str:
    if param.positional:
        shown = param.metavar or param.name.upper()
        return f"missing argument '{shown}{'...' if param.multiple else ''}'"
    return f"missing option '{param.flags[-1]}'"


def _convert(param: Param, value: str) -> object:
    where = _label(param)
    if param.choices is not None and value not in param.choices:
        allowed = ", ".join(repr(c) for c in param.choices)
        raise ArgvError(f"invalid value for {where}: {value!r} is not one of {allowed}")
    if param.kind is Path:
        return Path(value)
    if param.kind in _CONVERTERS:
        convert, noun = _CONVERTERS[param.kind]
        try:
            return convert(value)
        except ValueError:
            raise ArgvError(f"invalid value for {where}: {value!r} is not a valid {noun}") from None
    return value


def _label(param: Param) -> str:
    if param.positional:
        return f"'{param.metavar or param.name.upper()}{'...' if param.multiple else ''}'"
    return f"'{' / '.join(param.flags)}'"


def _suggestion(name: str, known: dict[str, Param]) -> str:
    import difflib

    close = difflib.get_close_matches(name, list(known), n=3)
    return f" (did you mean {' or '.join(close)}?)" if close else ""
