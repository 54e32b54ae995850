"""Every parameter the help documents reaches the command: each target reads all of its
command's parameters (a parameter with a default in the implementation would otherwise be
accepted and silently ignored)."""

from __future__ import annotations

import ast
import inspect

from evaltools.cli import targets
from evaltools.cli.table import all_commands


def _read_names(function: object) -> set[str]:
    """The names read by `a.kind("name")`, here or in a function of `targets` handed `a`
    (the options every findings command shares)."""
    tree = ast.parse(inspect.getsource(function))  # type: ignore[arg-type]
    names = {
        node.args[0].value
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and isinstance(node.func.value, ast.Name)
        and node.func.value.id == "a"
        and node.args
        and isinstance(node.args[0], ast.Constant)
        and isinstance(node.args[0].value, str)
    }
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and hasattr(targets, node.func.id)
            and [ast.dump(arg) for arg in node.args] == [ast.dump(ast.Name("a", ast.Load()))]
        ):
            names |= _read_names(getattr(targets, node.func.id))
    return names


def test_every_target_reads_every_parameter_of_its_command() -> None:
    for command in all_commands():
        assert inspect.getmodule(command.target) is targets, command.name
        declared = {p.name for p in command.params}
        assert _read_names(command.target) == declared, command.name
