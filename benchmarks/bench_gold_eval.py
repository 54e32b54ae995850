"""`gold eval` scoring against reading the run file.

    python benchmarks/bench_gold_eval.py [--queries 1000] [--results 100] [--repeats 3]

Writes a set of --queries queries (three types, 20% holdout, 1-4 graded gold IDs each) and a
TREC run of --results results a query, then times, best of --repeats:

  read    reading and ranking the run file (`retrieval.runs.read_run`)
  score   scoring the read run: metrics at k=10 per query, every group's mean and 95%
          bootstrap interval (`retrieval.evaluate.evaluate`)
  compare the same with --baseline (paired randomization test per group)

Target: read + score under 3x read (the issue's "scored in under 3x the time of reading").
"""

from __future__ import annotations

import argparse
import json
import random
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from evaltools.retrieval.records.record import parse_line
from evaltools.retrieval.scoring.evaluate import evaluate, grades, queries_of
from evaltools.retrieval.scoring.runs import read_run


def best(repeats: int, work: Callable[[], object]) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--queries", type=int, default=1000)
    parser.add_argument("--results", type=int, default=100)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    rng = random.Random(0)
    chunks = [
        f"pkg/mod{i // 20}.py:{i % 20 * 10 + 1}-{i % 20 * 10 + 8}:fn_{i}" for i in range(20000)
    ]
    records = [
        {
            "qid": f"q{i}",
            "type": ("intent", "symbol", "bug")[i % 3],
            "split": "holdout" if i % 5 == 0 else "tune",
            "gold": {c: rng.randint(1, 3) for c in rng.sample(chunks, rng.randint(1, 4))},
        }
        for i in range(args.queries)
    ]
    queries = queries_of(
        parse_line(json.dumps(r).encode(), number) for number, r in enumerate(records, 1)
    )
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "run.txt"
        lines = []
        for q in queries:
            picked = list(grades(q))[:1] + rng.sample(chunks, args.results - 1)
            rng.shuffle(picked)
            lines += [
                f"{q.qid} Q0 {c} {r + 1} {100 - r * 0.5} bench\n" for r, c in enumerate(picked)
            ]
        path.write_text("".join(lines), encoding="utf-8")
        run = read_run(path)
        read = best(args.repeats, lambda: read_run(path))
        score = best(args.repeats, lambda: evaluate(queries, run, k=10, seed=0))
        compare = best(args.repeats, lambda: evaluate(queries, run, k=10, seed=0, baseline=run))
    print(f"{args.queries} queries x {args.results} results ({len(lines)} run lines)")
    print(f"read     {read:.3f}s")
    print(f"score    {score:.3f}s")
    print(f"compare  {compare:.3f}s")
    ratio = (read + score) / read
    print(f"read + score = {ratio:.2f}x read (target < 3x): {'ok' if ratio < 3 else 'OVER'}")


if __name__ == "__main__":
    main()
