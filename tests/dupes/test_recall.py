"""`evaltools dupes` reports every pair at or above its threshold: planted pairs just above
and just below it, in a set compared pair by pair and in one large enough for LSH; and
alike items are counted, not listed, without comparing every pair."""

from __future__ import annotations

import json
import random
from itertools import combinations
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from evaltools.__main__ import main
from evaltools.dupes import minhash, near
from evaltools.example import dupes as example_dupes
from evaltools.example.spec import ExampleSpec, spec_to_json_dict
from tests.conftest import ALT_CORPUS, CORPUS

FLASK = "flask--add-and-rename-test-function"


def _dupes(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, list[dict[str, Any]]]:
    rc = main(["dupes", *args, "--format", "json"])
    return rc, json.loads(capsys.readouterr().out)


def test_the_corpus_pair_at_0_517_is_reported_at_the_default_threshold(
    capsys: pytest.CaptureFixture[str],
) -> None:
    current = CORPUS / f"{FLASK}.md"
    alternative = next(ALT_CORPUS.glob(f"{FLASK}@*.md"))
    rc, pairs = _dupes(capsys, str(current), str(alternative))
    assert rc == 0  # DU002 is a warning
    assert [(p["kind"], p["a"]["id"], p["similarity"]) for p in pairs] == [("near", FLASK, 0.5172)]


def _spec(tokens: list[str]) -> ExampleSpec:
    spec = ExampleSpec(repository_url="https://example.com/r", revision="0" * 40)
    spec.cursor_path = "x.py"
    spec.cursor_position = " ".join(tokens) + "\n"
    spec.expected_patches = []
    return spec


def _similarity(a: ExampleSpec, b: ExampleSpec) -> float:
    (ea, pa), (eb, pb) = example_dupes.part_shingles([a, b])
    return minhash.jaccard(ea | pa, eb | pb)


def _planted(rnd: random.Random, threshold: float, above: bool) -> tuple[ExampleSpec, ...]:
    """Two examples whose similarity is within 0.02 above (or below) `threshold`: a run of
    fresh tokens, and the same run shifted by as many tokens as that takes."""
    length = rnd.randrange(200, 400)
    words = [f"w{rnd.getrandbits(48):x}" for _ in range(length + 200)]
    a = _spec(words[:length])
    for shift in range(1, 200):
        b = _spec(words[shift : shift + length])
        value = _similarity(a, b)
        if (above and threshold < value <= threshold + 0.02) or (
            not above and threshold - 0.02 <= value < threshold
        ):
            return a, b
    raise AssertionError("no shift gives that similarity")


@pytest.mark.parametrize("unrelated", [0, 300])  # compared pair by pair; through LSH
@pytest.mark.parametrize("threshold", [0.5, 0.8])
def test_planted_pairs_just_above_are_found_and_just_below_are_not(
    in_tmp: Path, capsys: pytest.CaptureFixture[str], threshold: float, unrelated: int
) -> None:
    rnd = random.Random(f"{threshold} {unrelated}")
    specs: list[ExampleSpec] = []
    expected = set()
    for n in range(40):
        a, b = _planted(rnd, threshold, above=n % 2 == 0)
        if n % 2 == 0:
            expected.add((len(specs), len(specs) + 1))
        specs += [a, b]
    specs += [_spec([f"u{rnd.getrandbits(48):x}" for _ in range(80)]) for _ in range(unrelated)]
    assert (len(specs) > near.EXACT_LIMIT) == (unrelated > 0)
    lines = [json.dumps(dict(spec_to_json_dict(s), name=f"ex{n}")) for n, s in enumerate(specs)]
    (in_tmp / "set.jsonl").write_text("\n".join(lines) + "\n")
    rc, pairs = _dupes(capsys, "set.jsonl", "--threshold", str(threshold))
    assert rc == 0
    found = {(int(p["a"]["id"][2:]), int(p["b"]["id"][2:])) for p in pairs}
    assert found == expected
    assert all(p["kind"] == "near" and p["similarity"] >= threshold for p in pairs)


def _queries(path: Path, count: int) -> list[str]:
    # Templated queries, the shape of many retrieval sets: most pairs are near-duplicates.
    queries = [
        f"where is the retry backoff of the session handler number {n} set" for n in range(count)
    ]
    lines = [
        json.dumps({"qid": f"q{n}", "query": q, "gold": {f"a.py:{n}-{n}:f": 1}})
        for n, q in enumerate(queries)
    ]
    path.write_text("\n".join(lines) + "\n")
    return queries


def test_alike_queries_list_a_few_partners_each_and_count_every_pair(
    in_tmp: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    count = 450  # past the exact limit: LSH, groups and counting
    queries = _queries(in_tmp / "set.jsonl", count)
    rc, pairs = _dupes(capsys, "set.jsonl")
    assert rc == 0
    grams = [minhash.shingle([minhash.char_ids(q)], [0], 1, 3).sets()[0] for q in queries]
    true = {
        (i, j)
        for i, j in combinations(range(count), 2)
        if minhash.jaccard(grams[i], grams[j]) >= 0.5
    }
    assert len(true) > 50_000
    listed = {(int(p["a"]["id"][1:]), int(p["b"]["id"][1:])) for p in pairs}
    assert listed <= true
    assert len(pairs) + sum(p["more"] for p in pairs) == len(true)
    per_item: dict[str, int] = {}
    for p in pairs:
        per_item[p["b"]["id"]] = per_item.get(p["b"]["id"], 0) + 1
    assert max(per_item.values()) == near.LISTED
    more = [p for p in pairs if p["more"]]
    assert more
    main(["dupes", "set.jsonl"])
    text = capsys.readouterr().out
    assert f"+{more[0]['more']} more earlier items alike (not listed)" in text


def test_a_group_of_alike_items_is_counted_with_few_comparisons() -> None:
    rnd = random.Random(3)
    core = [rnd.getrandbits(63) for _ in range(200)]
    sets = [set(core[: 190 + n % 10]) | {rnd.getrandbits(63)} for n in range(1000)]
    hashes = [h for s in sets for h in s]
    shingled = minhash.Shingled(
        np.array(hashes, dtype="uint64"),
        np.repeat(range(len(sets)), [len(s) for s in sets]),
        len(sets),
    )
    table = minhash.matrix(minhash.signatures(shingled))
    calls = 0

    def similarity(i: int, j: int) -> float:
        nonlocal calls
        calls += 1
        return minhash.jaccard(sets[i], sets[j])

    found = near.near_pairs(table, range(len(sets)), 0.5, similarity)
    assert sum(len(p.listed) + p.more for p in found.values()) == 1000 * 999 // 2
    assert calls < 10 * len(sets)  # every pair would be 499,500


def test_help_states_the_bands_and_the_miss_probability(
    capsys: pytest.CaptureFixture[str],
) -> None:
    count, rows = minhash.bands(0.5)
    miss = 1 - minhash.found_probability(0.51, count, rows)
    assert main(["dupes", "--help"]) == 0
    text = " ".join(capsys.readouterr().out.replace("│", " ").split())
    assert f"{count} bands of {rows} rows, {miss:.2%}" in text
    assert f"Up to {near.EXACT_LIMIT} items are compared pair by pair" in text
