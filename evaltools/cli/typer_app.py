"""The Typer front end, built from `table.COMMANDS`: help, completion, and the full CLI."""

from __future__ import annotations

import inspect
from pathlib import Path
from typing import Any, Literal, Optional

import typer

from evaltools import __version__
from evaltools.cli.run import invoke
from evaltools.cli.table import Command, Param, all_commands


def _annotation(param: Param) -> Any:
    kind: Any = param.kind
    if param.choices:
        kind = Literal.__getitem__(param.choices)
    if param.multiple:
        return list[kind]
    if param.kind is bool or param.required or param.default is not None:
        return kind
    return Optional[kind]  # noqa: UP045  (Typer needs a runtime Optional)


def _plain(text: str) -> str:
    """Help text shown as written: Typer renders it as Rich markup, where `[tool.evaltools]`
    would be a style tag, and vanish."""
    return text.replace("[", "\\[")


def _info(param: Param) -> Any:
    default: Any = ... if param.required else param.default
    if param.multiple and not param.required:
        default = None
    extra: dict[str, Any] = {"help": _plain(param.help)}
    if param.metavar:
        extra["metavar"] = param.metavar
    if param.positional:
        return typer.Argument(default, **extra)
    return typer.Option(default, *param.flags, **extra)


def _callback(command: Command) -> Any:
    def callback(**kwargs: Any) -> None:
        debug = bool(kwargs.pop("debug", False))
        for param in command.params:
            if param.kind is Path and isinstance(kwargs.get(param.name), str):
                kwargs[param.name] = Path(kwargs[param.name])
        raise typer.Exit(invoke(command, kwargs, debug=debug))

    parameters = [
        inspect.Parameter(
            p.name, inspect.Parameter.KEYWORD_ONLY, default=_info(p), annotation=_annotation(p)
        )
        for p in command.params
    ]
    parameters.append(
        inspect.Parameter(
            "debug",
            inspect.Parameter.KEYWORD_ONLY,
            default=typer.Option(False, "--debug", help="Show tracebacks of internal errors."),
            annotation=bool,
        )
    )
    callback.__signature__ = inspect.Signature(parameters)  # type: ignore[attr-defined]
    callback.__annotations__ = {p.name: p.annotation for p in parameters}
    callback.__doc__ = _plain(command.help)
    return callback


def _version(value: bool) -> None:
    if value:
        typer.echo(f"evaltools {__version__}")
        raise typer.Exit(0)


def build_app() -> typer.Typer:
    app = typer.Typer(
        name="evaltools",
        help="Keep evaluation sets for code-assistant models healthy.",
        no_args_is_help=True,
        add_completion=True,
        pretty_exceptions_enable=False,
        # `-h` too, as the argparse front end has it (it sends -h here, for the help).
        context_settings={"help_option_names": ["-h", "--help"]},
    )

    @app.callback()
    def main(
        version: bool = typer.Option(
            False, "--version", callback=_version, is_eager=True, help="Show the version and exit."
        ),
    ) -> None:
        """Keep evaluation sets for code-assistant models healthy."""

    sub_apps: dict[str, typer.Typer] = {}
    for command in all_commands():
        target = app
        if len(command.path) > 1:
            group = command.path[0]
            if group not in sub_apps:
                sub_apps[group] = typer.Typer(no_args_is_help=True, help=f"{group} commands.")
                app.add_typer(sub_apps[group], name=group)
            target = sub_apps[group]
        target.command(command.path[-1], help=_plain(command.help))(_callback(command))
    return app
