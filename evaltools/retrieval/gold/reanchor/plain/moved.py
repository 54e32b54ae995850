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

from evaltools.retrieval.gold.reanchor.lookup import Entry, Lookup
from evaltools.retrieval.gold.reanchor.plain.no_history import (
    MAX_NAMESAKE_FILES,
    MOVE_AHEAD,
    Place,
    SetEvidence,
)
from evaltools.retrieval.gold.reanchor.resolve import GoldRef
from evaltools.retrieval.gold.reanchor.scope import is_test_path

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
        ref = GoldRef(old, revision)
        options = [p for p in same if is_test_path(p) == test and not self._was_there(ref, p)]
        self.lookup.load(options)
        standing = [(self._standing(ref, path, names), path) for path in options]
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
        ref, test = GoldRef(old, revision), is_test_path(old)
        inside: dict[tuple[str, str], set[str]] = defaultdict(set)
        for name in names:
            held = by_leaf.get(name.rpartition(".")[2], [])
            if len({e.path for e in held}) != 1:
                continue  # not distinctive, or nowhere
            fresh = self.the_set.newcomers([e.chunk_id for e in held], ref)
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

    def _was_there(self, ref: GoldRef, path: str) -> bool:
        """A gold ID of the revision names `path`, and it is still there: it existed then."""
        if self._named is None:
            self._named = {(r.revision, cid.path) for r, cid in self.the_set.ids.items()}
        return (ref.revision, path) in self._named and self.lookup.get(path) is not None

    def _standing(self, ref: GoldRef, path: str, names: Collection[str]) -> set[str]:
        found = self.lookup.get(path)
        if found is None:
            return set()
        fresh = set(self.the_set.newcomers([e.chunk_id for e in found.entries], ref))
        entries = [e for e in found.entries if e.chunk_id in fresh and e.name is not None]
        return {name for name in names if _stands(entries, name)}


def _stands(entries: list[Entry], name: str) -> bool:
    """`name` is defined once among `entries`, as it is or inside a new scope."""
    exact = sum(e.name == name for e in entries)
    if exact:
        return exact == 1
    return sum(e.name is not None and e.name.endswith(f".{name}") for e in entries) == 1
