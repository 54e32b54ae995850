"""`evaltools server`'s latency over a real stdio pipe, against the in-process lint of the
same text measured in the same run.

    python benchmarks/bench_server.py [--repeats 20]

Starts the server once (warm: the first document is opened and discarded), then times, as
wall time (what an editor waits for), the median of `--repeats`:
(a) `didOpen` of a corpus example to its first `publishDiagnostics` (target ≤ 150 ms),
(b) `didChange` (one character typed) to its `publishDiagnostics` (target ≤ 50 ms),
(c) the baseline: `evaltools.server.analysis.lint` of the same text in this process (the
work the server does per change, without the protocol).
Targets: issue 32. On a loaded machine, read the ratios to (c), not the absolute figures.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from evaltools.server.analysis import lint  # noqa: E402
from tests.server.lspclient import Client  # noqa: E402

CORPUS = REPO / "tests" / "data" / "corpus" / "zed-evals"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeats", type=int, default=20)
    args = parser.parse_args()
    example = sorted(CORPUS.glob("*.md"))[0]
    text = example.read_text("utf-8")
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        client = Client(root)
        client.start(root)
        client.diagnostics(client.open(root / "warm-up.md", text), 1)
        opens, changes, inline = [], [], []
        for n in range(args.repeats):
            path = root / f"{example.stem}-{n}.md"
            started = time.perf_counter()
            uri = client.open(path, text)
            client.diagnostics(uri, 1)
            opens.append(time.perf_counter() - started)
            edited = text + ("x" if n % 2 else "\n")
            started = time.perf_counter()
            client.change(uri, 2, edited)
            client.diagnostics(uri, 2)
            changes.append(time.perf_counter() - started)
            started = time.perf_counter()
            lint(path, edited)
            inline.append(time.perf_counter() - started)
        client.stop()
    base = statistics.median(inline)
    for name, times, target in (
        ("didOpen -> diagnostics", opens, 0.150),
        ("didChange -> diagnostics", changes, 0.050),
        ("in-process lint (baseline)", inline, None),
    ):
        median = statistics.median(times)
        goal = f"  target ≤ {target * 1000:.0f} ms" if target else ""
        print(f"{name:28} {median * 1000:7.1f} ms  {median / base:5.2f}x baseline{goal}")


if __name__ == "__main__":
    main()
