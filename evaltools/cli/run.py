"""Calling a command's implementation, with the exit-code contract around it."""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Mapping

from evaltools.cli.table import Command
from evaltools.fileio import UsageError


def _multiple(command: Command, name: str) -> bool:
    return any(p.name == name and p.multiple for p in command.params)


def invoke(command: Command, arguments: Mapping[str, object], *, debug: bool = False) -> int:
    # Both front ends leave a repeatable option that was never given as None.
    given = {
        name: [] if value is None and _multiple(command, name) else value
        for name, value in arguments.items()
    }
    module_name, func_name = command.target.split(":")
    func: Callable[..., int] = getattr(importlib.import_module(module_name), func_name)
    try:
        return func(**given)
    except UsageError as exc:
        sys.stderr.write(f"evaltools {command.name}: error: {exc}\n")
        return 2
    except KeyboardInterrupt:
        sys.stderr.write("evaltools: interrupted\n")
        return 130
    except BrokenPipeError:
        return 0
    except Exception as exc:
        if debug:
            import traceback

            traceback.print_exc()
        sys.stderr.write(
            f"evaltools {command.name}: internal error: {type(exc).__name__}: {exc} "
            "(run with --debug for a traceback)\n"
        )
        return 2
