"""A file moved alone, seen without history (a plain tree): its language-level identity
kept (the file name: a Java class, a TypeScript or Python module, a Rust module, a Go file
of its package), another folder, and the set's own names of it standing in it.

The old file is gone. Its *moved file* is the one file of the same name elsewhere (test
code if it was, no file a gold ID of the revision names where it still is: that one was
there then) in which at least `split.MIN_AGREE` of the names the set's IDs give the old
file stand: defined as they were, or inside a new scope (`enableES5.get` for `get`: a
module's functions moved into the function that installs them), each such name once in
the file. Another file of that name holding half as many of them or more makes it a
guess: there is none. The moved file is then the old file's one successor (`split`).

A file merged into another: with no file of its name holding its names, the one file in
which at least `MERGED_NAMES` of them stand inside one new scope, each name distinctive (no
other file of the tree defines its last name), is where it went: a small module folded
into the function that installs a plugin (`extends.ts` into `enableMapSet`).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Collection, Mapping

from evaltools.retrieval.code.chunk_id import ChunkId
from evaltools.retrieval.gold.reanchor.lookup import Entry, Lookup
from evaltools.retrieval.gold.reanchor.plain.no_history import (
    MAX_NAMESAKE_FILES,
    MIN_TIE_LINES,
    MOVE_AHEAD,
    SetEvidence,
)
from evaltools.retrieval.gold.reanchor.resolve import GoldRef, Place, Resolution, resolved
from evaltools.retrieval.gold.reanchor.scope import file_stem, is_test_path

# A file renamed with its type: this many of the set's members of the old type in the new.
MIN_MEMBERS = 2
# A file merged into another: this many of its distinctive names inside one scope there.
MERGED_NAMES = 3


class MovedFiles:
    """The moved file of each gone file the set names, found when an ID asks."""

    def __init__(self, the_set: SetEvidence, lookup: Lookup, min_names: int) -> None:
        self.the_set, self.lookup, self.min_names = the_set, lookup, min_names
        self._by_name: dict[str, list[str]] | None = None
        self._named: set[Place] | None = None

    def find(self, place: Place, names: Collection[str]) -> tuple[str, set[str]] | None:
        """The file `place`'s file moved to, and which of `names` (the set's for it) stand
        there; None when its file is still there, or no one file shows it moved."""
        revision, old = place
        if self.lookup.get(old) is not None or len(names) < self.min_names:
            return None
        basename = old.rpartition("/")[2]
        test = is_test_path(old)
        same = self.by_name().get(basename, [])
        if len(same) > MAX_NAMESAKE_FILES:
            return None  # `index.ts`, `mod.rs`: the name says nothing alone
        place = (revision, old)
        options = [p for p in same if is_test_path(p) == test and not self._was_there(place, p)]
        self.lookup.load(options)
        standing = [(self._standing(place, path, names), path) for path in options]
        ranked = sorted((item for item in standing if item[0]), key=lambda item: -len(item[0]))
        if not ranked or len(ranked[0][0]) < self.min_names:
            return None
        rival = len(ranked[1][0]) if len(ranked) > 1 else 0
        if len(ranked[0][0]) < MOVE_AHEAD * rival:
            return None
        return ranked[0][1], ranked[0][0]

    def merged(
        self, place: Place, names: Collection[str], holding: Mapping[str, list[Entry]]
    ) -> tuple[str, set[str]] | None:
        """The file `place`'s gone file was merged into, inside one scope, and which of
        `names` stand there; `holding`: the tree's definitions by name, for the names'
        last names."""
        revision, old = place
        if self.lookup.get(old) is not None or len(names) < MERGED_NAMES:
            return None
        by_leaf: dict[str, list[Entry]] = defaultdict(list)
        for entries in holding.values():
            for entry in entries:
                if entry.leaf is not None:
                    by_leaf[entry.leaf].append(entry)
        place, test = (revision, old), is_test_path(old)
        inside: dict[tuple[str, str], set[str]] = defaultdict(set)
        for name in names:
            held = by_leaf.get(name.rpartition(".")[2], [])
            if len({e.path for e in held}) != 1:
                continue  # not distinctive, or nowhere
            fresh = self.the_set.newcomers([e.chunk_id for e in held], place)
            within = [
                e for e in held if e.chunk_id in fresh and e.name and e.name.endswith(f".{name}")
            ]
            if len(within) == 1 and is_test_path(within[0].path) == test and within[0].name:
                inside[(within[0].path, within[0].name[: -len(name) - 1])].add(name)
        ranked = sorted(inside.items(), key=lambda item: -len(item[1]))
        if not ranked or len(ranked[0][1]) < MERGED_NAMES:
            return None
        if len(ranked) > 1 and len(ranked[0][1]) < MOVE_AHEAD * len(ranked[1][1]):
            return None
        return ranked[0][0][0], ranked[0][1]

    def by_name(self) -> dict[str, list[str]]:
        if self._by_name is None:
            grouped: dict[str, list[str]] = defaultdict(list)
            for path in self.lookup.paths():
                grouped[path.rpartition("/")[2]].append(path)
            self._by_name = dict(grouped)
        return self._by_name

    def _was_there(self, place: Place, path: str) -> bool:
        """A gold ID of the revision names `path`, and it is still there: it existed then."""
        if self._named is None:
            self._named = {(r.revision, cid.path) for r, cid in self.the_set.ids.items()}
        return (place[0], path) in self._named and self.lookup.get(path) is not None

    def _standing(self, place: Place, path: str, names: Collection[str]) -> set[str]:
        found = self.lookup.get(path)
        if found is None:
            return set()
        fresh = set(self.the_set.newcomers([e.chunk_id for e in found.entries], place))
        entries = [e for e in found.entries if e.chunk_id in fresh and e.name is not None]
        return {name for name in names if _stands(entries, name)}


def _stands(entries: list[Entry], name: str) -> bool:
    """`name` is defined once among `entries`, as it is or inside a new scope."""
    exact = sum(e.name == name for e in entries)
    if exact:
        return exact == 1
    return sum(e.name is not None and e.name.endswith(f".{name}") for e in entries) == 1


class RenamedFiles:
    """Files renamed with their type in a folder that moved (`IsEqualIgnoringWhiteSpace.java`
    to `IsEqualCompressingWhiteSpace.java` as `hamcrest-library/` became `hamcrest/`): the
    gone file's folder went where the set's other files of it did (`no_history`'s folder
    moves), and there one new file, named for its type, holds at least `MIN_MEMBERS` of the
    set's members of the old type (`Old.name` as `New.name`), `MOVE_AHEAD` times as many as
    any other. Its type, and each member with `MIN_MEMBERS` others there (or one, its span
    as long, of a few lines at least), follow."""

    def __init__(self, the_set: SetEvidence) -> None:
        self.the_set, self.lookup = the_set, the_set.lookup
        self._found: dict[Place, tuple[str, str, set[str]] | None] = {}
        self._by_folder: dict[str, list[str]] | None = None

    def place(self, cid: ChunkId, ref: GoldRef) -> Resolution | None:
        place = (ref.revision, cid.path)
        if place not in self._found:
            self._found[place] = self._find(place)
        found = self._found[place]
        if found is None or cid.symbol is None:
            return None
        new_path, new_type, standing = found
        old_type = file_stem(cid.path)
        head, dot, rest = cid.symbol.partition(".")
        name = f"{new_type}{dot}{rest}" if head == old_type else cid.symbol
        entries = self.lookup.get(new_path)
        same = [e for e in entries.entries if e.name == name] if entries is not None else []
        if len(same) != 1:
            return None
        entry, others = same[0], len(standing - {cid.symbol})
        length = cid.end - cid.start
        kept = length >= MIN_TIE_LINES - 1 and entry.end - entry.start == length
        if others < MIN_MEMBERS and not (others == MIN_MEMBERS - 1 and kept and dot):
            return None
        members = f"{others} other member{'s' * (others != 1)}"
        evidence = f"{cid.path} renamed {new_path} with its type, where {members} of it stand"
        return resolved(cid, entry.chunk_id, "", evidence)

    def _find(self, place: Place) -> tuple[str, str, set[str]] | None:
        revision, old = place
        if self.lookup.get(old) is not None:
            return None
        homes = self.the_set.homes()
        if place in homes:
            return None
        folder, _, basename = old.rpartition("/")
        went = {
            home.rpartition("/")[0]
            for (r, path), (home, _) in homes.items()
            if r == revision and path.rpartition("/")[0] == folder
        }
        if len(went) != 1:
            return None
        taken = {home for home, _ in homes.values()}
        old_type, test = file_stem(old), is_test_path(old)
        members = self._members(place, old_type)
        extension = basename.rpartition(".")[2]
        options = [
            p
            for p in self.by_folder().get(went.pop(), [])
            if p.endswith(f".{extension}")
            and p not in taken
            and is_test_path(p) == test
            and p.rpartition("/")[2] != basename
        ]
        self.lookup.load(options)
        ranked: list[tuple[int, str, str, set[str]]] = []
        for path in options:
            found = self.lookup.get(path)
            if found is None:
                continue
            fresh = set(self.the_set.newcomers([e.chunk_id for e in found.entries], place))
            names = [e.name for e in found.entries if e.chunk_id in fresh]
            new_type = file_stem(path)
            standing = {m for m in members if names.count(new_type + m[len(old_type) :]) == 1}
            ranked.append((len(standing), path, new_type, standing))
        ranked.sort(key=lambda item: -item[0])
        if not ranked or ranked[0][0] < MIN_MEMBERS:
            return None
        if len(ranked) > 1 and ranked[0][0] < MOVE_AHEAD * ranked[1][0]:
            return None
        return ranked[0][1], ranked[0][2], ranked[0][3]

    def _members(self, place: Place, old_type: str) -> set[str]:
        """The set's IDs of `place`'s file (of its revision) that are members of the type
        named for that file."""
        revision, old = place
        return {
            cid.symbol
            for ref, cid in self.the_set.ids.items()
            if ref.revision == revision
            and cid.path == old
            and cid.symbol
            and cid.symbol.startswith(f"{old_type}.")
        }

    def by_folder(self) -> dict[str, list[str]]:
        if self._by_folder is None:
            grouped: dict[str, list[str]] = defaultdict(list)
            for path in self.lookup.paths():
                grouped[path.rpartition("/")[0]].append(path)
            self._by_folder = dict(grouped)
        return self._by_folder
