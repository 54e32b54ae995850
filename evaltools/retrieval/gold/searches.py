"""A tree's body searches kept between runs: a warm check asks the same questions again.

Building the body index (every definition of the tree, its tokens, an inverted index) and
searching it costs a revision set more than the rest of a warm check. What a search
answers depends only on the old body (its fingerprint and language), the floor, and the
tree's bodies, which the contents of its files decide. So the answers are kept in the
definition cache as one row keyed by the tree: every (path, content key) of the files the
index covers, the body normalisation's version and the search's parameters. A run whose
questions were all asked before, on the same contents, reads that row and builds nothing;
the first new question builds the index (`build`), and the row is stored again with its
answer. A row that does not decode as this version wrote it is ignored (recomputed).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterable
from typing import Any

from evaltools.retrieval.gold import bodies as body_search
from evaltools.retrieval.gold.bodies import SEARCH_FLOOR, Body, BodyIndex

# The format of the row, and of what it remembers: raise it when a search's answers change.
SEARCHES_VERSION = 1
SEARCHES_KEY = f"searches{SEARCHES_VERSION}"
# A row past this many answers starts over with this run's (a tree checked against many
# sets would otherwise grow it for ever).
MAX_REMEMBERED = 20_000

_Near = tuple[list[tuple[float, Body]], bool]


def searches_key(contents: Iterable[tuple[str, str]]) -> str:
    """The row's key for a tree whose indexed files are these (path, content key) pairs,
    in index order: what decides every body, and so every answer."""
    parameters = [
        body_search.BODIES_VERSION,
        body_search.MAX_SCORED,
        body_search.MAX_POSTINGS,
        body_search.MAX_BOUNDED,
        body_search.INEXACT_SCORED,
    ]
    digest = hashlib.blake2b(json.dumps(parameters).encode(), digest_size=20)
    for path, key in contents:
        digest.update(f"{path}\0{key}\n".encode("utf-8", "surrogateescape"))
    return f"{SEARCHES_KEY}:{digest.hexdigest()}"


class RememberedSearch:
    """`BodyIndex.exact` and `near` answered from a stored row when it has them, else by
    the index (`build`, called once, only if needed); `encode` gives the row to store."""

    def __init__(self, stored: bytes | None, build: Callable[[], BodyIndex]) -> None:
        self._build = build
        self._index: BodyIndex | None = None
        self._exact: dict[str, list[Body]] = {}
        self._near: dict[str, _Near] = {}
        self._new = False
        if stored is not None:
            self._load(stored)

    def exact(self, old: Body) -> list[Body]:
        key = f"{old.fingerprint} {old.grammar}"
        found = self._exact.get(key)
        if found is None:
            found = self._exact[key] = self.index().exact(old)
            self._new = True
        return found

    def near(self, old: Body, floor: float = SEARCH_FLOOR, *, complete: bool = False) -> _Near:
        key = f"{old.fingerprint} {old.grammar} {floor!r} {int(complete)}"
        found = self._near.get(key)
        if found is None:
            found = self._near[key] = self.index().near(old, floor, complete=complete)
            self._new = True
        return found

    def index(self) -> BodyIndex:
        if self._index is None:
            self._index = self._build()
        return self._index

    def encode(self) -> bytes | None:
        """The row to store: every answer known, None when this run added none."""
        if not self._new:
            return None
        places: dict[Body, int] = {}
        for same in self._exact.values():
            for body in same:
                places.setdefault(body, len(places))
        for scored, _ in self._near.values():
            for _, body in scored:
                places.setdefault(body, len(places))
        rows = [[*body[:6], " ".join(body.tokens)] for body in places]
        exact = {key: [places[b] for b in found] for key, found in self._exact.items()}
        near = {
            key: [[[score, places[b]] for score, b in found], done]
            for key, (found, done) in self._near.items()
        }
        row = [SEARCHES_VERSION, rows, exact, near]
        return json.dumps(row, separators=(",", ":")).encode()  # ASCII: non-ASCII is escaped

    def _load(self, stored: bytes) -> None:
        try:
            version, rows, exact, near = json.loads(stored)
            if version != SEARCHES_VERSION or len(exact) + len(near) > MAX_REMEMBERED:
                return
            bodies = [_body(row) for row in rows]

            def known(i: object) -> Body:
                if type(i) is not int or i < 0:
                    raise IndexError("a body is named by its place in the row")
                return bodies[i]

            self._exact = {str(key): [known(i) for i in found] for key, found in exact.items()}
            self._near = {
                str(key): ([(float(score), known(i)) for score, i in found], bool(done))
                for key, (found, done) in near.items()
            }
        except (ValueError, TypeError, AttributeError, IndexError, KeyError):
            self._exact, self._near = {}, {}  # not a row this version wrote: ask again


def _body(row: list[Any]) -> Body:
    path, chunk_id, name, size, fingerprint, grammar, text = row
    if not all(isinstance(s, str) for s in (path, chunk_id, name, fingerprint, text)):
        raise TypeError("a body's text fields are strings")
    if type(size) is not int or not (grammar is None or isinstance(grammar, str)):
        raise TypeError("a body's size is a number and its grammar a name")
    tokens = tuple(text.split(" ")) if text else ()
    return Body(path, chunk_id, name, size, fingerprint, grammar, tokens)
