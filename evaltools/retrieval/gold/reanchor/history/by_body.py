"""Where a definition went by its body: the one new definition whose body is the old one,
or clearly the nearest; of several, the one named as it was or in its own scope, else
`copied`. Read after the name and the files git paired have said nothing.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from evaltools.retrieval.code.chunk_id import ChunkId, parse_chunk_id
from evaltools.retrieval.gold.reanchor.history.bodies import (
    BODY_MARGIN,
    HOLLOW_BELOW,
    MIN_BODY_CHARS,
    NEAR_BODY,
    Body,
    BodySearch,
    similarity,
)
from evaltools.retrieval.gold.reanchor.history.old_defs import (
    MAX_WEIGHED,
    body_of,
    chunk_lines,
    kept,
)
from evaltools.retrieval.gold.reanchor.lookup import Lookup
from evaltools.retrieval.gold.reanchor.resolve import (
    MAX_CANDIDATES,
    Resolution,
    Status,
    leaf_of,
    resolved,
)
from evaltools.retrieval.gold.reanchor.scope import (
    file_name,
    file_stem,
    is_test_path,
    scope_of,
    scope_word,
    unique_by_language,
)
from evaltools.retrieval.gold.reanchor.similarity import name_key

_WORD = re.compile(r"\w+")

# Keeps, of candidate chunk IDs, those that were not at the record's revision.
Fresh = Callable[[list[str]], list[str]]


def by_body(
    cid: ChunkId, old: Body, lookup: Lookup, fresh: Fresh, homes: list[str]
) -> Resolution | None:
    """The one body (of a definition not there before) that is the old one, or clearly the
    nearest; among several, the only one in the old file's scope (`homes`' scopes)."""
    index = lookup.bodies()
    if index is None:
        return None
    # A short body (`return self._x`, `self.__wrapped = wrapped`) is not evidence of
    # anything but its own qualified name.
    substantial = old.size >= MIN_BODY_CHARS
    identical = _same_kind(old, [b for b in index.exact(old) if substantial or b.name == old.name])
    if identical:
        # One that stood there all along and is the old body says the code merged into it
        # (or is boilerplate): a near newcomer is then no evidence of a move either.
        found = _by_identical(cid, old, identical, fresh, homes)
    else:
        found = _by_near(cid, old, index, fresh, homes, substantial=substantial)
    return _unless_named_elsewhere(cid, old, found, lookup, fresh=fresh, homes=homes)


def _unless_named_elsewhere(
    cid: ChunkId,
    old: Body,
    found: Resolution | None,
    lookup: Lookup,
    *,
    fresh: Fresh,
    homes: list[str],
) -> Resolution | None:
    """`found` (a body under another name), unless the ID's own name, whole, stands in a
    definition new since the revision that kept half of the old body: the body and the
    name then say two places, and a person chooses (commons-jexl 3 kept
    `Introspector.getMethods` in its `Introspector.java`, rewritten, while the facade's
    one line went, 0.98 alike, to `Uberspect.getMethods`; a `ReadonlyContext.set`, moved
    among the tests, was 0.88 alike, an `EmptyContext.set` 0.87). A body renamed in its own file
    (or the one git moved it to), or found whole, outweighs any name."""
    if found is None or found.new_chunk_id is None or cid.symbol is None:
        return found
    new = parse_chunk_id(found.new_chunk_id)
    if new.symbol == cid.symbol or new.path in homes:
        return found
    if kept(old, found.new_chunk_id, lookup) == 1.0:
        return found
    # Of its own kind, or in a file of its file's name: a test keeps copies of what it
    # tests (immer's `__tests__/base.js`), and a helper moves among the tests with its file.
    test, own_file = is_test_path(cid.path), file_name(cid.path)
    namesakes = [
        e.chunk_id
        for path, e in lookup.holding({leaf_of(cid.symbol)})
        if e.name == cid.symbol and (is_test_path(path) == test or file_name(path) == own_file)
    ]
    if len(namesakes) > MAX_WEIGHED:
        return found  # a common name (`New`, `main`): their history is not read
    arrived = fresh(namesakes)
    alike = {c: score for c in arrived if (score := kept(old, c, lookup)) >= HOLLOW_BELOW}
    standing = sorted(alike, key=lambda c: -alike[c])
    if not standing:
        return _unless_a_wrapper_of_it(cid, old, found, arrived, lookup)
    return Resolution(
        Status.AMBIGUOUS,
        candidates=(found.new_chunk_id, *standing)[:MAX_CANDIDATES],
        detail=f"its body went to {found.new_chunk_id}, but `{cid.symbol}` is at "
        f"{standing[0]}, {alike[standing[0]]:.0%} alike: the body and the name disagree",
    )


def _unless_a_wrapper_of_it(
    cid: ChunkId, old: Body, found: Resolution, arrived: list[str], lookup: Lookup
) -> Resolution:
    """`found`, unless the ID's own name, whole, is now one definition new since the
    revision that names the found one's last name after its own, as a call would: a
    wrapper left where the code went (arrayvec 0.7 moved `ArrayVec` to its own file, where
    `push_unchecked` is one line, `ArrayVecImpl::push_unchecked(self, element)`, the code
    now the trait's). The name and the body say two places: `hollowed`, a person
    chooses."""
    assert found.new_chunk_id is not None
    if len(arrived) != 1:
        return found
    callee = parse_chunk_id(found.new_chunk_id)
    # A body now inside the name's own definition did not leave it (node-semver 7: the
    # constructor function `Comparator` became a class, its body the `constructor`).
    if callee.within(parse_chunk_id(arrived[0])):
        return found
    wrapper = body_of(arrived[0], lookup)
    called = leaf_of(callee.symbol or "")
    if wrapper is None or called not in _named_after_its_name(arrived[0], lookup):
        return found
    return Resolution(
        Status.HOLLOWED,
        candidates=(arrived[0], found.new_chunk_id),
        detail=f"`{cid.symbol}` is now {arrived[0]}, which names `{called}` and kept "
        f"{similarity(old, wrapper):.0%} of its body, while {found.new_chunk_id} has "
        f"{kept(old, found.new_chunk_id, lookup):.0%} of it",
        caveat=found.caveat,
    )


def _named_after_its_name(chunk_id: str, lookup: Lookup) -> list[str]:
    """The words of a definition's source after its own name: what its code names (its
    body's tokens stand `_` for its name, and so for a call of a namesake)."""
    cid = parse_chunk_id(chunk_id)
    lines = chunk_lines(cid, lookup)
    if lines is None:
        return []
    words = _WORD.findall("\n".join(lines))
    own = leaf_of(cid.symbol or "")
    return words[words.index(own) + 1 :] if own in words else []


def _by_identical(
    cid: ChunkId, old: Body, identical: list[Body], fresh: Fresh, homes: list[str]
) -> Resolution | None:
    """Among the definitions whose body is the old one, the one new since the revision, or
    the one of them the name, the file or the scope tells."""
    exact = _newcomers(identical, fresh)
    same_name = [b for b in exact if b.name == old.name]
    # One newcomer with a body that also stood elsewhere then is boilerplate (a writer's
    # `out.write(...)`), no evidence of a move, unless it has the ID's name.
    boilerplate = len(identical) > len(exact) and not same_name
    if (len(exact) == 1 and not boilerplate) or len(same_name) == 1:
        pick = same_name[0] if len(same_name) == 1 else exact[0]
        evidence = "the same name, body identical" if same_name else "body identical, found once"
        return resolved(cid, pick.chunk_id, "its body is unchanged", evidence)
    if boilerplate and len(exact) == 1:
        return _copied(cid, identical)
    if not exact:
        return None
    return (
        _named_alike(cid, old, [(1.0, b) for b in exact])
        or _in_own_file(cid, exact, homes, "body identical")
        or _in_scope(cid, exact, homes, "body identical")
        or _in_its_file(cid, old, exact, "body identical")
        or _copied(cid, exact)
    )


def _by_near(
    cid: ChunkId,
    old: Body,
    index: BodySearch,
    fresh: Fresh,
    homes: list[str],
    *,
    substantial: bool,
) -> Resolution | None:
    """The newcomer whose body is nearest the old one, `NEAR_BODY` similar and `BODY_MARGIN`
    clear of the rest, or the one of those close the name, the file or the scope tells."""
    found, complete = index.near(old, NEAR_BODY - BODY_MARGIN, complete=True)
    if not complete:
        return None  # too many alike to be sure: the candidates say which
    near = [
        (score, body)
        for score, body in found
        if score >= NEAR_BODY and (substantial or body.name == old.name)
    ]
    kind = {b.chunk_id for b in _same_kind(old, [b for _, b in near])}
    near = [(score, body) for score, body in near if body.chunk_id in kind]
    kept = {b.chunk_id for b in _newcomers([body for _, body in near], fresh)}
    standing = [score for score, body in near if body.chunk_id not in kept]
    near = [(score, body) for score, body in near if body.chunk_id in kept]
    if not near:
        return None
    best = near[0][0]
    # A body that stood there all along and is nearer to the old one than any newcomer
    # says the code merged into it or is boilerplate (a writer's one-line `write`).
    if standing and standing[0] > best:
        return None
    close = _innermost([(score, body) for score, body in near if best - score < BODY_MARGIN], old)
    if len(close) == 1:
        mine = next(score for score, body in near if body.chunk_id == close[0].chunk_id)
        rest = [score for score, body in near if body.chunk_id != close[0].chunk_id]
        second = f"the next {rest[0]:.2f}" if rest else "no other near"
        evidence = f"body {mine:.2f} alike, {second}"
        return resolved(cid, close[0].chunk_id, f"{mine:.0%} of its body is", evidence)
    ranked = [(score, body) for score, body in near if body in close]
    return (
        _named_alike(cid, old, ranked)
        or _named_as_it_was(cid, old, ranked)
        or _in_own_file(cid, close, homes, f"body {best:.2f} alike")
        or _in_scope(cid, close, homes, f"body {best:.2f} alike")
        or _in_its_file(cid, old, close, f"body {best:.2f} alike")
        or _copied(cid, close)
    )


def _named_alike(cid: ChunkId, old: Body, ranked: list[tuple[float, Body]]) -> Resolution | None:
    """Of bodies about as alike (most alike first), the most alike if it alone has the old
    last name, but for its spelling (`similarity.name_key`): `trim_start_with` of
    `trim_start_with` and `trim_end_with`, `testFoo` of JUnit 4's `foo` and `fooBar`."""
    key = name_key(old.leaf)
    named = [(score, body) for score, body in ranked if name_key(body.leaf) == key]
    if len(named) != 1 or named[0][0] < ranked[0][0]:
        return None
    score, body = named[0]
    rest = [s for s, b in ranked if b is not body]
    name = "its name" if body.leaf == old.leaf else f"its name spelled `{body.leaf}`"
    evidence = f"body {score:.2f} alike and {name}, the next {rest[0]:.2f}"
    return resolved(cid, body.chunk_id, "its body and name are", evidence)


def _named_as_it_was(
    cid: ChunkId, old: Body, ranked: list[tuple[float, Body]]
) -> Resolution | None:
    """Of bodies about as alike, the only one with the old qualified name, whole, when the
    last name alone does not tell (semver 1.0's `serde.rs`: `Version.deserialize` and
    `VersionReq.deserialize`, each the other's visitor but for its type): the name and the
    body agree there."""
    named = [(score, body) for score, body in ranked if body.name == old.name]
    if len(named) != 1:
        return None
    score, body = named[0]
    rest = [s for s, b in ranked if b is not body]
    evidence = f"body {score:.2f} alike and its qualified name, the next {rest[0]:.2f}"
    return resolved(cid, body.chunk_id, "its body and qualified name are", evidence)


def renamed_in_place(cid: ChunkId, old: Body, lookup: Lookup, fresh: Fresh) -> Resolution | None:
    """A short body (no evidence by itself) renamed where it stands: the one definition new
    since the revision whose body is the old one, at the ID's own lines in its own file."""
    index = lookup.bodies()
    if index is None:
        return None
    here = _newcomers([b for b in index.exact(old) if _at_its_lines(b, cid)], fresh)
    if len(here) != 1:
        return None
    evidence = "renamed in place: body identical at its own lines, a new name"
    return resolved(cid, here[0].chunk_id, "its body is unchanged at its lines", evidence)


def _at_its_lines(body: Body, cid: ChunkId) -> bool:
    span = parse_chunk_id(body.chunk_id)
    return body.path == cid.path and (span.start, span.end) == (cid.start, cid.end)


def _innermost(scored: list[tuple[float, Body]], old: Body) -> list[Body]:
    """The bodies but those that enclose, or are enclosed by, one of them that fits the old
    definition better: the one with the old last name, else the more alike, else the
    inner one (a class of one method is as alike as the method, and is not a second place
    of it; a function renamed around an inner function it kept is the outer one, more
    alike than the inner, jsonschema 4)."""
    spans = [parse_chunk_id(b.chunk_id) for _, b in scored]

    def fit(score: float, body: Body) -> tuple[bool, float]:
        return body.leaf == old.leaf, score

    def encloses(outer: ChunkId, inner: ChunkId) -> bool:
        return outer != inner and inner.within(outer)

    def beaten(score: float, body: Body, span: ChunkId) -> bool:
        mine = fit(score, body)
        return any(
            (encloses(span, s) and fit(*other) >= mine)
            or (encloses(s, span) and fit(*other) > mine)
            for other, s in zip(scored, spans, strict=True)
        )

    return [
        body
        for (score, body), span in zip(scored, spans, strict=True)
        if not beaten(score, body, span)
    ]


def _newcomers(bodies: list[Body], fresh: Fresh) -> list[Body]:
    kept = set(fresh([b.chunk_id for b in bodies]))
    return [b for b in bodies if b.chunk_id in kept]


def _in_own_file(
    cid: ChunkId, bodies: list[Body], homes: list[str], alike: str
) -> Resolution | None:
    """Of several bodies alike, the only one in the ID's own file (or the one git moved it
    to): the others are copies elsewhere (axios 1.0's bundles in `dist/` hold every
    function of `lib/`)."""
    own = [b for b in bodies if b.path in homes]
    if len(own) != 1:
        return None
    evidence = f"{alike}, the only one in {own[0].path}"
    return resolved(cid, own[0].chunk_id, "its body is still in its file", evidence)


def _in_scope(cid: ChunkId, bodies: list[Body], homes: list[str], alike: str) -> Resolution | None:
    """Of several bodies alike, the only one in the old file's package, where the language
    allows one definition of a name (elsewhere two copies are as likely as each other)."""
    if not unique_by_language(cid.path):
        return None
    scopes = {scope_of(path) for path in homes}
    local = [b for b in bodies if scope_of(b.path) in scopes]
    if len(local) != 1:
        return None
    evidence = f"{alike}, the only one in its {scope_word(cid.path)}"
    return resolved(cid, local[0].chunk_id, "its body is in its own scope", evidence)


def _in_its_file(cid: ChunkId, old: Body, bodies: list[Body], alike: str) -> Resolution | None:
    """Of several bodies alike, the only one with the old qualified name in a file named
    for it (its stem the first name of that name but for its spelling,
    `similarity.name_key`: `values` in `modules/values.js`, `createEscaper` in
    `modules/_createEscaper.js`): a module of its own is where it lives, a bundle or a
    copy elsewhere is not (underscore 1.11 split `modules/index.js` into a file a function,
    beside two bundles that hold them all). Copies under other names stay copies."""
    first = name_key(old.name.partition(".")[0])
    own = [b for b in bodies if b.name == old.name and name_key(file_stem(b.path)) == first]
    if len(own) != 1:
        return None
    evidence = f"{alike}, the only one in a file of its name"
    return resolved(cid, own[0].chunk_id, "its body is in the file named for it", evidence)


def _copied(cid: ChunkId, bodies: list[Body]) -> Resolution:
    return Resolution(
        Status.COPIED,
        candidates=tuple(b.chunk_id for b in bodies),
        detail=f"its body is now in {len(bodies)} places",
    )


def _same_kind(old: Body, bodies: list[Body]) -> list[Body]:
    """Those of `bodies` in test code if `old` was, else in the rest, when there are some:
    code seldom moves between tests and the rest, and a test keeps copies of what it tests
    (immer's `__tests__/base.js` has its own `isEnumerable`)."""
    test = is_test_path(old.path)
    same = [b for b in bodies if is_test_path(b.path) == test]
    return same or bodies
