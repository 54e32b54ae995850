"""The generated repository that bench_gold_check.py checks: Python, TypeScript and Go files
(functions, classes with methods, Go methods on pointer receivers, about 150 lines a file),
committed, then refactored in a second commit (lines inserted above definitions, files
renamed with `git mv`, functions renamed, files deleted); and eval sets of gold IDs that
point at the first commit's definitions."""

from __future__ import annotations

import json
import random
import subprocess
from collections.abc import Callable
from pathlib import Path

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


def build(root: Path, files: int, ids: int, seed: int) -> tuple[list[str], set[str]]:
    """The repository root/code (committed, refactored, committed); the eval set's IDs, and
    the files (as the IDs name them) where the refactor renamed a function or that it
    deleted: IDs elsewhere resolve without searching the tree."""
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
    broken = refactor(repo, sources, rng)
    return gold, {f"code/{path}" for path in broken}


def refactor(repo: Path, sources: dict[str, Source], rng: random.Random) -> list[str]:
    """Refactors and commits; returns the paths of the files edited and deleted."""
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
    return [*edited, *deleted]


def git_output(repo: Path, *args: str) -> str:
    out = subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True)
    return out.stdout.decode().strip()


def write_set(path: Path, gold: list[str], revision: str | None = None) -> None:
    with path.open("w") as out:
        for index in range(0, len(gold), 2):
            record: dict[str, object] = {
                "qid": f"q{index // 2:05}",
                "query": "q",
                "type": "intent",
                "gold": dict.fromkeys(gold[index : index + 2], 3),
            }
            if revision is not None:
                record["revision"] = revision
            out.write(json.dumps(record) + "\n")
