"""The command line: arguments in, exit code out; the logic lives in `evaltools.commands`.

Every command is declared once in `table.py`. Two front ends are built from that
table: a lean argparse parser that runs the commands (start-up is what a pre-commit
hook pays on every commit), and a Typer app that renders help and shell completion.
"""
