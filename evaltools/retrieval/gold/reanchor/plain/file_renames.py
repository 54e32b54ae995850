"""Files renamed, told by their names alone: under another extension of their language, or
by one pattern of names, seen without history (a plain tree); under folders added or taken
at the start of their path, where history lists the files that were there.

A file under another extension (`test/usage.js` -> `test/usage.cjs`, `argsert.ts` ->
`argsert.cjs`): the one file of its path but for the extension, of its language, that no
gold ID of the revision shows was there then.

By one pattern: commons-io 2.12 renamed its 43 `*TestCase.java` to `*Test.java`, each
class with its file. A sample of gold IDs names few members of each, too few to show a
rename one file at a time; the set shows the pattern many times over. A gone file's rename
is a file of its extension (test code if it was), in its folder or in the folder the set
shows its folder (or one above it) moved to, not named by a gold ID of the revision that
is still there (that one was there then), whose stem differs from the old one by one
change at its end (a common prefix of at least `MIN_KEPT` characters) or else at its start
(`Case` -> `` at the end; `Test` -> `Tests`): the *rewrite*. A rewrite holds when at least
`MIN_RENAMED` gone files of the revision have exactly one such file under it; a file with
two rewrites that hold, or one that two gone files would take, is left alone. The ID
follows its name into the renamed file, its type (named as the old file was) renamed with
it.
"""

from __future__ import annotations

import os
from collections import Counter, defaultdict
from collections.abc import Iterable, Iterator, Mapping

from evaltools.retrieval.code.symbols import language_of, suffix_of
from evaltools.retrieval.gold.reanchor.lookup import Lookup
from evaltools.retrieval.gold.reanchor.resolve import Place
from evaltools.retrieval.gold.reanchor.scope import is_test_path

# A rewrite holds when this many gone files of one revision show it.
MIN_RENAMED = 3
# The part two stems keep in common is at least this long: `Charsets` of `CharsetsTestCase`
# and `CharsetsTest`, not a letter.
MIN_KEPT = 4

# A gone file -> its new path, and how its name changed (`.js -> .cjs`, `` `Case` -> `` ``)
Renames = dict[Place, tuple[str, str]]
# Where a stem changed (`end` or `start`), what it lost and what it gained.
Rewrite = tuple[str, str, str]


def stem_renames(
    gone: set[Place],
    there: set[Place],
    lookup: Lookup,
    moved: Mapping[tuple[str | None, str], Iterable[str]],
) -> Renames:
    """Each gone file the set names (`gone`) that a rewrite shown by `MIN_RENAMED` gone
    files renamed: its new path and the rewrite; `there`: the set's files still there;
    `moved`: the folders each (revision, folder) moved to, searched as its own."""
    if not gone:
        return {}
    by_folder: dict[tuple[str, str], list[str]] = defaultdict(list)
    for path in lookup.paths():
        folder, _, name = path.rpartition("/")
        by_folder[(folder, suffix_of(name))].append(path)
    shown: dict[tuple[str | None, Rewrite], dict[str, list[str]]] = defaultdict(dict)
    for revision, path in gone:
        for rewrite, news in _rewrites_of((revision, path), by_folder, there, moved).items():
            shown[(revision, rewrite)][path] = news
    renamed: dict[Place, list[tuple[str, str]]] = defaultdict(list)
    for (revision, (side, old, new)), files in shown.items():
        single = {path: news[0] for path, news in files.items() if len(news) == 1}
        if len(single) < MIN_RENAMED:
            continue
        for path, target in single.items():
            renamed[(revision, path)].append((target, f"`{old}` -> `{new}` at its {side}"))
    # A file two gone files would be renamed to is the rename of neither.
    claimed = Counter((place[0], found[0][0]) for place, found in renamed.items())
    return {
        place: found[0]
        for place, found in renamed.items()
        if len(found) == 1 and claimed[(place[0], found[0][0])] == 1
    }


def _rewrites_of(
    place: Place,
    by_folder: Mapping[tuple[str, str], list[str]],
    there: set[Place],
    moved: Mapping[tuple[str | None, str], Iterable[str]],
) -> dict[Rewrite, list[str]]:
    """The files of the gone file's folder (and of the folders it moved to) and extension,
    tests or not as it was, not the set's files still there, by the rewrite of its stem
    that names each."""
    revision, path = place
    folder, _, name = path.rpartition("/")
    suffix = suffix_of(name)
    found: dict[Rewrite, list[str]] = defaultdict(list)
    if not suffix:
        return found  # `Makefile`: no stem of a language to rewrite
    test = is_test_path(path)
    # A folder and its subfolder may both be shown moved: each place searched once.
    folders = dict.fromkeys([folder, *_moved_with_parents(folder, revision, moved)])
    options = [
        p
        for where in folders
        for p in by_folder.get((where, suffix), [])
        if (revision, p) not in there and is_test_path(p) == test
    ]
    for new in options:
        rewrite = _rewrite(name[: -len(suffix)], new.rpartition("/")[2][: -len(suffix)])
        if rewrite is not None:
            found[rewrite].append(new)
    return found


def _moved_with_parents(
    folder: str, revision: str | None, moved: Mapping[tuple[str | None, str], Iterable[str]]
) -> Iterator[str]:
    """The folders `folder` moved to, by itself or with a folder above it (`beanutils/bugs`
    -> `beanutils2/bugs` when `beanutils` -> `beanutils2`)."""
    head, below = folder, ""
    while head:
        for new in moved.get((revision, head), ()):
            yield f"{new}/{below}".strip("/") if new else below  # moved to the root
        head, _, last = head.rpartition("/")
        below = f"{last}/{below}".strip("/")


def suffix_changes(gone: set[Place], there: set[Place], lookup: Lookup) -> Renames:
    """Each gone file whose path, but for its extension, is that of one file of its
    language that no gold ID of the revision shows was there then (`test/usage.js` ->
    `test/usage.cjs`, `argsert.ts` -> `argsert.cjs`): the file, and its extensions."""
    if not gone:
        return {}
    by_stem: dict[tuple[str, str], list[str]] = defaultdict(list)
    for path in lookup.paths():
        if (key := _stem_and_family(path)) is not None:
            by_stem[key].append(path)
    changed: Renames = {}
    for revision, path in gone:
        key = _stem_and_family(path)
        same = [p for p in by_stem.get(key, []) if (revision, p) not in there] if key else []
        if len(same) == 1:
            changed[(revision, path)] = (same[0], f"{suffix_of(path)} -> {suffix_of(same[0])}")
    return changed


def folder_changes(gone: set[Place], there: set[Place], lookup: Lookup) -> Renames:
    """Each gone file whose path, with folders added at its start or taken from it
    (`moved_by_folders`), is that of one file of its repository that was not there at the
    revision (`there`: the revision's files) and that git paired with no other (moment
    2.10: `test/locale/af.js` -> `src/test/locale/af.js`, each test rewritten for another
    framework, too changed for git to pair): the file, and the folders added or taken. A
    file that another gone file of the revision would take too is the move of neither. The
    path says where to look, not that the code is there: the caller weighs the body."""
    if not gone:
        return {}
    now = _Paths(lookup.paths())
    listed: dict[str | None, list[str]] = defaultdict(list)
    for revision, path in there | gone:
        listed[revision].append(path)
    then = {revision: _Paths(listed[revision]) for revision in {r for r, _ in gone}}
    changed: Renames = {}
    for revision, path in gone:
        if revision is None:
            continue
        # Its repository's listing, one object a repository and revision: a file of a
        # repository nested below the root is not new to this one.
        listing = lookup.old_paths(path, revision)
        same = [
            p
            for p in now.moves_of(path)
            if (revision, p) not in there
            and lookup.old_paths(p, revision) is listing
            and not lookup.renamed_from(p, revision, copies=False)
        ]
        if len(same) != 1:
            continue
        new = same[0]
        # The files of the revision, gone since, that this one could be the move of.
        if [q for q in then[revision].moves_of(new) if q not in now.all] == [path]:
            how = (
                f"under `{new[: -len(path)]}`"
                if len(new) > len(path)
                else f"out of `{path[: -len(new)]}`"
            )
            changed[(revision, path)] = (new, how)
    return changed


def moved_by_folders(old: str, new: str) -> bool:
    """Whether `new` is `old` with folders added at its start, or taken from it, keeping at
    least the file's own folder (a top-level `util.go` is not `vendor/x/util.go`), tests or
    not as it was."""
    if not (new.endswith("/" + old) or old.endswith("/" + new)):
        return False
    return "/" in old and "/" in new and is_test_path(old) == is_test_path(new)


def paired_by_path(old: str, new: str) -> bool:
    """Whether `new` could be `old`'s file paired by its path alone: under another extension
    of its language (`suffix_changes`), or with folders added or taken (`folder_changes`)."""
    if moved_by_folders(old, new):
        return True
    key = _stem_and_family(old)
    return key is not None and key == _stem_and_family(new)


class _Paths:
    """Paths, found by the paths they are with folders added or taken (`moved_by_folders`)
    without comparing each with each: a monorepo holds thousands of `src/index.js`."""

    def __init__(self, paths: Iterable[str]) -> None:
        self.all = set(paths)
        # Each path under every ending of it that keeps a folder: `a/b/c.js` under `b/c.js`.
        self._below: dict[str, list[str]] = defaultdict(list)
        for path in self.all:
            for ending in _endings(path):
                self._below[ending].append(path)

    def moves_of(self, path: str) -> list[str]:
        """The paths that are `path` with folders added at its start, or taken from it."""
        added = self._below.get(path, [])
        taken = [ending for ending in _endings(path) if ending in self.all]
        return [p for p in (*added, *taken) if moved_by_folders(path, p)]


def _endings(path: str) -> Iterator[str]:
    """The proper endings of `path` that keep a folder: `b/c.js` of `a/b/c.js`."""
    parts = path.split("/")
    for start in range(1, len(parts) - 1):
        yield "/".join(parts[start:])


def _stem_and_family(path: str) -> tuple[str, str] | None:
    """A path without its extension, and its language (`symbols.language_of`)."""
    language = language_of(path)
    return None if language is None else (path[: -len(suffix_of(path))], language)


def _rewrite(old: str, new: str) -> Rewrite | None:
    """The one change at the end (or else the start) that turns stem `old` into `new`,
    keeping at least `MIN_KEPT` characters: `CharsetsTestCase`, `CharsetsTest` -> (`end`,
    `Case`, ``); `CaseInsensitiveMapTest`, `InsensitiveMapTest` -> (`start`, `Case`, ``),
    another rewrite."""
    if old == new:
        return None
    # Names, not paths: character by character is what is meant.
    head = len(os.path.commonprefix([old, new]))  # noqa: RUF071
    if head >= MIN_KEPT:
        return "end", old[head:], new[head:]
    tail = len(os.path.commonprefix([old[::-1], new[::-1]]))  # noqa: RUF071
    if tail >= MIN_KEPT:
        return "start", old[: len(old) - tail], new[: len(new) - tail]
    return None
