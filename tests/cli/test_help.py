"""`--help` of every command and group renders, through the real CLI, in words a user
reads: metavars, not Python types."""

from __future__ import annotations

import re

import pytest

from evaltools.__main__ import main, typer_main
from evaltools.cli.params import Command
from evaltools.cli.table import all_commands, groups
from evaltools.cli.typer_app import usage_name
from evaltools.config import schema as config_schema

LEAKED = (
    "\\[",
    "<bool>",
    "list[",
    "Path]",
    "typing.",
    "Optional",
    "{PATH}",
    "<path>",
    "<int>",
    "<float>",
)

PAGES = [[], *([name] for name in groups()), *(list(c.path) for c in all_commands())]


@pytest.mark.parametrize("words", PAGES, ids=lambda w: " ".join(w) or "evaltools")
@pytest.mark.parametrize("flag", ["--help", "-h"])
def test_every_help_renders_without_python_type_names(
    capsys: pytest.CaptureFixture[str], words: list[str], flag: str
) -> None:
    assert main([*words, flag]) == 0
    shown = capsys.readouterr().out
    assert f"Usage: evaltools {' '.join(words)}".strip() in " ".join(shown.split())
    for leak in LEAKED:
        assert leak not in shown, leak


@pytest.mark.parametrize("command", all_commands(), ids=lambda c: c.name)
def test_every_parameter_is_described(capsys: pytest.CaptureFixture[str], command: Command) -> None:
    assert main([*command.path, "--help"]) == 0
    shown = " ".join(capsys.readouterr().out.replace("│", " ").split())
    for param in command.params:
        assert " ".join(param.help.split()[:4]) in shown, param.name
        if param.positional:
            assert usage_name(param) in shown


def test_flags_are_switches_not_pairs(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["roundtrip", "--help"]) == 0
    shown = capsys.readouterr().out
    assert "--fix" in shown
    assert "--no-fix" not in shown


def test_the_gold_group_says_what_the_gold_discipline_is(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["gold", "--help"]) == 0
    shown = " ".join(capsys.readouterr().out.split())
    assert "gold commands." not in shown
    assert "gold chunk IDs must resolve" in shown
    for sub in ("check", "stats", "mine", "merge", "sample", "split"):
        assert f"{sub}:" in shown


def test_help_after_arguments_is_still_help(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["convert", "a.md", "--help"]) == 0
    assert "Usage: evaltools convert" in capsys.readouterr().out


@pytest.mark.parametrize("words", PAGES, ids=lambda w: " ".join(w) or "evaltools")
def test_version_on_every_command_and_group(
    capsys: pytest.CaptureFixture[str], words: list[str]
) -> None:
    from evaltools import __version__

    # What runs, and what the help documents (the Typer app), must both answer it.
    for run in (main, typer_main):
        assert run([*words, "--version"]) == 0, run.__name__
        assert capsys.readouterr().out == f"evaltools {__version__}\n", run.__name__


def test_shell_completion_is_answered_from_the_typer_app(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # What the bash script of `evaltools --install-completion` runs on <TAB>.
    monkeypatch.setenv("_EVALTOOLS_COMPLETE", "complete_bash")
    monkeypatch.setenv("COMP_WORDS", "evaltools lint --format ")
    monkeypatch.setenv("COMP_CWORD", "3")
    assert main([]) == 0
    assert capsys.readouterr().out.split() == ["text", "json", "github", "sarif"]


# `key` of [tool.evaltools.table], or a dotted tool.evaltools.table.key: what help names.
_KEY_OF_TABLE = re.compile(r"`([a-z-]+)` of \[tool\.evaltools(?:\.([a-z-]+))?\]")
_DOTTED = re.compile(r"(?<![\[\w.])tool\.evaltools((?:\.[a-z-]+)+)")


def test_every_configuration_key_a_help_names_exists() -> None:
    """A default said to come from a key the configuration rejects (the metas default was
    `tool.evaltools.retrieval.sources.metas`) sends users to write an error."""
    tables: dict[str | None, dict[str, object]] = {
        None: dict(config_schema.TOP),
        "retrieval": dict(config_schema.RETRIEVAL),
        "dupes": dict(config_schema.DUPES),
    }
    texts = [c.help for c in all_commands()] + [p.help for c in all_commands() for p in c.params]
    named = 0
    for text in texts:
        flat = " ".join(text.split())
        for key, table in _KEY_OF_TABLE.findall(flat):
            assert key in tables[table or None], f"{key!r} of {table!r} in: {flat}"
            named += 1
        for dotted in _DOTTED.findall(flat):
            parts = dotted.strip(".").split(".")
            table = parts[0] if parts[0] in tables else None
            keys = parts[1:] if table else parts
            # A table alone (`of tool.evaltools.retrieval`), or one key of it.
            assert len(keys) <= 1 and all(k in tables[table] for k in keys), flat
            named += 1
    assert named >= 5
