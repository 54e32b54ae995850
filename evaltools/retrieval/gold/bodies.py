"""Definition bodies as evidence: what a gold ID's code was, and where that code is now.

A body is the definition's lines, normalised so that moving it changes nothing: each line
stripped, blank and comment-only lines dropped, and the definition's own last name replaced
by `_` (a renamed function keeps its fingerprint). Two bodies are compared with difflib's
ratio on their tokens (words and single punctuation marks): finer than lines, and a
fraction of the cost of characters. The thresholds are documented in docs/spans.md.
"""

from __future__ import annotations

import difflib
import hashlib
import re
from collections.abc import Iterable
from dataclasses import dataclass

from evaltools.retrieval.code.symbols import grammar_of

# A body this similar (difflib ratio) to the old one is the same definition, edited.
NEAR_BODY = 0.8
# ...provided no other body is within this much of it; else a person chooses.
BODY_MARGIN = 0.1
# A name found where it was, whose body kept less than this of the old one, while a body
# elsewhere kept at least HOLLOW_OTHER and HOLLOW_GAIN more: the name was hollowed out.
HOLLOW_BELOW = 0.5
HOLLOW_OTHER = 0.6
HOLLOW_GAIN = 0.25
# Body evidence alone (another name) needs this much code: `pass` matches anything.
MIN_BODY_CHARS = 80
# Near searches find every body at least this similar (a candidate worth a person's look);
# each rule then keeps those above its own threshold.
SEARCH_FLOOR = 0.5
# Near searches score at most this many bodies (by their upper bound) before giving up.
MAX_SCORED = 200
_TOKEN = re.compile(r"\w+|[^\w\s]")
_COMMENT = ("#", "//")


@dataclass(frozen=True)
class Body:
    """A definition's normalised tokens, where it is, and their fingerprint."""

    path: str
    chunk_id: str
    name: str
    size: int  # characters of the normalised text
    fingerprint: str
    grammar: str | None
    tokens: tuple[str, ...]

    @property
    def leaf(self) -> str:
        return self.name.rpartition(".")[2]


def normalise(lines: Iterable[str], leaf: str) -> tuple[str, ...]:
    kept = [text for line in lines if (text := line.strip()) and not text.startswith(_COMMENT)]
    return tuple("_" if t == leaf else t for t in _TOKEN.findall("\n".join(kept)))


def make_body(path: str, chunk_id: str, name: str, lines: list[str]) -> Body:
    tokens = normalise(lines, name.rpartition(".")[2])
    digest = hashlib.blake2b("\0".join(tokens).encode("utf-8", "surrogateescape"), digest_size=16)
    size = sum(map(len, tokens))
    return Body(path, chunk_id, name, size, digest.hexdigest(), grammar_of(path), tokens)


def similarity(a: Body, b: Body) -> float:
    """difflib's ratio of two bodies' tokens (1.0: the same)."""
    if a.fingerprint == b.fingerprint:
        return 1.0
    if not a.tokens or not b.tokens:
        return 0.0
    return difflib.SequenceMatcher(None, a.tokens, b.tokens, autojunk=False).ratio()


class BodyIndex:
    """Every definition of the target tree by fingerprint, for exact and near searches."""

    def __init__(self, bodies: Iterable[Body]) -> None:
        self.bodies = list(bodies)
        self.by_fingerprint: dict[str, list[Body]] = {}
        self._near: dict[tuple[str, str | None], tuple[list[tuple[float, Body]], bool]] = {}
        for body in self.bodies:
            self.by_fingerprint.setdefault(body.fingerprint, []).append(body)

    def exact(self, old: Body) -> list[Body]:
        return [b for b in self.by_fingerprint.get(old.fingerprint, []) if b.grammar == old.grammar]

    def near(self, old: Body) -> tuple[list[tuple[float, Body]], bool]:
        """Bodies of the same language at least `SEARCH_FLOOR` similar to `old`, best
        first, and whether that list is complete: every body within `BODY_MARGIN` of the
        best is in it. Bodies are scored in the order of an upper bound of their ratio,
        and scoring stops past `MAX_SCORED` (generated code can make thousands alike).
        Searched once per old body."""
        key = (old.fingerprint, old.grammar)
        if key not in self._near:
            self._near[key] = self._search(old, SEARCH_FLOOR)
        return self._near[key]

    def _search(self, old: Body, floor: float) -> tuple[list[tuple[float, Body]], bool]:
        matcher = difflib.SequenceMatcher(None, autojunk=False)
        matcher.set_seq2(old.tokens)  # the side difflib analyses: once for every body
        bounds: list[tuple[float, int]] = []
        for position, body in enumerate(self.bodies):
            if body.grammar != old.grammar:
                continue
            matcher.set_seq1(body.tokens)
            # Cheap upper bounds first: most bodies are nothing like the old one.
            if matcher.real_quick_ratio() >= floor and (bound := matcher.quick_ratio()) >= floor:
                bounds.append((bound, position))
        bounds.sort(key=lambda pair: -pair[0])
        found: list[tuple[float, Body]] = []
        best = 0.0
        for scored, (bound, position) in enumerate(bounds):
            if bound < max(floor, best - BODY_MARGIN):
                break  # no body left can reach the list
            if scored == MAX_SCORED:
                return _ranked(found), False
            body = self.bodies[position]
            matcher.set_seq1(body.tokens)
            score = 1.0 if body.fingerprint == old.fingerprint else matcher.ratio()
            if score >= floor:
                found.append((score, body))
                best = max(best, score)
        return _ranked(found), True


def _ranked(found: list[tuple[float, Body]]) -> list[tuple[float, Body]]:
    return sorted(found, key=lambda pair: (-pair[0], pair[1].chunk_id))
