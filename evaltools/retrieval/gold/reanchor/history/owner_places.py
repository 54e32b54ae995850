"""The places in one file where a missing definition's owner may have gone: a type that
took its members (the type renamed), another owner (or none: its type dissolved, or a
wrapper around its whole name) that took its siblings the same way. Plain data and pure
functions over a file's entries; `owners.Owners` weighs them against the history."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from evaltools.retrieval.code.chunk_id import ChunkId
from evaltools.retrieval.gold.reanchor.lookup import Entry

# The owner (or wrapper) took at least this many other definitions of the old file.
MIN_SIBLINGS = 2
# A member's name places it whatever its body became when this many of its owner's direct
# members (itself included, and at least half of them) went there: to another file with
# their bodies kept, or, in place, under names new there.
MIN_MOVED_TOGETHER = 4


@dataclass(frozen=True)
class OwnerPlace:
    """A new definition of a missing ID's name (or its type's rename) under another owner,
    and the other definitions of its old file that went there too."""

    chunk_id: str
    path: str
    owner: str  # the new owner, or the wrapper around the whole old name
    wrapped: bool
    took: tuple[tuple[str, str], ...]  # the other definitions that went there: (then, now)
    alike: float
    members: int = 0  # the old type's members, when the place is the type's rename

    @property
    def siblings(self) -> int:
        return len(self.took)


def members_of(entries: Sequence[Entry], owner: str) -> set[str]:
    """The names under `owner` among a file's entries, without its prefix (`Type.run` ->
    `run`)."""
    prefix = f"{owner}."
    return {
        e.name[len(prefix) :] for e in entries if e.name is not None and e.name.startswith(prefix)
    }


def went_together(place: OwnerPlace, owner: str, symbol: str, together: int) -> bool:
    """Whether at least half of `owner`'s `together` direct members (and
    `MIN_MOVED_TOGETHER`, the ID `symbol` included) went to `place`'s owner with their
    bodies (a suite dissolved into test functions: go-billy 6), so that its name says where
    it went whatever its body became. Nested definitions (a test's helper function) are no
    members of their own."""
    if place.wrapped or place.members:
        return False
    direct = sum(
        then.rpartition(".")[0] == owner and not then.startswith(f"{symbol}.")
        for then, _ in place.took
    )
    return direct + 1 >= max(MIN_MOVED_TOGETHER, (together + 1) // 2)


def moved_members(
    symbol: str, left: list[str], path: str, entries: tuple[Entry, ...], names: set[str]
) -> list[OwnerPlace]:
    """The definitions of a file with the ID's last name under another owner (or a wrapper
    around its whole name) that took at least MIN_SIBLINGS other definitions that left the
    old file the same way."""
    owner, _, leaf = symbol.rpartition(".")
    found = []
    for entry in entries:
        name = entry.name
        if name is None or entry.leaf != leaf or name == symbol:
            continue
        wrapped = name.endswith("." + symbol)
        if wrapped:
            new_owner = name[: -len(symbol) - 1]
            took = [(n, f"{new_owner}.{n}") for n in left if f"{new_owner}.{n}" in names]
        elif owner:
            # No owner now: its type dissolved into top-level definitions (gocheck suites
            # became testify tests in go-billy 6; unittest classes, pytest functions), unless
            # another type of the file had that name too (which one dissolved?).
            new_owner = name.rpartition(".")[0]
            if not new_owner and any(n.rpartition(".")[2] == leaf for n in left if n != symbol):
                continue
            prefix = new_owner + "." if new_owner else ""
            took = [
                (n, there)
                for n in left
                if n.startswith(owner + ".") and (there := prefix + n[len(owner) + 1 :]) in names
            ]
        else:
            continue
        if len(took) >= MIN_SIBLINGS:
            found.append(OwnerPlace(entry.chunk_id, path, new_owner, wrapped, tuple(took), 0.0))
    return found


def renamed_type(
    symbol: str, members: list[str], path: str, entries: tuple[Entry, ...], names: set[str]
) -> list[OwnerPlace]:
    """The types of a file that took at least half of the old type's members (and
    MIN_SIBLINGS), under their own name: its rename."""
    needed = max(MIN_SIBLINGS, (len(members) + 1) // 2)
    found = []
    for entry in entries:
        if entry.name is None or entry.name == symbol:
            continue
        took = tuple(
            (n, entry.name + n[len(symbol) :])
            for n in members
            if entry.name + n[len(symbol) :] in names
        )
        if len(took) >= needed:
            found.append(
                OwnerPlace(entry.chunk_id, path, entry.name, False, took, 0.0, len(members))
            )
    return found


def evidence_of(cid: ChunkId, place: OwnerPlace) -> str:
    if place.members:
        how = f"renamed `{place.owner}` in {place.path}, which took {place.siblings} of its"
        return f"{how} {place.members} members, body {place.alike:.2f} alike"
    if place.wrapped:
        how = f"nested in `{place.owner}` in {place.path} with {place.siblings} other"
        how += f" definitions of {cid.path}"
    else:
        owner = (cid.symbol or "").rpartition(".")[0]
        how = f"moved from `{owner}` to `{place.owner}`" if place.owner else f"`{owner}` dissolved"
        how += f" in {place.path} with {place.siblings} of its siblings"
    return f"{how}, body {place.alike:.2f} alike"
