"""Two gold IDs of one revision at different lines of one file name two definitions. In a plain
tree (no old bodies), "the same name, once in the file" sends both to the one definition of
the name left, and that is right for one of them at most unless they were copies merged into
one: click 8 kept one `get_binary_stderr` of the two that its Python 2 and 3 branches
defined, nom 7 one `double` of two `#[cfg]` variants. Of those sent to one place, the ones
exactly as long as it keep their verdict (all of them for copies: socket.io 4's test helper
`close`, defined alike twice; never two Java constructors, whose signatures differ), as
`names._heirs` keeps cfg alternatives merged; the others, all of them when none is as long,
are left to a person, that place their candidate. An ID found at its own lines holds the
place (the others are left to a person); IDs whose lines overlap are one definition spelled
two ways (with its decorator and without). With history the old bodies decided, and variants
alike all going to the one left are what the bodies say (click 8's two `get_text_stdout`).
"""

from __future__ import annotations

import dataclasses
import itertools
from collections import defaultdict
from collections.abc import Mapping

from evaltools.retrieval.code.chunk_id import ChunkId, parse_chunk_id
from evaltools.retrieval.gold.reanchor.lookup import Lookup
from evaltools.retrieval.gold.reanchor.resolve import GoldRef, Resolution, Status
from evaltools.retrieval.gold.reanchor.scope import is_java_constructor


def settle_collisions(
    ids: Mapping[GoldRef, ChunkId], results: dict[GoldRef, Resolution], lookup: Lookup
) -> None:
    """Revise, in place, the repairs that share a place with the verdict of another ID of
    the same revision at other lines."""
    for (revision, path, place), named in _landings(ids, results).items():
        if len(named) < 2 or _overlapping(list(named)):
            continue  # lines that overlap are one definition spelled twice (a decorator)
        if lookup.old_text(path, revision) is not None:
            continue  # the old bodies decided
        repaired = [cid for cid, refs in named.items() if results[refs[0]].status is not Status.OK]
        left = [cid for cid in repaired if cid not in _keepers(repaired, named, place)]
        if not left:
            continue
        spans = ", ".join(f"{c.path} lines {c.start}-{c.end}" for c in sorted(named, key=str))
        detail = (
            f"{len(named)} gold IDs of this revision at different lines ({spans}) would all be "
            f"{place}: one definition is one of theirs at most"
        )
        for cid in left:
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
    repaired: list[ChunkId], named: Mapping[ChunkId, list[GoldRef]], place: str
) -> set[ChunkId]:
    """Those of `repaired` that keep their verdict: none if one of `named` is found at its
    own lines, else those exactly as long as `place` (all of them for copies merged)."""
    if len(repaired) < len(named):
        return set()
    target = parse_chunk_id(place)
    alike = {cid for cid in repaired if cid.end - cid.start == target.end - target.start}
    if len(alike) > 1 and is_java_constructor(target.path, target.symbol):
        return set()  # no two constructors of a class share a signature: never copies
    return alike
