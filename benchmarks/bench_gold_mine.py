"""`gold mine` over a generated repository, against `git log -p` over the same range.

    python benchmarks/bench_gold_mine.py [--commits 10000] [--repeats 3] [--quick] [--reference]

Builds a repository with `git fast-import` (Python modules of functions and classes; each
commit edits, adds, deletes or renames definitions or edits imports in one to three files;
some file moves, typo, version-bump and release subjects, and merge commits), then times,
in the same run:
(a) `git log -p` over the whole history, its output read and discarded (the floor), and
(b) the whole mining pass, `evaltools.retrieval.gold.discipline.mine.mine` (one
`git log -p -U0` stream, a `git cat-file --batch` process, definitions of every touched
file at every commit, filters).
Target: (b) within 3x of (a). Wall time and CPU time (this process and its git children,
so that other load on the machine counts less) are both shown. `--reference` also times
mining with every touched file read and parsed at every commit (no derived outlines).
"""

from __future__ import annotations

import argparse
import random
import resource
import subprocess
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from evaltools.retrieval.gold.discipline.mine import mine

VERBS = ("handle", "retry", "cache", "parse", "validate", "render", "load", "store", "sync")
NOUNS = ("session", "token", "upload", "user", "config", "report", "index", "query", "batch")
SUBJECTS = (
    "Retry uploads when the storage backend times out",
    "Keep the session alive while a refresh is pending",
    "Validate the config before building the index",
    "Cache parsed queries per user",
    "Stop rendering reports for deleted users",
    "Use {name} for every batch",
    "Make {name} handle empty input",
)
NOISE = ("fix typo", "Bump version to 1.{n}.0", "wip", "v1.{n}.0")


class Generator:
    """Files as lists of top-level items (an import header, functions, classes).

    Sizes follow ordinary Python projects: modules of 15-35 definitions (a few hundred
    lines), functions of 3-20 lines, a fifth of them classes with methods; a commit rewrites
    a few lines of one to three definitions, adds, deletes or renames one, or edits imports.
    """

    def __init__(self, seed: int, files: int) -> None:
        self.rng = random.Random(seed)
        self.counter = 0
        self.files: dict[str, list[list[str]]] = {}
        for index in range(files):
            header = ["import os", "import sys", "", ""]
            items = [self.definition() for _ in range(self.rng.randint(15, 35))]
            self.files[f"pkg/mod_{index:03}.py"] = [header, *items]

    def name(self) -> str:
        self.counter += 1
        return f"{self.rng.choice(VERBS)}_{self.rng.choice(NOUNS)}_{self.counter}"

    def body(self, indent: str) -> list[str]:
        lines = [f"{indent}value = {self.rng.randint(0, 999)}"]
        for _ in range(self.rng.randint(1, 18)):
            lines.append(f"{indent}value = value * {self.rng.randint(2, 9)} + len(os.sep)")
        return [*lines, f"{indent}return value"]

    def definition(self) -> list[str]:
        name = self.name()
        if self.rng.random() < 0.2:
            lines = [f"class {name.title().replace('_', '')}:"]
            for _ in range(self.rng.randint(2, 6)):
                lines += [f"    def {self.name()}(self):", *self.body(" " * 8), ""]
            return [*lines[:-1], "", ""]
        decorator = ["@staticmethod"] if self.rng.random() < 0.1 else []
        return [*decorator, f"def {name}(argument):", *self.body("    "), "", ""]

    def text(self, path: str) -> bytes:
        return ("\n".join(line for item in self.files[path] for line in item)).encode() + b"\n"

    def edit_file(self, path: str) -> None:
        items = self.files[path]
        roll = self.rng.random()
        spot = self.rng.randrange(1, len(items))
        if roll < 0.12:
            items.insert(spot, self.definition())
        elif roll < 0.17 and len(items) > 5:
            del items[spot]
        elif roll < 0.27:
            items[0].insert(2, f"import {self.rng.choice(NOUNS)}_{self.counter}")
            self.counter += 1
        elif roll < 0.32:
            head = next(i for i, line in enumerate(items[spot]) if "def " in line)
            old = items[spot][head]
            start = old.index("def ") + 4
            items[spot][head] = old[:start] + self.name() + old[old.index("(") :]
        else:
            lines = items[spot]
            code = [i for i, line in enumerate(lines) if line.startswith(" ") and "value =" in line]
            first = self.rng.choice(code)
            for i in range(first, min(first + self.rng.randint(1, 6), len(lines))):
                if lines[i].startswith(" ") and "value =" in lines[i]:
                    self.counter += 1
                    lines[i] = lines[i].split(" +")[0] + f" + {self.counter}"

    def edit(self) -> tuple[list[str], list[str], str]:
        """Paths written, paths deleted, subject of one commit."""
        if self.rng.random() < 0.01:
            old = self.rng.choice(sorted(self.files))
            new = old.replace("mod_", f"renamed_{self.counter}_")
            self.files[new] = self.files.pop(old)
            self.counter += 1
            return [new], [old], f"Move {Path(old).stem} into its own module"
        count = self.rng.choice((1, 1, 1, 2, 2, 3))
        written = self.rng.sample(sorted(self.files), count)
        for path in written:
            self.edit_file(path)
        if self.rng.random() < 0.1:
            subject = self.rng.choice(NOISE).format(n=self.counter)
        else:
            subject = self.rng.choice(SUBJECTS).format(name=self.name())
        return written, [], subject


def fast_import_stream(commits: int, seed: int) -> bytes:
    gen = Generator(seed, files=60)
    out: list[bytes] = []
    mark = 0
    when = 1_600_000_000

    def data(payload: bytes) -> None:
        out.append(b"data %d\n" % len(payload) + payload + b"\n")

    def commit(message: str, paths: list[str], deleted: list[str], merge: int | None) -> None:
        nonlocal mark, when
        mark += 1
        when += 60
        out.append(b"commit refs/heads/main\nmark :%d\n" % mark)
        out.append(b"committer Bench <bench@example.com> %d +0000\n" % when)
        data(message.encode())
        if mark > 1:
            out.append(b"from :%d\n" % (mark - 1))
        if merge is not None:
            out.append(b"merge :%d\n" % merge)
        for path in deleted:
            out.append(f"D {path}\n".encode())
        for path in paths:
            out.append(f"M 100644 inline {path}\n".encode())
            data(gen.text(path))

    commit("Create the package", sorted(gen.files), [], None)
    side = None
    for index in range(1, commits):
        if index % 50 == 0 and side is not None:
            commit(f"Merge branch 'topic-{index}'", [], [], side)
            side = None
            continue
        written, deleted, subject = gen.edit()
        commit(subject, written, deleted, None)
        if index % 50 == 25:
            side = mark
    return b"".join(out)


def build_repository(root: Path, commits: int, seed: int) -> None:
    subprocess.run(["git", "init", "-q", "-b", "main", str(root)], check=True)
    subprocess.run(
        ["git", "-C", str(root), "fast-import", "--quiet"],
        input=fast_import_stream(commits, seed),
        check=True,
    )


def git_log_p(repo: Path) -> None:
    with subprocess.Popen(
        ["git", "-C", str(repo), "log", "-p", "HEAD"], stdout=subprocess.PIPE
    ) as proc:
        assert proc.stdout is not None
        while proc.stdout.read(1 << 16):
            pass


def gold_mine(repo: Path) -> None:
    result = mine(repo)
    if not result.candidates:
        raise SystemExit("gold mine found no candidates: the generator is broken")


@dataclass(frozen=True)
class Timing:
    wall: float
    cpu: float  # this process and its children (git), so other load on the machine drops out


def gold_mine_reference(repo: Path) -> None:
    mine(repo, incremental=False)


def best_of(repeats: int, func: Callable[[Path], None], repo: Path) -> Timing:
    walls: list[float] = []
    cpus: list[float] = []
    for _ in range(repeats):
        children = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = time.process_time()
        start = time.perf_counter()
        func(repo)
        walls.append(time.perf_counter() - start)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        spent = after.ru_utime + after.ru_stime - children.ru_utime - children.ru_stime
        cpus.append(time.process_time() - cpu + spent)
    return Timing(min(walls), min(cpus))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--commits", type=int, default=10_000)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--quick", action="store_true", help="1,000 commits, one repeat")
    parser.add_argument(
        "--reference",
        action="store_true",
        help="also time gold mine reading and parsing every touched file at every commit",
    )
    args = parser.parse_args()
    commits, repeats = (1_000, 1) if args.quick else (args.commits, args.repeats)
    with tempfile.TemporaryDirectory(prefix="bench-gold-mine-") as tmp:
        repo = Path(tmp, "repo")
        start = time.perf_counter()
        build_repository(repo, commits, args.seed)
        print(f"generated {commits:,} commits in {time.perf_counter() - start:.2f}s")
        result = mine(repo)
        print(
            f"gold mine: {len(result.candidates):,} candidates, dropped "
            + ", ".join(f"{k} {v}" for k, v in sorted(result.dropped.items()))
        )
        floor = best_of(repeats, git_log_p, repo)
        full = best_of(repeats, gold_mine, repo)
        reference = best_of(1, gold_mine_reference, repo) if args.reference else None
    print(f"{'':20} {'wall':>9} {'cpu':>9}")
    print(f"{'git log -p (floor)':20} {floor.wall:8.3f}s {floor.cpu:8.3f}s")
    print(f"{'gold mine':20} {full.wall:8.3f}s {full.cpu:8.3f}s")
    if reference is not None:
        print(f"{'  (parse everything)':20} {reference.wall:8.3f}s {reference.cpu:8.3f}s")
    print(
        f"{'ratio':20} {full.wall / floor.wall:8.2f}x {full.cpu / floor.cpu:8.2f}x  (target <= 3x)"
    )


if __name__ == "__main__":
    main()
