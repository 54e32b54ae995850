"""A missing gold ID in its own scope (the old file's package or module, and those of the
files git moved it to), when its body alone did not say where it went. With the old body
and the definitions at the record's `revision`, four kinds of evidence, in this order:

- its name but for its spelling (`ExitError` -> `exitError`, JUnit 3's `testFoo` -> JUnit
  4's `foo`, `proxyMap` -> `proxyMap_`: `similarity.name_key`), defined once in the scope,
  new there, with a body at least `HOLLOW_BELOW` alike;
- its qualified name defined once in the scope and new there, the same kind of
  definition (`def`, `class`, `func`, `type`, ...): a body rewritten in place of a move;
- its type renamed: the type is gone from the scope and one new type holds at least
  `MIN_SIBLINGS` of its old members (half of them or more), each with a body at least
  `HOLLOW_BELOW` alike; the type and each of its members follow it;
- a test named for the same subject by another framework (`PopTest` and its `runTest` ->
  `testPop`: `similarity.test_subject`), once in the scope, new there, with a body at least
  `HOLLOW_BELOW` alike.

A candidate that was at the revision under its own name is never the new home (`old_defs`).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence

from evaltools.retrieval.code.chunk_id import ChunkId
from evaltools.retrieval.code.spans import Definition
from evaltools.retrieval.gold.reanchor.history.bodies import (
    HOLLOW_BELOW,
    NEAR_BODY,
    Body,
    make_body,
    similarity,
    source_lines,
)
from evaltools.retrieval.gold.reanchor.history.old_defs import OldDefinitions, body_of
from evaltools.retrieval.gold.reanchor.lookup import Entry, Lookup
from evaltools.retrieval.gold.reanchor.resolve import GoldRef, Resolution, Status
from evaltools.retrieval.gold.reanchor.scope import is_test_path, scope_of, scope_word
from evaltools.retrieval.gold.reanchor.similarity import name_key, test_subject

# A type is renamed when this many of its old members (and at least half) are in one new type.
MIN_SIBLINGS = 2
# A scope (folder) with more files than this is searched no further: a vendored dump.
MAX_SCOPE_FILES = 400
# The words that say what a definition is, before its own name (`_` in a body).
_KIND_WORDS = frozenset({
    "def", "class", "func", "type", "fn", "struct", "enum", "trait", "union", "mod",
    "macro_rules", "interface", "function", "const", "let", "var", "record", "namespace",
})  # fmt: skip
_TYPE_KINDS = frozenset({
    "class", "struct", "enum", "trait", "union", "interface", "record", "type", "mod",
    "namespace",
})  # fmt: skip


class Scopes:
    """The files of each scope of the tree, grouped once a run (only when asked)."""

    def __init__(self, lookup: Lookup) -> None:
        self.lookup = lookup
        self._files: dict[tuple[str | None, str], list[str]] | None = None
        self._old: dict[tuple[tuple[str | None, str], bool, str], list[str] | None] = {}

    def files(self, paths: Sequence[str]) -> list[str]:
        """The files of `paths`' scopes, but of scopes too large to weigh."""
        found: dict[str, None] = {}
        for key in dict.fromkeys(scope_of(p) for p in paths):
            held = self._grouped().get(key, [])
            if len(held) <= MAX_SCOPE_FILES:
                found.update(dict.fromkeys(held))
        return list(found)

    def of_scope(self, path: str) -> list[str]:
        """Every file of `path`'s scope, however many."""
        return self._grouped().get(scope_of(path), [])

    def _grouped(self) -> dict[tuple[str | None, str], list[str]]:
        if self._files is None:
            grouped: dict[tuple[str | None, str], list[str]] = defaultdict(list)
            for path in self.lookup.paths():
                grouped[scope_of(path)].append(path)
            self._files = dict(grouped)
        return self._files

    def old_files(self, path: str, revision: str) -> list[str] | None:
        """The files of `path`'s scope at the revision, tests or not as it is (None: too
        many to weigh); the revision's listing is filtered once a scope."""
        key = (scope_of(path), is_test_path(path), revision)
        if key not in self._old:
            # A scope lies within its file's folder: the rest of the tree needs no `scope_of`.
            folder = path.rpartition("/")[0]
            paths = [
                p
                for p in self.lookup.old_paths(path, revision)
                if p.startswith(folder) and (scope_of(p), is_test_path(p)) == key[:2]
            ]
            self._old[key] = None if len(paths) > MAX_SCOPE_FILES else paths
        return self._old[key]


def by_scope(
    cid: ChunkId, ref: GoldRef, old: Body, lookup: Lookup, history: tuple[OldDefinitions, Scopes]
) -> Resolution | None:
    assert cid.symbol is not None and ref.revision is not None
    scopes = history[1]
    moved = lookup.moved_to(cid.path, ref.revision)
    files = scopes.files([cid.path, *moved])
    lookup.load(files)
    test = is_test_path(cid.path)
    # A file git moved it to is its own, whatever its folders say (`x-unit-test/src/main`
    # -> `x/src/test`).
    entries = [
        e
        for path in files
        if (is_test_path(path) == test or path in moved) and (found := lookup.get(path)) is not None
        for e in found.entries
        if e.name is not None
    ]
    search = _ScopeSearch(cid, ref.revision, lookup, history, entries)
    search.old = old
    search.lineage = {cid.path, *moved}
    return (
        search.case_only(old)
        or search.same_name(old)
        or search.type_renamed(old)
        or search.test_renamed(old)
    )


class _ScopeSearch:
    """One missing ID's search of its scope's definitions (`entries`)."""

    def __init__(
        self,
        cid: ChunkId,
        revision: str,
        lookup: Lookup,
        history: tuple[OldDefinitions, Scopes],
        entries: list[Entry],
    ) -> None:
        assert cid.symbol is not None
        self.cid, self.symbol, self.revision = cid, cid.symbol, revision
        self.lookup, self.entries = lookup, entries
        self.olds, self.scopes = history
        self.old: Body | None = None  # the ID's body at the revision
        # The old file and the files git moved it to: where a renamed type is defined.
        self.lineage: set[str] = {cid.path}

    def newcomers(self, chunk_ids: list[str]) -> list[str]:
        return self.olds.newcomers(chunk_ids, self.cid, self.revision, self.old)

    def one_newcomer_alike(self, hits: list[str], old: Body) -> tuple[Body, float] | None:
        """The body of the one hit, new since the revision, and how alike the old one it
        is, when it keeps at least `HOLLOW_BELOW` of it."""
        if len(hits) != 1 or not self.newcomers(hits):
            return None
        new = body_of(hits[0], self.lookup)
        score = similarity(old, new) if new is not None else 0.0
        return (new, score) if new is not None and score >= HOLLOW_BELOW else None

    def named(self, name: str) -> list[str]:
        return [e.chunk_id for e in self.entries if e.name == name]

    def case_only(self, old: Body) -> Resolution | None:
        low = _spelling(self.symbol)
        hits = [
            e.chunk_id
            for e in self.entries
            if e.name != self.symbol and _spelling(e.name or "") == low
        ]
        kept = self.one_newcomer_alike(hits, old)
        if kept is None:
            return None
        score = kept[1]
        name = hits[0].rsplit(":", 1)[1]
        how = "but for case" if name.lower() == self.symbol.lower() else "spelled otherwise"
        return _relocated(hits[0], f"the same name {how}, body {score:.2f} alike")

    def test_renamed(self, old: Body) -> Resolution | None:
        """A test as another framework names it (pyparsing 3 turned each unittest class
        `PopTest`, with its `runTest`, into a method `testPop`): the one new definition
        testing the same subject, with a body at least `HOLLOW_BELOW` alike."""
        subject = test_subject(self.symbol)
        if subject is None:
            return None
        leaf = self.symbol.rpartition(".")[2]
        hits = [
            e.chunk_id
            for e in self.entries
            if e.name is not None
            and e.leaf != leaf  # the same test out of its class is its owner's move
            and test_subject(e.name) == subject
        ]
        kept = self.one_newcomer_alike(hits, old)
        # Frameworks turn a test class into a test function, never a function into a
        # class: a class named for it is where tests were grouped (its method is the heir).
        if kept is None or kind_of(kept[0]) in _TYPE_KINDS:
            return None
        score = kept[1]
        name = hits[0].rsplit(":", 1)[1].rpartition(".")[2]
        return _relocated(hits[0], f"its test renamed `{name}`, body {score:.2f} alike")

    def same_name(self, old: Body) -> Resolution | None:
        hits = self.named(self.symbol)
        if len(hits) != 1 or not self.newcomers(hits):
            return None
        # Nothing else claims it: the name was defined once in the scope then, too.
        paths = self.old_scope()
        if (
            paths is None
            or sum(d.name == self.symbol for p in paths for d in self.olds.at(p, self.revision))
            != 1
        ):
            return None
        new = body_of(hits[0], self.lookup)
        if new is None or kind_of(new) != kind_of(old):
            return None
        score = similarity(old, new)
        word = scope_word(self.cid.path)
        return _relocated(hits[0], f"body {score:.2f} alike, its name unique in the {word}")

    def type_renamed(self, old: Body) -> Resolution | None:
        """The ID under the nearest of its enclosing types (or itself, a type) that is gone
        and renamed: `Jira357TestCase.AbstractTestBean.setBar` follows the outer test class
        to `Jira357Test.AbstractTestBean.setBar` when the nested type's own members do not
        say where it went (too few, or a rival type's as alike), its name below the outer
        type unchanged."""
        before = self.olds.at(self.cid.path, self.revision)
        symbol = self.symbol
        is_type = any(d.name.startswith(symbol + ".") for d in before)
        parts = symbol.split(".")
        owners = [".".join(parts[:end]) for end in range(len(parts) - (not is_type), 0, -1)]
        for owner in owners:
            if self.named(owner):
                return None  # it is still there: a member removed, not a type renamed
            members = [d for d in before if d.name.rpartition(".")[0] == owner]
            renamed = self.new_owner(owner, members) if len(members) >= MIN_SIBLINGS else None
            if renamed is None:
                continue
            new_owner, kept = renamed
            hits = self.named(new_owner + symbol[len(owner) :])
            if len(hits) != 1:
                return None
            if is_type and not self.alike(old, hits[0], NEAR_BODY):
                return None  # the type's own shape changed: replaced, not renamed
            evidence = f"type renamed to `{new_owner}` with {kept} of {len(members)} siblings"
            return _relocated(hits[0], evidence)
        return None

    def new_owner(self, owner: str, members: list[Definition]) -> tuple[str, int] | None:
        """The one new type holding at least MIN_SIBLINGS (and half) of `owner`'s old
        members with bodies alike, and how many it holds; none if another type gone from
        the scope fits it as well (its members alike too: that type's rename)."""
        old_members = self.member_bodies(self.cid.path, members)
        by_owner: dict[str, list[Entry]] = defaultdict(list)
        for entry in self.entries:
            parent, _, leaf = (entry.name or "").rpartition(".")
            if parent and parent != owner and leaf in old_members:
                by_owner[parent].append(entry)
        found: list[tuple[str, int, list[Entry]]] = []
        for parent, held in by_owner.items():
            if len(held) < _needed(old_members) or not self.is_new(parent):
                continue
            kept = sum(self.alike(old_members[_leaf(e)], e.chunk_id) for e in held)
            if kept >= _needed(old_members):
                found.append((parent, kept, held))
        if len(found) != 1 or self.rival(owner, found[0][2]):
            return None
        return found[0][:2]

    def member_bodies(self, path: str, members: list[Definition]) -> dict[str, Body]:
        old_text = self.lookup.old_text(path, self.revision)
        lines = source_lines(old_text or b"")
        return {d.leaf: make_body(path, "", d.name, lines[d.start - 1 : d.end]) for d in members}

    def old_scope(self) -> list[str] | None:
        """The files of the ID's scope at the revision (None: too many to weigh)."""
        return self.scopes.old_files(self.cid.path, self.revision)

    def rival(self, owner: str, held: list[Entry]) -> bool:
        """Another type of the scope at the revision, gone now, whose members the new
        type's (`held`) resemble as well: the new type may be its rename as much."""
        paths = self.old_scope()
        if paths is None:
            return True  # too many to weigh: not one clear rename
        now = {e.name for e in self.entries}
        # A file that names none of the held members holds no rival: it is not parsed.
        leaves = {_leaf(e).encode("utf-8") for e in held}
        self.lookup.read_ahead((), [(path, self.revision) for path in paths])
        for path in paths:
            data = self.lookup.old_text(path, self.revision) or b""
            if not any(leaf in data for leaf in leaves):
                continue
            before = self.olds.at(path, self.revision)
            types: dict[str, list[Definition]] = defaultdict(list)
            for d in before:
                parent = d.name.rpartition(".")[0]
                if parent and parent != owner and parent not in now:
                    types[parent].append(d)
            for members in types.values():
                bodies = self.member_bodies(path, members)
                kept = sum(
                    _leaf(e) in bodies and self.alike(bodies[_leaf(e)], e.chunk_id) for e in held
                )
                if kept >= _needed(bodies):
                    return True
        return False

    def is_new(self, name: str) -> bool:
        """`name` is defined in the old file's lineage (a type of another file's lineage is
        another type's rename), and nowhere there at the revision."""
        places = self.named(name)
        if not places or not all(self.in_lineage(c.rsplit(":", 2)[0]) for c in places):
            return False
        return len(self.newcomers(places)) == len(places)

    def in_lineage(self, path: str) -> bool:
        """`path` is the old file, a file git moved it to, or a new file git derives from
        no other (a rename git did not detect: every line names the type)."""
        if path in self.lineage:
            return True
        if self.olds.at(path, self.revision):
            return False  # a file of its own at the revision
        return not set(self.lookup.renamed_from(path, self.revision)) - self.lineage

    def alike(self, old: Body, chunk_id: str, floor: float = HOLLOW_BELOW) -> bool:
        new = body_of(chunk_id, self.lookup)
        return new is not None and similarity(old, new) >= floor


def _spelling(name: str) -> str:
    """A qualified name but for how each part is spelled (`similarity.name_key`)."""
    return ".".join(name_key(part) for part in name.split("."))


def _needed(members: dict[str, Body]) -> int:
    """How many of a type's members another must hold to be its rename."""
    return max(MIN_SIBLINGS, (len(members) + 1) // 2)


def kind_of(body: Body) -> str:
    """The last word saying what the definition is, before its own name (`_`)."""
    kind = ""
    for token in body.tokens:
        if token == "_":
            break
        if token in _KIND_WORDS:
            kind = token
    return kind


def _leaf(entry: Entry) -> str:
    return (entry.name or "").rpartition(".")[2]


def _relocated(chunk_id: str, evidence: str) -> Resolution:
    return Resolution(Status.RELOCATED, chunk_id, detail=f"it is now {chunk_id}", evidence=evidence)
