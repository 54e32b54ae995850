"""A file split, seen without history (a plain tree, a revision git does not have): where
the set's own IDs say an old file's definitions went, the others of that file follow.

The gold IDs of one `revision` and path are a sample of that old file's names. A name no
longer defined in the file (or the file gone) was *placed* in a new file when an earlier
pass re-anchored its ID there, or when, among the definitions that are not test code if
the file was not (and that no gold ID of the revision names where they are: those were
there all along), the name stands in one file only, its span at most twice or half as
long as the ID's; several files holding the name place it in the one named as the old file
(a file moved alone), or nowhere.

Successors: the new files in which at least `MIN_AGREE` distinct names of the old file
were placed, provided they hold, together, at least `MIN_SHARE` of all the placed names
of that file: a file's names moving together to a few files is a split (as git infers a
rename from shared content); a name or two here and there is a coincidence of names.
Two names, because one is what the plain rules already refuse (a removed function with a
namesake elsewhere); half, because otherwise most of what left the file went elsewhere.

An unresolved ID whose name its old file no longer defines then goes to its namesake in
the successors, if there is exactly one (one in two successors stays unresolved: both are
candidates); with none, to the one definition of the successors whose name ends in it
(`timedOut.addTimeout` for `addTimeout`: the function moved into a scope), if at least
`MIN_AGREE` names of the old file went into that same scope.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping

from evaltools.retrieval.code.chunk_id import ChunkId, parse_chunk_id
from evaltools.retrieval.gold.reanchor.lookup import Entry, Lookup
from evaltools.retrieval.gold.reanchor.no_history import Place, SetEvidence
from evaltools.retrieval.gold.reanchor.resolve import GoldRef, Resolution, resolved
from evaltools.retrieval.gold.reanchor.scope import is_test_path

# A successor holds at least this many distinct names of the old file...
MIN_AGREE = 2
# ...and the successors together at least this share of the old file's placed names.
MIN_SHARE = 0.5
# A placing name's new span is within this factor of the ID's (as `names`' unique names).
SPAN_FACTOR = 2.0
# A namesake in a successor, rewritten on the way, is within this factor of the ID's span;
# past it, the name is another definition's (a one-line alias now a 300-line interface).
REWRITTEN_FACTOR = 4.0


class Successors:
    """The successors of each old file the set names, from the verdicts so far; built when
    the first ID that needs them asks."""

    def __init__(
        self,
        the_set: SetEvidence,
        results: Mapping[GoldRef, Resolution],
        holding: Mapping[str, list[Entry]],
        lookup: Lookup,
    ) -> None:
        self.the_set, self.results, self.holding, self.lookup = the_set, results, holding, lookup
        # old file -> the names its IDs give that it no longer defines
        self._missing: dict[Place, set[str]] | None = None
        # old file -> new file -> those of them placed there
        self._placed: dict[Place, dict[str, set[str]]] = defaultdict(lambda: defaultdict(set))
        self._successors: dict[Place, list[str]] = {}
        self._named: dict[Place, list[Entry]] = {}  # the successors' newcomer definitions
        self._defines: dict[str, set[str]] = {}

    def place(self, ref: GoldRef, cid: ChunkId) -> Resolution | None:
        """Where the split of its old file put the ID, if the set shows one."""
        assert cid.symbol is not None
        place = (ref.revision, cid.path)
        if cid.symbol not in self.missing().get(place, ()):
            return None  # its file still defines it: not moved
        successors = self.successors(place)
        if not successors:
            return None
        if place not in self._named:
            entries = [e for p in successors for e in self._entries(p)]
            self._named[place] = self._newcomers(ref, entries)
        named = self._named[place]
        same = [e for e in named if e.name == cid.symbol]
        if len(same) == 1 and _about_as_long(cid, same[0], REWRITTEN_FACTOR):
            path = _path(same[0])
            others = len(self._placed[place][path] - {cid.symbol})
            evidence = f"same name in {path}, where {_names(others)} of {cid.path} went"
            return resolved(cid, same[0].chunk_id, "", evidence)
        if same:
            return None  # in two successors, or another definition: a person chooses
        return self._enclosed(place, cid, named)

    def successors(self, place: Place) -> list[str]:
        if place not in self._successors:
            placed = self._placed.get(place, {})
            agree = {path: names for path, names in placed.items() if len(names) >= MIN_AGREE}
            total = len({name for names in placed.values() for name in names})
            together = len({name for names in agree.values() for name in names})
            split = total > 0 and together >= MIN_SHARE * total
            self._successors[place] = sorted(agree) if split else []
            self.lookup.load(self._successors[place])
        return self._successors[place]

    def missing(self) -> dict[Place, set[str]]:
        if self._missing is None:
            self._missing = defaultdict(set)
            for ref, cid in self.the_set.ids.items():
                if cid.symbol is None or self._defined(cid.path, cid.symbol):
                    continue
                place = (ref.revision, cid.path)
                self._missing[place].add(cid.symbol)
                path = self._placed_in(ref, cid)
                if path is not None:
                    self._placed[place][path].add(cid.symbol)
        return self._missing

    def _placed_in(self, ref: GoldRef, cid: ChunkId) -> str | None:
        """The one new file the ID's name is in, by its verdict or by its namesakes."""
        result = self.results.get(ref)
        if result is not None and result.status.repairable and result.new_chunk_id:
            path = parse_chunk_id(result.new_chunk_id).path
            return path if path != cid.path else None
        if result is None or not result.status.missing:
            return None
        test = is_test_path(cid.path)
        same = [
            e
            for e in self._newcomers(ref, self.holding.get(cid.symbol or "", []))
            if is_test_path(path := _path(e)) == test and path != cid.path
        ]
        basename = cid.path.rpartition("/")[2]
        named_alike = [e for e in same if _path(e).rpartition("/")[2] == basename]
        if len({_path(e) for e in named_alike}) == 1:
            same = named_alike  # a file moved alone
        if len({_path(e) for e in same}) != 1:
            return None
        if not any(_about_as_long(cid, e, SPAN_FACTOR) for e in same):
            return None
        return _path(same[0])

    def _enclosed(self, place: Place, cid: ChunkId, named: list[Entry]) -> Resolution | None:
        """The one definition named `<scope>.<name>` in the successors, where other names
        of the old file went into the same scope."""
        assert cid.symbol is not None
        entry = _inside(named, cid.symbol)
        if entry is None or entry.name is None:
            return None
        scope = entry.name[: -len(cid.symbol) - 1]
        together = {
            name
            for name in self.missing()[place]
            if (other := _inside(named, name)) is not None
            and _path(other) == _path(entry)
            and other.name == f"{scope}.{name}"
        }
        if len(together) < MIN_AGREE:
            return None
        others = _names(len(together - {cid.symbol}))
        evidence = f"its name inside `{scope}` in {_path(entry)}, with {others} of {cid.path}"
        return resolved(cid, entry.chunk_id, "", evidence)

    def _defined(self, path: str, name: str) -> bool:
        if path not in self._defines:
            self._defines[path] = {e.name for e in self._entries(path) if e.name is not None}
        return name in self._defines[path]

    def _entries(self, path: str) -> tuple[Entry, ...]:
        found = self.lookup.get(path)
        return () if found is None else found.entries

    def _newcomers(self, ref: GoldRef, entries: list[Entry]) -> list[Entry]:
        fresh = set(self.the_set.newcomers([e.chunk_id for e in entries], ref))
        return [e for e in entries if e.chunk_id in fresh]


def _inside(entries: list[Entry], name: str) -> Entry | None:
    """The one of `entries` named `<scope>.<name>`."""
    inside = [e for e in entries if e.name is not None and e.name.endswith(f".{name}")]
    return inside[0] if len(inside) == 1 else None


def _about_as_long(cid: ChunkId, entry: Entry, factor: float) -> bool:
    old, new = cid.end - cid.start + 1, entry.end - entry.start + 1
    return max(old, new) <= factor * min(old, new)


def _names(count: int) -> str:
    return f"{count} other name{'s' * (count != 1)}"


def _path(entry: Entry) -> str:
    return entry.chunk_id.rsplit(":", 2)[0]
