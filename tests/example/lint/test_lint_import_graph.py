"""What `evaltools lint one.md` (the pre-commit hook) loads: only what one lint needs.

Looked at in a fresh interpreter, as the hook starts one (`benchmarks/bench_lint.py` shows the
same run under `python -X importtime`, with what each module costs)."""

from __future__ import annotations

import functools
import subprocess
import sys

from tests.conftest import CORPUS

ONE_FILE = CORPUS / "zed--change-match-arm.md"
HEAVY = ("jsonschema", "tree_sitter", "typer", "click", "rich", "ruamel")

# Modules built for `evaltools lint`, run as the console script does.
_PROBE = """
import dataclasses, sys
from evaltools.__main__ import main
code = main(["lint", sys.argv[1]])
classes = [
    f"{name}.{attr}"
    for name, module in list(sys.modules.items())
    if name.startswith("evaltools")
    for attr, value in vars(module).items()
    if isinstance(value, type) and value.__module__ == name and dataclasses.is_dataclass(value)
]
sys.stderr.write(f"exit code: {code}\\n")
sys.stderr.write("".join(f"dataclass: {c}\\n" for c in classes))
sys.stderr.write("".join(f"module: {m}\\n" for m in sorted(sys.modules)))
"""


@functools.lru_cache(maxsize=1)
def lint_one_file() -> tuple[list[str], list[str], str]:
    """(modules imported, dataclasses defined by evaltools, stdout) of one lint run."""
    done = subprocess.run(
        [sys.executable, "-c", _PROBE, str(ONE_FILE)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert "exit code: 0" in done.stderr, done.stderr[-2000:]
    lines = done.stderr.splitlines()
    modules = [line.split(": ", 1)[1] for line in lines if line.startswith("module: ")]
    classes = [
        line.split(": ", 1)[1]
        for line in done.stderr.splitlines()
        if line.startswith("dataclass: ")
    ]
    return modules, classes, done.stdout


def test_the_lint_path_imports_no_heavy_module() -> None:
    modules, _, stdout = lint_one_file()
    assert "EP108" in stdout  # it did lint the file
    assert "evaltools.example.lint.linter" in modules
    heavy = [m for m in modules if m.split(".")[0] in HEAVY]
    assert heavy == []


def test_the_lint_path_imports_neither_retrieval_nor_other_commands() -> None:
    modules, _, _ = lint_one_file()
    ours = [m for m in modules if m.startswith("evaltools.")]
    assert [m for m in ours if m.startswith("evaltools.retrieval")] == []
    assert [m for m in ours if m.startswith("evaltools.commands.")] == ["evaltools.commands.lint"]


def test_the_lint_path_defines_few_dataclasses() -> None:
    # Each dataclass costs about a millisecond of start-up (its methods are compiled at import);
    # value types on the path are named tuples. There were 32 before.
    _, classes, _ = lint_one_file()
    assert len(classes) <= 18, classes
    diff_and_cursor = [
        c
        for c in classes
        if c.startswith(("evaltools.example.diffs.", "evaltools.example.cursor."))
    ]
    assert diff_and_cursor == []
