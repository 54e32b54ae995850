"""Write the golden files in tests/data/golden/ from the current code.

    .venv/bin/python -m tests.regenerate_golden [--overwrite] [NAME ...]

Each file is what one test module's `record()` gives. An existing file is kept unless
`--overwrite` is given: regenerate only when a change of output is meant, and review the diff."""

from __future__ import annotations

import argparse
import importlib
import sys

from tests import golden

# golden file name -> the test module that records it and compares against it
SOURCES = {
    "markdown-reader": "tests.example.markdown.test_reader_golden",
    "markdown-roundtrip": "tests.example.markdown.test_roundtrip_golden",
    "lint-causes": "tests.example.lint.test_causes_golden",
    "diff-grammar": "tests.example.diffs.test_diff_grammar_golden",
}


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.regenerate_golden")
    parser.add_argument("names", nargs="*", choices=[[], *SOURCES], metavar="NAME")
    parser.add_argument("--overwrite", action="store_true", help="replace existing files")
    args = parser.parse_args(argv)
    status = 0
    for name in args.names or list(SOURCES):
        path = golden.GOLDEN / f"{name}.json"
        if path.exists() and not args.overwrite:
            print(f"{path}: exists, kept (pass --overwrite to replace it)", file=sys.stderr)
            status = 1
            continue
        written = golden.dump(name, importlib.import_module(SOURCES[name]).record())
        print(f"{written}: {written.stat().st_size} bytes")
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
