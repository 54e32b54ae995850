"""`evaltools dupes` on large example sets: sub-quadratic, and close to the cost of reading.

    python benchmarks/bench_dupes.py [--examples 100000] [--quick]

The corpus is replicated and perturbed into a JSONL set of N examples (and one of N/10):
every copy renames each identifier with a copy-specific suffix, so copies are distinct
edits; every 50th copy repeats the one before it under another name (an exact pair) and
every 50th, offset 25, adds one line to the cursor excerpt of the one before it (a near
pair). Two ratios are printed, each from the best of a few runs, in this process, one core,
timed as CPU time (`time.process_time`: the machine is shared):

(1) dupes (read, parse, fingerprint, LSH, verify) / reading and parsing alone, at N:
    target <= 3.
(2) dupes at N / dupes at N/10: target <= 12 (quadratic would be 100).

`--stages` also prints where the time goes at each size, stage by stage (CPU time, one
run each: read, parse, then each stage of the fingerprint and of the pairs).

`--alike` times sets whose items are nearly all alike, where every pair is a finding
(issue 33): N copies of one example that differ in one line, and N templated retrieval
queries (one name varies; five slots of ten words in order, nearly every pair near; and a
seeded sample of "how does {A} handle {B} in {C} when {D} is {E}" with five words a slot,
a seventh of the pairs near; and one short template whose four slots take made-up names,
most pairs 0.35-0.45 alike: sharing an LSH band, below the threshold). For each, the time
of dupes at N and 4N, its ratio to reading the same set (the baseline, timed in turn), the
growth of each (4x the input), the growth of dupes against the baseline's (1 is linear, 4
quadratic), and the peak memory (the process's maximum resident size so far).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
import tempfile
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

from evaltools.config.model import Config
from evaltools.dupes.pairs import Item
from evaltools.example.markdown.reader import from_markdown
from evaltools.example.markdown.render import to_markdown
from evaltools.example.records import iter_all_units, parse_unit
from evaltools.example.spec import example_from_json_dict, spec_to_json_dict

CORPUS = Path(__file__).resolve().parent.parent / "tests" / "data" / "corpus" / "zed-evals"
_IDENTIFIER = re.compile(r"[A-Za-z_]\w*")
_TEXT_FIELDS = ("cursor_position", "edit_history", "uncommitted_diff")


def _template(text: str) -> str:
    """`text` with each identifier followed by {a} or {b} in turn (braces escaped)."""
    escaped = text.replace("{", "{{").replace("}", "}}")
    count = iter(range(1 << 62))
    return _IDENTIFIER.sub(lambda m: m.group(0) + ("{a}" if next(count) % 2 else "{b}"), escaped)


def _bases() -> list[dict[str, object]]:
    bases = []
    for path in sorted(CORPUS.glob("*.md")):
        record = spec_to_json_dict(from_markdown(path.read_text(), path.stem))
        for key in _TEXT_FIELDS:
            record[key] = _template(str(record.get(key, "")))
        record["expected_patches"] = [_template(p) for p in record["expected_patches"]]
        bases.append(record)
    return bases


def _copy(base: dict[str, object], i: int) -> dict[str, object]:
    a, b = f"_{i % 1000}", f"_k{i // 1000}"
    out = dict(base, name=f"ex{i}")
    for key in _TEXT_FIELDS:
        out[key] = str(base[key]).format(a=a, b=b)
    out["expected_patches"] = [p.format(a=a, b=b) for p in base["expected_patches"]]  # type: ignore[attr-defined]
    return out


def write_set(path: Path, count: int, form: str = "jsonl") -> int:
    """N examples, as one JSONL file or as .md files in a directory; returns the number of
    planted pairs."""
    bases = _bases()
    planted = 0
    if form == "md":
        path.mkdir()
    with Path(os.devnull if form == "md" else path).open("w") as out:
        previous: dict[str, object] = {}
        for i in range(count):
            if i % 50 == 1:
                record = dict(previous, name=f"ex{i}")
                planted += 1
            elif i % 50 == 26:
                record = dict(previous, name=f"ex{i}")
                record["cursor_position"] = "extra_line = 1\n" + str(record["cursor_position"])
                planted += 1
            else:
                record = _copy(bases[i % len(bases)], i)
            previous = record
            if form == "md":
                spec = example_from_json_dict(record).spec
                (path / f"ex{i}.md").write_text(to_markdown(spec))
            else:
                out.write(json.dumps(record, separators=(",", ":")) + "\n")
    return planted


def best_interleaved(runs: int, *works: Callable[[], object]) -> list[tuple[float, object]]:
    """The best CPU time of each of `works` over `runs` rounds, taken in turn within each
    round: this machine's speed drifts over minutes, and a floor timed minutes before what
    it is compared with moved the ratio by a third between runs."""
    times: list[list[float]] = [[] for _ in works]
    results: list[object] = [None] * len(works)
    for _ in range(runs):
        for index, work in enumerate(works):
            start = time.process_time()
            results[index] = work()
            times[index].append(time.process_time() - start)
    return [(min(t), r) for t, r in zip(times, results, strict=True)]


def parse_only(path: Path) -> int:
    return sum(parse_unit(unit).example is not None for unit in iter_all_units([path]))


def dupes(path: Path) -> int:
    from evaltools.check.dupes import collect

    return len(collect([path], [], 0.5, Config(), workers=1).pairs)


def stages(path: Path) -> dict[str, float]:
    """CPU seconds of each stage of `dupes` on `path`, done one after the other."""
    from evaltools.dupes.minhash import Shingled, band_keys, matrix, signatures
    from evaltools.example import dupes as example_dupes

    spent: dict[str, float] = {}
    last = time.process_time()

    def lap(name: str) -> None:
        nonlocal last
        now = time.process_time()
        spent[name] = now - last
        last = now

    units = list(iter_all_units([path]))
    lap("read")
    specs = [r.example.spec for r in map(parse_unit, units) if r.example is not None]
    lap("parse")
    chunks = [specs[i : i + example_dupes.CHUNK] for i in range(0, len(specs), example_dupes.CHUNK)]
    parts = [example_dupes.shingled(chunk) for chunk in chunks]
    lap("tokens, shingle hashes")
    for part, chunk in zip(parts, chunks, strict=True):
        signatures(Shingled(part.hashes, part.owners >> 1, len(chunk)))
    lap("signatures")
    for part in parts:
        part.packed()
    lap("shingles kept")
    for spec in specs:
        example_dupes.content_key(spec)
    lap("content keys")
    items = [Item(str(path), n + 1, spec.name) for n, spec in enumerate(specs)]
    prints = [
        p
        for c in range(0, len(specs), example_dupes.CHUNK)
        for p in example_dupes.fingerprints(
            specs[c : c + example_dupes.CHUNK], items[c : c + example_dupes.CHUNK]
        )
    ]
    lap("(all of the fingerprint again)")
    band_keys(matrix([p.whole for p in prints]), range(len(prints)), 0.5)
    lap("LSH band keys")
    example_dupes.find_pairs(prints, 0.5)
    lap("(all of the pairs: exact, LSH, verification)")
    return spent


def _alike_examples(path: Path, count: int) -> None:
    base = _bases()[0]
    with path.open("w") as out:
        for i in range(count):
            record = _copy(base, 0)
            record["name"] = f"ex{i}"
            record["cursor_position"] = f"{record['cursor_position']}\nvalue_{i} = {i}\n"
            out.write(json.dumps(record, separators=(",", ":")) + "\n")


def _alike_queries(path: Path, count: int, slots: bool) -> None:
    import itertools

    words = ["session", "token", "cache", "handler", "parser"]
    words += ["router", "queue", "store", "index", "client"]
    combos = itertools.islice(itertools.product(words, repeat=5), count)
    with path.open("w") as out:
        for i, combo in enumerate(combos):
            query = (
                "where does the {} call the {} when the {} of the {} fails in {}".format(*combo)
                if slots
                else f"where is the retry backoff of the session handler number {i} set"
            )
            record = {"qid": f"q{i}", "query": query, "gold": {f"a.py:{i}-{i}:f": 1}}
            out.write(json.dumps(record) + "\n")


def _sampled_queries(path: Path, count: int) -> None:
    """A seeded sample of one five-slot template, five words a slot (3,125 queries)."""
    import itertools
    import random

    sys.path.insert(0, str(CORPUS.parents[3]))  # the checkout, for the test's vocabulary
    from tests.dupes.test_bounded_work import SLOTS

    combos = random.Random(count).sample(list(itertools.product(*SLOTS)), count)
    with path.open("w") as out:
        for i, combo in enumerate(combos):
            query = "how does {} handle {} in {} when {} is {}".format(*combo)
            record = {"qid": f"q{i}", "query": query, "gold": {f"a.py:{i}-{i}:f": 1}}
            out.write(json.dumps(record) + "\n")


def _named_queries(path: Path, count: int) -> None:
    """A short template, four made-up names: most pairs a candidate, few alike."""
    import random

    rnd = random.Random(count)
    syllables = ["ka", "lo", "mi", "zu", "pe", "ri", "to", "na", "se", "vu", "bo", "xi"]

    def name() -> str:
        return "".join(rnd.choice(syllables) for _ in range(rnd.randrange(3, 6)))

    with path.open("w") as out:
        for i in range(count):
            query = f"how does the {name()} module handle {name()} when {name()} is {name()}"
            record = {"qid": f"q{i}", "query": query, "gold": {f"a.py:{i}-{i}:f": 1}}
            out.write(json.dumps(record) + "\n")


def read_queries(path: Path) -> int:
    from evaltools.retrieval.gold.discipline.dupes import read_prints

    return len(read_prints([path])[0])


def alike(tmp: Path, runs: int) -> None:
    import resource

    shapes: list[tuple[str, Callable[[Path, int], None], Callable[[Path], int], int]] = [
        ("near-identical examples", _alike_examples, parse_only, 1000),
        ("templated queries, one name", partial(_alike_queries, slots=False), read_queries, 1000),
        ("templated queries, 5 slots", partial(_alike_queries, slots=True), read_queries, 800),
        ("5 slots of 5 words, sampled", _sampled_queries, read_queries, 750),
        ("4 made-up names, few alike", _named_queries, read_queries, 800),
    ]
    for name, write, floor, small in shapes:
        spent = {}
        for count in (small, 4 * small):
            path = tmp / f"alike-{count}.jsonl"
            write(path, count)
            (floor_time, _), (dupes_time, pairs) = best_interleaved(
                runs, partial(floor, path), partial(dupes, path)
            )
            spent[count] = (floor_time, dupes_time)
            peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
            print(
                f"{name:<30} {count:>6}: dupes {dupes_time:6.2f}s = "
                f"{dupes_time / floor_time:5.1f}x reading it; {pairs} pairs listed; "
                f"peak RSS so far {peak:.0f} MB"
            )
        dupes_growth = spent[4 * small][1] / spent[small][1]
        floor_growth = spent[4 * small][0] / spent[small][0]
        print(
            f"{name:<30} growth at 4x the input: dupes {dupes_growth:.1f}x, reading "
            f"{floor_growth:.1f}x: {dupes_growth / floor_growth:.2f} (1 linear, 4 quadratic)"
        )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--examples", type=int, default=100_000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--quick", action="store_true", help="10k examples, one run")
    parser.add_argument(
        "--form",
        choices=("jsonl", "md"),
        default="jsonl",
        help="One JSONL file, or one .md file per example (the corpus's own form).",
    )
    parser.add_argument("--stages", action="store_true", help="Also time each stage.")
    parser.add_argument("--alike", action="store_true", help="Sets of items nearly all alike.")
    args = parser.parse_args()
    if args.alike:
        with tempfile.TemporaryDirectory() as tmp:
            alike(Path(tmp), args.runs)
        return 0
    large = 10_000 if args.quick else args.examples
    runs = 1 if args.quick else args.runs
    with tempfile.TemporaryDirectory() as tmp:
        sizes = {}
        for count in (large // 10, large):
            path = Path(tmp) / f"set-{count}.{args.form}"
            planted = write_set(path, count, args.form)
            (parse_time, parsed), (dupes_time, pairs) = best_interleaved(
                runs, partial(parse_only, path), partial(dupes, path)
            )
            sizes[count] = (parse_time, dupes_time)
            print(
                f"{count:>7} examples ({args.form}): read+parse "
                f"{parse_time:.2f}s, dupes {dupes_time:.2f}s; {parsed} parsed, "
                f"{pairs} pairs reported, {planted} planted"
            )
            if args.stages:
                for name, seconds in stages(path).items():
                    print(f"    {name:<45} {seconds:6.2f}s  {seconds / count * 1e6:6.1f} us each")
        parse_large, dupes_large = sizes[large]
        dupes_small = sizes[large // 10][1]
        print(f"ratio dupes / read+parse at {large}: {dupes_large / parse_large:.2f} (target <= 3)")
        print(
            f"ratio dupes at {large} / at {large // 10}: {dupes_large / dupes_small:.2f} "
            "(target <= 12)"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
