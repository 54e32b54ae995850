"""`evaltools dupes` on a templated set, where most pairs are alike but not alike enough for
groups to decide them: the exact comparisons grow with the items, not with the pairs, and
what is printed stays true (listed pairs verified, counts exact or marked as lower bounds).
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from itertools import product
from pathlib import Path
from typing import Any

import pytest

from evaltools.__main__ import main
from evaltools.dupes import minhash, near
from evaltools.example import dupes as example_dupes
from evaltools.example.spec import ExampleSpec, spec_to_json_dict
from evaltools.retrieval.gold.discipline import dupes as retrieval_dupes

SLOTS = [
    ["session", "token", "cache", "handler", "parser"],
    ["retries", "timeouts", "errors", "redirects", "cookies"],
    ["router", "queue", "store", "index", "client"],
    ["request", "reply", "stream", "socket", "worker"],
    ["closed", "empty", "stale", "locked", "missing"],
]


def _templated(path: Path, count: int) -> list[str]:
    """`count` distinct queries from one five-slot template, in a seeded order."""
    combos = random.Random(7).sample(list(product(*SLOTS)), count)
    queries = ["how does {} handle {} in {} when {} is {}".format(*c) for c in combos]
    lines = [
        json.dumps({"qid": f"q{n}", "query": q, "gold": {f"a.py:{n}-{n}:f": 1}})
        for n, q in enumerate(queries)
    ]
    path.write_text("\n".join(lines) + "\n")
    return queries


def _counting(monkeypatch: pytest.MonkeyPatch, half: Any = retrieval_dupes) -> list[int]:
    """Every exact Jaccard comparison one half of `dupes` makes, counted."""
    calls = [0]
    exact: Callable[[set[int], set[int]], float] = minhash.jaccard

    def counted(a: set[int], b: set[int]) -> float:
        calls[0] += 1
        return exact(a, b)

    monkeypatch.setattr(half, "jaccard", counted)
    return calls


def test_templated_queries_are_compared_a_bounded_number_of_times_each(
    in_tmp: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    count = 600  # past the exact limit: LSH, groups and the budget
    queries = _templated(in_tmp / "set.jsonl", count)
    calls = _counting(monkeypatch)
    assert main(["dupes", "set.jsonl", "--format", "json"]) == 0  # DU102 is a warning
    pairs: list[dict[str, Any]] = json.loads(capsys.readouterr().out)
    # Every pair would be 179,700 comparisons (the code before the budget made 114,091);
    # an item costs at most `near.BUDGET` (64) and its listed partners' (5) as a rule.
    assert calls[0] <= 100 * count
    grams = [minhash.shingle([minhash.char_ids(q)], [0], 1, 3).sets()[0] for q in queries]
    true: dict[int, int] = {}  # item -> its earlier partners
    clear: dict[int, int] = {}  # those 0.01 above the threshold or more (the LSH promise)
    for j in range(count):
        values = [minhash.jaccard(grams[i], grams[j]) for i in range(j)]
        true[j] = sum(v >= 0.5 for v in values)
        clear[j] = sum(v >= 0.5 + minhash.RECALL_MARGIN for v in values)
    assert sum(true.values()) > count * count / 20  # a seventh of the pairs are alike
    listed: dict[int, int] = {}
    for p in pairs:
        i, j = int(p["a"]["id"][1:]), int(p["b"]["id"][1:])
        assert p["kind"] == "near" and p["code"] == "DU102"
        assert minhash.jaccard(grams[i], grams[j]) == pytest.approx(p["similarity"], abs=1e-4)
        assert p["similarity"] >= 0.5
        listed[j] = listed.get(j, 0) + 1 + p["more"]
    # Every item with a clear partner is reported, with at most LISTED pairs; a count is
    # never above the truth, and short of it only by LSH misses unless marked as a lower
    # bound.
    assert {j for j, n in clear.items() if n} <= set(listed) <= {j for j, n in true.items() if n}
    assert max(sum(p["b"]["id"] == f"q{j}" for p in pairs) for j in listed) == near.LISTED
    assert all(n <= true[j] for j, n in listed.items())
    counted = [p for p in pairs if p["more"] or not p["more_exact"]]
    ends = {int(p["b"]["id"][1:]): p for p in counted}
    assert len(ends) == len(counted)  # on one pair an item, its last listed
    exact = [j for j, p in ends.items() if p["more_exact"]]
    missed = sum(max(clear[j] - listed[j], 0) for j in exact)
    assert missed <= minhash.MISS_AT_MARGIN * sum(clear[j] for j in exact)
    bounded = [p for p in ends.values() if not p["more_exact"]]
    assert len(bounded) > count / 4
    assert main(["dupes", "set.jsonl"]) == 0
    text = capsys.readouterr().out
    assert f"+{bounded[0]['more']} or more earlier items alike (not listed, not all counted)" in (
        text
    )


def test_merged_buckets_yield_each_value_once_in_order() -> None:
    rnd = random.Random(11)
    for _ in range(200):
        lists = [sorted(rnd.sample(range(300), rnd.randrange(0, 120))) for _ in range(5)]
        assert list(near._merged(lists)) == sorted(set().union(*lists))


def test_against_reports_no_pair_within_the_reference(
    in_tmp: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    def write(path: str, *queries: str) -> None:
        records = [
            {"qid": f"{path[0]}{n}", "query": q, "gold": {f"{path[0]}.py:{n}-{n}:f": 1}}
            for n, q in enumerate(queries)
        ]
        Path(path).write_text("".join(json.dumps(r) + "\n" for r in records))

    write("ref.jsonl", "where is the retry backoff set", "where is the retry backoff set up")
    write("mine.jsonl", "how are tokens parsed", "where is the retry backoff set upstream")
    assert main(["dupes", "mine.jsonl", "--against", "ref.jsonl", "--format", "json"]) == 0
    pairs = json.loads(capsys.readouterr().out)
    assert [(p["a"]["id"], p["b"]["id"]) for p in pairs] == [("r0", "m1"), ("r1", "m1")]


def test_help_and_rules_state_the_budget(capsys: pytest.CaptureFixture[str]) -> None:
    stated = {
        ("dupes", "--help"): f"counting stops after {near.BUDGET} comparisons",
        ("rule", "DU002"): f"stops after {near.BUDGET} exact comparisons",
        ("rule", "DU102"): f"past {near.BUDGET} comparisons",
    }
    for argv, phrase in stated.items():
        assert main(list(argv)) == 0
        assert phrase in " ".join(capsys.readouterr().out.replace("│", " ").split())


def _templated_example(combo: tuple[str, ...]) -> ExampleSpec:
    spec = ExampleSpec(repository_url="https://example.com/r", revision="0" * 40)
    spec.cursor_path = "x.py"
    spec.cursor_position = "".join(
        f"value_{n} = compute ( left_{n} , right ) if ready else None # {word}\n"
        for n, word in enumerate(combo)
    )
    spec.expected_patches = []
    return spec


def test_templated_examples_count_past_the_budget_on_the_last_listed_pair_only(
    in_tmp: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    count = 400
    combos = random.Random(3).sample(list(product(*SLOTS)), count)
    lines = [
        json.dumps(dict(spec_to_json_dict(_templated_example(c)), name=f"ex{n}"))
        for n, c in enumerate(combos)
    ]
    (in_tmp / "set.jsonl").write_text("\n".join(lines) + "\n")
    calls = _counting(monkeypatch, example_dupes)
    assert main(["dupes", "set.jsonl", "--format", "json"]) == 0
    pairs: list[dict[str, Any]] = json.loads(capsys.readouterr().out)
    assert calls[0] <= 100 * count  # every pair: 79,800
    by_item: dict[str, list[dict[str, Any]]] = {}
    for p in pairs:
        assert p["kind"] == "near" and p["similarity"] >= 0.5
        by_item.setdefault(p["b"]["id"], []).append(p)
    bounded = 0
    for listed in by_item.values():
        assert len(listed) <= near.LISTED
        *first, last = listed  # in order of the earlier item
        assert all(p["more"] == 0 and p["more_exact"] for p in first)
        bounded += not last["more_exact"]
    assert bounded > count / 4
