"""`gold check` over a generated repository, against reading every referenced file once.

    python benchmarks/bench_gold_check.py [--files 5000] [--ids 10000] [--quick] [--repeats 3]

Builds a git repository of Python, TypeScript and Go files (functions, classes with
methods, Go methods on pointer receivers, about 150 lines a file), an eval set whose gold
IDs point at their definitions, then a refactor commit: lines inserted above definitions
(moved), files renamed with `git mv` (renamed_file), functions renamed (missing_symbol)
and files deleted (missing_file). Then times, in the same run, best of --repeats:

  floor        read every referenced file once (the brief's floor), one process
  parse floor  read and parse every referenced file once, one process (for context)
  check        `python -m evaltools gold check` on the work tree, all CPUs, JSON output
  check --rev  the same against `--rev HEAD` (blobs through git cat-file --batch)

Wall times need an otherwise idle machine; the CPU seconds of each check (all of its
processes) show its total work even when other jobs compete for the cores.

Target: check within 3x of the floor, using both cores.
"""

from __future__ import annotations

import argparse
import json
import random
import resource
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path

from evaltools.processes import available_cores
from evaltools.retrieval.parsing import parse_source

VERBS = ("handle", "retry", "cache", "parse", "validate", "render", "load", "store", "sync")
NOUNS = ("session", "token", "upload", "user", "config", "report", "index", "query", "batch")


class Source:
    """One file being written: its lines and the definitions (name, start, end) in it."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.defs: list[tuple[str, int, int]] = []

    def add(self, text: list[str], name: str | None = None) -> int:
        start = len(self.lines) + 1
        self.lines.extend(text)
        if name is not None:
            self.defs.append((name, start, len(self.lines)))
        return start


def body(rng: random.Random, indent: str, lines: int) -> list[str]:
    out = []
    for i in range(lines):
        out.append(f"{indent}value_{i} = compute_{rng.choice(NOUNS)}(value_{max(i - 1, 0)}, {i})")
    return out


def python_file(rng: random.Random, tag: str) -> Source:
    src = Source()
    src.add([f'"""Module {tag}."""', "", "import os", "import sys", ""])
    for index in range(rng.randint(3, 6)):
        name = f"{rng.choice(VERBS)}_{rng.choice(NOUNS)}_{tag}_{index}"
        lines = [""] + (["@cache"] if index % 3 == 0 else []) + [f"def {name}(a, b=None):"]
        src.add([*lines[:1]])
        src.add(
            [
                *lines[1:],
                '    """Do the thing."""',
                *body(rng, "    ", rng.randint(4, 14)),
                "    return a",
            ],
            name,
        )
    for index in range(rng.randint(1, 2)):
        cls = f"{rng.choice(NOUNS).title()}Store{tag}x{index}"
        start = src.add(["", "", f"class {cls}:", f'    """A store of {tag}."""'])
        start += 2
        for m in range(rng.randint(2, 4)):
            method = f"{rng.choice(VERBS)}_{m}"
            src.add([""])
            src.add(
                [
                    f"    def {method}(self, key):",
                    *body(rng, "        ", rng.randint(3, 10)),
                    "        return key",
                ],
                f"{cls}.{method}",
            )
        src.defs.append((cls, start, len(src.lines)))
    return src


def typescript_file(rng: random.Random, tag: str) -> Source:
    src = Source()
    src.add([f"// Module {tag}.", "import { helper } from './helper';", ""])
    for index in range(rng.randint(2, 5)):
        name = f"{rng.choice(VERBS)}{rng.choice(NOUNS).title()}{tag}x{index}"
        src.add([""])
        src.add(
            [
                f"export function {name}(a: number, b: string): number {{",
                *body(rng, "  const ", rng.randint(4, 12)),
                "  return a;",
                "}",
            ],
            name,
        )
    cls = f"{rng.choice(NOUNS).title()}Service{tag}"
    start = src.add(["", f"export class {cls} {{", "  private items = new Map<string, number>();"])
    start += 1
    for m in range(rng.randint(2, 5)):
        method = f"{rng.choice(VERBS)}{m}"
        src.add([""])
        src.add(
            [
                f"  {method}(key: string): number {{",
                *body(rng, "    const ", rng.randint(3, 9)),
                "    return 1;",
                "  }",
            ],
            f"{cls}.{method}",
        )
    src.add(["}"])
    src.defs.append((cls, start, len(src.lines)))
    return src


def go_file(rng: random.Random, tag: str) -> Source:
    src = Source()
    src.add([f"// Package p{tag} does things.", f"package p{tag}", "", 'import "fmt"', ""])
    typ = f"{rng.choice(NOUNS).title()}Store{tag}"
    src.add([""])
    src.add([f"type {typ} struct {{", "\titems map[string]int", "}"], typ)
    for m in range(rng.randint(2, 5)):
        method = f"{rng.choice(VERBS).title()}{m}"
        src.add([""])
        src.add(
            [
                f"func (s *{typ}) {method}(key string) int {{",
                *body(rng, "\t", rng.randint(3, 10)),
                "\treturn 1",
                "}",
            ],
            f"{typ}.{method}",
        )
    for index in range(rng.randint(1, 4)):
        name = f"{rng.choice(VERBS).title()}{rng.choice(NOUNS).title()}{index}"
        src.add([""])
        src.add(
            [
                f"func {name}(a int) int {{",
                *body(rng, "\t", rng.randint(4, 12)),
                '\tfmt.Println("x")',
                "\treturn a",
                "}",
            ],
            name,
        )
    return src


MAKERS: dict[str, Callable[[random.Random, str], Source]] = {
    ".py": python_file,
    ".ts": typescript_file,
    ".go": go_file,
}


def git(repo: Path, *args: str) -> None:
    subprocess.run(
        [
            "git",
            "-c",
            "user.name=bench",
            "-c",
            "user.email=bench@example.com",
            "-C",
            str(repo),
            *args,
        ],
        check=True,
        capture_output=True,
    )


def build(root: Path, files: int, ids: int, seed: int) -> list[str]:
    """The repository root/code (committed, refactored, committed); the eval set's IDs."""
    rng = random.Random(seed)
    repo = root / "code"
    repo.mkdir()
    git(repo, "init", "-q")
    sources: dict[str, Source] = {}
    for index in range(files):
        suffix = rng.choice((".py", ".py", ".ts", ".ts", ".go"))
        path = f"pkg{index % 50:02}/mod_{index:05}{suffix}"
        src = MAKERS[suffix](rng, f"{index}")
        sources[path] = src
        target = repo / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text("\n".join(src.lines) + "\n")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "initial")
    all_defs = [(path, d) for path, src in sources.items() for d in src.defs]
    chosen = rng.sample(all_defs, min(ids, len(all_defs)))
    gold = [f"code/{path}:{start}-{end}:{name}" for path, (name, start, end) in chosen]
    refactor(repo, sources, rng)
    return gold


def refactor(repo: Path, sources: dict[str, Source], rng: random.Random) -> None:
    paths = sorted(sources)
    rng.shuffle(paths)
    n = len(paths)
    moved, renamed = paths[: n // 20], paths[n // 20 : n // 20 + n // 100]
    edited, deleted = paths[n // 10 : n // 10 + n // 200], paths[n // 5 : n // 5 + max(1, n // 500)]
    for path in moved:
        target = repo / path
        comment = "#" if path.endswith(".py") else "//"
        lines = target.read_text().split("\n")
        target.write_text(
            "\n".join([*lines[:1], f"{comment} added", f"{comment} lines", *lines[1:]])
        )
    for path in renamed:
        new = path.replace("mod_", "renamed_")
        git(repo, "mv", path, new)
    for path in edited:
        target = repo / path
        name = sources[path].defs[0][0].rpartition(".")[2]
        target.write_text(target.read_text().replace(name, name + "Renamed"))
    for path in deleted:
        git(repo, "rm", "-q", path)
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "refactor")


def write_set(path: Path, gold: list[str]) -> None:
    with path.open("w") as out:
        for index in range(0, len(gold), 2):
            record = {
                "qid": f"q{index // 2:05}",
                "query": "q",
                "type": "intent",
                "gold": dict.fromkeys(gold[index : index + 2], 3),
            }
            out.write(json.dumps(record) + "\n")


def best(repeats: int, func: Callable[[], object]) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        func()
        times.append(time.perf_counter() - start)
    return min(times)


def check_command(root: Path, eval_set: Path, *extra: str) -> list[str]:
    return [
        sys.executable,
        "-m",
        "evaltools",
        "gold",
        "check",
        str(eval_set),
        "--root",
        str(root),
        "--format",
        "json",
        *extra,
    ]


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run_check(command: list[str], cwd: Path, statuses: Counter[str], cpu: list[float]) -> None:
    """One run; its CPU seconds (every process: workers, git) go to `cpu`."""
    before = children_cpu()
    proc = subprocess.run(command, capture_output=True, check=False, cwd=cwd)
    cpu.append(children_cpu() - before)
    if proc.returncode not in (0, 1):
        raise SystemExit(proc.stderr.decode())
    statuses.clear()
    statuses.update(item["status"] for item in json.loads(proc.stdout))


def measure(root: Path, eval_set: Path, gold: list[str], repeats: int) -> None:
    referenced = sorted({g.rsplit(":", 2)[0] for g in gold})
    existing = [root / p for p in referenced if (root / p).is_file()]
    megabytes = sum(p.stat().st_size for p in existing) / 1e6

    def floor() -> None:
        for path in existing:
            path.read_bytes()

    def parse_floor() -> None:
        for path in existing:
            parse_source(path.name, path.read_bytes())

    statuses: Counter[str] = Counter()
    floor()  # warm the page cache for every measurement alike
    t_floor = best(repeats, floor)
    t_parse = best(repeats, parse_floor)
    work_tree = check_command(root, eval_set)
    cpu_check: list[float] = []
    cpu_rev: list[float] = []
    t_check = best(repeats, lambda: run_check(work_tree, root, statuses, cpu_check))
    at_rev = check_command(root, eval_set, "--rev", "HEAD")
    t_rev = best(repeats, lambda: run_check(at_rev, root, statuses, cpu_rev))
    print(f"{len(existing)} referenced files, {megabytes:.1f} MB, {available_cores()} CPUs")
    print(f"statuses: {dict(sorted(statuses.items()))}")
    print(f"{'floor (read each referenced file once)':40} {t_floor:8.3f}s")
    label = "parse floor (read + parse, 1 process)"
    print(f"{label:40} {t_parse:8.3f}s  {t_parse / t_floor:7.1f}x floor")
    runs = (
        ("gold check (work tree)", t_check, cpu_check),
        ("gold check --rev HEAD", t_rev, cpu_rev),
    )
    for label, seconds, cpu in runs:
        ratios = f"{seconds / t_floor:7.1f}x floor  {seconds / t_parse:5.2f}x parse floor"
        print(f"{label:40} {seconds:8.3f}s  {ratios}  (CPU {min(cpu):.2f}s, all processes)")


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--files", type=int, default=5000)
    parser.add_argument("--ids", type=int, default=10000)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--quick", action="store_true", help="300 files, 600 IDs, one repeat")
    args = parser.parse_args()
    if args.quick:
        args.files, args.ids, args.repeats = 300, 600, 1
    with tempfile.TemporaryDirectory(prefix="bench-gold-check-") as tmp:
        root = Path(tmp)
        started = time.perf_counter()
        gold = build(root, args.files, args.ids, args.seed)
        eval_set = root / "set.jsonl"
        write_set(eval_set, gold)
        elapsed = time.perf_counter() - started
        print(f"generated {args.files} files and {len(gold)} gold IDs in {elapsed:.1f}s")
        measure(root, eval_set, gold, args.repeats)


if __name__ == "__main__":
    main()
