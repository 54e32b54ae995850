"""Two gold IDs of one revision at different lines of one file name two definitions, and
unless they were copies, a verdict that puts both on one is right for one at most: click 8 kept
one `get_binary_stderr` of the two that its Python 2 and 3 branches defined, nom 7 one
`double` of two `#[cfg]` variants, and in a plain tree "the same name, once in the file"
sent both IDs there. Of those repaired onto one place, the one whose old body it keeps
clearly best (`BODY_MARGIN` ahead of the others') keeps its verdict; the others, and all
of them when no body tells them apart, are left to a person, that place their candidate.
Copies merged into one keep theirs: old bodies identical, or without bodies, spans all
exactly as long as the definition (as `names._heirs` keeps cfg alternatives merged).
An ID found at its own lines keeps its verdict (it holds the place); IDs whose lines
overlap are one definition spelled two ways (with its decorator and without), not two.
"""

from __future__ import annotations

import dataclasses
import itertools
from collections import defaultdict
from collections.abc import Mapping

from evaltools.retrieval.code.chunk_id import ChunkId, parse_chunk_id
from evaltools.retrieval.gold.reanchor.history.bodies import BODY_MARGIN, similarity
from evaltools.retrieval.gold.reanchor.history.old_defs import kept, old_body
from evaltools.retrieval.gold.reanchor.lookup import Lookup
from evaltools.retrieval.gold.reanchor.resolve import GoldRef, Resolution, Status


def settle_collisions(
    ids: Mapping[GoldRef, ChunkId], results: dict[GoldRef, Resolution], lookup: Lookup
) -> None:
    """Revise, in place, the repairs that share a place with the verdict of another ID of
    the same revision at other lines."""
    for (_, _, place), named in _landings(ids, results).items():
        if len(named) < 2 or _overlapping(list(named)):
            continue  # lines that overlap are one definition spelled twice (a decorator)
        repaired = [cid for cid, refs in named.items() if results[refs[0]].status is not Status.OK]
        keepers = _keepers(repaired, named, place, lookup)
        spans = ", ".join(f"{c.path} lines {c.start}-{c.end}" for c in sorted(named, key=str))
        detail = (
            f"{len(named)} gold IDs of this revision at different lines ({spans}) would all be "
            f"{place}: one definition is one of theirs at most"
        )
        for cid in repaired:
            if cid not in keepers:
                for ref in named[cid]:
                    results[ref] = dataclasses.replace(
                        results[ref],
                        status=Status.AMBIGUOUS,
                        new_chunk_id=None,
                        candidates=(place,),
                        detail=detail,
                        evidence=None,
                    )


def _overlapping(cids: list[ChunkId]) -> bool:
    """Whether any two of `cids` share a line."""
    spans = sorted((c.start, c.end) for c in cids)
    return any(later[0] <= earlier[1] for earlier, later in itertools.pairwise(spans))


def _landings(
    ids: Mapping[GoldRef, ChunkId], results: Mapping[GoldRef, Resolution]
) -> dict[tuple[str, str, str], dict[ChunkId, list[GoldRef]]]:
    """The IDs of each revision and file by the place their verdict puts them (their own,
    found as they are), keyed by the revision, the file and that place. IDs of several
    files may all go to one place: `#[cfg]` alternatives in modules of their own merged
    into one (env_logger 0.11's `buffer/plain.rs` and `buffer/termcolor.rs`)."""
    landing: dict[tuple[str, str, str], dict[ChunkId, list[GoldRef]]] = defaultdict(
        lambda: defaultdict(list)
    )
    for ref, result in results.items():
        cid = ids[ref]
        if cid.symbol is None or ref.revision is None:
            continue  # spans of unknown revisions need not be of one tree
        if result.status is Status.OK:
            landing[(ref.revision, cid.path, str(cid))][cid].append(ref)
        elif result.status.repairable and result.new_chunk_id is not None:
            landing[(ref.revision, cid.path, result.new_chunk_id)][cid].append(ref)
    return {key: dict(named) for key, named in landing.items()}


def _keepers(
    repaired: list[ChunkId], named: Mapping[ChunkId, list[GoldRef]], place: str, lookup: Lookup
) -> set[ChunkId]:
    """Those of `repaired` that keep their verdict, if none of `named` is found at its own
    lines: copies merged into one (socket.io 4's test helper `close`, defined alike twice)
    all of them, their old bodies identical or, without bodies, their spans all exactly as
    long as `place`; else the one whose old body `place` keeps clearly best."""
    if len(repaired) < len(named):
        return set()
    bodies = [old_body(cid, named[cid][0], lookup) for cid in repaired]
    if any(body is None for body in bodies):
        size = parse_chunk_id(place).end - parse_chunk_id(place).start
        return set(repaired) if all(c.end - c.start == size for c in repaired) else set()
    olds = [body for body in bodies if body is not None]
    if all(similarity(olds[0], other) == 1.0 for other in olds[1:]):
        return set(repaired)
    scores = sorted(
        ((kept(old, place, lookup), cid) for old, cid in zip(olds, repaired, strict=True)),
        key=lambda s: -s[0],
    )
    return {scores[0][1]} if scores[0][0] - scores[1][0] >= BODY_MARGIN else set()
