"""Duplicate queries, shared gold sets and holdout leakage in retrieval eval sets.

A holdout query that repeats or rewords a tuning query, or has the same gold set, is tuned
on: the holdout no longer shows overfitting. Queries are compared after normalising case,
whitespace and punctuation; near-duplicates by the Jaccard similarity of their character
3-grams, over every pair of a small set and the pairs MinHash and LSH propose in a large
one (`evaltools.dupes.near`).
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from evaltools.diagnostics import Diagnostic
from evaltools.dupes.minhash import (
    Shingled,
    Words,
    char_ids,
    jaccard,
    matrix,
    shingle,
    signatures,
)
from evaltools.dupes.near import LISTED, Partners, near_pairs
from evaltools.dupes.pairs import Item, Pair
from evaltools.dupes.rules import (
    DUPLICATE_GOLD_SET,
    DUPLICATE_QUERY,
    HOLDOUT_LEAK,
    NEAR_DUPLICATE_QUERY,
)
from evaltools.retrieval.records.set_file import JsonlFile, read_jsonl

QUERY = "query"
GOLD = "gold"
_OPPOSITE = {"tune": "holdout", "holdout": "tune"}
_PUNCTUATION = re.compile(r"[^\w\s]+|_+")
_SPACES = re.compile(r"\s+")


def normalise(query: str) -> str:
    """Case-folded, punctuation as spaces, runs of whitespace as one space."""
    return _SPACES.sub(" ", _PUNCTUATION.sub(" ", query.casefold())).strip()


@dataclass(frozen=True)
class QueryPrint:
    item: Item
    split: str | None
    query: str | None  # normalised; None when the record has no string query
    gold: bytes | None  # digest of the sorted gold chunk IDs; None without a gold object


def query_print(item: Item, record: dict[str, object]) -> QueryPrint:
    query = record.get("query")
    text = normalise(query) if isinstance(query, str) else None
    gold = record.get("gold")
    digest = None
    if isinstance(gold, dict) and gold:
        joined = "\n".join(sorted(gold)).encode("utf-8", "surrogatepass")
        digest = hashlib.blake2b(joined, digest_size=16).digest()
    split = record.get("split")
    return QueryPrint(item, split if isinstance(split, str) else None, text, digest)


def _grams(queries: Sequence[str | None]) -> Shingled:
    """The character 3-grams of each query (none for a missing or empty one)."""
    return shingle([char_ids(q or "") for q in queries], range(len(queries)), len(queries), 3)


def read_prints(paths: Iterable[Path]) -> tuple[list[QueryPrint], list[Diagnostic]]:
    """Every record of the given .jsonl files, in order; files that cannot be used are
    left out with the diagnostics that say why (as `gold split` reports them)."""
    prints: list[QueryPrint] = []
    problems: list[Diagnostic] = []
    for path in paths:
        read = read_jsonl(path, need_gold=False)
        if not isinstance(read, JsonlFile):
            problems.extend(read)
            continue
        for line in read.lines:
            prints.append(query_print(Item(line.path, line.line, line.qid), line.value))
    return prints, problems


def find_pairs(
    prints: Sequence[QueryPrint],
    threshold: float,
    *,
    across: int | None = None,
    listed: int = LISTED,
) -> list[Pair]:
    """Pairs that count twice or leak; with `across`, only pairs of one item before
    position `across` and one from it on. Each query lists its first `listed` near
    partners; the others are counted on the last one listed (`Pair.more`)."""
    alike: dict[tuple[int, int], dict[str, float]] = {}
    same_query = set(_equal_pairs(prints, "query", across))
    for i, j in same_query:
        alike.setdefault((i, j), {})[QUERY] = 1.0
    for i, j in _equal_pairs(prints, "gold", across):
        alike.setdefault((i, j), {})[GOLD] = 1.0
    indexed = _one_position_per_query(prints, across)
    table = matrix(signatures(_grams([p.query for p in prints])))

    @lru_cache(maxsize=4096)
    def grams(position: int) -> set[int]:
        return _grams([prints[position].query]).sets()[0]

    def similarity(i: int, j: int) -> float:
        return jaccard(grams(i), grams(j))

    near = near_pairs(table, indexed, threshold, similarity, across=across, listed=listed)
    more = _listed_near(prints, near, alike)
    shown = {j: i for i, j in more}  # the partner each count is stated on
    counted = {j for j, partners in near.items() if partners.more or not partners.exact}
    leaks = _near_leaks(
        prints,
        indexed,
        table,
        counted=counted,
        similarity=similarity,
        threshold=threshold,
        across=across,
    )
    for i, j, value in leaks:
        if prints[i].query != prints[j].query and QUERY not in alike.get((i, j), {}):
            alike.setdefault((i, j), {})[QUERY] = value
            if j in shown:  # listed now, so no longer among those only counted
                count, exact = more[shown[j], j]
                more[shown[j], j] = (max(count - 1, 0), exact)
    return [
        _pair(prints[i], prints[j], parts, (i, j) in same_query, more.get((i, j), (0, True)))
        for (i, j), parts in sorted(alike.items())
    ]


def _one_position_per_query(prints: Sequence[QueryPrint], across: int | None) -> list[int]:
    """The positions compared for near queries: one item per (normalised query, split), so
    that a leak between two copies is an exact pair."""
    heads: set[tuple[str, str | None, bool]] = set()
    indexed: list[int] = []
    for position, current in enumerate(prints):
        if not current.query:
            continue
        head = (current.query, current.split, across is not None and position >= across)
        if head not in heads:
            heads.add(head)
            indexed.append(position)
    return indexed


def _listed_near(
    prints: Sequence[QueryPrint],
    near: dict[int, Partners],
    alike: dict[tuple[int, int], dict[str, float]],
) -> dict[tuple[int, int], tuple[int, bool]]:
    """The near partners each query lists, added to `alike`; and the count of the others
    (count, exact) by the pair it is stated on."""
    more: dict[tuple[int, int], tuple[int, bool]] = {}  # (count, exact)
    for j, partners in near.items():
        # An equal query (of another split) is an exact pair already, unless the count of
        # the others needs a pair to be stated on.
        kept = [(i, v) for i, v in partners.listed if prints[i].query != prints[j].query]
        kept = kept or ([partners.listed[-1]] if partners.more else [])
        for i, value in kept:
            alike.setdefault((i, j), {})[QUERY] = value
        if kept:
            more[kept[-1][0], j] = (partners.more, partners.exact)
    return more


def _near_leaks(
    prints: Sequence[QueryPrint],
    indexed: list[int],
    table: Words,
    *,
    counted: set[int],
    similarity: Callable[[int, int], float],
    threshold: float,
    across: int | None,
) -> list[tuple[int, int, float]]:
    """(earlier, later, similarity) of near queries of opposite splits, for the items of
    `counted` (those with more partners than listed): a leak must never be one of the
    partners an item only counts. Searched apart, against every item of the other split."""
    out: list[tuple[int, int, float]] = []
    for first, then in (("tune", "holdout"), ("holdout", "tune")):
        refs = [p for p in indexed if prints[p].split == first and (across is None or p < across)]
        searched = [
            p
            for p in indexed
            if p in counted and prints[p].split == then and (across is None or p >= across)
        ]
        if refs and searched:
            order = refs + searched

            def alike(a: int, b: int, order: list[int] = order) -> float:
                return similarity(order[a], order[b])

            found = near_pairs(table[order], range(len(order)), threshold, alike, across=len(refs))
            for x, partners in found.items():
                for y, value in partners.listed:
                    i, j = sorted((order[x], order[y]))
                    out.append((i, j, value))
    return out


def _equal_pairs(
    prints: Sequence[QueryPrint], key: str, across: int | None
) -> list[tuple[int, int]]:
    """(earlier, later) for items with the same normalised query or gold set: each later
    item is paired with the first earlier one of the opposite split (a leak), else with
    the first of its group."""
    # value -> split -> its first position ("" for the first of any split)
    firsts: dict[str | bytes, dict[str, int]] = {}
    out: list[tuple[int, int]] = []
    for position, current in enumerate(prints):
        value = current.query if key == "query" else current.gold
        if value is None:
            continue
        seen = firsts.setdefault(value, {})
        if across is not None and position < across:
            # The reference set: recorded, never paired within itself.
            seen.setdefault("", position)
            seen.setdefault(current.split or "-", position)
            continue
        opposite = _OPPOSITE.get(current.split or "")
        partner = seen.get(opposite) if opposite is not None else None
        if partner is None:
            partner = seen.get("")
        if partner is not None:
            out.append((partner, position))
        if across is None:
            seen.setdefault("", position)
            seen.setdefault(current.split or "-", position)
    return out


def _pair(
    a: QueryPrint,
    b: QueryPrint,
    alike: dict[str, float],
    same_query: bool,
    more: tuple[int, bool],
) -> Pair:
    parts = tuple(sorted(alike.items()))
    value = alike.get(QUERY, 1.0)  # the queries' similarity; 1 for a shared gold set only
    if a.split in _OPPOSITE and _OPPOSITE[a.split] == b.split:
        kind, rule = "leak", HOLDOUT_LEAK
    elif same_query:
        kind, rule = "exact", DUPLICATE_QUERY
    elif QUERY not in alike:
        kind, rule = "exact", DUPLICATE_GOLD_SET
    else:
        kind, rule = "near", NEAR_DUPLICATE_QUERY
    return Pair(kind, a.item, b.item, value, rule, parts, *more)
