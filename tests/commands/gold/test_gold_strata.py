"""`gold sample` and `gold split` meet their per-type quotas; `gold stats` agrees with split.

Through the real CLI: exit codes, summaries, and the bytes of the files written.
"""

from __future__ import annotations

import json
import math
import tempfile
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager, redirect_stderr, redirect_stdout
from fractions import Fraction
from io import StringIO
from pathlib import Path
from typing import Any

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from evaltools.__main__ import main

KINDS = ("identifier", "intent", "mixed")


def run(*argv: str) -> tuple[int, str, str]:
    out, err = StringIO(), StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        code = main(list(argv))
    return code, out.getvalue(), err.getvalue()


@contextmanager
def folder() -> Iterator[Path]:
    """A fresh folder per hypothesis example (tmp_path is one per test)."""
    with tempfile.TemporaryDirectory() as name:
        yield Path(name)


def records(mix: tuple[int, ...], start: int = 0, pairs: int = 1) -> list[dict[str, Any]]:
    """`mix[i]` queries of KINDS[i], interleaved; each with `pairs` gold IDs."""
    kinds = [kind for kind, count in zip(KINDS, mix, strict=False) for _ in range(count)]
    kinds = sorted(kinds, key=lambda kind: kinds.index(kind) % 7)  # not grouped by type
    return [
        {
            "qid": f"q{start + n}",
            "query": f"where is thing {start + n}",
            "type": kind,
            "gold": {f"src/m{start + n}.py:{p + 1}-{p + 2}:f{p}": 1 + p % 3 for p in range(pairs)},
        }
        for n, kind in enumerate(kinds)
    ]


def write(path: Path, recs: list[dict[str, Any]]) -> bytes:
    data = "".join(json.dumps(r) + "\n" for r in recs).encode()
    path.write_bytes(data)
    return data


def nearest(fraction: float, size: int) -> int:
    return math.floor(Fraction(repr(fraction)) * size + Fraction(1, 2))


def within_one(count: int, fraction: float, size: int) -> bool:
    return abs(count - Fraction(repr(fraction)) * size) < 1


# --- sample ----------------------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(5))
def test_the_issue_case_samples_two_of_each_type(tmp_path: Path, seed: int) -> None:
    evals = tmp_path / "set.jsonl"
    write(evals, records((20, 20, 20)))
    out = tmp_path / "sample.jsonl"
    code, stdout, _ = run(
        "gold", "sample", str(evals), "--fraction", "0.1", "--seed", str(seed), "-o", str(out)
    )
    assert code == 0
    assert f"Sampled 6 of 60 gold pairs (10.0%, target 10.0%, seed {seed})" in stdout
    for kind in KINDS:
        assert f"  {kind}: 2 of 20 (10.0%)" in stdout
    pairs = [json.loads(line) for line in out.read_text().splitlines()]
    assert Counter(p["type"] for p in pairs) == {"identifier": 2, "intent": 2, "mixed": 2}


@settings(max_examples=40, deadline=None)
@given(
    mix=st.tuples(*(st.integers(0, 25) for _ in KINDS)).filter(lambda m: sum(m) > 0),
    pairs=st.integers(1, 3),
    fraction=st.sampled_from([0.05, 0.1, 0.15, 0.2, 0.5]),
    seed=st.integers(0, 10**6),
)
def test_sample_meets_each_type_quota_within_one_pair(
    mix: tuple[int, int, int], pairs: int, fraction: float, seed: int
) -> None:
    with folder() as tmp:
        evals = tmp / "set.jsonl"
        write(evals, records(mix, pairs=pairs))
        out = tmp / "sample.jsonl"
        argv = ["gold", "sample", str(evals), "--fraction", str(fraction), "--seed", str(seed)]
        code, stdout, _ = run(*argv, "-o", str(out), "--format", "json")
        assert code == 0
        summary = json.loads(stdout)
        written = [json.loads(line) for line in out.read_text().splitlines()]
        assert summary["sampled"] == len(written) == nearest(fraction, sum(mix) * pairs)
        by_type = Counter(pair["type"] for pair in written)
        for kind, count in zip(KINDS, mix, strict=True):
            assert within_one(by_type[kind], fraction, count * pairs), (kind, by_type)
            if count:
                assert summary["per_type"][kind] == {
                    "pairs": count * pairs,
                    "sampled": by_type[kind],
                }
        # reproducible: the same seed writes the same bytes
        again = tmp / "again.jsonl"
        assert run(*argv, "-o", str(again))[0] == 0
        assert again.read_bytes() == out.read_bytes()


# --- split -----------------------------------------------------------------------------------


def split_and_check(
    evals: Path, holdout: float, seed: int, *, exact_total: bool = True
) -> dict[str, Any]:
    """Split in place; check the bytes and the quotas (the whole set's exactly, unless
    records already split keep it from that: a tune query never enters the holdout to
    round the total); return the summary."""
    before = evals.read_bytes().splitlines(keepends=True)
    code, stdout, _ = run(
        "gold",
        "split",
        str(evals),
        "--seed",
        str(seed),
        "--holdout",
        str(holdout),
        "--format",
        "json",
    )
    assert code == 0, stdout
    summary: dict[str, Any] = json.loads(stdout)
    after = evals.read_bytes().splitlines(keepends=True)
    assert len(after) == len(before)
    held: Counter[str] = Counter()
    sizes: Counter[str] = Counter()
    for old, new in zip(before, after, strict=True):
        old_record, new_record = json.loads(old), json.loads(new)
        assert new_record.pop("split") in ("tune", "holdout")
        old_record.pop("split", None)
        assert new_record == old_record  # nothing but the split changed
        if b'"split"' not in old:
            assert new == old[:-2] + b', "split": "%s"}\n' % json.loads(new)["split"].encode()
        sizes[new_record["type"]] += 1
        held[new_record["type"]] += json.loads(new)["split"] == "holdout"
    if exact_total:
        assert sum(held.values()) == nearest(holdout, len(after))
    for kind, size in sizes.items():
        assert within_one(held[kind], holdout, size), (kind, held, sizes)
        assert summary["per_type"][kind] == {"records": size, "holdout": held[kind]}
    return summary


def split_warnings(evals: Path) -> list[str]:
    code, stdout, _ = run("gold", "stats", str(evals), "--format", "json")
    assert code == 0
    return [w["code"] for w in json.loads(stdout)["warnings"] if w["code"] in ("RG102", "RG104")]


@pytest.mark.parametrize("mix", [(1, 0, 0), (1, 1, 1), (3, 5, 2), (1, 4, 0), (2, 1, 7)])
def test_split_meets_the_quotas_and_stats_agrees_for_1_to_60_queries(
    in_tmp: Path, mix: tuple[int, int, int]
) -> None:
    evals = in_tmp / "set.jsonl"
    for size in range(1, 61):
        share = [mix[i] * size // sum(mix) for i in range(3)]
        share[0] += size - sum(share)
        write(evals, records(tuple(share)))
        split_and_check(evals, 0.2, seed=size)
        assert split_warnings(evals) == [], size


def test_the_issue_case_nine_records_hold_out_two(in_tmp: Path) -> None:
    evals = in_tmp / "set.jsonl"
    write(evals, records((3, 3, 3)))
    summary = split_and_check(evals, 0.2, seed=0)
    assert summary["assigned"] == 9 and summary["moved"] == 0
    assert sum(row["holdout"] for row in summary["per_type"].values()) == 2
    assert split_warnings(evals) == []


@settings(max_examples=30, deadline=None)
@given(
    mix=st.tuples(*(st.integers(0, 20) for _ in KINDS)).filter(lambda m: sum(m) > 0),
    added=st.integers(0, 10).flatmap(
        lambda a: st.integers(0, 10 - a).map(lambda b: (a, b, 10 - a - b))
    ),
    holdout=st.sampled_from([0.1, 0.2, 0.25, 0.5]),
    seed=st.integers(0, 10**6),
)
# Two tune `mixed` queries: rounding the whole set's holdout up would need one of them.
@example(mix=(2, 0, 2), added=(10, 0, 0), holdout=0.25, seed=0)
def test_adding_ten_queries_moves_at_most_the_change_in_quota(
    mix: tuple[int, int, int], added: tuple[int, int, int], holdout: float, seed: int
) -> None:
    with folder() as tmp:
        evals = tmp / "set.jsonl"
        write(evals, records(mix))
        first = split_and_check(evals, holdout, seed)
        done = evals.read_bytes()
        old = {r["qid"]: r["split"] for r in map(json.loads, done.splitlines())}
        evals.write_bytes(
            done + b"".join(json.dumps(r).encode() + b"\n" for r in records(added, start=100))
        )
        second = split_and_check(evals, holdout, seed, exact_total=False)
        now = {r["qid"]: r["split"] for r in map(json.loads, evals.read_bytes().splitlines())}
        moved = sum(now[qid] != split for qid, split in old.items())
        assert not any(split == "tune" and now[qid] == "holdout" for qid, split in old.items())
        change = sum(
            abs(
                second["per_type"][kind]["holdout"]
                - first["per_type"].get(kind, {}).get("holdout", 0)
            )
            for kind in second["per_type"]
        )
        assert moved <= change
        assert second["moved"] == moved and second["assigned"] == 10
        # a third run has nothing to do and writes nothing
        again = evals.read_bytes()
        assert (
            run("gold", "split", str(evals), "--seed", str(seed), "--holdout", str(holdout))[0] == 0
        )
        assert evals.read_bytes() == again
