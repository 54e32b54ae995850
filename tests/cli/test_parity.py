"""The executor accepts exactly what the help documents: every sample command line goes
through the click command of the Typer app (what `--help` and completion describe) and
through `evaltools.cli.parser` (what runs), and both must agree on refusing it or on
every value it gives."""

from __future__ import annotations

import enum
import importlib
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
import typer

from evaltools.__main__ import main
from evaltools.cli import parser
from evaltools.cli.params import Command, Param
from evaltools.cli.table import all_commands
from evaltools.cli.typer_app import build_command


def _click() -> ModuleType:
    # Recent Typer ships its own copy of click; older ones use the click package.
    try:
        return importlib.import_module("typer._click")
    except ImportError:
        return importlib.import_module("click")


CLICK = _click()
ROOT = build_command()

Outcome = tuple[object, ...]


def _click_command(command: Command) -> tuple[Any, Any]:
    parent = CLICK.Context(ROOT, info_name="evaltools", **ROOT.context_settings)
    current = ROOT
    for name in command.path:
        current = current.commands[name]
        if name != command.path[-1]:
            parent = CLICK.Context(current, info_name=name, parent=parent)
    return current, parent


def _normal(param: Param | None, value: object) -> object:
    """A value as the command receives it: Typer turns click's strings into the
    annotated types (Path, Enum) only on the way into the callback."""
    if param is not None and param.multiple:
        return [_one(param, v) for v in value or ()]  # type: ignore[attr-defined]
    return _one(param, value)


def _one(param: Param | None, value: object) -> object:
    if isinstance(value, enum.Enum):
        return value.value
    if param is not None and param.kind is Path and isinstance(value, str):
        return Path(value)
    return value


def through_click(command: Command, argv: list[str], capsys: pytest.CaptureFixture[str]) -> Outcome:
    click_command, parent = _click_command(command)
    capsys.readouterr()
    try:
        ctx = click_command.make_context(command.path[-1], list(argv), parent=parent)
    except typer.Exit:  # click's own Exit in the Typer versions that use the click package
        shown = capsys.readouterr().out
        return ("eager", "help" if "Usage:" in shown else "version")
    except CLICK.exceptions.UsageError:
        return ("refused",)
    params = {p.name: p for p in command.params}
    # `--version` exits when given; its callback leaves None otherwise.
    values = {n: _normal(params.get(n), v) for n, v in ctx.params.items() if n != "version"}
    return ("accepted", values)


def through_executor(command: Command, argv: list[str]) -> Outcome:
    try:
        parsed = parser.parse(command, list(argv))
    except parser.ArgvError:
        return ("refused",)
    if parsed.eager is not None:
        return ("eager", parsed.eager)
    return ("accepted", {**parsed.values, "debug": parsed.debug})


def _value(param: Param) -> str:
    if param.choices:
        return param.choices[-1]
    return {int: "3", float: "0.5", Path: "out.jsonl"}.get(param.kind, "some text")


def _minimal(command: Command) -> list[str]:
    argv: list[str] = []
    for param in command.params:
        if param.required and param.positional:
            argv += [f"{param.name}.jsonl"]
        elif param.required:
            argv += [param.flags[-1], _value(param)]
    return argv


def samples(command: Command) -> list[list[str]]:
    """Valid and invalid command lines, made from the declaration."""
    base = _minimal(command)
    out = [base, [], [*base, "--debug"], [*base, "--version"], ["--version", "--nope"]]
    out += [[*base, "-h"], [*base, "--help"], [*base, "--nope"], [*base, "-1"], [*base, "-"]]
    out += [[*base, "--", "-odd.jsonl"], [*base, "extra.jsonl"], [*base, "a", "b", "c"]]
    out += [[*base, "--debug=1"], [*base, "-"], ["--", *base]]
    for param in command.params:
        if param.positional:
            continue
        flag = param.flags[-1]
        if param.is_flag:
            out += [[*base, flag], [flag, *base], [*base, flag, flag], [*base, f"{flag}=yes"]]
            out += [[*base, "--no-" + flag[2:]]]
        else:
            value = _value(param)
            out += [[*base, flag, value], [flag, value, *base], [*base, f"{flag}={value}"]]
            out += [[*base, flag, value, flag, value], [*base, flag], [*base, flag, ""]]
            out += [[*base, flag, "--debug"], [*base, flag, "-1"], [*base, flag, "-"]]
            out += [[*base, flag, "not-a-choice" if param.choices else "x"]]
            if param.kind in (int, float):
                out += [[*base, flag, "1.5"], [*base, flag, " 7 "]]
            for short in (f for f in param.flags if not f.startswith("--")):
                out += [[*base, short + value], [*base, short, value], [*base, f"{short}={value}"]]
        out += [[*base, flag[:-1]], [*base, flag[:3]], [*base, flag + "x"]]
        if param.required:
            without = list(base)
            del without[without.index(flag) : without.index(flag) + 2]
            out += [without]
    return out


CASES = [
    pytest.param(command, argv, id=f"{command.name}:{' '.join(argv)}")
    for command in all_commands()
    for argv in samples(command)
]


@pytest.mark.parametrize(("command", "argv"), CASES)
def test_the_executor_accepts_exactly_what_the_help_documents(
    capsys: pytest.CaptureFixture[str], command: Command, argv: list[str]
) -> None:
    assert through_executor(command, argv) == through_click(command, argv, capsys)


def test_the_samples_reach_every_outcome_for_every_command(
    capsys: pytest.CaptureFixture[str],
) -> None:
    for command in all_commands():
        kinds = {through_executor(command, argv)[0] for argv in samples(command)}
        assert kinds == {"accepted", "refused", "eager"}, command.name


def by_name(name: str) -> Command:
    return next(c for c in all_commands() if c.name == name)


@pytest.mark.parametrize(
    ("name", "argv", "expected"),
    [
        ("lint", ["a.md", "--format", "json", "b.md"], ("paths", [Path("a.md"), Path("b.md")])),
        ("lint", ["--select", "EP1", "a.md", "--select=EP2"], ("select", ["EP1", "EP2"])),
        ("gold check", ["s.jsonl", "-j2"], ("jobs", 2)),
        ("convert", ["-", "--to", "jsonl", "-o-", "--offset", "-1"], ("offset", -1)),
        ("rule", [], ("code", None)),
    ],
)
def test_options_go_anywhere_and_take_what_follows(
    capsys: pytest.CaptureFixture[str], name: str, argv: list[str], expected: tuple[str, object]
) -> None:
    command = by_name(name)
    outcome = through_executor(command, argv)
    assert outcome == through_click(command, argv, capsys)
    assert outcome[0] == "accepted"
    values = outcome[1]
    assert isinstance(values, dict)
    assert values[expected[0]] == expected[1]


@pytest.mark.parametrize(
    "argv",
    [
        ["roundtrip", "--di", "x.md"],
        ["roundtrip", "x.md", "--no-fix"],
        ["lint", "x.md", "--form", "json"],
        ["convert", "a.md", "--to", "xml", "-o", "out"],
        ["gold", "merge", "a.jsonl", "-o", "out.jsonl"],
    ],
)
def test_what_the_help_does_not_document_is_a_one_line_usage_error(
    capsys: pytest.CaptureFixture[str], argv: list[str]
) -> None:
    assert main(argv) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.count("\n") == 1
    assert captured.err.startswith(f"evaltools {argv[0]}")
    assert "--help'" in captured.err


def test_interleaved_options_run_the_command(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    corpus = Path(__file__).parents[1] / "data" / "corpus" / "zed-evals"
    first, second = sorted(corpus.glob("*.md"))[:2]
    assert main(["lint", str(first), "--format", "json", str(second)]) == 0
    assert capsys.readouterr().out.strip() == "[]"
