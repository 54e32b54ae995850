"""Where gold IDs went when no history says (a plain tree, a revision git does not have):
what the set itself tells of the old tree. Only for IDs that no name or body resolved.

The gold IDs of one `revision` are a sample of that tree: their paths, spans and names.

- A folder moved: the old file is gone, and a file of the same name holds its gold names
  in a folder that, the same way, holds those of at least `MIN_FILES` gone files of the
  old folder, `MOVE_AHEAD` times as many as any other folder holding that file's name
  does: many files moving together, as git infers a rename from content. A file named by
  a gold ID of the same revision that is still there existed then: it is no new home.
  The ID follows its name into the moved file; namesakes there are told apart as in its
  own file (by length, or shifted together).
- A file renamed in place, under another extension of its language (`usage.js` ->
  `usage.cjs`) or by a pattern of names the set shows (`FooTestCase.java` ->
  `FooTest.java`; `file_renames`): its IDs go there, as in a moved folder.
- Namesakes shifted together: several gold IDs of one name in one file, and exactly one
  shift of lines that lands every one of them on a namesake of the same length in the new
  file (their spacing kept), no other placing more than half of them (blocks alike repeat:
  with the first one deleted, the others fit one block up), and they are `MIN_SHIFTED` or
  all the namesakes as long (two of several overloads fit one shift by chance): each goes
  where it puts it.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Mapping, Sequence

from evaltools.retrieval.code.chunk_id import ChunkId, parse_chunk_id
from evaltools.retrieval.gold.reanchor.lookup import Entry, Lookup
from evaltools.retrieval.gold.reanchor.plain.file_renames import (
    Renames,
    stem_renames,
    suffix_changes,
)
from evaltools.retrieval.gold.reanchor.resolve import (
    GoldRef,
    Place,
    Resolution,
    Status,
    in_renamed_file,
    match_in_file,
    resolved,
)
from evaltools.retrieval.gold.reanchor.scope import is_test_path

# A folder moved when this many of its gone files have their gold names in it...
MIN_FILES = 3
# ...and this many times as many as in any other folder holding one of those files' names.
MOVE_AHEAD = 2
# A file name found in more places than this (`index.ts`, `__init__.py`) says nothing alone.
MAX_NAMESAKE_FILES = 50
# Namesakes told apart by their length alone have at least this many lines.
MIN_TIE_LINES = 3
# Namesakes shifted together: at least this many of one name in one file; past this many
# (gold namesakes x new ones: generated code) the shifts are not weighed.
MIN_TOGETHER = 2
MAX_PAIRS = 100_000
# ...and one shift places them by itself only if they are this many, or all of the
# namesakes as long.
MIN_SHIFTED = 3

# A name respelled is weaker evidence than the same name: the spans agree more closely.
RESPELLED_LENGTH_FACTOR = 1.5
# A test's name as test frameworks spell it: `test_parse`, `testParse`.
_TEST_PREFIX = re.compile(r"[Tt]est(?=[_A-Z])")


class SetEvidence:
    """The set's gold IDs as evidence of the old tree, read once a run and only when an ID
    needs it."""

    def __init__(self, ids: Mapping[GoldRef, ChunkId], lookup: Lookup) -> None:
        self.ids, self.lookup = ids, lookup
        self._homes: dict[Place, tuple[str, str]] | None = None
        self._suffix_changes: Renames | None = None
        self._stem_renames: Renames | None = None
        self._places: tuple[set[Place], set[Place]] | None = None
        self._there: dict[tuple[str | None, str, str | None], set[str | None]] | None = None
        self._namesakes: dict[tuple[Place, str], list[ChunkId]] | None = None
        self._by_file: dict[Place, list[ChunkId]] | None = None

    def newcomers(
        self, chunk_ids: list[str], place: Place, *, through_renames: bool = True
    ) -> list[str]:
        """The candidates no gold ID of `place`'s revision names where it still is, or in a
        file the set shows renamed to the candidate's (markdown-it 14: `lib/common/utils.js`
        to `.mjs`): one that does was there then under its own name, so it is not where
        another went (the copy in a bundle deleted beside it). Not `through_renames`: only
        where an ID of the set still is."""
        if self._there is None:
            # where a name stood: by the set's ID still there (None), or by the files the
            # set shows renamed to it, one of which may be the asking ID's own
            self._there = {}
            for r, c in self.ids.items():
                if c.symbol is None:
                    continue
                if self.lookup.get(c.path) is not None:
                    self._there.setdefault((r.revision, c.path, c.symbol), set()).add(None)
                elif (home := self._renamed_file((r.revision, c.path))) is not None:
                    self._there.setdefault((r.revision, home, c.symbol), set()).add(c.path)
        revision, own = place
        kept: list[str] = []
        for chunk_id in chunk_ids:
            new = parse_chunk_id(chunk_id)
            stood = self._there.get((revision, new.path, new.symbol), set())
            if not (stood - {own} if through_renames else None in stood):
                kept.append(chunk_id)
        return kept

    def moved_folder(self, cid: ChunkId, ref: GoldRef) -> Resolution | None:
        """The ID's name in the file its folder moved to, or in the file of its name under
        another extension of its language (its old file gone)."""
        place = (ref.revision, cid.path)
        if (home := self.homes().get(place)) is not None:
            where = f"in the file its folder moved to ({home[1]})"
        elif (home := self.suffix_changes().get(place)) is not None:
            where = f"in {home[0]}, its file under another extension ({home[1]})"
        elif (home := self.stem_renames().get(place)) is not None:
            where = f"in {home[0]}, its file renamed as others of the set were ({home[1]})"
        else:
            return None
        found = self.lookup.get(home[0])
        if found is None:
            return None
        moved = in_renamed_file(cid, home[0], found.entries)
        result = match_in_file(moved, found)
        if result.status is Status.AMBIGUOUS:
            shift, below = self._neighbour_shift(cid, ref, found.entries)
            pick = same_length(moved, result.candidates, shift, below=below)
            if pick is not None:
                return resolved(cid, pick[0], "", f"{pick[2]} {where}")
            return self.shifted(cid, ref, home[0], moved.symbol)
        new = str(moved) if result.status is Status.OK else result.new_chunk_id
        if new is None:
            alike = respelled(moved.symbol, found.entries, is_test_path(cid.path))
            if len(alike) != 1 or not alike[0].about_as_long(
                cid.start, cid.end, RESPELLED_LENGTH_FACTOR
            ):
                return None
            return resolved(
                cid, alike[0].chunk_id, "", f"its name respelled `{alike[0].name}` {where}"
            )
        return resolved(cid, new, "", f"same name {where}")

    def _neighbour_shift(
        self, cid: ChunkId, ref: GoldRef, entries: Sequence[Entry]
    ) -> tuple[int | None, bool]:
        """How far the file moved with its folder shifted the gold ID of the same old file
        nearest above `cid` whose name the new file defines once (its start), else the one
        nearest below (its end, `True`): where `cid`'s namesake as long must be. None when
        no such ID: a Java class's overloads of one length, sorted or some dropped as the
        package moved (commons-dbcp 2.0's `TesterPreparedStatement.execute`), are otherwise
        told apart by length alone."""
        once: dict[str, Entry | None] = {}
        for entry in entries:
            if entry.name is not None:
                once[entry.name] = None if entry.name in once else entry
        above: tuple[int, int] | None = None
        below: tuple[int, int] | None = None
        for other in self.by_file().get((ref.revision, cid.path), []):
            there = once.get(other.symbol or "")
            if there is None or other.symbol == cid.symbol:
                continue
            if other.end < cid.start and (above is None or other.start > above[0]):
                above = (other.start, there.start - other.start)
            elif other.start > cid.end and (below is None or other.end < below[0]):
                below = (other.end, there.end - other.end)
        if above is not None:
            return above[1], False
        return (below[1], True) if below is not None else (None, False)

    def shifted(
        self, cid: ChunkId, ref: GoldRef, home: str | None = None, symbol: str | None = None
    ) -> Resolution | None:
        """The namesake of `home` (the ID's file, or the one its folder moved to) where the
        one shift that places all of its gold namesakes puts it; `symbol`: its name there
        (its type renamed with its file)."""
        assert cid.symbol is not None
        if ref.revision is None:
            return None  # spans of unknown revisions need not be of one tree
        group = self.namesakes().get(((ref.revision, cid.path), cid.symbol), [])
        found = self.lookup.get(home or cid.path)
        if len(group) < MIN_TOGETHER or found is None:
            return None
        name = symbol or cid.symbol
        spans = {(e.start, e.end): e.chunk_id for e in found.entries if e.name == name}
        if len(group) * len(spans) > MAX_PAIRS:
            return None
        placed: Counter[int] = Counter(
            start - g.start for g in group for start, end in spans if end - start == g.end - g.start
        )
        fits = [d for d, count in placed.items() if count == len(group)]
        # A pattern that repeats (test blocks alike) fits as well shifted by its period: the
        # one shift must stand out, no other placing more than half of them.
        if len(fits) != 1 or any(len(group) // 2 < n < len(group) for n in placed.values()):
            # No one shift placing them all, they moved apart: their order may tell. One
            # that does, with another placing most, is a pattern repeating: nothing tells.
            return None if fits else _in_order(cid, group, spans)
        d = fits[0]
        # Two of several namesakes as long, evenly spaced (a class's overloads), fit one
        # shift by chance as often as not: commons-text 1.10 sorted `StrBuilderWriter`'s
        # `write` overloads as it moved the class up 2,800 lines.
        alike = {
            (start, end) for start, end in spans for g in group if end - start == g.end - g.start
        }
        if len(group) < MIN_SHIFTED and len(alike) > len(group):
            return None
        new = spans[(cid.start + d, cid.end + d)]
        others = len(group) - 1
        evidence = f"shifted {d:+d} lines together with {others} namesake{'s' * (others > 1)}"
        return resolved(cid, new, "", evidence)

    def _renamed_file(self, place: Place) -> str | None:
        """The file the set shows `place`'s became: its folder moved, another extension of
        its language, or renamed as others of the set were."""
        for renames in (self.homes(), self.suffix_changes(), self.stem_renames()):
            if place in renames:
                return renames[place][0]
        return None

    def by_file(self) -> dict[Place, list[ChunkId]]:
        """The set's named IDs, by the file (and revision) they name."""
        if self._by_file is None:
            grouped: dict[Place, list[ChunkId]] = defaultdict(list)
            for ref, cid in self.ids.items():
                if cid.symbol is not None:
                    grouped[(ref.revision, cid.path)].append(cid)
            self._by_file = dict(grouped)
        return self._by_file

    def homes(self) -> dict[Place, tuple[str, str]]:
        if self._homes is None:
            self._homes = _folder_moves(self.ids, self.lookup)
        return self._homes

    def places(self) -> tuple[set[Place], set[Place]]:
        """The set's places (revision, path) whose file is gone, and those whose file is
        still there (it stood at that revision)."""
        if self._places is None:
            gone: set[Place] = set()
            there: set[Place] = set()
            for ref, cid in self.ids.items():
                place = (ref.revision, cid.path)
                (gone if self.lookup.get(cid.path) is None else there).add(place)
            self._places = gone, there
        return self._places

    def stem_renames(self) -> Renames:
        if self._stem_renames is None:
            # The folder a gone file's folder moved to holds its rename as well (commons-
            # beanutils 2.0: `beanutils/FooTestCase.java` -> `beanutils2/FooTest.java`).
            moved: dict[tuple[str | None, str], set[str]] = defaultdict(set)
            for (revision, path), (new, _) in self.homes().items():
                moved[(revision, path.rpartition("/")[0])].add(new.rpartition("/")[0])
            self._stem_renames = stem_renames(*self.places(), self.lookup, moved)
            self.lookup.load({new for new, _ in self._stem_renames.values()})
        return self._stem_renames

    def suffix_changes(self) -> Renames:
        if self._suffix_changes is None:
            self._suffix_changes = suffix_changes(*self.places(), self.lookup)
            self.lookup.load({new for new, _ in self._suffix_changes.values()})
        return self._suffix_changes

    def namesakes(self) -> dict[tuple[Place, str], list[ChunkId]]:
        if self._namesakes is None:
            grouped: dict[tuple[Place, str], dict[ChunkId, None]] = defaultdict(dict)
            for ref, cid in self.ids.items():
                if cid.symbol is not None:
                    grouped[((ref.revision, cid.path), cid.symbol)][cid] = None
            self._namesakes = {
                key: sorted(group, key=lambda c: c.start)
                for key, group in grouped.items()
                if len(group) >= MIN_TOGETHER
            }
        return self._namesakes


def _in_order(
    cid: ChunkId, group: list[ChunkId], spans: dict[tuple[int, int], str]
) -> Resolution | None:
    """The namesake `cid` takes when its gold namesakes (`group`, by line) keep their order
    and each its length, in the one way they can: overloads shifted apart by edits between
    them. Two ways (alike blocks, a length repeated) and it takes none."""
    new = sorted(spans)
    alike = [[g.end - g.start == end - start for start, end in new] for g in group]
    # ways[i][j]: the ways to place group[i:] on new[j:], in order, counted up to two
    ways = [[0] * (len(new) + 1) for _ in range(len(group) + 1)]
    ways[len(group)] = [1] * (len(new) + 1)
    for i in range(len(group) - 1, -1, -1):
        for j in range(len(new) - 1, -1, -1):
            ways[i][j] = min(2, ways[i][j + 1] + (ways[i + 1][j + 1] if alike[i][j] else 0))
    if ways[0][0] != 1:
        return None
    j = 0
    for i, g in enumerate(group):
        while not (alike[i][j] and ways[i + 1][j + 1]):
            j += 1
        if g == cid:
            others = len(group) - 1
            what = f"namesake{'s' * (others > 1)}"
            evidence = f"in order with {others} {what}, each as long: the one way to place them"
            return resolved(cid, spans[new[j]], "", evidence)
        j += 1
    return None


def respelled(symbol: str | None, entries: Sequence[Entry], test: bool) -> list[Entry]:
    """The definitions of `entries` named as `symbol` is, or as its last names, but for
    case, underscores around each name and, in test code, a `test` prefix (`test_parse`,
    `testParse` -> `parse`: a test suite converted to another framework); not `symbol`."""
    if symbol is None:
        return []
    want, depth = spelling(symbol, test), symbol.count(".") + 1
    return [
        e
        for e in entries
        if e.name is not None
        and (tail := ".".join(e.name.split(".")[-depth:])) != symbol
        and spelling(tail, test) == want
    ]


def spelling(name: str, test: bool = False) -> str:
    """A name as case, underscores around each part and (`test`) a test prefix leave it:
    `willFinalizeES5_`, `testWillFinalizeES5` -> `willfinalizees5`."""
    parts = name.split(".")
    if test:
        parts = [p[4:] if _TEST_PREFIX.match(p) else p for p in parts]
    return ".".join(p.strip("_").lower() for p in parts)


def same_length(
    cid: ChunkId,
    candidates: Sequence[str],
    shift: int | None = None,
    *,
    below: bool = False,
    own_lines: bool = False,
) -> tuple[str, str, str] | None:
    """Namesakes in the ID's own file (overloads, shifted together) told apart by the one
    exactly as long as the ID's span (of a few lines at least: one-liners are all alike):
    the chunk ID, why, and the evidence in a few words. `shift`: how far the ID placed
    above it moved (`below`: the ID placed below it, which places ends); a namesake
    nearer where that puts it is as likely the ID, grown or shrunk (packaging 22's
    property getter grew two lines; its setter kept its length). `own_lines`: none was
    placed, so its own lines say where it was, and a namesake as near them within a line of
    its length is as likely the ID, reformatted (commons-net 3.9 joined the braces of a
    class's constructors: one took two lines, the other, as near, the first one's three)."""
    length = cid.end - cid.start
    if length < MIN_TIE_LINES - 1:
        return None
    spans = {c: parse_chunk_id(c) for c in candidates}
    same = [c for c, new in spans.items() if new.end - new.start == length]
    if len(same) != 1 or spans[same[0]].path != cid.path:
        return None
    if shift is not None or own_lines:
        moved = shift or 0
        distance = {
            c: abs(new.end - cid.end - moved if below else new.start - cid.start - moved)
            for c, new in spans.items()
        }
        rivals = [c for c, d in distance.items() if c != same[0] and d <= distance[same[0]]]
        if own_lines:
            rivals = [c for c in rivals if abs(spans[c].end - spans[c].start - length) <= 1]
        if rivals:
            return None
    return same[0], "its span's length tells the namesakes apart", "the only namesake as long"


def _folder_moves(ids: Mapping[GoldRef, ChunkId], lookup: Lookup) -> dict[Place, tuple[str, str]]:
    """Each gone file's new home, where the set shows its folder moved: the file, and the
    evidence in a few words."""
    gone: dict[Place, set[str]] = defaultdict(set)
    there: set[Place] = set()
    for ref, cid in ids.items():
        if cid.symbol is not None:
            place = (ref.revision, cid.path)
            if lookup.get(cid.path) is None:
                gone[place].add(cid.symbol)
            else:
                there.add(place)
    if not gone:
        return {}
    by_name: dict[str, list[str]] = defaultdict(list)
    for path in lookup.paths():
        by_name[path.rpartition("/")[2]].append(path)
    options: dict[Place, list[str]] = {}
    for (revision, path), _ in gone.items():
        same = by_name.get(path.rpartition("/")[2], [])
        if len(same) <= MAX_NAMESAKE_FILES:
            options[(revision, path)] = [p for p in same if (revision, p) not in there]
    lookup.load({p for paths in options.values() for p in paths})
    # (revision, old folder, new folder) -> the gone files whose names the new one holds,
    # test code where it was (code never moves between tests and the rest)
    votes: dict[tuple[str | None, str, str], set[str]] = defaultdict(set)
    for (revision, path), paths in options.items():
        test = is_test_path(path)
        for new in paths:
            found = lookup.get(new)
            if found is None or is_test_path(new) != test:
                continue
            if gone[(revision, path)] & {e.name for e in found.entries}:
                folders = (revision, *_folders(path, new))
                votes[folders].add(path)
    # A file the folder took goes with it, whether its names are still there (renamed) or
    # the others made the folder a test folder.
    homes: dict[Place, tuple[str, str]] = {}
    for (revision, path), paths in options.items():
        held = [(new, (revision, *_folders(path, new))) for new in paths]
        ranked = sorted(((len(votes.get(f, ())), new, f) for new, f in held), reverse=True)
        if not ranked:
            continue
        count, new, folders = ranked[0]
        rival = ranked[1][0] if len(ranked) > 1 else 0
        if count >= MIN_FILES and count >= MOVE_AHEAD * rival:
            moved = f"{folders[1] or '.'}/ -> {folders[2] or '.'}/ with {count} files"
            homes[(revision, path)] = (new, moved)
    return homes


def _folders(old: str, new: str) -> tuple[str, str]:
    """The folders that differ: `src/a/x.ts`, `lib/v3/a/x.ts` -> (`src`, `lib/v3`)."""
    old_parts, new_parts = old.split("/"), new.split("/")
    while len(old_parts) > 1 and len(new_parts) > 1 and old_parts[-2] == new_parts[-2]:
        old_parts.pop(-2)
        new_parts.pop(-2)
    return "/".join(old_parts[:-1]), "/".join(new_parts[:-1])
