"""Round-trip throughput against the bare pulldown-cmark pass over the same bytes.

    python benchmarks/bench_roundtrip.py [--megabytes 20] [--quick]

Replicates the eval corpus to the requested size, then times, in the same run and as CPU time
(`time.process_time`, fairer than wall time on a shared machine), best of a few interleaved
repeats,
(a) `pyromark.events` over every file (the floor: the parser alone),
(a') `pyromark.events_with_range` as the reader asks for it, for context: the events with
their source ranges, which the reader needs, cost this much before any Python looks at them,
(b) the reader alone (`read_markdown`: state machine, source lines, hints), for context, and
(c) the full round trip, as `evaltools roundtrip` does it for each file once read
(`check_text`): read, render, compare, and for a file that differs, where and why (layout
changes, what would be lost; for one that would be rewritten, the stability check).
Target (issue 14): the round trip within 6x of the bare pass.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from pathlib import Path

import pyromark

from evaltools.example.markdown.reader import read_markdown
from evaltools.example.markdown.roundtrip_files import check_text
from evaltools.fileio import TextFile

CORPUS = Path(__file__).resolve().parent.parent / "tests" / "data" / "corpus" / "zed-evals"


def build_corpus(megabytes: float) -> list[tuple[str, str]]:
    files = [(p.read_text(encoding="utf-8"), p.stem) for p in sorted(CORPUS.glob("*.md"))]
    target = int(megabytes * 1024 * 1024)
    out: list[tuple[str, str]] = []
    size = 0
    while size < target:
        for text, stem in files:
            out.append((text, stem))
            size += len(text.encode("utf-8"))
    return out


def bare_parse(corpus: list[tuple[str, str]]) -> None:
    for text, _ in corpus:
        for _event in pyromark.events(text):
            pass


def ranged_parse(corpus: list[tuple[str, str]]) -> None:
    for text, _ in corpus:
        for _event in pyromark.events_with_range(text, merge_text=True):
            pass


def reader_only(corpus: list[tuple[str, str]]) -> None:
    for text, stem in corpus:
        read_markdown(text, stem)


def full_roundtrip(corpus: list[tuple[str, str]]) -> None:
    paths = {stem: CORPUS / f"{stem}.md" for stem in {stem for _, stem in corpus}}
    for text, stem in corpus:
        read = TextFile(paths[stem], stem, b"", text)  # `data` is only compared by --fix
        if check_text(read, fix=False, diff=False, strict_reference=False).status == "invalid":
            raise SystemExit(f"corpus file {stem} no longer parses")


def cpu(func: Callable[[list[tuple[str, str]]], None], corpus: list[tuple[str, str]]) -> float:
    start = time.process_time()
    func(corpus)
    return time.process_time() - start


def best_of(repeats: int, corpus: list[tuple[str, str]]) -> tuple[float, float, float, float]:
    """Best (floor, ranged parse, reader, round trip) CPU seconds, interleaved so that load
    from elsewhere hits all alike; the two parses, a few hundredths of a second, are the best
    of three in each round."""
    floor = ranged = reader = full = float("inf")
    for _ in range(repeats):
        floor = min(floor, *(cpu(bare_parse, corpus) for _ in range(3)))
        ranged = min(ranged, *(cpu(ranged_parse, corpus) for _ in range(3)))
        reader = min(reader, cpu(reader_only, corpus))
        full = min(full, cpu(full_roundtrip, corpus))
    return floor, ranged, reader, full


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--megabytes", type=float, default=20.0)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--quick", action="store_true", help="2 MB, one repeat")
    args = parser.parse_args()
    if args.quick:
        args.megabytes, args.repeats = 2.0, 1
    corpus = build_corpus(args.megabytes)
    megabytes = sum(len(t.encode("utf-8")) for t, _ in corpus) / 1024 / 1024
    floor, ranged, reader, full = best_of(args.repeats, corpus)
    print(f"corpus: {len(corpus)} files, {megabytes:.1f} MB; CPU time, best of {args.repeats}")
    print(f"bare pyromark.events : {megabytes / floor:8.1f} MB/s  ({floor:.2f} s)")
    print(f"events with ranges   : {megabytes / ranged:8.1f} MB/s  ({ranged:.2f} s)")
    print(f"read_markdown only   : {megabytes / reader:8.1f} MB/s  ({reader:.2f} s)")
    print(f"full round trip      : {megabytes / full:8.1f} MB/s  ({full:.2f} s)")
    print(f"ratio ranges/bare    : {ranged / floor:.2f}x  (context)")
    print(f"ratio reader/bare    : {reader / floor:.2f}x  (context)")
    print(f"ratio full/bare      : {full / floor:.2f}x  (target <= 6x)")


if __name__ == "__main__":
    main()
