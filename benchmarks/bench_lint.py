"""Start-up and throughput of `evaltools lint`, against floors measured in the same run.

    python benchmarks/bench_lint.py [--runs 30] [--megabytes 20] [--quick] [--editable]

Processes run in a temporary venv where evaltools is installed from a wheel of this checkout,
as users get it (`installed.py`; `--editable`: in this environment instead, whose import hook
adds to every start, the floor's included).

(a) One file, what the pre-commit hook pays at every commit: the whole-process wall time
    of `evaltools lint FILE` (the venv's console script), against `python -c pass` and
    `python -c "import evaltools"` of the same venv,
    best and median of interleaved runs, wall time and (fairer on a busy machine) the child's
    CPU time; target (issue 14): lint within 4x of `python -c pass`.
    Measured twice: with bytecode cached (as pip installs a package: the figure users
    get) and in the inherited environment (here PYTHONDONTWRITEBYTECODE=1 and no
    __pycache__ in the editable checkout, so every evaltools module is compiled each run).
    Then `python -X importtime` of the lint run: the modules it imports beyond the bare
    interpreter's, best self time of a few runs, to show what start-up pays for.
(b) The corpus replicated to ~20 MB in a temp dir: `evaltools lint DIR --jobs 1` and
    `--jobs 2` against the bare `pyromark.events` pass over the same bytes in this process
    (its CPU time, `time.process_time`); target (issue 14): lint within 15x of the bare
    parse per core (CPU seconds of `--jobs 1`, wall seconds x jobs with workers, over the
    bare CPU seconds).
    Also in this process, without start-up and file reading: `lint_markdown` over the same
    texts, and evaltools' Markdown reader alone (`read_markdown`, the pass every rule starts
    from), each as CPU time against the same floor.
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pyromark
from installed import add_editable_option, evaltools_python  # this folder, as run from it

from evaltools.example.lint.linter import lint_markdown
from evaltools.example.markdown.reader import read_markdown

CORPUS = Path(__file__).resolve().parent.parent / "tests" / "data" / "corpus" / "zed-evals"
ONE_FILE = CORPUS / "zed--change-match-arm.md"


def lint_command(python: str) -> list[str]:
    script = Path(python).parent / "evaltools"
    if script.is_file():
        return [str(script), "lint"]
    return [python, "-m", "evaltools", "lint"]


def cached_env(cache: Path) -> dict[str, str]:
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env["PYTHONPYCACHEPREFIX"] = str(cache)
    return env


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def timed(argv: list[str], env: dict[str, str]) -> tuple[float, float]:
    """(wall seconds, CPU seconds of the process and its children) of one run."""
    cpu = children_cpu()
    start = time.perf_counter()
    done = subprocess.run(
        argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, check=False
    )
    elapsed = time.perf_counter() - start
    # A crash exits with 1 too, as findings do: only its traceback tells them apart.
    if done.returncode not in (0, 1) or b"Traceback" in done.stderr:
        raise SystemExit(f"{argv} failed with exit code {done.returncode}")
    return elapsed, children_cpu() - cpu


def wall(argv: list[str], env: dict[str, str]) -> float:
    return timed(argv, env)[0]


def startup(python: str, runs: int, env: dict[str, str], label: str) -> None:
    commands = {
        "python -c pass": [python, "-c", "pass"],
        "python -c 'import evaltools'": [python, "-c", "import evaltools"],
        "evaltools lint FILE": [*lint_command(python), str(ONE_FILE)],
    }
    for argv in commands.values():  # warm the page cache and the bytecode cache
        wall(argv, env)
        wall(argv, env)
    times: dict[str, list[float]] = {name: [] for name in commands}
    cpus: dict[str, list[float]] = {name: [] for name in commands}
    for _ in range(runs):  # interleaved, so that load from elsewhere hits all alike
        for name, argv in commands.items():
            elapsed, cpu = timed(argv, env)
            times[name].append(elapsed)
            cpus[name].append(cpu)
    base_best = min(times["python -c pass"])
    base_median = statistics.median(times["python -c pass"])
    base_cpu = min(cpus["python -c pass"])
    print(f"\n(a) one file, {label}: wall best / median of {runs} runs; best CPU time")
    for name, values in times.items():
        best, median, cpu = min(values), statistics.median(values), min(cpus[name])
        print(
            f"  {name:30} {best * 1000:7.1f} ms / {median * 1000:7.1f} ms"
            f"   {best / base_best:4.2f}x / {median / base_median:4.2f}x"
            f"   CPU {cpu * 1000:6.1f} ms {cpu / base_cpu:4.2f}x"
        )
    print("  target: lint <= 4x python -c pass (check-jsonschema, the nearest peer: ~23x)")


_IMPORTTIME = re.compile(r"import time:\s+(\d+) \|\s+(\d+) \|( *)(\S+)")


def import_times(argv: list[str], env: dict[str, str]) -> dict[str, int]:
    done = subprocess.run(
        argv,
        env={**env, "PYTHONPROFILEIMPORTTIME": "1"},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        check=False,
    )
    found = {}
    for line in done.stderr.splitlines():
        match = _IMPORTTIME.match(line)
        if match:
            found[match.group(4)] = int(match.group(1))
    return found


def importtime_report(python: str, runs: int, env: dict[str, str], top: int) -> None:
    bare = import_times([python, "-c", "pass"], env)
    samples = [import_times([*lint_command(python), str(ONE_FILE)], env) for _ in range(runs)]
    best = {
        module: min(s.get(module, 10**9) for s in samples)
        for module in samples[0]
        if module not in bare
    }
    ours = sum(t for m, t in best.items() if m.split(".")[0] == "evaltools")
    print(f"\n    importtime of the lint run (bytecode cached; best self time of {runs} runs)")
    print(
        f"    {len(best)} modules beyond `python -c pass`, {sum(best.values()) / 1000:.1f} ms "
        f"self in all (evaltools: {ours / 1000:.1f} ms; importtime itself inflates these)"
    )
    for module, micros in sorted(best.items(), key=lambda item: -item[1])[:top]:
        print(f"    {micros / 1000:6.2f} ms  {module}")


def build_corpus(directory: Path, megabytes: float) -> list[str]:
    files = sorted(CORPUS.glob("*.md"))
    target = int(megabytes * 1024 * 1024)
    texts: list[str] = []
    size = 0
    copy = 0
    while size < target:
        folder = directory / f"copy{copy:04}"
        folder.mkdir()
        for source in files:
            data = source.read_bytes()
            (folder / source.name).write_bytes(data)
            texts.append(data.decode("utf-8"))
            size += len(data)
        copy += 1
    return texts


def bare_parse(texts: list[str]) -> float:
    start = time.process_time()
    for text in texts:
        for _event in pyromark.events(text):
            pass
    return time.process_time() - start


def reader_only(texts: list[str]) -> float:
    start = time.process_time()
    for text in texts:
        read_markdown(text)
    return time.process_time() - start


def lint_in_process(texts: list[str]) -> float:
    start = time.process_time()
    for index, text in enumerate(texts):
        lint_markdown(text, f"{index}.md", "example")
    return time.process_time() - start


def throughput(python: str, megabytes: float, repeats: int, env: dict[str, str]) -> None:
    with tempfile.TemporaryDirectory(prefix="bench-lint-") as tmp:
        texts = build_corpus(Path(tmp), megabytes)
        size = sum(len(t.encode("utf-8")) for t in texts) / 1024 / 1024
        # Interleaved, so that load from elsewhere hits the floor and the passes alike; the
        # floor, a few hundredths of a second, is taken as the best of three in each round.
        floor = reader = linted = float("inf")
        for _ in range(repeats):
            floor = min(floor, *(bare_parse(texts) for _ in range(3)))
            reader = min(reader, reader_only(texts))
            linted = min(linted, lint_in_process(texts))
        print(f"\n(b) corpus: {len(texts)} files, {size:.1f} MB; best of {repeats}, CPU time")
        print(f"  bare pyromark.events (in-process) {size / floor:7.1f} MB/s  ({floor:.2f} s)")
        print(
            f"  read_markdown only (in-process)   {size / reader:7.1f} MB/s  ({reader:.2f} s)"
            f"   {reader / floor:5.2f}x  (context: the Python reader the rules start from)"
        )
        print(
            f"  lint_markdown (in-process)        {size / linted:7.1f} MB/s  ({linted:.2f} s)"
            f"   {linted / floor:5.2f}x  (no start-up, no file reading)"
        )
        for jobs in (1, 2):
            argv = [*lint_command(python), tmp, "--jobs", str(jobs)]
            wall(argv, env)  # warm-up
            runs = [timed(argv, env) for _ in range(repeats)]
            best = min(elapsed for elapsed, _ in runs)
            cpu = min(cpu for _, cpu in runs)
            # Workers may be forked by a server process, not by lint: their CPU time is not
            # in lint's children's, so with workers a core-second is a second of wall time.
            core_seconds = cpu if jobs == 1 else best * jobs
            what = "CPU s" if jobs == 1 else "s wall x jobs"
            print(
                f"  evaltools lint DIR --jobs {jobs}       {size / core_seconds:7.1f} MB/s per core"
                f"  ({core_seconds:.2f} {what}, {best:.2f} s wall)"
                f"   {core_seconds / floor:5.2f}x per core"
            )
        print(f"  target: lint <= 15x the bare parse per core ({os.cpu_count()} CPUs here)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=30, help="runs per start-up command")
    parser.add_argument("--megabytes", type=float, default=20.0)
    parser.add_argument("--repeats", type=int, default=3, help="repeats of the corpus runs")
    parser.add_argument("--quick", action="store_true", help="5 runs, 2 MB, one repeat")
    add_editable_option(parser)
    args = parser.parse_args()
    if args.quick:
        args.runs, args.megabytes, args.repeats = 5, 2.0, 1
    with evaltools_python(args.editable) as python:
        run(python, args)


def run(python: str, args: argparse.Namespace) -> None:
    where = "this environment" if args.editable else "a wheel installed in a temporary venv"
    print(f"python {sys.version.split()[0]}, evaltools from {where}")
    print(f"lint command: {' '.join(lint_command(python))}; load average {os.getloadavg()[0]:.1f}")
    cache = Path(tempfile.mkdtemp(prefix="bench-lint-pycache-"))
    try:
        env = cached_env(cache)
        startup(python, args.runs, env, "bytecode cached")
        inherited = (
            f"inherited environment (PYTHONDONTWRITEBYTECODE="
            f"{os.environ.get('PYTHONDONTWRITEBYTECODE', 'unset')})"
        )
        startup(python, args.runs, dict(os.environ), inherited)
        importtime_report(python, 3 if args.quick else 7, env, top=12 if args.quick else 20)
        throughput(python, args.megabytes, args.repeats, env)
    finally:
        shutil.rmtree(cache, ignore_errors=True)


if __name__ == "__main__":
    main()
