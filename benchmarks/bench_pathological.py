"""Lint on pathological examples grows linearly: each input at 1x, 2x, 4x and 8x.

    python benchmarks/bench_pathological.py [--base N] [--ceiling 1.3]

Inputs (written to a temporary folder, linted in-process with `lint_markdown`):

* `many-hunks`: N one-line hunks against an excerpt of 40·N distinct lines;
* `long-addition`: one pure-addition hunk of 400·N added lines;
* `long-history`: an edit history of 30·N hunks (each a real three-line hunk);
* `repeated-lines`: N hunks of `}` against an excerpt of 40·N lines of `}` (every hunk
  matches everywhere: lint gives up on the alignment with EP311 instead of spinning).

For each doubling it prints the time ratio (linear is 2.0). The verdict is on 1x -> 8x,
which a busy machine disturbs less than one doubling: above 8 × ceiling (default 1.3)
the run fails (exit 1).
"""

from __future__ import annotations

import argparse
import itertools
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from evaltools.example.lint.linter import lint_markdown

HEAD = (
    '+++\nrepository_url = "https://github.com/o/r"\n'
    'revision = "0123456789abcdef0123456789abcdef01234567"\n+++\n\n'
)
PATCH_HEAD = "## Expected Patch\n\n```diff\n--- a/src/big.txt\n+++ b/src/big.txt\n"


def _cursor(lines: list[str]) -> str:
    body = "\n".join([*lines[:1], "#^[CURSOR_POSITION]", *lines[1:]])
    return f"## Cursor Position\n\n```src/big.txt\n{body}\n```\n\n"


def many_hunks(n: int) -> str:
    lines = [f"line {i}" for i in range(40 * n)]
    hunks = "".join(
        f"@@ -{40 * i + 1},1 +{40 * i + 1},1 @@\n-line {40 * i}\n+new {i}\n" for i in range(n)
    )
    return HEAD + _cursor(lines) + PATCH_HEAD + hunks + "```\n"


def long_addition(n: int) -> str:
    added = "".join(f"+added {i}\n" for i in range(400 * n))
    return HEAD + _cursor(["line 0", "line 1"]) + PATCH_HEAD + "@@ -1,0 +1,1 @@\n" + added + "```\n"


def long_history(n: int) -> str:
    hunks = "".join(
        f"@@ -{3 * i + 1},2 +{3 * i + 1},2 @@\n context {i}\n-old {i}\n+new {i}\n"
        for i in range(30 * n)
    )
    history = "## Edit History\n\n```diff\n--- a/src/h.txt\n+++ b/src/h.txt\n" + hunks + "```\n\n"
    patch = PATCH_HEAD + "@@ -1,1 +1,1 @@\n-line 0\n+line zero\n```\n"
    return HEAD + history + _cursor(["line 0", "line 1"]) + patch


def repeated_lines(n: int) -> str:
    hunks = "".join(f"@@ -{i + 1},1 +{i + 1},1 @@\n-}}\n+}} // {i}\n" for i in range(n))
    return HEAD + _cursor(["}"] * (40 * n)) + PATCH_HEAD + hunks + "```\n"


INPUTS: dict[str, Callable[[int], str]] = {
    "many-hunks": many_hunks,
    "long-addition": long_addition,
    "long-history": long_history,
    "repeated-lines": repeated_lines,
}


def time_lint(path: Path) -> float:
    text = path.read_text(encoding="utf-8")
    best = float("inf")
    for _ in range(3):
        started = time.perf_counter()
        lint_markdown(text, str(path), path.stem)
        best = min(best, time.perf_counter() - started)
    return best


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", type=int, default=250, help="size of the 1x input")
    parser.add_argument("--ceiling", type=float, default=1.3, help="allowed ratio over linear")
    args = parser.parse_args(argv)
    failed = False
    with tempfile.TemporaryDirectory() as tmp:
        for name, make in INPUTS.items():
            times = []
            for factor in (1, 2, 4, 8):
                path = Path(tmp) / f"{name}-{factor}x.md"
                path.write_text(make(args.base * factor), encoding="utf-8")
                times.append(time_lint(path))
            ratios = [later / earlier for earlier, later in itertools.pairwise(times)]
            overall = times[-1] / times[0]
            verdict = "ok" if overall <= 8 * args.ceiling else "SUPER-LINEAR"
            failed |= verdict != "ok"
            shown = "  ".join(f"{t * 1000:8.1f} ms" for t in times)
            print(
                f"{name:15} {shown}   ratios per doubling "
                + " ".join(f"{r:.2f}" for r in ratios)
                + f"   1x->8x {overall:.2f} {verdict}"
            )
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
