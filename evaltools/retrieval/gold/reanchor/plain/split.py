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
rename from shared content); a name here and there is a coincidence of names. Half,
because otherwise most of what left the file went elsewhere; names that went each to a
module of their own (below) are the split's other pattern, and not counted. A gone
file's moved file (`moved`: the file of its name elsewhere, or the one it was merged
into) is a successor too, its names standing there placed in it.

An unresolved ID whose name its old file no longer defines then goes to its namesake in
the successors, if there is exactly one (one in two successors stays unresolved: both are
candidates), its span within `REWRITTEN_FACTOR` of the ID's, and if at least `MIN_AGREE`
*other* names of the old file went to that successor: the ID's own name is no evidence of
where it went, and one other name is what the plain rules already refuse alone (a removed
function with a namesake elsewhere; two names of a file, one now another definition's:
an interface that took a struct's name). One other name is enough only if the span kept
its length, of `MIN_TIE_LINES` lines at least (one-liners are all alike). With no
namesake, or one where too few other names went, the ID goes to the one definition of the
successors whose name ends in its own (`timedOut.addTimeout` for `addTimeout`: the
function moved into a scope), if at least
`MIN_AGREE` other names of the old file went into that same scope; or `Other.name` for
`Type.name`, if `MIN_AGREE` other members of `Type` stand as members of `Other` there (the
type renamed); or its name respelled (`no_history.respelled`), once, as long, where
`MIN_AGREE` other names of the old file went. The scope gives way to a module of the ID's
own (a file named for its name, new there) that also holds it: a person chooses.

A file split a definition a module (node-semver 7: `semver.js` into `functions/major.js`,
`ranges/max-satisfying.js`, ...) has no successor of two names: there an ID goes to its
name in its module of its own where at least `MIN_AGREE` other names of the old file went
each to theirs, unless that definition is a scope of others and not about as long as the
ID (a constructor function become a class holds the ID's code in its constructor).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping

from evaltools.retrieval.code.chunk_id import ChunkId, parse_chunk_id
from evaltools.retrieval.gold.reanchor.lookup import NAME_LENGTH_FACTOR, Entry, Lookup
from evaltools.retrieval.gold.reanchor.plain.moved import MovedFiles
from evaltools.retrieval.gold.reanchor.plain.no_history import (
    MIN_TIE_LINES,
    RESPELLED_LENGTH_FACTOR,
    SetEvidence,
    respelled,
)
from evaltools.retrieval.gold.reanchor.resolve import GoldRef, Place, Resolution, resolved
from evaltools.retrieval.gold.reanchor.scope import file_stem, is_test_path

# A successor holds at least this many distinct names of the old file (other than the ID's
# own, for an ID to go there)...
MIN_AGREE = 2
# ...and the successors together at least this share of the old file's placed names.
MIN_SHARE = 0.5
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
        self._moved = MovedFiles(the_set, lookup, MIN_AGREE)
        self._moved_to: dict[Place, str] = {}  # old file -> the file it moved to (`moved`)
        self._modules: dict[Place, dict[str, Entry]] = {}  # old file -> name -> its own module

    def place(self, ref: GoldRef, cid: ChunkId) -> Resolution | None:
        """Where the split of its old file put the ID, if the set shows one."""
        assert cid.symbol is not None
        place = (ref.revision, cid.path)
        if cid.symbol not in self.missing().get(place, ()):
            return None  # its file still defines it: not moved
        successors = self.successors(place)
        if not successors:
            return self._own_module(place, cid)
        if place not in self._named:
            entries = [e for p in successors for e in self._entries(p)]
            self._named[place] = self._newcomers(place, entries)
        named = self._named[place]
        same = [e for e in named if e.name == cid.symbol]
        if len(same) > 1 or (
            same and not same[0].about_as_long(cid.start, cid.end, REWRITTEN_FACTOR)
        ):
            return None  # in two successors, or another definition: a person chooses
        if not same:
            return (
                self._enclosed(place, cid, named)
                or self._retyped(place, cid, named)
                or self._respelled(place, cid, named)
                or self._own_module(place, cid)
            )
        entry = same[0]
        path = entry.path
        others = len(self._placed[place][path] - {cid.symbol})
        # The ID's own name is no evidence of where it went; one other name is, if its
        # span kept its length, of a few lines at least (one-liners are all alike).
        length = cid.end - cid.start
        kept = length >= MIN_TIE_LINES - 1 and entry.end - entry.start == length
        if others < MIN_AGREE and not (others == MIN_AGREE - 1 and kept):
            # A namesake where no other names went is no evidence; the name inside the
            # scope where the others went is (immer 6's `enableES5.peek` beside a
            # top-level `peek` of core/proxy.ts).
            return self._enclosed(place, cid, named) or self._own_module(place, cid)
        alike = " and length" if others < MIN_AGREE else ""
        evidence = f"same name{alike} in {path}, {self._where(place, path, others)}"
        return resolved(cid, entry.chunk_id, "", evidence)

    def own_module(self, ref: GoldRef, cid: ChunkId) -> Resolution | None:
        """The module-of-its-own rule alone (`_own_module`), for an ID whose name its old
        file no longer defines: the one rule of a split that history may want too, where
        bodies too short and alike place nothing (node-semver 7's `major`, `minor`)."""
        place = (ref.revision, cid.path)
        if cid.symbol not in self.missing().get(place, ()):
            return None
        return self._own_module(place, cid)

    def tests_along(self, ref: GoldRef, cid: ChunkId, new_chunk_id: str) -> bool:
        """A test of the old file's test module (`tests.name`) went where `MIN_AGREE` other
        tests of that module went: its module's tests moved with the code they test."""
        assert cid.symbol is not None
        head, dot, _ = cid.symbol.partition(".")
        path = parse_chunk_id(new_chunk_id).path
        placed = self._placed.get((ref.revision, cid.path), {}).get(path, set())
        along = {n for n in placed if n != cid.symbol and n.partition(".")[0] == head}
        return bool(dot) and len(along) >= MIN_AGREE

    def successors(self, place: Place) -> list[str]:
        if place not in self._successors:
            placed = self._placed.get(place, {})
            agree = {path: names for path, names in placed.items() if len(names) >= MIN_AGREE}
            # A name in its module of its own is the split's other pattern, no coincidence
            # the few files that took several names must outweigh (node-semver 7).
            modules = self._own_modules(place)
            own = {
                name
                for path, names in placed.items()
                for name in names
                if name in modules and modules[name].path == path
            }
            total = len({name for names in placed.values() for name in names} - own)
            together = len({name for names in agree.values() for name in names})
            split = total > 0 and together >= MIN_SHARE * total
            found = set(agree) if split else set()
            self._successors[place] = sorted(found.union(self._moved_file(place)))
            self.lookup.load(self._successors[place])
        return self._successors[place]

    def _moved_file(self, place: Place) -> list[str]:
        """The file the old one moved to, alone, as its one successor (`moved`)."""
        names = self.missing().get(place, set())
        found = self._moved.find(place, names) or self._moved.merged(place, names, self.holding)
        if found is None:
            return []
        path, standing = found
        self._moved_to[place] = path
        self._placed[place][path] |= standing
        return [path]

    def _where(self, place: Place, path: str, others: int) -> str:
        """Why `path` is where the old file's names went, in a few words."""
        if self._moved_to.get(place) == path:
            return f"the file {place[1]} moved to, with {_names(others)} of it"
        return f"where {_names(others)} of {place[1]} went"

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
            for e in self._newcomers(
                (ref.revision, cid.path), self.holding.get(cid.symbol or "", [])
            )
            if is_test_path(path := e.path) == test and path != cid.path
        ]
        basename = cid.path.rpartition("/")[2]
        named_alike = [e for e in same if e.path.rpartition("/")[2] == basename]
        if len({e.path for e in named_alike}) == 1:
            same = named_alike  # a file moved alone
        if len({e.path for e in same}) != 1:
            return None
        if not any(e.about_as_long(cid.start, cid.end, NAME_LENGTH_FACTOR) for e in same):
            return None
        return same[0].path

    def _enclosed(self, place: Place, cid: ChunkId, named: list[Entry]) -> Resolution | None:
        """The one definition named `<scope>.<name>` in the successors, where other names
        of the old file went into the same scope."""
        assert cid.symbol is not None
        entry = _inside(named, cid.symbol)
        # A module of its own (a file named for it, new there) is as good a home as a scope
        # of the same last name (node-semver 7 moved the function `inc` to
        # `functions/inc.js`, beside the method `SemVer.inc`): a person chooses.
        if entry is None or entry.name is None or cid.symbol in self._own_modules(place):
            return None
        scope = entry.name[: -len(cid.symbol) - 1]
        together = {
            name
            for name in self.missing()[place]
            if (other := _inside(named, name)) is not None
            and other.path == entry.path
            and other.name == f"{scope}.{name}"
        }
        others = len(together - {cid.symbol})
        if others < MIN_AGREE:
            return None
        evidence = f"its name inside `{scope}` in {entry.path}, with {_names(others)} of {cid.path}"
        return resolved(cid, entry.chunk_id, "", evidence)

    def _own_module(self, place: Place, cid: ChunkId) -> Resolution | None:
        """The ID's name in its module of its own, where at least `MIN_AGREE` other names
        of the old file went each into theirs: the file split a definition a file."""
        assert cid.symbol is not None
        modules = self._own_modules(place)
        entry = modules.get(cid.symbol)
        if entry is None or not (
            entry.about_as_long(cid.start, cid.end, NAME_LENGTH_FACTOR) or self._alone(entry)
        ):
            # A scope of other definitions, much longer or shorter than the ID: its code
            # may be one member's (node-semver 7's constructor function `Comparator`,
            # now a class whose constructor holds that code).
            return None
        others = len(modules.keys() - {cid.symbol})
        if others < MIN_AGREE:
            return None
        evidence = (
            f"same name in {entry.path}, the module named for it, as {_names(others)} of "
            f"{cid.path} went each to theirs"
        )
        return resolved(cid, entry.chunk_id, "", evidence)

    def _alone(self, entry: Entry) -> bool:
        """Whether no definition of its file is inside `entry` (a function, not a scope)."""
        found = self.lookup.get(entry.path)
        inner = f"{entry.name}."
        return found is None or not any(e.name and e.name.startswith(inner) for e in found.entries)

    def _own_modules(self, place: Place) -> dict[str, Entry]:
        """Each name the old file no longer defines that stands in a module of its own: the
        one definition of it, new there, in a file named for it (as code or as tests, like
        the old file): `inc` of `functions/inc.js`, `add_timeout/__init__.py`."""
        if place not in self._modules:
            test = is_test_path(place[1])
            found: dict[str, Entry] = {}
            for name in self.missing().get(place, set()):
                there = [
                    e
                    for e in self.holding.get(name, [])
                    if e.path != place[1] and is_test_path(e.path) == test
                ]
                spelled = _spelled(name.partition(".")[0])
                fresh = self._newcomers(place, there)
                own = [e for e in fresh if _spelled(_module_name(e.path)) == spelled]
                if len(own) == 1:
                    found[name] = own[0]
            self._modules[place] = found
        return self._modules[place]

    def _retyped(self, place: Place, cid: ChunkId, named: list[Entry]) -> Resolution | None:
        """`Type.name` as the one `Other.name` of the successors, where at least
        `MIN_AGREE` other members of `Type` of the old file stand as members of `Other`
        (their last names each once in the successors): the type renamed on the way
        (inherent methods moved into a trait)."""
        assert cid.symbol is not None
        head, dot, leaf = cid.symbol.rpartition(".")
        entry = _one_leaf(named, leaf) if dot else None
        if entry is None or entry.name is None or entry.name.count(".") != cid.symbol.count("."):
            return None
        new_head = entry.name.rpartition(".")[0]
        together = {
            name
            for name in self.missing()[place]
            if name.rpartition(".")[0] == head
            and (other := _one_leaf(named, name.rpartition(".")[2])) is not None
            and other.path == entry.path
            and other.name == f"{new_head}.{name.rpartition('.')[2]}"
        }
        others = len(together - {cid.symbol})
        if others < MIN_AGREE or not entry.about_as_long(cid.start, cid.end, REWRITTEN_FACTOR):
            return None
        members = f"{_names(others, 'member')} of it in {cid.path}"
        evidence = f"`{head}` became `{new_head}` in {entry.path}, with {members}"
        return resolved(cid, entry.chunk_id, "", evidence)

    def _respelled(self, place: Place, cid: ChunkId, named: list[Entry]) -> Resolution | None:
        """Its name respelled (`no_history.respelled`: `willFinalizeES5_`, a private name
        marked for mangling), as it was or inside a new scope, once in the successors, where
        `MIN_AGREE` other names of the old file went."""
        assert cid.symbol is not None
        found = respelled(cid.symbol, named, is_test_path(cid.path))
        if len(found) != 1 or not found[0].about_as_long(
            cid.start, cid.end, RESPELLED_LENGTH_FACTOR
        ):
            return None
        entry = found[0]
        others = len(self._placed[place][entry.path] - {cid.symbol})
        if others < MIN_AGREE:
            return None
        where = self._where(place, entry.path, others)
        evidence = f"its name respelled `{entry.name}` in {entry.path}, {where}"
        return resolved(cid, entry.chunk_id, "", evidence)

    def _defined(self, path: str, name: str) -> bool:
        if path not in self._defines:
            self._defines[path] = {e.name for e in self._entries(path) if e.name is not None}
        return name in self._defines[path]

    def _entries(self, path: str) -> tuple[Entry, ...]:
        found = self.lookup.get(path)
        return () if found is None else found.entries

    def _newcomers(self, place: Place, entries: list[Entry]) -> list[Entry]:
        fresh = set(self.the_set.newcomers([e.chunk_id for e in entries], place))
        return [e for e in entries if e.chunk_id in fresh]


# A file of these names is its folder's module: `add-timeout/index.ts`, `add_timeout/mod.rs`.
_FOLDER_MODULES = frozenset({"index", "__init__", "mod", "lib", "main"})


def _module_name(path: str) -> str:
    """The name a file's module goes by: its stem, or its folder's for an index file."""
    stem = file_stem(path)
    folder = path.rpartition("/")[0]
    return folder.rpartition("/")[2] if stem in _FOLDER_MODULES and folder else stem


def _spelled(name: str) -> str:
    """A name as files and code spell it alike: `add-timeout`, `add_timeout`, `addTimeout`."""
    return name.replace("-", "").replace("_", "").lower()


def _inside(entries: list[Entry], name: str) -> Entry | None:
    """The one of `entries` named `<scope>.<name>`."""
    inside = [e for e in entries if e.name is not None and e.name.endswith(f".{name}")]
    return inside[0] if len(inside) == 1 else None


def _one_leaf(entries: list[Entry], leaf: str) -> Entry | None:
    """The one of `entries` whose last name is `leaf`."""
    found = [e for e in entries if e.leaf == leaf]
    return found[0] if len(found) == 1 else None


def _names(count: int, what: str = "name") -> str:
    return f"{count} other {what}{'s' * (count != 1)}"
