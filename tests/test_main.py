"""The program's front door (`evaltools.__main__`): what argv that names no command gets."""

from __future__ import annotations

import pytest

from evaltools.__main__ import main


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["nope"], "no such command: 'nope'"),
        (["gold", "nope"], "no such command: 'gold nope'"),
        (["--nope"], "no such option: --nope"),
        (["gold", "--nope"], "no such option: --nope"),
    ],
)
def test_an_unknown_command_or_option_is_a_one_line_usage_error(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    # As the commands' own parser words it: one line, the error and where help is.
    assert main(argv) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err == f"evaltools: error: {message}; try 'evaltools --help'\n"


@pytest.mark.parametrize("flag", ["-h", "--help"])
def test_short_and_long_help_flags_both_show_help(
    capsys: pytest.CaptureFixture[str], flag: str
) -> None:
    assert main(["gold", "check", flag]) == 0
    assert "Usage: evaltools gold check" in capsys.readouterr().out


def test_help_text_keeps_its_square_brackets(capsys: pytest.CaptureFixture[str]) -> None:
    # Typer reads help as Rich markup, where `[tool.evaltools]` is a style tag and vanished.
    assert main(["check", "--help"]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert "Everything [tool.evaltools] asks for" in out
    assert main(["--help"]) == 0
    assert "Everything [tool.evaltools] asks for" in " ".join(capsys.readouterr().out.split())
