"""Hostile sizes stay near-linear and bounded (issue 33.10), each against a baseline measured
in the same run.

    python benchmarks/bench_hostile.py [--findings 250] [--repeats 3]

(a) `lint` of one `.json` record with N and 4N findings (N empty expected patches, EP309
    each), in-process CPU time, best of `--repeats`: the ratio t(4N) / (4 t(N)) is 1.0 for
    linear time (it was ~1.9 for 4x the findings before the one position converter, ~16
    for a fully quadratic pass; 4N stays within lint's 1,000 expected patches, EP313).
    Beside it, the baseline in the same run: placing the same offsets by counting newlines
    from the record's start, as each finding once did.
(b) `score` on one prediction whose patch adds one line of L characters, L below and past
    the limit (`MAX_PATCH_CHARS`): the peak memory traced while scoring, per character, and
    the time; past the limit the example is refused (IO009) at a small, constant cost.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import shutil
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

from evaltools.__main__ import main as evaltools_main
from evaltools.positions import Lines
from evaltools.score.inputs import MAX_PATCH_CHARS

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "tests" / "data" / "corpus" / "zed-evals"
sys.path.insert(0, str(ROOT))
from tests.score._examples import PERFECT, example, prediction  # noqa: E402


def quiet(argv: list[str]) -> int:
    out, err = io.TextIOWrapper(io.BytesIO()), io.TextIOWrapper(io.BytesIO())
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        return evaltools_main(argv)


def cpu(action: object, repeats: int) -> float:
    best = float("inf")
    for _ in range(repeats):
        start = time.process_time()
        action()  # type: ignore[operator]
        best = min(best, time.process_time() - start)
    return best


def lint_row(folder: Path, findings: int, repeats: int) -> None:
    shutil.copyfile(CORPUS / "flask--add-import-statement.md", folder / "o--x.md")
    quiet(["convert", str(folder / "o--x.md"), "--to", "json", "-o", str(folder / "x.json")])
    record = json.loads((folder / "x.json").read_text())
    times, counted, indexed = {}, {}, {}
    for n in (findings, 4 * findings):
        record["expected_patches"] = [""] * n
        path = folder / f"r{n}.json"
        text = json.dumps(record, indent=1)
        path.write_text(text)
        times[n] = cpu(lambda p=path: quiet(["lint", str(p), "--jobs", "1"]), repeats)
        offsets = [i for i, c in enumerate(text) if c == '"'][::4][:n]
        counted[n] = cpu(lambda t=text, o=offsets: [t.count("\n", 0, x) for x in o], 1)
        indexed[n] = cpu(lambda t=text, o=offsets: list(map(Lines(t).line_column, o)), repeats)
    n, m = findings, 4 * findings
    print(f"(a) lint, one .json record: {n:,} findings {times[n]:.2f} s, {m:,}: {times[m]:.2f} s")
    print(f"    t(4N) / 4 t(N) = {times[m] / (4 * times[n]):.2f}  (1.0 linear, 4.0 quadratic)")
    print(
        f"    placing the offsets alone: counting from the start {counted[n]:.2f} s -> "
        f"{counted[m]:.2f} s ({counted[m] / (4 * counted[n]):.2f}); the line index "
        f"{indexed[n]:.3f} s -> {indexed[m]:.3f} s ({indexed[m] / (4 * indexed[n]):.2f})"
    )


def score_row(folder: Path, length: int) -> None:
    patch = PERFECT.replace("+    let x = 100;", "+" + "x" * length)
    path = folder / f"p{length}.jsonl"
    path.write_text(json.dumps(example("ex", [prediction(patch)])) + "\n")
    tracemalloc.start()
    start = time.process_time()
    code = quiet(["score", str(path), "--jobs", "1"])
    spent = time.process_time() - start
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    what = "refused (IO009)" if len(patch) > MAX_PATCH_CHARS else "scored"
    print(
        f"(b) score, a line of {length:,} chars: {what}, exit {code}, {spent:.2f} s CPU, "
        f"peak {peak / 1e6:.1f} MB traced = {peak / length:.0f} B per char"
    )


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--findings", type=int, default=250)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as temp:
        folder = Path(temp)
        lint_row(folder, args.findings, args.repeats)
        for length in (10_000, MAX_PATCH_CHARS - 1_000, 10_000_000):
            score_row(folder, length)
    return 0


if __name__ == "__main__":
    sys.exit(main())
