"""The command line: arguments in, exit code out; the logic lives in `evaltools.commands`.

Every command is declared once, in `table.py` (and `table_retrieval.py`). From that
declaration `parser.py` parses a command's argv by click's rules and `run.py` calls
the command's target in `targets.py`: the lean path a pre-commit hook pays for on
every commit. The Typer app (`typer_app.py`), built from the same declaration,
renders help and shell completion; `tests/cli/test_parity.py` proves that both accept
the same command lines.
"""
