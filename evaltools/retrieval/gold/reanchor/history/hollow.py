"""A name found again, gated by its body: it stands unless its body kept little of the old
one and another definition, one whose code was not already there, kept much, or another
definition of the name then, gone since, is what it kept, or it is now only declared
where it had code; then the ID is `hollowed` (the places reported, nothing fixed)."""

from __future__ import annotations

from itertools import pairwise

from evaltools.retrieval.code.chunk_id import ChunkId, ChunkIdError, parse_chunk_id
from evaltools.retrieval.code.symbols import language_of
from evaltools.retrieval.gold.reanchor.history.bodies import (
    HOLLOW_BELOW,
    HOLLOW_GAIN,
    HOLLOW_OTHER,
    MIN_BODY_CHARS,
    Body,
    similarity,
)
from evaltools.retrieval.gold.reanchor.history.by_body import Fresh
from evaltools.retrieval.gold.reanchor.history.old_defs import (
    OldDefinitions,
    body_of,
    kept,
    old_body,
)
from evaltools.retrieval.gold.reanchor.history.owner_places import members_of
from evaltools.retrieval.gold.reanchor.history.owners import Owners
from evaltools.retrieval.gold.reanchor.lookup import Entry, Lookup
from evaltools.retrieval.gold.reanchor.resolve import GoldRef, Resolution, Status, leaf_of

# The other places a hollowed name's definitions are listed with, at most.
MAX_ELSEWHERE = 3


def hollowed_or(old: Body, result: Resolution, lookup: Lookup, arrived: Fresh) -> Resolution:
    """A name match stands unless its body kept little of the old one and another kept
    much (one whose code was not already there: a newcomer, or a name that took it)."""
    assert result.new_chunk_id is not None
    new = body_of(result.new_chunk_id, lookup)
    kept = similarity(old, new) if new is not None else 0.0
    if kept >= HOLLOW_BELOW or old.size < MIN_BODY_CHARS:
        return result
    index = lookup.bodies()
    if index is None:
        return result
    # A body now inside the name's own definition did not leave it (socket.io 3: the
    # constructor function `Client` became `class Client`, its body the `constructor`).
    here = parse_chunk_id(result.new_chunk_id)
    elsewhere = [
        (score, body)
        for score, body in index.near(old, HOLLOW_OTHER)[0]
        if score >= max(HOLLOW_OTHER, kept + HOLLOW_GAIN)
        and not parse_chunk_id(body.chunk_id).within(here)
    ]
    took = set(arrived([body.chunk_id for _, body in elsewhere]))
    went = [(score, body) for score, body in elsewhere if body.chunk_id in took]
    if not went:
        return result
    score, body = went[0]
    # A person chooses among every place the body is, copies that stood there too (the
    # source of a bundle's copy): those it went to first.
    places = [b.chunk_id for _, b in went] + [
        b.chunk_id for _, b in elsewhere if b.chunk_id not in took
    ]
    return Resolution(
        Status.HOLLOWED,
        candidates=(result.new_chunk_id, *places[:MAX_ELSEWHERE]),
        detail=f"`{old.name}` is still at {result.new_chunk_id} but kept {kept:.0%} of its "
        f"body, while {body.chunk_id} has {score:.0%} of it",
        caveat=result.caveat,
    )


def outweighed_or(
    old: Body, cid: ChunkId, revision: str | None, result: Resolution, olds: OldDefinitions
) -> Resolution:
    """A name defined several times in its file at `revision` (two `#[cfg]` variants of a
    function, Java overloads) and fewer times in the file found: its definition there is
    the variant's it kept clearly more of (`_outweighs`). The ID's was dropped (nom 7
    dropped the `lexical` `double`, click 8 its Python 2 branch) or went elsewhere:
    `hollowed`, nothing fixed, the name's definitions in the files git says the ID's became
    listed. Copies of the ID's body tell nothing apart; nor does anything when the ID's
    own definition, drawn as the parser draws it (decorators, doc comments), is there
    unchanged."""
    assert result.new_chunk_id is not None and cid.symbol is not None
    if revision is None:
        return result
    then = [d for d in olds.at(cid.path, revision) if d.name == cid.symbol]
    here = parse_chunk_id(result.new_chunk_id)
    now = _named(here.path, here.symbol, olds.lookup)
    if len(then) < 2 or len(now) >= len(then):
        return result
    new = body_of(result.new_chunk_id, olds.lookup)
    if new is None:
        return result
    variants = olds.bodies(cid.path, cid.symbol, revision)
    # The ID's own definition (its span as another chunker drew it, or as the parser does).
    drawn = [b for d, b in variants if d.start <= cid.end and cid.start <= d.end]
    kept = similarity(old, new)
    if kept == 1.0 or any(similarity(body, new) == 1.0 for body in drawn):
        return result
    mine = [*drawn, old]
    prints = {body.fingerprint for body in mine}
    for d, variant in variants:
        if variant in mine or variant.fingerprint in prints:
            continue
        other = similarity(variant, new)
        if _outweighs(kept, other, variant.size):
            elsewhere = _in_other_heirs(cid, here, revision, olds.lookup)
            return Resolution(
                Status.HOLLOWED,
                candidates=(result.new_chunk_id, *elsewhere[:MAX_ELSEWHERE]),
                detail=f"`{cid.symbol}` was defined {len(then)} times in {cid.path} at the "
                f"revision and is once in {here.path}, at lines {here.start}-{here.end}, which "
                f"kept {kept:.0%} of this body and {other:.0%} of the one then at lines "
                f"{d.start}-{d.end}",
                caveat=result.caveat,
            )
    return result


def members_went_or(
    old: Body, cid: ChunkId, revision: str | None, result: Resolution, owners: Owners
) -> Resolution:
    """A type found by its name that kept little of its body, while a type new since the
    revision took half of the members that left it (their bodies kept) and the name's type
    fewer, its own body keeping `HOLLOW_GAIN` more of the old one than the name's place: its
    code went there and the name stayed on what was left (commons-fileupload 2:
    `ProgressListenerTest`, followed through four renames, is a 14-line subclass; its
    tests went to a new `AbstractProgressListenerTest`). `hollowed`, both places listed."""
    if result.new_chunk_id is None or revision is None or old.size < MIN_BODY_CHARS:
        return result
    alike = kept(old, result.new_chunk_id, owners.lookup)
    if alike >= HOLLOW_BELOW:
        return result
    here = parse_chunk_id(result.new_chunk_id)
    found = owners.lookup.get(here.path)
    own = members_of(found.entries if found is not None else (), here.symbol or "")
    cut = len(f"{cid.symbol}.")
    went = [
        p
        for p in owners.members_went(cid, revision, old)
        if p.chunk_id != result.new_chunk_id
        and not parse_chunk_id(p.chunk_id).within(here)
        and p.siblings > sum(then[cut:] in own for then, _ in p.took)
        # Members' names alone repeat across a suite (`createMatcher`, `testNull`): the
        # type's own body must have more of the old one too.
        and p.alike >= alike + HOLLOW_GAIN
    ]
    if not went:
        return result
    went.sort(key=lambda p: (-p.siblings, -p.alike))
    place = went[0]
    return Resolution(
        Status.HOLLOWED,
        candidates=(*(p.chunk_id for p in went[:MAX_ELSEWHERE]), result.new_chunk_id),
        detail=f"{result.new_chunk_id}, where its name led, kept {alike:.0%} of its body, "
        f"while `{place.owner}` in {place.path}, new since the revision, took "
        f"{place.siblings} of its {place.members} members",
        caveat=result.caveat,
    )


# A short variant's body is evidence of whose the definition left is only when that
# keeps nearly all of it (overloads that delegate in one line look alike).
SHORT_VARIANT_KEPT = 0.9


def _outweighs(kept: float, other: float, size: int) -> bool:
    """Whether another variant, `other` alike the definition found and `size` characters
    long, is clearly more its own than the ID's (`kept` alike): found unchanged; or, long,
    more of it kept while under half of the ID's was (commons-dbcp 2.0 replaced fifteen
    constructors with one written anew: the name says none of them is it); or, short,
    nearly all of it kept and a quarter more than of the ID's (commons-beanutils 2.0 kept
    one of a converter's constructors, edited)."""
    if other == 1.0:
        return True
    if size < MIN_BODY_CHARS:
        return other >= max(SHORT_VARIANT_KEPT, kept + HOLLOW_GAIN)
    return kept < HOLLOW_BELOW and other > kept


def _in_other_heirs(cid: ChunkId, here: ChunkId, revision: str, lookup: Lookup) -> list[str]:
    """The name's definitions in the files git says the ID's file became, but `here`'s."""
    return [
        e.chunk_id
        for path in lookup.moved_to(cid.path, revision)
        if path != here.path
        for e in _named(path, here.symbol, lookup)
    ]


def _named(path: str, name: str | None, lookup: Lookup) -> list[Entry]:
    found = lookup.get(path)
    return [] if found is None else [e for e in found.entries if e.name == name]


# Languages whose bare declarations are definitions, ending with `;` (Java's interface and
# abstract methods, Rust's required trait functions); TypeScript's are not definitions.
DECLARING_LANGUAGES = frozenset({"java", "rust"})


def _code_tokens(body: Body) -> list[str]:
    """`body`'s tokens outside block comments (a Javadoc's `{@link}` is no block)."""
    code: list[str] = []
    inside = False
    tokens = body.tokens
    for at, token in enumerate(tokens):
        if inside:
            inside = not (token == "/" and at and tokens[at - 1] == "*")
        elif token == "*" and code and code[-1] == "/":
            code.pop()
            inside = True
        else:
            code.append(token)
    return code


def _outside_parentheses(code: list[str]) -> list[str]:
    """`code`'s tokens not inside parentheses (an annotation's `(since = "2")`, `({...})`)."""
    depth, kept = 0, []
    for token in code:
        if token == "(":
            depth += 1
        elif token == ")":
            depth = max(depth - 1, 0)
        elif not depth:
            kept.append(token)
    return kept


def declared_only(body: Body) -> bool:
    """A signature without code: a `;` at its end, no block and nothing assigned (outside
    parentheses); in Rust, a function's (`fn` and its name: `struct Hook(fn(u8));` is a
    type, `mod tests;` a module in its own file)."""
    if body.language not in DECLARING_LANGUAGES:
        return False
    code = _code_tokens(body)
    if not code or code[-1] != ";":
        return False
    top = _outside_parentheses(code)
    if "{" in top or "=" in top:
        return False
    # The name is `_` in a body (`make_body`).
    return body.language != "rust" or any(pair == ("fn", "_") for pair in pairwise(code))


def implemented(body: Body) -> bool:
    """Code in a block: its last token closes the block it opened."""
    if body.language not in DECLARING_LANGUAGES:
        return False
    code = _code_tokens(body)
    return bool(code) and code[-1] == "}" and "{" in code


def declarations_hollowed(
    ids: dict[GoldRef, ChunkId], results: dict[GoldRef, Resolution], lookup: Lookup
) -> None:
    """Revise, in place, the repairs of code onto a bare declaration under another name (an
    interface's or an abstract method, a trait's required function): whatever led there
    (the type renamed with its file, siblings gone the same way), the code itself went
    elsewhere (commons-jexl 3 split the class `UnifiedJEXL` into the interface
    `JxltEngine` and its implementation `TemplateEngine`): `hollowed`, the declaration and
    the definitions most like the old code listed. The old body says the ID had code;
    without it, a span at least `CODE_LINES` longer than the declaration's does."""
    for ref, result in results.items():
        cid = ids[ref]
        if not result.status.repairable or result.new_chunk_id is None or cid.symbol is None:
            continue
        try:
            span = parse_chunk_id(result.new_chunk_id)
        except ChunkIdError:
            continue  # a chunk of metas, no definition
        # Its own qualified name declared is the name's continuation (jsoup 1.17's abstract
        # `process`, where an enum constant's was; a stub become abstract).
        if span.symbol in (None, cid.symbol) or language_of(span.path) not in DECLARING_LANGUAGES:
            continue
        new = body_of(result.new_chunk_id, lookup)
        if new is None or not declared_only(new):
            continue
        old = old_body(cid, ref, lookup) if ref.revision is not None else None
        if old is not None:
            coded = implemented(old)
        else:
            # Annotations dropped and a signature unwrapped can shorten a declaration as
            # much: rare enough, and then only nothing is fixed.
            coded = (cid.end - cid.start) - (span.end - span.start) >= CODE_LINES
        if coded:
            results[ref] = _declared(cid, old, result, lookup)


# Lines a block of code adds to a signature, at least (`{`, a statement, `}`), when the old
# body is unknown.
CODE_LINES = 2


def _declared(cid: ChunkId, old: Body | None, result: Resolution, lookup: Lookup) -> Resolution:
    assert result.new_chunk_id is not None and cid.symbol is not None
    index = lookup.bodies() if old is not None else None
    found = [] if old is None or index is None else index.near(old, HOLLOW_OTHER)[0]
    coded = [b for _, b in found if not declared_only(b)]
    # Its own name first: an implementation of the declaration.
    leaf = leaf_of(cid.symbol)
    coded.sort(key=lambda b: b.leaf != leaf)
    places = [b.chunk_id for b in coded]
    where = f"; the code most like it is at {places[0]}" if places else ""
    return Resolution(
        Status.HOLLOWED,
        candidates=(result.new_chunk_id, *places[:MAX_ELSEWHERE]),
        detail=f"`{cid.symbol}` had code, and {result.new_chunk_id} only declares it{where}",
        caveat=result.caveat,
    )
