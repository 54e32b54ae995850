"""The bulk MinHash and LSH (bytes and integer arithmetic in C) against the per-bin loops
they replaced (`tests/dupes/_old_minhash.py`): the same signatures, similarities and candidate
pairs, so `evaltools dupes` reports the same pairs, in the same order, with the same
similarities."""

from __future__ import annotations

import dataclasses
import hashlib
import random
import re
from collections.abc import Iterator
from typing import Any

import pytest

import tests.dupes._old_minhash as old
from evaltools.dupes import minhash as new
from evaltools.dupes.pairs import Item
from evaltools.example import dupes as example_dupes
from evaltools.example.markdown.reader import from_markdown
from evaltools.example.spec import ExampleSpec
from evaltools.retrieval.gold import dupes as retrieval_dupes
from tests.conftest import corpus_files

_IDENTIFIER = re.compile(r"[A-Za-z_]\w*")


def _hash_sets(seed: int) -> Iterator[set[int]]:
    """Sets of 64-bit signed hashes of every density, drawn partly from a shared pool so
    that signatures agree on some bins; EMPTY itself among them now and then."""
    rnd = random.Random(seed)
    pool = [rnd.getrandbits(64) - (1 << 63) for _ in range(400)]
    for _ in range(600):
        size = rnd.choice([1, 2, 3, 5, 10, 40, 67, 128, 300, 1000])
        found = set(rnd.sample(pool, min(size, 200)))
        found |= {rnd.getrandbits(64) - (1 << 63) for _ in range(rnd.randint(0, size))}
        if rnd.random() < 0.02:
            found.add(old.EMPTY)
        yield found


def test_signatures_are_the_same() -> None:
    for hashes in _hash_sets(1):
        for dense in (True, False):
            assert new.signature(hashes, dense=dense) == old.signature(hashes, dense=dense)
        assert new.signature(new.bins(hashes)) == old.signature(old.bins(hashes))
    assert new.signature(set()) is None


def _signatures(seed: int) -> list[bytes | None]:
    rnd = random.Random(seed)
    sigs = [old.signature(h, dense=rnd.random() < 0.7) for h in _hash_sets(seed)]
    return [*sigs, None]


def test_similarities_are_the_same() -> None:
    sigs = _signatures(2)
    pairs = [(i, j) for i in range(len(sigs)) for j in range(0, len(sigs), 13)]
    expected = [old.similarity(sigs[i], sigs[j]) for i, j in pairs]
    assert [new.similarity(sigs[i], sigs[j]) for i, j in pairs] == expected
    assert [value for _, _, value in new.similarities(sigs, pairs)] == expected
    # The fast path is taken, and agrees, on signatures without empty bins too.
    dense = [s for s in sigs if s is not None and old.EMPTY not in memoryview(s).cast("q")]
    assert len(dense) > 100
    agreeing = [new.similarity(a, b) for a in dense[:30] for b in dense[:30]]
    assert agreeing == [old.similarity(a, b) for a in dense[:30] for b in dense[:30]]
    assert any(0 < value < 1 for value in agreeing) and max(agreeing) == 1.0


@pytest.mark.parametrize("threshold", [0.3, 0.5, 0.8])
@pytest.mark.parametrize("across", [None, 0, 150, 599, 600])
def test_candidate_pairs_are_the_same(threshold: float, across: int | None) -> None:
    sigs = [s for s in _signatures(3) if s is not None]
    before, after = old.LshIndex(threshold), new.LshIndex(threshold)
    for position, sig in enumerate(sigs):
        before.add(position, sig)
        after.add(position, sig)
    expected = list(before.candidates(across))
    assert list(after.candidates(across)) == expected
    if across is None:
        assert len(expected) > 100


def test_positions_are_added_in_order() -> None:
    index = new.LshIndex(0.5)
    index.add(3, bytes(1024))
    with pytest.raises(ValueError, match="position 2 added after 3"):
        index.add(2, bytes(1024))


def _old_content_key(spec: ExampleSpec) -> bytes:
    digest = hashlib.blake2b(digest_size=16)
    rejected = "\x01" if spec.rejected_patch is None else spec.rejected_patch
    fields = (
        spec.repository_url,
        spec.revision,
        spec.uncommitted_diff,
        spec.cursor_path,
        spec.cursor_position,
        spec.edit_history,
        rejected,
        str(len(spec.expected_patches)),
        *sorted(spec.expected_patches),
    )
    for value in fields:
        data = value.encode("utf-8", "surrogatepass")
        digest.update(len(data).to_bytes(8, "little") + data)
    return digest.digest()


def _renamed(spec: ExampleSpec, suffix: str) -> ExampleSpec:
    """`spec` with every other identifier renamed: distinct, yet near its siblings."""
    count = iter(range(1 << 30))

    def rename(text: str) -> str:
        return _IDENTIFIER.sub(lambda m: m.group(0) + (suffix if next(count) % 2 else ""), text)

    return dataclasses.replace(
        spec,
        cursor_position=rename(spec.cursor_position),
        expected_patches=[rename(p) for p in spec.expected_patches],
    )


def _perturbed_corpus() -> list[ExampleSpec]:
    """Renamed copies of the corpus (groups of examples near each other, many candidates
    below the threshold), with exact and one-line-added copies planted."""
    bases = [from_markdown(p.read_text(encoding="utf-8"), p.stem) for p in corpus_files()]
    specs: list[ExampleSpec] = []
    for i in range(300):
        spec = _renamed(bases[i % len(bases)], f"_{i % 7}")
        if i % 23 == 5:
            spec.cursor_position = "extra_line = 1\n" + specs[-1].cursor_position
        specs.append(spec)
    return specs


def _pairs_of(module: Any, specs: list[ExampleSpec], across: int | None) -> list[Any]:
    with pytest.MonkeyPatch.context() as patch:
        for name in ("LshIndex", "signature", "similarities"):
            if hasattr(module, name):
                patch.setattr(example_dupes, name, getattr(module, name))
        if module is old:
            patch.setattr(example_dupes, "content_key", _old_content_key)

            def pairwise(sigs: list[bytes | None], pairs: Any) -> Iterator[Any]:
                return ((i, j, old.similarity(sigs[i], sigs[j])) for i, j in pairs)

            patch.setattr(example_dupes, "similarities", pairwise)
        prints = [
            example_dupes.fingerprint(spec, Item("set.jsonl", n + 1, f"ex{n}"))
            for n, spec in enumerate(specs)
        ]
        pairs = example_dupes.find_pairs(prints, 0.5, across=across)
    return [(p.kind, p.a, p.b, p.similarity) for p in pairs]


@pytest.mark.parametrize("across", [None, 120])
def test_example_pairs_are_the_same(across: int | None) -> None:
    specs = _perturbed_corpus()
    specs.insert(200, specs[50])  # an exact pair
    expected = _pairs_of(old, specs, across)
    assert _pairs_of(new, specs, across) == expected
    kinds = [kind for kind, *_ in expected]
    assert kinds.count("near") >= 5 and "exact" in kinds
    assert all(_old_content_key(s) == example_dupes.content_key(s) for s in specs)


def test_query_pairs_are_the_same(monkeypatch: pytest.MonkeyPatch) -> None:
    rnd = random.Random(4)
    words = [
        "user",
        "session",
        "token",
        "retry",
        "cache",
        "parse",
        "render",
        "config",
        "queue",
        "audit",
        "log",
    ]
    prints = []
    for n in range(400):
        query = " ".join(rnd.choice(words) for _ in range(rnd.randint(3, 7)))
        record: dict[str, object] = {"query": query, "gold": {f"a.py:1-2:f{n % 90}": 3}}
        record["split"] = "tune"
        if n % 5 == 0:
            record["split"] = "holdout"
        prints.append(retrieval_dupes.query_print(Item("set.jsonl", n + 1, f"q{n}"), record))
    expected_new = retrieval_dupes.find_pairs(prints, 0.5)
    monkeypatch.setattr(retrieval_dupes, "LshIndex", old.LshIndex)
    monkeypatch.setattr(
        retrieval_dupes,
        "similarities",
        lambda sigs, pairs: ((i, j, old.similarity(sigs[i], sigs[j])) for i, j in pairs),
    )
    assert retrieval_dupes.find_pairs(prints, 0.5) == expected_new
    assert len([p for p in expected_new if p.kind == "near"]) > 10
