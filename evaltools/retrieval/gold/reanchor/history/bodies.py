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
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from itertools import accumulate, chain, pairwise
from typing import NamedTuple, Protocol

from evaltools.gcpause import no_cycle_collection
from evaltools.retrieval.code.symbols import language_of

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
# ...and read at most this many entries of the token index to find them (a few ms).
MAX_POSTINGS = 20_000
# ...or bound more than this many bodies exactly; past either, it scores only this many
# bodies: those sharing most of its rarer tokens.
MAX_BOUNDED = 2_000
INEXACT_SCORED = 10
# Bounds are compared with this slack, so that float rounding never drops a body.
_EPSILON = 1e-9
# A line longer than this (minified or generated code, a long literal) is left out of
# bodies, as comment lines are; a definition with nothing else has no body. Such a line
# holds other definitions too (underscore's bundle: every function on one line of ten
# thousand tokens, a second for each comparison), so it is no evidence of its code.
MAX_LINE_CHARS = 1_000
# The version of bodies as normalised and as cached (4: compressed; 5: TypeScript and
# JavaScript one language; 6: no body on long lines): cached bodies of
# another one are computed again.
BODIES_VERSION = 6
# Cached bodies are kept with the definitions, under this prefix of the content's key.
BODIES_KEY = f"bodies{BODIES_VERSION}"
_TOKEN = re.compile(r"\w+|[^\w\s]")
# The same tokens in ASCII text, found faster; ASCII `\s` lacks \x1c-\x1f, which `str.isspace`
# (and Unicode `\s`) count as blank.
_ASCII_TOKEN = re.compile(r"\w+|[^\w\s\x1c-\x1f]", re.ASCII)
# A line whose first non-blank characters open a comment (`str.strip` and `\s` agree on
# what is blank).
_COMMENT_LINE = re.compile(r"^[^\S\n]*(?:#|//)[^\n]*", re.MULTILINE)
_Key = tuple[str | None, str]  # (language, token)
_Count = tuple[int, int]  # (position, count)
_Found = tuple[list[tuple[float, "Body"]], bool]


class Body(NamedTuple):
    """A definition's normalised tokens, where it is, and their fingerprint (a tuple: a
    tree's index holds one for every definition)."""

    path: str
    chunk_id: str
    name: str
    size: int  # characters of the normalised text
    fingerprint: str
    language: str | None  # `symbols.language_of`: bodies are compared within one
    tokens: tuple[str, ...]

    @property
    def leaf(self) -> str:
        return self.name.rpartition(".")[2]


def source_lines(data: bytes) -> list[str]:
    """A file's lines as chunk IDs number them: tree-sitter's rows, cut at `\n` only (a
    form feed or a lone `\r` inside a line does not start another, as `splitlines` would)."""
    return data.decode("utf-8", "replace").split("\n")


def _token_pattern(text: str) -> re.Pattern[str]:
    """What finds the tokens of `text` (comment-only lines already blanked, see
    `_uncommented`): one regular expression pass in C, not a call per line."""
    return _ASCII_TOKEN if text.isascii() else _TOKEN


def _uncommented(text: str) -> str:
    # Blanking keeps every `\n`, so line offsets stay those of the source.
    return _COMMENT_LINE.sub("", text) if "#" in text or "//" in text else text


def _renamed(tokens: list[str], leaf: str) -> tuple[str, ...]:
    """`tokens` with `_` for `leaf` (found by `list.index`, in C: a body names itself a
    few times among hundreds of tokens)."""
    try:
        at = tokens.index(leaf)
        while True:
            tokens[at] = "_"
            at = tokens.index(leaf, at + 1)
    except ValueError:
        return tuple(tokens)


def make_body(path: str, chunk_id: str, name: str, lines: list[str]) -> Body:
    text = _uncommented("\n".join(lines))
    blanked = _blank_long_lines(text.split("\n")) if len(text) > MAX_LINE_CHARS else None
    if blanked is not None:
        text = "\n".join(blanked)
    tokens = _renamed(_token_pattern(text).findall(text), name.rpartition(".")[2])
    if blanked is not None and not tokens:
        return _no_body(path, chunk_id, name)
    return _made(path, chunk_id, name, language_of(path), tokens)


def _blank_long_lines(lines: list[str]) -> list[str] | None:
    """`lines` with those longer than `MAX_LINE_CHARS` blanked (their count kept), or None
    when there is none."""
    if max(map(len, lines)) <= MAX_LINE_CHARS:
        return None
    return ["" if len(line) > MAX_LINE_CHARS else line for line in lines]


def _no_body(path: str, chunk_id: str, name: str) -> Body:
    """A body that is like none (its fingerprint empty): see `MAX_LINE_CHARS`."""
    return Body(path, chunk_id, name, 0, "", language_of(path), ())


def has_body(body: Body) -> bool:
    return bool(body.fingerprint)


def _made(
    path: str, chunk_id: str, name: str, language: str | None, tokens: tuple[str, ...]
) -> Body:
    joined = "\0".join(tokens)
    digest = hashlib.blake2b(joined.encode("utf-8", "surrogateescape"), digest_size=16)
    size = len(joined) - len(tokens) + 1 if tokens else 0  # the tokens' characters
    return Body(path, chunk_id, name, size, digest.hexdigest(), language, tokens)


def file_bodies(path: str, data: bytes, named: Sequence[tuple[str, int, int, str]]) -> list[Body]:
    """The bodies of a file's named definitions (name, start, end, chunk ID), as
    `make_body` makes them from `source_lines`. Each stretch of lines between two span
    bounds is tokenised once: a class's lines are its methods' too."""
    text = _uncommented(data.decode("utf-8", "replace"))
    lines = text.split("\n")
    blanked = _blank_long_lines(lines) if len(text) > MAX_LINE_CHARS else None
    # How many long lines come before each line: a span holds one if the counts differ.
    long_before: list[int] = []
    if blanked is not None:
        long_before = [0, *accumulate(len(line) > MAX_LINE_CHARS for line in lines)]
        lines, text = blanked, "\n".join(blanked)
    # Line i (from 0) starts at the lengths of the lines before it plus their `\n`s.
    before = [0, *accumulate(map(len, lines))]
    last = len(lines)
    spans = [(min(start - 1, last), min(max(start - 1, end), last)) for _, start, end, _ in named]
    bounds = sorted({line for span in spans for line in span})
    pattern = _token_pattern(text)
    stretches = [pattern.findall(text, before[a] + a, before[b] + b) for a, b in pairwise(bounds)]
    at = {line: number for number, line in enumerate(bounds)}
    language = language_of(path)
    found = []
    for (name, _, _, chunk_id), (a, b) in zip(named, spans, strict=True):
        first, stop = at[a], at[b]
        # A copy: the stretch is a class's too, and renaming writes into the list.
        tokens = (
            list(stretches[first])
            if stop == first + 1
            else list(chain.from_iterable(stretches[first:stop]))
        )
        if not tokens and long_before and long_before[b] != long_before[a]:
            found.append(_no_body(path, chunk_id, name))
            continue
        found.append(
            _made(path, chunk_id, name, language, _renamed(tokens, name.rpartition(".")[2]))
        )
    return found


def similarity(a: Body, b: Body) -> float:
    """difflib's ratio of two bodies' tokens (1.0: the same; 0.0 when either has none)."""
    if not (a.fingerprint and b.fingerprint):
        return 0.0
    if a.fingerprint == b.fingerprint:
        return 1.0
    if not a.tokens or not b.tokens:
        return 0.0
    return difflib.SequenceMatcher(None, a.tokens, b.tokens, autojunk=False).ratio()


class BodySearch(Protocol):
    """What resolving asks of a tree's bodies (`BodyIndex`, or its answers remembered)."""

    def exact(self, old: Body) -> list[Body]:
        """The bodies of `old`'s language with its fingerprint."""

    def near(
        self, old: Body, floor: float = SEARCH_FLOOR, *, complete: bool = False
    ) -> tuple[list[tuple[float, Body]], bool]:
        """See `BodyIndex.near`."""


class BodyIndex:
    """Every definition of the target tree by fingerprint, for exact and near searches.

    A near search does not score every body: an inverted index (language, token) ->
    (body, count) lists, built on the first near search, finds the bodies that share the
    old body's rarer tokens, and a body that shares none of them cannot reach the floor
    (prefix filtering: its tokens in common are at most the old body's common ones). The
    index is read only up to `MAX_POSTINGS` entries a search; a search that needs more
    (generated code where every token is common) is reported incomplete.
    """

    def __init__(self, bodies: Iterable[Body]) -> None:
        self.bodies = list(bodies)
        self.by_fingerprint: dict[str, list[Body]] = {}
        self._near: dict[tuple[str, str | None, float, bool], _Found] = {}
        self._postings: dict[str | None, dict[str, list[int]]] | None = None
        self._repeated: dict[_Key, list[_Count]] = {}
        self._token_counts: list[int] | None = None
        for body in self.bodies:
            if body.fingerprint:
                self.by_fingerprint.setdefault(body.fingerprint, []).append(body)

    def exact(self, old: Body) -> list[Body]:
        return [
            b for b in self.by_fingerprint.get(old.fingerprint, []) if b.language == old.language
        ]

    def near(
        self, old: Body, floor: float = SEARCH_FLOOR, *, complete: bool = False
    ) -> tuple[list[tuple[float, Body]], bool]:
        """Bodies of the same language at least `floor` similar to `old`, best first, and
        whether that list is complete: every body within `BODY_MARGIN` of the best is in
        it. Bodies are scored in the order of an upper bound of their ratio, and scoring
        stops past `MAX_SCORED` (generated code can make thousands alike). `complete`:
        only a complete list is wanted (an incomplete one comes back empty, unscored).
        Searched once per old body and floor."""
        key = (old.fingerprint, old.language, floor, complete)
        if key not in self._near:
            self._near[key] = self._search(old, floor, complete)
        return self._near[key]

    def _search(
        self, old: Body, floor: float, complete: bool
    ) -> tuple[list[tuple[float, Body]], bool]:
        positions, exact = self._candidates(old, floor)
        if complete and not exact:
            return [], False
        matcher = difflib.SequenceMatcher(None, autojunk=False)
        matcher.set_seq2(old.tokens)  # the side difflib analyses: once for every body
        bounds: list[tuple[float, int]] = []
        for position in positions:
            matcher.set_seq1(self.bodies[position].tokens)
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
        return _ranked(found), exact

    def _candidates(self, old: Body, floor: float) -> tuple[list[int], bool]:
        """The positions of the bodies whose tokens in common with `old` (a multiset, as
        difflib's `quick_ratio` counts them) may reach `floor`, in index order, and whether
        that is all of them (False: the search was cut, see `MAX_POSTINGS`)."""
        if not old.fingerprint:
            return [], True
        postings = self._index().get(old.language, {})
        counts = Counter(old.tokens)
        size = len(old.tokens)
        if not size:  # nothing to look up: only empty bodies compare (as equal)
            empty = [p for p, b in enumerate(self.bodies) if not b.tokens and b.fingerprint]
            return [p for p in empty if self.bodies[p].language == old.language], True
        # Rarest first: the tokens that narrow the search most.
        order = sorted(counts, key=lambda t: (len(postings.get(t, ())), t))
        common: Counter[int] = Counter()  # position -> tokens in common among those read
        rest = size  # the old body's tokens not read yet
        read = 0
        exact = True
        for token in order:
            # A body met in none of the lists read has at most `rest` tokens in common,
            # so a ratio of at most 2 * rest / (size + rest): below the floor, stop.
            if _ratio(rest, size + rest) < floor - _EPSILON:
                break
            found = postings.get(token, [])
            read += len(found)
            if read > MAX_POSTINGS:
                exact = False
                break
            common.update(found)  # counted in C: most tokens are once in a body
            mine = counts[token]
            if mine > 1:
                for position, count in self._repeats((old.language, token)):
                    common[position] += min(mine, count) - 1
            rest -= mine
        kept: list[int] = []
        if exact:
            lengths, least = self._lengths(), floor - _EPSILON
            # Its other tokens can match at most the `rest` of the old body's: `_ratio`
            # written out (size > 0), for the thousands of bodies met in common lists.
            kept = [
                position
                for position, shared in common.items()
                if 2.0
                * (shared + min(rest, lengths[position] - shared))
                / (size + lengths[position])
                >= least
            ]
            exact = len(kept) <= MAX_BOUNDED
        if not exact:
            # An incomplete search stays cheap: only the bodies sharing most rare tokens.
            kept = [position for position, _ in common.most_common(INEXACT_SCORED)]
        return sorted(kept), exact

    def _lengths(self) -> list[int]:
        if self._token_counts is None:
            self._token_counts = [len(body.tokens) for body in self.bodies]
        return self._token_counts

    def _index(self) -> dict[str | None, dict[str, list[int]]]:
        """language -> token -> the positions of the bodies that hold it, ascending."""
        if self._postings is None:
            with no_cycle_collection():
                self._postings = self._build_postings()
        return self._postings

    def _build_postings(self) -> dict[str | None, dict[str, list[int]]]:
        # One dict a language, keyed by token: half the time of (language, token) keys.
        # (Searches only `get` from them, which adds no key to a defaultdict.)
        by_language: dict[str | None, dict[str, list[int]]] = {}
        for position, body in enumerate(self.bodies):
            postings = by_language.get(body.language)
            if postings is None:
                postings = by_language[body.language] = defaultdict(list)
            for token in set(body.tokens):
                postings[token].append(position)
        return by_language

    def _repeats(self, key: _Key) -> list[_Count]:
        """(position, count) of the bodies holding the token more than once."""
        found = self._repeated.get(key)
        if found is None:
            language, token = key
            holding = self._index().get(language, {}).get(token, ())
            counted = ((p, self.bodies[p].tokens.count(token)) for p in holding)
            found = self._repeated[key] = [(p, count) for p, count in counted if count > 1]
        return found


def _ratio(matches: int, length: int) -> float:
    return 2.0 * matches / length if length else 1.0


def _ranked(found: list[tuple[float, Body]]) -> list[tuple[float, Body]]:
    return sorted(found, key=lambda pair: (-pair[0], pair[1].chunk_id))
