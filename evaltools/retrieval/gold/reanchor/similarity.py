"""Ranking names by `difflib` similarity, lazily: the order of a full sort, paid for only
as far as the caller reads.

A gold check ranks up to 200 same-named definitions for each unresolved ID and keeps the
first few; `SequenceMatcher.ratio` is the costly part. `real_quick_ratio` and `quick_ratio` bound it
from above (with the same float arithmetic), so a name whose bound cannot beat the best
ratio found so far need not be matched yet.
"""

from __future__ import annotations

import difflib
import heapq
import re
from collections.abc import Callable, Iterator, Sequence
from typing import TypeVar

_T = TypeVar("_T")
# A JUnit 3 test's prefix, dropped by JUnit 4 (`testFoo` -> `foo`), or pytest's.
_TEST_PREFIX = re.compile(r"^test(?=[A-Z_])_?")
_WORD = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|\d+")
# A test's name as a test framework spells it around its subject: `testPop`, `test_pop`,
# `PopTest`, `PopTests`.
MIN_SUBJECT_LETTERS = 3
_TEST_AFFIXES = re.compile(r"(?:[Tt]est(?:_|(?=[A-Z0-9])))?(?P<subject>.+?)(?:_[Tt]ests?|Tests?)?")


def name_key(leaf: str) -> str:
    """A last name as its spellings share it: but for case, underscores at its ends
    (`proxyMap_`, `_helper`) and a test prefix (`testFoo`, `test_foo`)."""
    return _TEST_PREFIX.sub("", leaf).strip("_").lower() or leaf.lower()


def test_subject(name: str) -> str | None:
    """What a test's qualified name tests, whichever framework spelled it (`PopTest`, its
    unittest `runTest`, `testPop`, `test_pop` -> `pop`); None for a name with no test
    prefix or suffix."""
    owner, _, leaf = name.rpartition(".")
    if leaf == "runTest" and owner:
        leaf = owner.rpartition(".")[2]
    found = _TEST_AFFIXES.fullmatch(leaf)
    if found is None or found["subject"] == leaf:
        return None
    subject = found["subject"].replace("_", "").lower()
    # `test1`, `Test_2`: numbered, not named for what they test
    return subject if sum(c.isalpha() for c in subject) >= MIN_SUBJECT_LETTERS else None


def name_words(name: str) -> set[str]:
    """The words of a name, snake_case or camelCase, lower case."""
    return {w.lower() for w in _WORD.findall(name)}


def by_similarity(symbol: str, items: Sequence[_T], name: Callable[[_T], str]) -> Iterator[_T]:
    """`items` as `sorted(items, key=ratio to symbol, reverse=True)` orders them (ties in
    input order), computed as the iterator is read."""
    matcher = difflib.SequenceMatcher(None, b=symbol)  # `b` is analysed once, reused
    # (-upper bound, index, tighter bound known): a min-heap of the items not matched yet,
    # first bounded by the lengths alone, then by the characters in common.
    bounds = [
        (-_length_bound(len(name(item)), len(symbol)), index, False)
        for index, item in enumerate(items)
    ]
    heapq.heapify(bounds)
    exact: list[tuple[float, int]] = []  # (-ratio, index) of the items matched so far
    while bounds or exact:
        # The best matched item goes first once no unmatched one can outrank it: a higher
        # bound, or an equal one earlier in the input, might.
        if exact and (not bounds or bounds[0][:2] > exact[0]):
            yield items[heapq.heappop(exact)[1]]
            continue
        _, index, tight = heapq.heappop(bounds)
        matcher.set_seq1(name(items[index]))
        if tight:
            heapq.heappush(exact, (-matcher.ratio(), index))
        else:
            heapq.heappush(bounds, (-matcher.quick_ratio(), index, True))


def _length_bound(la: int, lb: int) -> float:
    """`SequenceMatcher.real_quick_ratio`, from the lengths alone."""
    length = la + lb
    return 2.0 * min(la, lb) / length if length else 1.0
