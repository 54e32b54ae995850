"""A type renamed while its old name went to another, new type (go-redis 9: `ringShards`
became `ringSharding`, and a two-field `ringShards` was added beside it): the name found
once in the file is not the type the ID named. Its members tell: where the old type's
methods stand now.

With history, the old type's members are read from its file at the revision; without, the
set's own IDs of its members are all there is, and they can only doubt the match: half of
them under one new type, or one when the name's span is no longer about as long.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping

from evaltools.retrieval.code.chunk_id import ChunkId, is_valid_chunk_id, parse_chunk_id
from evaltools.retrieval.gold.reanchor.history.old_defs import OldDefinitions
from evaltools.retrieval.gold.reanchor.lookup import NAME_LENGTH_FACTOR, Lookup
from evaltools.retrieval.gold.reanchor.resolve import GoldRef, Resolution, Status, resolved

# The old type had at least this many members, and the new owner holds at least this many
# of them and at least half.
MIN_MEMBERS = 2


def renamed_type(
    cid: ChunkId,
    ref: GoldRef,
    result: Resolution,
    lookup: Lookup,
    *,
    olds: OldDefinitions | None,
    the_set: Mapping[GoldRef, ChunkId],
) -> Resolution | None:
    """The verdict on a type found by its name once in its file, when its members say it
    was renamed; None when nothing doubts the match."""
    if cid.symbol is None or "." in cid.symbol or not is_valid_chunk_id(result.new_chunk_id or ""):
        return None  # (an index's own chunk names say nothing of types)
    assert result.new_chunk_id is not None
    new = parse_chunk_id(result.new_chunk_id)
    found = lookup.get(new.path)
    if found is None or ref.revision is None:
        return None
    members, before = _members(cid, ref.revision, olds, the_set)
    # Without history, one member of the set under another type is enough to doubt a name
    # whose span is no longer about as long: a person chooses.
    entry = next((e for e in found.entries if e.chunk_id == result.new_chunk_id), None)
    as_long = entry is not None and entry.about_as_long(cid.start, cid.end, NAME_LENGTH_FACTOR)
    least = MIN_MEMBERS if olds is not None or as_long else 1
    if len(members) < least:
        return None
    owners: Counter[str] = Counter()
    for entry in found.entries:
        owner, dot, leaf = (entry.name or "").rpartition(".")
        if dot and leaf in members and "." not in owner:
            owners[owner] += 1
    if owners.pop(cid.symbol, 0) or not owners:
        return None  # the name kept members of its own: the same type
    owner, count = owners.most_common(1)[0]
    if count < max(least, (len(members) + 1) // 2) or owner in before:
        return None
    home = [e for e in found.entries if e.name == owner]
    verb = "is" if count == 1 else "are"
    evidence = f"`{cid.symbol}` renamed `{owner}`: {count} of its {len(members)} members {verb} its"
    if olds is None or len(home) != 1:
        return Resolution(
            Status.AMBIGUOUS,
            candidates=(*(e.chunk_id for e in home), result.new_chunk_id),
            detail=f"its name is another type's now ({evidence})",
        )
    return resolved(cid, home[0].chunk_id, "its members went to another type", evidence)


def _members(
    cid: ChunkId,
    revision: str,
    olds: OldDefinitions | None,
    the_set: Mapping[GoldRef, ChunkId],
) -> tuple[set[str], set[str]]:
    """The last names of the type's own members at the revision, and every name its file
    defined then: from the old file, or else (no history) from the set's IDs alone, which
    say nothing of the rest of the file."""
    assert cid.symbol is not None
    prefix = f"{cid.symbol}."
    if olds is not None:
        then = olds.at(cid.path, revision)
        members = {d.name[len(prefix) :] for d in then if d.name.startswith(prefix)}
        before = {d.name for d in then}
    else:
        members = {
            c.symbol[len(prefix) :]
            for r, c in the_set.items()
            if r.revision == revision
            and c.path == cid.path
            and c.symbol
            and c.symbol.startswith(prefix)
        }
        before = set()
    return {m for m in members if "." not in m}, before
