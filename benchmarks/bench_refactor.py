"""`gold check` across real refactors: two releases of real packages, ground truth of its own.

    python benchmarks/bench_refactor.py [--sample 400] [--seed 0] [--quick]

For each pair of releases below, the two sdists (downloaded once with `pip download
--no-deps --no-binary :all:` into benchmarks/.cache, which git ignores) become two commits
of a temporary git repository (their `src/` folders), so git's rename and copy detection
applies. Gold IDs are sampled from every definition of the old release; each record
carries the old commit as its `revision`.

The ground truth does not use evaltools: Python's `ast` finds the definitions of both
releases, a body is `ast.unparse` of the definition with its own name blanked (no comments,
no formatting), and bodies are compared with difflib on lines. For an old definition:

- the same qualified name in the same file, whose body kept at least half of the old one
  (or there is no better body anywhere), is where it is (`unchanged` when the span is the
  same, else `moved in file`); several such (a getter and a setter) are told apart by
  body, or the ID is `ambiguous`;
- else the body (at least 0.7 similar, 0.05 ahead of the next) or the qualified name
  (with a body at least 0.4 similar) elsewhere: `file renamed` when the old file is gone,
  `moved to another file` when it is not, `symbol renamed` in the same file;
- several bodies at least 0.95 similar (copies), or a name kept on a body that went
  elsewhere (hollowed): `ambiguous`, right when reported with every target as candidate;
- nothing: `gone`, right when left unresolved.

Then `gold check` (in process) runs against the new commit with git, and against a plain
copy of it without `.git`. Per category: re-anchored (resolved to the truth, or for
`ambiguous` reported with the truth among the candidates), false (resolved elsewhere), and
unresolved. Targets (issue 15): >= 97% of re-anchorable IDs with git, >= 90% without, 0 false.
"""

from __future__ import annotations

import argparse
import ast
import difflib
import json
import random
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from refactor_truth.extract import Def
from refactor_truth.truth import BODY, BODY_AHEAD, CATEGORIES, COPY, KEEP, NAME_BODY

from evaltools.retrieval.gold.gold_check import check_gold
from evaltools.retrieval.gold.reanchor.resolve import Status

PAIRS = (("flask", "2.3.3", "3.0.0"), ("click", "7.1.2", "8.0.0"))
CACHE = Path(__file__).resolve().parent / ".cache"


def sdist(package: str, version: str) -> Path:
    CACHE.mkdir(exist_ok=True)
    found = sorted(CACHE.glob(f"{package}-{version}.tar.gz"))
    if not found:
        subprocess.run(
            [
                *(sys.executable, "-m", "pip", "download", "--no-deps", "--no-binary", ":all:"),
                *("-q", "-d", str(CACHE), f"{package}=={version}"),
            ],
            check=True,
        )
        found = sorted(CACHE.glob(f"{package}-{version}.tar.gz"))
    return found[0]


def unpack_src(archive: Path, into: Path) -> None:
    """The sdist's `src/` folder, as `src/...` below `into`."""
    with tarfile.open(archive) as tar, tempfile.TemporaryDirectory() as tmp:
        tar.extractall(tmp, filter="data")
        (top,) = Path(tmp).iterdir()
        shutil.copytree(top / "src", into / "src", dirs_exist_ok=True)


def git(repo: Path, *args: str) -> str:
    identity = ["-c", "user.name=b", "-c", "user.email=b@b", "-c", "commit.gpgsign=false"]
    out = subprocess.run(
        ["git", *identity, "-C", str(repo), *args], check=True, capture_output=True, text=True
    )
    return out.stdout.strip()


def definitions(root: Path) -> list[Def]:
    found: list[Def] = []
    for file in sorted(root.rglob("*.py")):
        path = file.relative_to(root).as_posix()
        tree = ast.parse(file.read_bytes())
        _walk(tree, path, "", found)
    return found


def _walk(node: ast.AST, path: str, prefix: str, found: list[Def]) -> None:
    for child in ast.iter_child_nodes(node):
        if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            name = prefix + child.name
            start = min([d.lineno for d in child.decorator_list] + [child.lineno])
            assert child.end_lineno is not None
            blank = ast.parse(ast.unparse(child)).body[0]
            assert isinstance(blank, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
            blank.name = "_"
            body = tuple(ast.unparse(blank).splitlines())
            found.append(Def(path, name, start, child.end_lineno, body))
            _walk(child, path, name + ".", found)
        else:
            _walk(child, path, prefix, found)


def sim(a: Def, b: Def) -> float:
    return difflib.SequenceMatcher(None, a.body, b.body, autojunk=False).ratio()


@dataclass(frozen=True)
class Truth:
    category: str
    targets: tuple[str, ...]  # chunk IDs; several for `ambiguous`, none for `gone`


def truth(old: Def, new_defs: list[Def], new_paths: set[str]) -> Truth:
    same = [d for d in new_defs if d.path == old.path and d.name == old.name]
    scored = sorted(((sim(old, d), d) for d in new_defs), key=lambda p: -p[0])
    best_other = next((s for s, d in scored if d not in same), 0.0)
    if same:
        kept = sorted(((sim(old, d), d) for d in same), key=lambda p: -p[0])
        top, pick = kept[0]
        if len(kept) > 1 and top - kept[1][0] < BODY_AHEAD:
            return Truth("ambiguous", tuple(d.chunk_id for _, d in kept))
        if top >= KEEP or best_other < BODY or best_other - top < 0.25:
            category = "unchanged" if (pick.start, pick.end) == (old.start, old.end) else ""
            return Truth(category or "moved in file", (pick.chunk_id,))
        hollow = (pick.chunk_id, *(d.chunk_id for s, d in scored if s >= BODY and d != pick))
        return Truth("ambiguous", hollow)
    copies = [d for s, d in scored if s >= COPY]
    if len(copies) > 1:
        return Truth("ambiguous", tuple(d.chunk_id for d in copies))
    named = [(s, d) for s, d in scored if d.name == old.name and s >= NAME_BODY]
    if len(named) == 1:
        target = named[0][1]
    elif scored and scored[0][0] >= BODY and (len(scored) == 1 or _ahead(scored)):
        target = scored[0][1]
    else:
        return Truth("gone", ())
    if target.path == old.path:
        category = "symbol renamed"
    elif old.path in new_paths:
        category = "moved to another file"
    else:
        category = "file renamed"
    return Truth(category, (target.chunk_id,))


Results = dict[str, tuple[str, str | None, list[str]]]


def _ahead(scored: list[tuple[float, Def]]) -> bool:
    return scored[0][0] - scored[1][0] >= BODY_AHEAD


def score(truth_of: dict[str, Truth], results: Results, show: bool) -> dict[str, Counter[str]]:
    table: dict[str, Counter[str]] = {c: Counter() for c in CATEGORIES}
    for chunk_id, want in truth_of.items():
        status, new, candidates = results[chunk_id]
        row = table[want.category]
        row["n"] += 1
        resolved = chunk_id if status == "ok" else (new if Status(status).repairable else None)
        if resolved is not None:
            outcome = "re-anchored" if resolved in want.targets else "false"
        elif want.category == "gone":
            outcome = "unresolved"
        elif want.category == "ambiguous" and set(want.targets) <= set(candidates):
            outcome = "re-anchored"  # reported, with every right target
        else:
            outcome = "unresolved"
        row[outcome] += 1
        missed = outcome == "false" or (outcome != "re-anchored" and want.category != "gone")
        if show and missed:
            print(f"    {outcome}: {chunk_id} [{want.category}] want {want.targets}")
            print(f"      got {status} {new} {candidates[:3]}")
    return table


def run_check(root: Path, eval_set: Path) -> tuple[Results, float]:
    start = time.process_time()
    checked = check_gold([eval_set], root=root, rev=None, metas=None, fix=False, jobs=1)
    elapsed = time.process_time() - start
    results = {}
    for item in checked.items:
        assert item.result is not None
        r = item.result
        results[item.ref.chunk_id] = (r.status.value, r.new_chunk_id, list(r.candidates))
    return results, elapsed


def bench_pair(
    package: str, old_v: str, new_v: str, args: argparse.Namespace, work: Path
) -> dict[str, dict[str, Counter[str]]]:
    sample = 100 if args.quick else args.sample
    repo = work / package
    repo.mkdir()
    git(repo, "init", "-q")
    unpack_src(sdist(package, old_v), repo)
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", old_v)
    old_commit = git(repo, "rev-parse", "HEAD")
    old_defs = definitions(repo)
    shutil.rmtree(repo / "src")
    unpack_src(sdist(package, new_v), repo)
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", new_v)
    new_defs = definitions(repo)
    new_paths = {p.relative_to(repo).as_posix() for p in repo.rglob("*.py")}
    chosen = random.Random(args.seed).sample(old_defs, min(sample, len(old_defs)))
    truth_of = {d.chunk_id: truth(d, new_defs, new_paths) for d in chosen}
    eval_set = work / f"{package}.jsonl"
    lines = [
        json.dumps({"qid": f"q{i}", "query": "q", "gold": {cid: 3}, "revision": old_commit})
        for i, cid in enumerate(truth_of)
    ]
    eval_set.write_text("\n".join(lines) + "\n", encoding="utf-8")
    plain = work / f"{package}-plain"
    shutil.copytree(repo, plain, ignore=shutil.ignore_patterns(".git"))
    tables = {}
    for mode, root in (("git", repo), ("plain", plain)):
        results, seconds = run_check(root, eval_set)
        tables[mode] = score(truth_of, results, args.show)
        print(f"{package} {old_v} -> {new_v}, {mode}: {len(truth_of)} IDs in {seconds:.2f}s CPU")
        print_table(tables[mode])
    return tables


def print_table(table: dict[str, Counter[str]]) -> None:
    print(f"  {'category':24}{'n':>5}{'re-anchored':>13}{'false':>7}{'unresolved':>12}")
    for category in CATEGORIES:
        row = table[category]
        counts = f"{row['n']:>5}{row['re-anchored']:>13}{row['false']:>7}{row['unresolved']:>12}"
        print(f"  {category:24}{counts}")
    able = sum(table[c]["n"] for c in CATEGORIES if c != "gone")
    done = sum(table[c]["re-anchored"] for c in CATEGORIES if c != "gone")
    false = sum(table[c]["false"] for c in CATEGORIES)
    print(f"  re-anchorable {able}: {done} re-anchored ({done / max(able, 1):.1%}), {false} false")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sample", type=int, default=400)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--quick", action="store_true", help="one pair, 100 IDs")
    parser.add_argument("--show", action="store_true", help="print every miss")
    parser.add_argument("--only", help="one package of the pairs")
    args = parser.parse_args()
    pairs = [p for p in PAIRS if args.only in (None, p[0])][: 1 if args.quick else None]
    totals: dict[str, dict[str, Counter[str]]] = {}
    with tempfile.TemporaryDirectory(prefix="bench-refactor-") as tmp:
        for package, old_v, new_v in pairs:
            tables = bench_pair(package, old_v, new_v, args, Path(tmp))
            for mode, table in tables.items():
                into = totals.setdefault(mode, {c: Counter() for c in CATEGORIES})
                for category, row in table.items():
                    into[category].update(row)
    for mode, table in totals.items():
        print(f"all pairs, {mode}:")
        print_table(table)


if __name__ == "__main__":
    main()
