"""The Typer app, built from the declarations of `table.py`: what users see in `--help`
and shell completion. It never runs a command: `evaltools.__main__` sends every command
line that names one to the executor (`evaltools.cli.parser`), which accepts exactly what
this app documents (`tests/cli/test_parity.py`)."""

from __future__ import annotations

import enum
import functools
import inspect
from typing import Any, Optional, cast

import typer

from evaltools import __version__
from evaltools.cli.params import Command, Param
from evaltools.cli.parser import DEBUG, VERSION
from evaltools.cli.table import all_commands, groups


def _choices(param: Param) -> type[enum.Enum]:
    assert param.choices is not None
    return _choice_enum(param.choices)


@functools.cache
def _choice_enum(choices: tuple[str, ...]) -> type[enum.Enum]:
    # An Enum, not typing.Literal: Literal crashes the help of typer 0.12-0.18.
    return cast(type[enum.Enum], enum.Enum("Choice", {c: c for c in choices}, type=str))


def _annotation(param: Param) -> Any:
    kind: Any = _choices(param) if param.choices else param.kind
    if param.multiple:
        return list[kind]
    if param.is_flag or param.required or param.default is not None:
        return kind
    return Optional[kind]  # noqa: UP045  (Typer needs a runtime Optional)


def _plain(text: str) -> str:
    """Help text shown as written: as Rich markup, `[tool.evaltools]` is a style tag."""
    return text.replace("[", "\\[")


def usage_name(param: Param) -> str:
    """How the usage line shows a positional parameter: `PATH...`, `[PATH]...`, `[CODE]`."""
    name = param.metavar or param.name.upper()
    name = name if param.required else f"[{name}]"
    return name + "..." if param.multiple else name


def _default(param: Param) -> Any:
    if param.required:
        return ...
    if param.multiple:
        return None
    if param.choices and param.default is not None:
        return _choices(param)(param.default)
    return param.default


def _info(param: Param) -> Any:
    extra: dict[str, Any] = {"help": _plain(param.help)}
    if param.metavar:
        extra["metavar"] = param.metavar
    if param.positional:
        extra["metavar"] = usage_name(param)
        return typer.Argument(_default(param), **extra)
    return typer.Option(_default(param), *param.flags, **extra)


def _help_only(**_: Any) -> None:
    raise RuntimeError("the Typer app renders help only; evaltools.cli.parser runs commands")


def _show_version(value: bool) -> None:
    if value:
        typer.echo(f"evaltools {__version__}")
        raise typer.Exit(0)


def _version_option() -> Any:
    return typer.Option(
        False, *VERSION.flags, help=VERSION.help, callback=_show_version, is_eager=True
    )


def _group_options(version: bool = _version_option()) -> None:
    """What a group accepts before its command's name."""


def _signature(command: Command) -> inspect.Signature:
    parameters = [
        inspect.Parameter(
            p.name, inspect.Parameter.KEYWORD_ONLY, default=_info(p), annotation=_annotation(p)
        )
        for p in command.params
    ]
    debug = typer.Option(False, *DEBUG.flags, help=DEBUG.help)
    version = _version_option()
    for name, option in ((DEBUG.name, debug), (VERSION.name, version)):
        parameters.append(
            inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, default=option, annotation=bool)
        )
    return inspect.Signature(parameters)


def _callback(command: Command) -> Any:
    def callback(**kwargs: Any) -> None:
        _help_only(**kwargs)

    signature = _signature(command)
    callback.__signature__ = signature  # type: ignore[attr-defined]
    callback.__annotations__ = {p.name: p.annotation for p in signature.parameters.values()}
    callback.__doc__ = _plain(command.help)
    return callback


def build_app() -> typer.Typer:
    app = typer.Typer(
        name="evaltools",
        help="Keep evaluation sets for code-assistant models healthy.",
        no_args_is_help=True,
        add_completion=True,
        pretty_exceptions_enable=False,
        # The same in every Typer version (their defaults differ); `_plain` escapes.
        rich_markup_mode="rich",
        # `-h` too, as the executor has it.
        context_settings={"help_option_names": ["-h", "--help"]},
    )

    @app.callback()
    def main(version: bool = _version_option()) -> None:
        """Keep evaluation sets for code-assistant models healthy."""

    sub_apps: dict[str, typer.Typer] = {}
    for name, description in groups().items():
        sub_apps[name] = typer.Typer(no_args_is_help=True, help=description, rich_markup_mode=None)
        # `--version` works on every command and group (cli.md); a group takes it here.
        sub_apps[name].callback()(_group_options)
        app.add_typer(sub_apps[name], name=name)
    for command in all_commands():
        target = sub_apps[command.path[0]] if len(command.path) > 1 else app
        target.command(command.path[-1], help=_plain(command.help))(_callback(command))
    return app


def build_command() -> Any:
    """The click command of the app, its parameters shown as declared."""
    command = typer.main.get_command(build_app())
    _show_as_declared(command, ())
    return command


def _show_as_declared(command: Any, path: tuple[str, ...]) -> None:
    make_help_option = command.get_help_option

    def help_option(ctx: Any) -> Any:
        option = make_help_option(ctx)
        if option is not None:
            option.metavar = ""  # not `<bool>`
        return option

    command.get_help_option = help_option
    declared = {p.name: p for c in all_commands() if c.path == path for p in c.params}
    for param in command.params:
        if getattr(param, "is_flag", False):
            param.metavar = ""  # not `<bool>`
        if param.name in declared and declared[param.name].positional:
            _show_argument(param, declared[param.name])
    for name, sub in getattr(command, "commands", {}).items():
        _show_as_declared(sub, (*path, name))


def _show_argument(param: Any, declared: Param) -> None:
    # Typer up to 0.20 loses an argument's help under click >= 8.3 (click's __init__
    # resets it); recent Typer shows its Python type (`<list[Path]>`) and decorates the
    # metavar in the usage line (`{PATH}...`).
    param.help = _plain(declared.help)
    if hasattr(param, "_usage_display_name"):
        param._usage_display_name = lambda: usage_name(declared)
        param.display_type_rich = lambda ctx: None
