"""A definition rewritten as its type moved to another file: the type's members went there
with their bodies, so the name says where the rewritten one went too (indicatif 0.17:
`MultiProgress` left `progress.rs`, which git renamed `state.rs`, for a new `multi.rs`;
its struct and `with_draw_target` were rewritten, four of its methods kept their code).

The name's one place (`names._unique_namesake`'s) is taken whatever its body and length
became when the type is new in that file (there neither at the revision nor in a file git
renamed to it), stays neither in the old file nor in that file's rename, at least half of
its other direct members then are there now under the same names, and at least half of
those, and `MIN_MOVED_TOGETHER` with the ID, kept `HOLLOW_BELOW` of their bodies: bodies of
`MIN_BODY_CHARS` (a getter is alike in any type with the field) found in no other file. The
ID is the type itself or one of its members. A name kept on a body that went elsewhere is
still `hollowed`.
"""

from __future__ import annotations

from evaltools.retrieval.code.chunk_id import ChunkId
from evaltools.retrieval.code.spans import Definition
from evaltools.retrieval.gold.reanchor.history.bodies import (
    HOLLOW_BELOW,
    MIN_BODY_CHARS,
    Body,
    BodySearch,
    make_body,
    source_lines,
)
from evaltools.retrieval.gold.reanchor.history.old_defs import OldDefinitions, kept
from evaltools.retrieval.gold.reanchor.history.owner_places import MIN_MOVED_TOGETHER
from evaltools.retrieval.gold.reanchor.lookup import Entry, Lookup


def moved_with_its_type(
    cid: ChunkId, revision: str, entry: Entry, olds: OldDefinitions
) -> str | None:
    """The evidence that `cid` went to `entry` with its type, or None."""
    assert cid.symbol is not None
    then = olds.names(cid.path, revision)
    own = cid.symbol if any(n.startswith(f"{cid.symbol}.") for n in then) else None
    owner = own or cid.symbol.rpartition(".")[0]
    found = olds.lookup.get(entry.path)
    if not owner or found is None or entry.path == cid.path:
        return None
    now = {e.name: e.chunk_id for e in found.entries if e.name is not None}
    if owner not in now or owner in olds.names_then(entry.path, revision, cid.path):
        return None  # not the type's new home: it stood there already, or is not there
    if _still_home(olds, cid.path, revision, owner):
        return None  # the type stayed (an impl split over files): no move of it
    members = [
        (d, body)
        for d, body in _direct_members(olds, cid.path, revision, owner)
        if d.name != cid.symbol
    ]
    there = [(d, body) for d, body in members if d.name in now]
    # Most of its members there, most of those with their code, and enough to tell; the
    # counts first, as the code's search may build the tree's body index.
    if len(there) + 1 < MIN_MOVED_TOGETHER or 2 * len(there) < len(members):
        return None
    search = olds.lookup.bodies()
    moved = sum(_kept_there(body, now[d.name], search, olds.lookup) for d, body in there)
    if moved + 1 < MIN_MOVED_TOGETHER or 2 * moved < len(there):
        return None
    return f"`{owner}` moved to {entry.path} with {moved} of its {len(members)} other members"


def _kept_there(old: Body, chunk_id: str, search: BodySearch | None, lookup: Lookup) -> bool:
    """The member kept its code at `chunk_id`, code long enough to tell (a getter is alike
    in any type with the field) and found nowhere else."""
    if search is None or old.size < MIN_BODY_CHARS or kept(old, chunk_id, lookup) < HOLLOW_BELOW:
        return False
    path = chunk_id.rsplit(":", 2)[0]
    return all(b.chunk_id.rsplit(":", 2)[0] == path for b in search.exact(old))


def _still_home(olds: OldDefinitions, path: str, revision: str, owner: str) -> bool:
    """The type is still in its old file, or in the file git renamed that to."""
    homes = [path, *olds.lookup.renamed(path, revision)]
    olds.lookup.load(homes)
    return any(
        owner in {e.name for e in found.entries}
        for home in homes
        if (found := olds.lookup.get(home)) is not None
    )


def _direct_members(
    olds: OldDefinitions, path: str, revision: str, owner: str
) -> list[tuple[Definition, Body]]:
    """The type's direct members in its file at the revision, each with its body then."""
    lines = source_lines(olds.lookup.old_text(path, revision) or b"")
    return [
        (d, make_body(path, "", d.name, lines[d.start - 1 : d.end]))
        for d in olds.at(path, revision)
        if d.name.rpartition(".")[0] == owner
    ]
