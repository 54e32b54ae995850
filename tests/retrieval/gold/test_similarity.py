"""The lazy similarity ranking against the full sort it replaces (the oracle)."""

from __future__ import annotations

import difflib
import itertools

from hypothesis import given, settings
from hypothesis import strategies as st

from evaltools.retrieval.gold.reanchor.similarity import by_similarity


def full_sort(symbol: str, names: list[str]) -> list[int]:
    matcher = difflib.SequenceMatcher(None, b=symbol)

    def score(index: int) -> float:
        matcher.set_seq1(names[index])
        return matcher.ratio()

    return sorted(range(len(names)), key=score, reverse=True)


def lazy(symbol: str, names: list[str]) -> list[int]:
    return list(by_similarity(symbol, list(range(len(names))), names.__getitem__))


NAME = st.text(alphabet="abcST._", max_size=12)


@settings(max_examples=300, deadline=None)
@given(symbol=NAME, names=st.lists(NAME, max_size=40))
def test_same_order_as_the_full_sort(symbol: str, names: list[str]) -> None:
    assert lazy(symbol, names) == full_sort(symbol, names)


def test_ties_keep_input_order_and_a_prefix_is_the_sort_s_prefix() -> None:
    names = ["TokenService.store", "b.store", "IndexService.store", "a.store", "b.store", "x"]
    expected = full_sort("TokenService.store", names)
    assert lazy("TokenService.store", names) == expected
    first = by_similarity("TokenService.store", list(range(len(names))), names.__getitem__)
    assert list(itertools.islice(first, 2)) == expected[:2]
    assert expected[:3] == [0, 2, 1]  # equal ratios: input order, as sorted() keeps it


def test_nothing_to_rank() -> None:
    assert lazy("x", []) == []
