"""`evaltools validate` throughput on a big generated set, against bare `json.loads`.

    python benchmarks/bench_validate.py [--records 1000000] [--jobs N] [--quick]

Writes a JSONL of valid records (1-4 gold IDs each, optional fields on most; a quarter as
many distinct chunk IDs as records, shared between queries), then times, in the same run:
(a) the floor: reading the file line by line and `json.loads` of every line, one process;
(b) the full `evaltools validate FILE --jobs N` (all cores by default), in-process;
(c) the same with `--jobs 1`: the fast check alone, one core;
(d) for scale, jsonschema's `is_valid` alone, on a sample (what validating everything with
    jsonschema would cost).
Target: (b) at least 200,000 records/s.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import random
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from evaltools.__main__ import main
from evaltools.retrieval.records.validation.schema import build_validator, default_schema

WORDS = ("session", "token", "logout", "refresh", "user", "cache", "index", "upload", "query")
TYPES = ("identifier", "intent", "intent", "intent", "mixed", "identifier")
SOURCES = ("agent_log", "interview", "git_weak")


def generate(path: Path, records: int, seed: int) -> int:
    rng = random.Random(seed)
    # About ten queries per chunk ID, so no cache of known-good IDs could make this easy.
    chunk_ids = [
        f"demo_repo/pkg{rng.randrange(40)}/mod_{n}.py:{start}-{start + rng.randrange(40)}:"
        f"Store{n % 17}.fn_{n}"
        for n, start in ((n, rng.randrange(1, 900)) for n in range(max(records // 4, 100)))
    ]
    with path.open("w", encoding="utf-8") as out:
        for n in range(records):
            record: dict[str, object] = {
                "qid": f"q{n:07d}",
                "query": " ".join(rng.choices(WORDS, k=rng.randrange(1, 9))),
                "type": rng.choice(TYPES),
                "gold": {
                    c: rng.randrange(1, 4) for c in rng.sample(chunk_ids, rng.randrange(1, 5))
                },
            }
            if rng.random() < 0.9:
                record["split"] = "holdout" if rng.random() < 0.2 else "tune"
                record["source"] = rng.choice(SOURCES)
            if rng.random() < 0.3:
                record["annotators"] = ["ann", "bob"]
                record["revision"] = f"{rng.getrandbits(160):040x}"
            out.write(json.dumps(record) + "\n")
    return path.stat().st_size


def floor(path: Path) -> None:
    loads = json.loads
    with path.open("rb") as stream:
        for line in stream:
            loads(line.decode())


def run_validate(path: Path, jobs: int) -> None:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = main(["validate", str(path), "--jobs", str(jobs)])
    if code != 0:
        raise SystemExit(f"validate failed ({code}):\n{out.getvalue()[:2000]}")


def jsonschema_sample(path: Path, sample: int) -> None:
    validator = build_validator(default_schema())
    with path.open("rb") as stream:
        for n, line in enumerate(stream):
            if n == sample:
                break
            validator.is_valid(json.loads(line))


def timed(label: str, count: int, func: Callable[[], None], base: float | None) -> float:
    start = time.perf_counter()
    func()
    seconds = time.perf_counter() - start
    rate = count / seconds
    ratio = f"  {rate / base:5.2f}x the floor" if base else ""
    print(f"{label:<44} {seconds:8.2f} s  {rate:>12,.0f} records/s{ratio}")
    return rate


def main_cli() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--records", type=int, default=1_000_000)
    parser.add_argument("--jobs", type=int, default=len(os.sched_getaffinity(0)))
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--quick", action="store_true", help="50,000 records")
    args = parser.parse_args()
    records = 50_000 if args.quick else args.records
    with tempfile.TemporaryDirectory(prefix="bench-validate-") as tmp:
        path = Path(tmp) / "set.jsonl"
        size = generate(path, records, args.seed)
        # Other work on the machine takes cores from the workers: say how busy it was.
        load = os.getloadavg()[0]
        print(f"{records:,} records, {size / 1e6:.1f} MB, {args.jobs} jobs, load {load:.2f}\n")
        base = timed(
            "floor: json.loads of every line (1 process)", records, lambda: floor(path), None
        )
        rate = timed(
            f"evaltools validate --jobs {args.jobs}",
            records,
            lambda: run_validate(path, args.jobs),
            base,
        )
        timed("evaltools validate --jobs 1", records, lambda: run_validate(path, 1), base)
        sample = min(records, 20_000)
        timed(
            "jsonschema is_valid alone (sample)",
            sample,
            lambda: jsonschema_sample(path, sample),
            base,
        )
        verdict = "meets" if rate >= 200_000 else "MISSES"
        print(f"\n{verdict} the target of 200,000 records/s ({rate:,.0f})")


if __name__ == "__main__":
    main_cli()
