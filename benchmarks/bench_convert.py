"""Bulk conversion throughput and memory, against a floor measured in the same run.

    python benchmarks/bench_convert.py [--records 100000] [--jobs 1,2] [--quick] [--dir DIR]
        [--editable]

Runs `evaltools` of a wheel of this checkout installed in a temporary venv, as users run
it (`installed.py`; `--editable`: this environment instead).

Generates a JSONL of corpus examples under unique names, then times, as separate
processes (the real command line):

* `evaltools convert set.jsonl --to md -o md/ --jobs N`, against the floor of that
  direction: read every line, `json.loads` it, write its bytes to a file of its own;
* `evaltools convert md/ --to jsonl -o back.jsonl --jobs N`, against its floor: read
  every file, write its bytes to one file; and checks `back.jsonl == set.jsonl`.

Peak RSS is the largest single process's (the main one or a worker), from wait4.
A run on a tenth of the records shows that memory does not grow with the input.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from installed import add_editable_option, evaltools_python  # this folder, as run from it

from evaltools.example.markdown.reader import read_markdown
from evaltools.example.spec import Example, dumps_example

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "tests" / "data" / "corpus" / "zed-evals"


def generate(path: Path, count: int) -> int:
    """Write `count` JSONL records (corpus examples, names that sort by index)."""
    tails = []
    for source in sorted(CORPUS.glob("*.md")):
        parsed = read_markdown(source.read_text(encoding="utf-8"), source.stem)
        if parsed.dropped or parsed.errors:
            continue
        line = dumps_example(Example(parsed.spec))
        prefix = '{"name":' + json.dumps(parsed.spec.name) + ","
        assert line.startswith(prefix)
        tails.append((parsed.spec.name, line[len(prefix) :]))
    with path.open("w", encoding="utf-8") as out:
        for i in range(count):
            name, tail = tails[i % len(tails)]
            out.write(f'{{"name":"ex-{i:06d}-{name}",{tail}\n')
    return path.stat().st_size


@dataclass
class Floor:
    seconds: float
    cpu: float  # CPU seconds (user + system) of this process


def floor_to_files(source: Path, target: Path) -> Floor:
    target.mkdir()
    start, cpu = time.perf_counter(), time.process_time()
    with source.open("rb") as lines:
        for i, line in enumerate(lines):
            json.loads(line)
            with (target / f"{i}.md").open("wb") as out:
                out.write(line)
    return Floor(time.perf_counter() - start, time.process_time() - cpu)


def floor_to_one_file(source: Path, target: Path) -> Floor:
    start, cpu = time.perf_counter(), time.process_time()
    with target.open("wb") as out:
        for path in sorted(source.iterdir()):
            out.write(path.read_bytes())
    return Floor(time.perf_counter() - start, time.process_time() - cpu)


@dataclass
class Run:
    seconds: float
    main_rss_mb: float  # the evaltools process's peak RSS
    worker_rss_mb: float  # the largest worker's (0 without workers)
    main_cpu: float  # CPU seconds of the evaltools process (all its threads)
    worker_cpu: float  # CPU seconds of all its workers
    jobs: int


# Runs the command, then reports the process's own peak RSS from /proc (VmHWM belongs to
# the new address space, so unlike ru_maxrss it does not include the benchmark process
# that spawned it) and its workers' (children of the command, from getrusage).
WRAPPER = """
import resource, sys
from evaltools.__main__ import main
code = main(sys.argv[1:])
try:
    with open("/proc/self/status") as status:
        hwm = next(int(l.split()[1]) for l in status if l.startswith("VmHWM:"))
except OSError:
    hwm = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
me = resource.getrusage(resource.RUSAGE_SELF)
kids = resource.getrusage(resource.RUSAGE_CHILDREN)
sys.stderr.write(f"RSS {hwm} {kids.ru_maxrss} {me.ru_utime + me.ru_stime} "
                 f"{kids.ru_utime + kids.ru_stime}\\n")
raise SystemExit(code)
"""


def run_cli(python: str, args: list[str]) -> Run:
    """Run `evaltools ARGS` in a child process: wall time, peak RSS and CPU time."""
    start = time.perf_counter()
    done = subprocess.run(
        [python, "-c", WRAPPER, *args], capture_output=True, text=True, check=False
    )
    seconds = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"evaltools {' '.join(args)} failed:\n{done.stdout}{done.stderr}")
    last = done.stderr.strip().splitlines()[-1].split()
    main_kb, worker_kb, main_cpu, worker_cpu = (float(x) for x in last[1:])
    jobs = int(args[args.index("--jobs") + 1]) if "--jobs" in args else 0
    return Run(seconds, main_kb / 1024, worker_kb / 1024, main_cpu, worker_cpu, jobs)


def fresh(path: Path) -> Path:
    if path.is_dir():
        shutil.rmtree(path)
    elif path.exists():
        path.unlink()
    return path


def line(label: str, *, count: int, megabytes: float, run: Run, floor: Floor, base: Run) -> str:
    """Wall-time figures, then CPU-time ones (which other load on the machine skews less).

    `critical path` = max(main CPU, worker CPU / jobs): the wall time on idle cores,
    when nothing waits for I/O.
    """
    critical = (
        max(run.main_cpu, run.worker_cpu / run.jobs)
        if run.worker_cpu and run.jobs
        else run.main_cpu
    )
    base_critical = base.main_cpu + base.worker_cpu
    rss = f"{run.main_rss_mb:.0f} MB" + (
        f" + workers {run.worker_rss_mb:.0f} MB each" if run.worker_rss_mb else ""
    )
    return (
        f"{label}\n"
        f"    wall {run.seconds:6.2f} s  {count / run.seconds:7,.0f} rec/s  "
        f"{megabytes / run.seconds:5.1f} MB/s  {run.seconds / floor.seconds:4.2f}x floor  "
        f"speed-up {base.seconds / run.seconds:4.2f}x\n"
        f"    cpu  main {run.main_cpu:5.1f} s + workers {run.worker_cpu:5.1f} s  "
        f"{(run.main_cpu + run.worker_cpu) / floor.cpu:4.2f}x floor cpu  "
        f"critical path {critical:5.1f} s (speed-up {base_critical / critical:4.2f}x)\n"
        f"    peak RSS {rss}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--records", type=int, default=100_000)
    parser.add_argument("--jobs", default="1,2", help="comma-separated job counts")
    parser.add_argument("--quick", action="store_true", help="5,000 records")
    parser.add_argument("--dir", type=Path, default=None, help="where to put the files")
    add_editable_option(parser)
    args = parser.parse_args()
    count = 5_000 if args.quick else args.records
    jobs = [int(j) for j in args.jobs.split(",")]
    work = Path(tempfile.mkdtemp(prefix="bench-convert-", dir=args.dir))
    try:
        with evaltools_python(args.editable) as python:
            measure(python, work, count, jobs)
    finally:
        shutil.rmtree(work)


def measure(python: str, work: Path, count: int, jobs: list[int]) -> None:
    source = work / "set.jsonl"
    megabytes = generate(source, count) / 1e6
    small = work / "small.jsonl"
    generate(small, max(1, count // 10))
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"input: {count:,} records, {megabytes:.1f} MB; {os.cpu_count()} CPUs, load {load:.1f}")
    floor_md = floor_to_files(source, fresh(work / "floor-md"))
    floor_jsonl = floor_to_one_file(work / "floor-md", fresh(work / "floor.jsonl"))
    fresh(work / "floor-md")
    for name, floor in (("jsonl -> files", floor_md), ("files -> jsonl", floor_jsonl)):
        print(f"floor {name}: wall {floor.seconds:.2f} s, cpu {floor.cpu:.2f} s")
    base: dict[str, Run] = {}
    for n in jobs:
        out = fresh(work / "md")
        run = run_cli(
            python, ["convert", str(source), "--to", "md", "-o", str(out), "--jobs", str(n)]
        )
        base.setdefault("md", run)
        label = f"jsonl -> md, --jobs {n}"
        print(
            line(label, count=count, megabytes=megabytes, run=run, floor=floor_md, base=base["md"])
        )
        back = fresh(work / "back.jsonl")
        run = run_cli(
            python, ["convert", str(out), "--to", "jsonl", "-o", str(back), "--jobs", str(n)]
        )
        base.setdefault("jsonl", run)
        label, floor, first = f"md -> jsonl, --jobs {n}", floor_jsonl, base["jsonl"]
        print(line(label, count=count, megabytes=megabytes, run=run, floor=floor, base=first))
        if back.read_bytes() != source.read_bytes():
            raise SystemExit("md -> jsonl did not reproduce the input byte for byte")
    default_against_one_job(python, work, source)
    fresh(work / "md")
    run = run_cli(
        python, ["convert", str(small), "--to", "md", "-o", str(work / "md"), "--jobs", "1"]
    )
    print(f"peak RSS with a tenth of the input (jsonl -> md, --jobs 1): {run.main_rss_mb:.0f} MB")


def default_against_one_job(python: str, work: Path, source: Path) -> None:
    """The default (no --jobs) against --jobs 1, interleaved (default, 1, default, 1) so
    that load from elsewhere on the machine hits both alike; the ratio of the best runs."""
    for to, out in (("md", work / "md"), ("jsonl", work / "again.jsonl")):
        times: dict[str, list[float]] = {"default": [], "--jobs 1": []}
        for _ in range(2):
            for label, extra in (("default", []), ("--jobs 1", ["--jobs", "1"])):
                fresh(out)
                args = ["convert", str(source), "--to", to, "-o", str(out), *extra]
                times[label].append(run_cli(python, args).seconds)
        best = {label: min(seconds) for label, seconds in times.items()}
        print(
            f"jsonl -> {to}: default {best['default']:.2f} s, --jobs 1 {best['--jobs 1']:.2f} s: "
            f"default / --jobs 1 = {best['default'] / best['--jobs 1']:.2f} (best of 2 each)"
        )


if __name__ == "__main__":
    main()
