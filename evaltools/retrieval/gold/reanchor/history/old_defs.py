"""Definitions then and now: a gold ID's body at its record's `revision`, a chunk's body in
the tree checked, and the definitions of files at the revision: what existed before a
refactor cannot be the new home of another definition.

A definition that was already there under its own name (a sibling method, a boilerplate
twin of another type, a look-alike helper in a test file) kept its own identity; a body
or a name that resembles a missing ID's is then a coincidence, not a move. Files are read
from git and parsed once each, only for the few candidates a relocation weighs.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable, Iterator

from evaltools.retrieval.code.chunk_id import ChunkId, parse_chunk_id
from evaltools.retrieval.code.spans import Definition
from evaltools.retrieval.code.symbols import (
    SUPPORTED_SUFFIXES,
    language_of,
    language_of_suffix,
    suffix_of,
)
from evaltools.retrieval.gold.reanchor.history.bodies import (
    HOLLOW_BELOW,
    MIN_BODY_CHARS,
    Body,
    has_body,
    make_body,
    similarity,
    source_lines,
)
from evaltools.retrieval.gold.reanchor.lookup import Lookup
from evaltools.retrieval.gold.reanchor.resolve import GoldRef
from evaltools.retrieval.gold.reanchor.scope import file_name

# Type stubs: they declare what another file defines.
_STUBS = (".pyi",)

# Past this many candidates the body was copied around (generated code): their history is
# not read, and they stay candidates for a person.
MAX_WEIGHED = 12
# A file name held by more gone files than this (`index.ts`, `mod.rs`) says nothing of
# which one a new file of that name continues.
MAX_NAMESAKE_FILES = 3


class OldDefinitions:
    def __init__(self, lookup: Lookup) -> None:
        self.lookup = lookup
        self._parsed: dict[tuple[str, str], tuple[Definition, ...]] = {}
        self._now: set[str] | None = None
        # The files of a listing (a revision's, by its identity) gone since, by file name.
        # The listing is kept with its files by name, so that its identity is never reused.
        self._gone: dict[tuple[str, int], tuple[list[str], dict[str, list[str]]]] = {}

    def at(self, path: str, revision: str) -> tuple[Definition, ...]:
        """`path`'s definitions at `revision` (none: no such file then)."""
        key = (path, revision)
        if key not in self._parsed:
            from evaltools.retrieval.code.parsing import parse_source

            data = self.lookup.old_text(path, revision)
            self._parsed[key] = () if data is None else parse_source(path, data).definitions
        return self._parsed[key]

    def names(self, path: str, revision: str) -> set[str]:
        return {d.name for d in self.at(path, revision)}

    def names_then(self, path: str, revision: str, followed: str) -> set[str]:
        """The names `path` defined at `revision`, or a file git renamed to it since did,
        but `followed` (the old file whose definitions are being placed)."""
        names = set(self.names(path, revision))
        for then in self.lookup.renamed_from(path, revision):
            if then != followed:
                names |= self.names(then, revision)
        return names

    def existed(self, chunk_id: str, cid: ChunkId, revision: str, old: Body | None) -> bool:
        """The definition `chunk_id` was at `revision` under its own name: in its own file,
        or (another name than the missing ID's) in the missing ID's file, or in a file git
        says became its file or of its name under another extension, unless there it was a
        copy of the ID's `old` body in a file that copied that one (two copies of one code
        merged into one file: the ID's home too); or in a gone, unpaired file of its file
        name with a body it kept as much of as of `old` (`_stood_in`)."""
        new = parse_chunk_id(chunk_id)
        if new.symbol is None:
            return False
        if new.symbol in self.names(new.path, revision):
            return True
        if new.symbol != cid.symbol and new.symbol in self.names(cid.path, revision):
            return True
        if self._sibling_then(new.symbol, cid, revision):
            return True
        # The ID's own file among the sources says only that it moved along; the files git
        # did not pair are read only when those it paired say nothing.
        sources = itertools.chain(
            self.lookup.renamed_from(new.path, revision), self._respelled(new.path, revision)
        )
        if any(
            self._kept_apart(p, new.symbol, cid, revision, old) for p in sources if p != cid.path
        ):
            return True
        # A file of its name only, gone unpaired: the name there then with a body alike;
        # unless the ID's own file had that name too (which of them does it continue?).
        if file_name(cid.path) == file_name(new.path):
            return False
        return any(
            self._kept_apart(p, new.symbol, cid, revision, old)
            and self._stood_in(p, chunk_id, revision, old)
            for p in self._same_file_name(new.path, revision)
        )

    def _respelled(self, path: str, revision: str) -> Iterator[str]:
        """The files of `path`'s name under another extension of its language at `revision`
        and gone since, which git may not pair with it (markdown-it 14 rewrote
        `lib/parser_core.js` as `lib/parser_core.mjs`, too changed to be called renamed);
        not a type stub (`.pyi`), which declares what another file defines."""
        suffix = suffix_of(path)
        language = language_of(path)
        if language is None:
            return
        now = self._tree_now()
        stem = path[: -len(suffix)]
        for alike in SUPPORTED_SUFFIXES:
            if alike in (suffix, *_STUBS) or language_of_suffix(alike) != language:
                continue
            if (other := stem + alike) not in now and self.at(other, revision):
                yield other

    def _tree_now(self) -> set[str]:
        """The paths of the tree checked, listed once."""
        if self._now is None:
            self._now = set(self.lookup.paths())
        return self._now

    def _same_file_name(self, path: str, revision: str) -> Iterator[str]:
        """The files of `path`'s name elsewhere at `revision`, gone since, paired with no file
        (by git, or by their path): too changed for git to call them moved (commons-jexl 3
        moved every file from `jexl2/` to `jexl3/` and rewrote each, so that `AssignTest.java`
        is new to git, and its `Froboz`, there all along, seemed the new home of another
        test's)."""
        listing = self.lookup.old_paths(path, revision)
        if not listing:
            return
        key = (revision, id(listing))
        if key not in self._gone:
            by_name: dict[str, list[str]] = {}
            now = self._tree_now()
            for then in listing:
                if then not in now:
                    by_name.setdefault(file_name(then), []).append(then)
            self._gone[key] = (listing, by_name)
        gone = self._gone[key][1].get(file_name(path), [])
        unpaired = [p for p in gone if not self.lookup.moved_to(p, revision)]
        if len(unpaired) <= MAX_NAMESAKE_FILES:
            yield from unpaired

    def _stood_in(self, path: str, chunk_id: str, revision: str, old: Body | None) -> bool:
        """`chunk_id`'s name was defined in `path` at `revision` with a body it kept half
        of, and as much as of the ID's `old` one (commons-jexl 3's `Introspector` is the old
        `IntrospectorBase`'s code, not the old facade `Introspector`'s one-line calls)."""
        now = body_of(chunk_id, self.lookup)
        if now is None:
            return False
        name = parse_chunk_id(chunk_id).symbol
        then = max((similarity(b, now) for _, b in self.bodies(path, name, revision)), default=0.0)
        return then >= HOLLOW_BELOW and (old is None or then >= similarity(old, now))

    def _sibling_then(self, name: str, cid: ChunkId, revision: str) -> bool:
        """`name`'s last name was another member of the ID's own type at `revision` (the
        type renamed since: commons-io 2.12 merged `IOUtilsTestCase` into `IOUtilsTest`,
        whose `testAsBufferedOutputStream` is the old one's, not `testAsBufferedWriter`'s)."""
        assert cid.symbol is not None
        owner, dot, leaf = cid.symbol.rpartition(".")
        new_leaf = name.rpartition(".")[2]
        if not dot or new_leaf == leaf:
            return False
        return f"{owner}.{new_leaf}" in self.names(cid.path, revision)

    def _kept_apart(
        self, path: str, name: str, cid: ChunkId, revision: str, old: Body | None
    ) -> bool:
        """`name` was defined in `path` at `revision`, and not as a copy of `old` in a file
        that copied `path` whole (a bundle of many modules copies none of them whole: its
        copy of a function is not where the function's own definition moved)."""
        if name not in self.names(path, revision):
            return False
        if old is None or not self._mostly_from(cid.path, path, revision):
            return True
        return all(
            copy.fingerprint != old.fingerprint for _, copy in self.bodies(path, name, revision)
        )

    def bodies(self, path: str, name: str | None, revision: str) -> list[tuple[Definition, Body]]:
        """The definitions of `name` in `path` at `revision`, each with its body then."""
        same = [d for d in self.at(path, revision) if d.name == name]
        if not same:
            return []
        lines = source_lines(self.lookup.old_text(path, revision) or b"")
        return [(d, make_body(path, "", d.name, lines[d.start - 1 : d.end])) for d in same]

    def _mostly_from(self, copy: str, source: str, revision: str) -> bool:
        """At least half of the names `copy` defined at `revision` were `source`'s too (a
        copy of that file, not a bundle of many)."""
        names = self.names(copy, revision)
        return 2 * len(names & self.names(source, revision)) >= len(names)

    def arrived_for(
        self, cid: ChunkId, revision: str | None, old: Body
    ) -> Callable[[list[str]], list[str]]:
        """`arrived` for one ID: what keeps, of some candidates, those whose code was not at
        the revision."""
        return lambda chunk_ids: self.arrived(chunk_ids, cid, revision, old)

    def newcomers_for(
        self, cid: ChunkId, revision: str | None, old: Body
    ) -> Callable[[list[str]], list[str]]:
        """`newcomers` for one ID: what keeps, of some candidates, those that were not at
        the revision."""
        return lambda chunk_ids: self.newcomers(chunk_ids, cid, revision, old)

    def arrived(
        self, chunk_ids: list[str], cid: ChunkId, revision: str | None, old: Body
    ) -> list[str]:
        """The candidates whose code was not at `revision`: the newcomers, and those whose
        name stood in their file then over a body unlike `old` (the old code came to them
        since, as when two functions swap names)."""
        if revision is None or len(chunk_ids) > MAX_WEIGHED:
            return chunk_ids
        return [
            c
            for c in chunk_ids
            if not self.existed(c, cid, revision, old) or self._took(c, revision, old)
        ]

    def _took(self, chunk_id: str, revision: str, old: Body) -> bool:
        """`chunk_id`'s name was in its file at `revision`, and no definition of it there
        then resembled `old` (the threshold of a hollowed name)."""
        new = parse_chunk_id(chunk_id)
        then = self.bodies(new.path, new.symbol, revision)
        return bool(then) and all(similarity(old, body) < HOLLOW_BELOW for _, body in then)

    def newcomers(
        self, chunk_ids: list[str], cid: ChunkId, revision: str | None, old: Body | None = None
    ) -> list[str]:
        """The candidates that were not at `revision` (all of them when it is unknown, or
        when there are too many to weigh); `old`: the ID's body then."""
        if revision is None or len(chunk_ids) > MAX_WEIGHED:
            return chunk_ids
        return [c for c in chunk_ids if not self.existed(c, cid, revision, old)]


def old_body(cid: ChunkId, ref: GoldRef, lookup: Lookup) -> Body | None:
    """The ID's lines at its record's revision, if git has them and they define its name."""
    assert cid.symbol is not None
    data = lookup.old_text(cid.path, ref.revision)
    if data is None:
        return None
    lines = source_lines(data)[cid.start - 1 : cid.end]
    leaf = re.compile(rf"\b{re.escape(cid.symbol.rpartition('.')[2])}\b")
    if len(lines) != cid.end - cid.start + 1 or not any(leaf.search(line) for line in lines):
        return None  # the ID was already stale at that revision: its lines say nothing
    body = make_body(cid.path, str(cid), cid.symbol, lines)
    return body if has_body(body) else None


def chunk_lines(cid: ChunkId, lookup: Lookup) -> list[str] | None:
    """A named chunk's source lines in the tree checked (None: no file, or no name)."""
    data = lookup.text(cid.path)
    if data is None or cid.symbol is None:
        return None
    return source_lines(data)[cid.start - 1 : cid.end]


def body_of(chunk_id: str, lookup: Lookup) -> Body | None:
    cid = parse_chunk_id(chunk_id)
    lines = chunk_lines(cid, lookup)
    if lines is None or cid.symbol is None:
        return None
    body = make_body(cid.path, chunk_id, cid.symbol, lines)
    return body if has_body(body) else None


def is_code(chunk_id: str, lookup: Lookup) -> bool:
    """Code, not a stub: a body at least `MIN_BODY_CHARS` long."""
    body = body_of(chunk_id, lookup)
    return body is not None and body.size >= MIN_BODY_CHARS


def kept(old: Body, chunk_id: str, lookup: Lookup) -> float:
    """How much of the `old` body the chunk `chunk_id` has now (0 when it has none)."""
    new = body_of(chunk_id, lookup)
    return 0.0 if new is None else similarity(old, new)
