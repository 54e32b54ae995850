"""A missing definition gone, with its siblings, to another owner: bstr's inherent
`BStr.trim` to the extension trait's `ByteSlice.trim`, a test method to another test class
(`FramingTests.test_x` -> `PrepareDataTests.test_x`) or out of its dissolved suite
(`BasicSuite.TestRead` -> `TestRead`), a file's functions nested under a new
wrapper function (`__extends` -> `enableMapSet.__extends`).

With the record's revision and the ID's old body, searched where the old file's code can
have gone: the files git moved or copied it to, and the files new since the revision (of
its language, tests or not as it is). A place is a definition new there with the ID's last
name under another owner (or under a wrapper around its whole name), whose owner took at
least `MIN_SIBLINGS` other definitions that left the old file the same way (`BStr.x` ->
`ByteSlice.x`, `x` -> `enableMapSet.x`), and whose body kept at least `HOLLOW_BELOW` of
the ID's: the name, the siblings and the body agree. When most of its owner's members went
there (`MIN_MOVED_TOGETHER`), the name and the siblings are enough for a body rewritten as
long (a suite's tests converted to another framework). A type is renamed (with its file:
`IsEqualIgnoringWhiteSpaceTest` -> `IsEqualCompressingWhiteSpaceTest`) when a new type
took at least half of its members (and `MIN_SIBLINGS`), its body as alike. One place is
where it went; of
several, one whose body is `BODY_MARGIN` ahead, else a person chooses (`ambiguous`).
"""

from __future__ import annotations

import dataclasses
from collections import defaultdict

from evaltools.retrieval.code.chunk_id import ChunkId, parse_chunk_id
from evaltools.retrieval.gold.reanchor.history.bodies import (
    BODY_MARGIN,
    HOLLOW_BELOW,
    MIN_BODY_CHARS,
    Body,
    make_body,
    source_lines,
)
from evaltools.retrieval.gold.reanchor.history.old_defs import OldDefinitions, is_code, kept
from evaltools.retrieval.gold.reanchor.history.owner_places import (
    MIN_SIBLINGS,
    OwnerPlace,
    evidence_of,
    members_of,
    moved_members,
    renamed_type,
    went_together,
)
from evaltools.retrieval.gold.reanchor.history.partners import Partners
from evaltools.retrieval.gold.reanchor.lookup import NAME_LENGTH_FACTOR, Lookup, about_as_long
from evaltools.retrieval.gold.reanchor.rename import Scopes
from evaltools.retrieval.gold.reanchor.resolve import (
    MAX_CANDIDATES,
    GoldRef,
    Resolution,
    Status,
    resolved,
)
from evaltools.retrieval.gold.reanchor.scope import is_test_path, scope_of, scope_word

# Past this many old files to search for a rival type, a rename is not one clear place.
MAX_RIVAL_FILES = 400


class Owners:
    """The places of missing IDs under another owner, for one run."""

    def __init__(
        self, lookup: Lookup, history: tuple[OldDefinitions, Scopes], partners: Partners
    ) -> None:
        self.lookup, self.partners = lookup, partners
        self.olds, self.scopes = history
        self._known: dict[str, bool] = {}  # qualified names: defined in the tree or not
        self._alike: dict[tuple[str, str, str, str], bool] = {}  # a sibling's body kept

    def place(self, cid: ChunkId, ref: GoldRef, old: Body) -> Resolution | None:
        assert cid.symbol is not None and ref.revision is not None
        places = self._places(cid, ref.revision, old)
        if not places:
            return None
        places.sort(key=lambda p: -p.alike)
        best = places[0]
        if self._standing_twin(cid, ref.revision, old, best.alike):
            return None
        # A body rewritten tells no place from another: only its name and siblings did.
        weak = best.alike < HOLLOW_BELOW
        if len(places) > 1 and (weak or best.alike - places[1].alike < BODY_MARGIN):
            return Resolution(
                Status.AMBIGUOUS,
                candidates=tuple(p.chunk_id for p in places[:MAX_CANDIDATES]),
                detail=f"`{cid.symbol}` may have gone to {len(places)} owners, with siblings "
                f"and bodies alike each: {', '.join(f'`{p.owner}`' for p in places[:3])}",
            )
        home = scope_of(cid.path)
        if scope_of(best.path) != home and (
            stayed := self._renamed_at_home(cid, ref.revision, old)
        ):
            return Resolution(
                Status.AMBIGUOUS,
                candidates=(best.chunk_id, *stayed)[:MAX_CANDIDATES],
                detail=f"`{cid.symbol}` may have gone to `{best.owner}` in {best.path}, or "
                f"stayed in its {scope_word(cid.path)} under a new type: {', '.join(stayed[:3])}",
            )
        why = "its type was renamed" if best.members else "it went to another owner"
        return resolved(cid, best.chunk_id, why, evidence_of(cid, best))

    def _renamed_at_home(self, cid: ChunkId, revision: str, old: Body) -> list[str]:
        """The ID's last name under new types of its own scope that hold at least
        `MIN_SIBLINGS` of its old siblings' names, their bodies rewritten or not: its type
        may have been renamed at home (go-billy 6 rewrote `osfs.ChrootOS` as `RootOS`,
        while the new `embedfs.Embed` implements the same interface, its boilerplate
        alike)."""
        assert cid.symbol is not None
        owner, _, leaf = cid.symbol.rpartition(".")
        if not owner:
            return []
        prefix = owner + "."
        siblings = {
            d.name[len(prefix) :]
            for d in self.olds.at(cid.path, revision)
            if d.name.startswith(prefix) and d.name != cid.symbol
        }
        test = is_test_path(cid.path)
        paths = [p for p in self.scopes.of_scope(cid.path) if is_test_path(p) == test]
        self.lookup.load(paths)
        held: dict[str, set[str]] = defaultdict(set)
        named: dict[str, str] = {}
        for path in paths:
            found = self.lookup.get(path)
            for entry in found.entries if found is not None else ():
                other, _, last = (entry.name or "").rpartition(".")
                if other and other != owner:
                    held[other].add(last)
                    if last == leaf:
                        named[other] = entry.chunk_id
        hits = [c for other, c in named.items() if len(held[other] & siblings) >= MIN_SIBLINGS]
        return self.olds.newcomers(hits, cid, revision, old)

    def members_went(self, cid: ChunkId, revision: str, old: Body) -> list[OwnerPlace]:
        """The types new since the revision that took at least half of the ID's members
        (and `MIN_SIBLINGS`), their bodies kept, whatever the type's own body kept; a
        rival old type they may be the rename of as much does not matter: the code went
        there."""
        return self._places(cid, revision, old, renamed=False)

    def _places(
        self, cid: ChunkId, revision: str, old: Body, *, renamed: bool = True
    ) -> list[OwnerPlace]:
        """With `renamed`, the places of a missing ID (its type renamed, or it went to
        another owner), as alike as `HOLLOW_BELOW`; else only the types that took its
        members."""
        assert cid.symbol is not None
        symbol = cid.symbol
        now = self.lookup.get(cid.path)
        still = {e.name for e in now.entries} if now is not None else set()
        before = [d.name for d in self.olds.at(cid.path, revision)]
        left = [n for n in before if n not in still and n != symbol]
        members = [n for n in left if n.startswith(symbol + ".")]
        if not renamed and len(members) < MIN_SIBLINGS:
            return []
        found: list[OwnerPlace] = []
        for path in self._files(cid, revision, [symbol, *members[:3]], heirs=renamed):
            entries = self.lookup.get(path)
            if entries is None:
                continue
            names = {e.name for e in entries.entries if e.name is not None}
            if len(members) >= MIN_SIBLINGS:
                found.extend(renamed_type(symbol, members, path, entries.entries, names))
            if renamed:
                found.extend(moved_members(symbol, left, path, entries.entries, names))
        found = [q for p in found if (q := self._bodies_alike(cid, revision, p)) is not None]
        if renamed:
            found = self._renames(cid, revision, found, before, still)
        fresh = set(self.olds.newcomers([p.chunk_id for p in found], cid, revision, old))
        owner = symbol.rpartition(".")[0]
        together = sum(n.rpartition(".")[0] == owner for n in before) if owner else 0
        return [
            dataclasses.replace(p, alike=alike)
            for p in found
            if p.chunk_id in fresh
            and (
                (alike := kept(old, p.chunk_id, self.lookup)) >= HOLLOW_BELOW
                or not renamed
                or (
                    went_together(p, owner, symbol, together)
                    and self._rewritten_as_long(cid, p.chunk_id)
                )
            )
        ]

    def _rewritten_as_long(self, cid: ChunkId, chunk_id: str) -> bool:
        """Code rewritten, not a stub left nor another thing grown: about as long as the
        ID's span, and long enough to be code (`MIN_BODY_CHARS`)."""
        new = parse_chunk_id(chunk_id)
        return is_code(chunk_id, self.lookup) and about_as_long(
            (cid.start, cid.end), (new.start, new.end), NAME_LENGTH_FACTOR
        )

    def _standing_twin(self, cid: ChunkId, revision: str, old: Body, alike: float) -> bool:
        """A definition of the ID's last name there all along whose body is nearer the old
        one than the place's (`alike`): the code merged into it, or every writer's `write`
        is `out.write(...)`; siblings that went to a new type of the same interface
        (commons-io 2.12's `UncheckedFilterWriter`) are no evidence that this one went
        there too. A short old body (`fn flush(&self) {}`) is every type's: no twin."""
        index = self.lookup.bodies()
        if index is None or old.size < MIN_BODY_CHARS:
            return False
        # Of many alike (test bodies), those scored first: refusing on an incomplete list
        # left renamed test classes unresolved (junit4 4.12, commons-io 2.12).
        found, _ = index.near(old, alike)
        twins = [b.chunk_id for score, b in found if score > alike and b.leaf == old.leaf]
        return len(self.olds.newcomers(twins, cid, revision, old)) < len(twins)

    def _bodies_alike(self, cid: ChunkId, revision: str, place: OwnerPlace) -> OwnerPlace | None:
        """`place` with the siblings whose bodies there kept half of theirs (a `new` and a
        `build` of another builder are names, not evidence), if it still has enough."""
        old = {d.name: d for d in self.olds.at(cid.path, revision)}
        lines = source_lines(self.lookup.old_text(cid.path, revision) or b"")
        entries = self.lookup.get(place.path)
        now = {e.name: e.chunk_id for e in (entries.entries if entries is not None else ())}
        took = []
        for then, there in place.took:
            key = (cid.path, then, place.path, there)
            if key not in self._alike:
                d, chunk_id = old[then], now[there]
                body = make_body(cid.path, "", then, lines[d.start - 1 : d.end])
                self._alike[key] = kept(body, chunk_id, self.lookup) >= HOLLOW_BELOW
            if self._alike[key]:
                took.append((then, there))
        needed = max(MIN_SIBLINGS, (place.members + 1) // 2)
        return dataclasses.replace(place, took=tuple(took)) if len(took) >= needed else None

    def _files(
        self, cid: ChunkId, revision: str, names: list[str], *, heirs: bool = True
    ) -> list[str]:
        """The files git moved the old file to, and those new since the revision that git
        derives from no other file (another's rename is that file's heir), holding one of
        `names`' last names; not `heirs`: every file new since the revision, without git's
        copy detection over the range (costly, and a newcomer is all that is asked)."""
        moved = (
            [p for p in self.lookup.moved_to(cid.path, revision) if p != cid.path] if heirs else []
        )
        new = [
            p
            for p in self.partners.new_files(cid.path, revision)
            if not heirs or not set(self.lookup.renamed_from(p, revision)) - {cid.path}
        ]
        needles = [n.rpartition(".")[2].encode("utf-8") for n in names]
        files = [
            p
            for p in dict.fromkeys([*moved, *new])
            if any(needle in (self.lookup.text(p) or b"") for needle in needles)
        ]
        self.lookup.load(files)
        return files

    def _renames(
        self,
        cid: ChunkId,
        revision: str,
        found: list[OwnerPlace],
        before: list[str],
        still: set[str | None],
    ) -> list[OwnerPlace]:
        """`found` but the renames that do not hold: a member's owner gone (the new owner
        its rename) needs half of its members there; a renamed type, no rival."""
        assert cid.symbol is not None
        owner = cid.symbol.rpartition(".")[0]
        moved = [p for p in found if not (p.wrapped or p.members)]
        if moved and not self._defined(owner, still):
            needed = max(MIN_SIBLINGS, (sum(n.startswith(owner + ".") for n in before) + 1) // 2)
            found = [p for p in found if p not in moved or p.siblings + 1 >= needed]
            renamed = {p.chunk_id for p in found if p in moved or p.members}
        else:
            renamed = {p.chunk_id for p in found if p.members}
        return [
            p
            for p in found
            if p.chunk_id not in renamed
            or not self._rival(cid, revision, cid.symbol if p.members else owner, p)
        ]

    def _rival(self, cid: ChunkId, revision: str, owner: str, place: OwnerPlace) -> bool:
        """Another type of the revision, gone now, whose members the new type holds as
        well (half of them, and MIN_SIBLINGS): the new type may be its rename as much.
        Searched in the old file itself (toml 0.7 dropped three `ser::Serializer`
        implementations of `ser.rs`; a new one in `toml_edit` holds the trait's 37 names
        each had), its scope then and the files deleted since. A new type that kept
        `owner`'s name out of the module or class that held it (indicatif 0.17 moved `mod
        rayon_support`'s `ProgressConsumer` to `rayon.rs`) is another name's rename only if
        it holds as many of that type's members as of `owner`'s."""
        entries = self.lookup.get(place.path)
        held = members_of(entries.entries if entries is not None else (), place.owner)
        as_many = 0  # what a type of another name must hold to rival `owner`
        if "." in owner and place.owner == owner.rpartition(".")[2]:
            prefix = f"{owner}."
            as_many = sum(
                d.name[len(prefix) :] in held
                for d in self.olds.at(cid.path, revision)
                if d.name.startswith(prefix)
            )
        now = set(self.lookup.paths())
        scope, test = scope_of(cid.path), is_test_path(cid.path)
        olds = [
            p
            for p in self.lookup.old_paths(cid.path, revision)
            if p == cid.path
            or (
                (scope_of(p) == scope or (p not in now and scope_of(p)[0] == scope[0]))
                and is_test_path(p) == test
            )
        ]
        if len(olds) > MAX_RIVAL_FILES:
            return True  # too many to weigh: not one clear rename
        leaves = {h.rpartition(".")[2].encode("utf-8") for h in held}
        self.lookup.read_ahead((), [(p, revision) for p in olds])
        for path in olds:
            data = self.lookup.old_text(path, revision) or b""
            if not any(leaf in data for leaf in leaves):
                continue
            types: dict[str, list[str]] = defaultdict(list)
            for d in self.olds.at(path, revision):
                parent = d.name.rpartition(".")[0]
                if parent and parent != owner:
                    types[parent].append(d.name[len(parent) + 1 :])
            for rival, members in types.items():
                took = sum(m in held for m in members)
                needed = max(MIN_SIBLINGS, (len(members) + 1) // 2)
                if rival.rpartition(".")[2] != place.owner:
                    needed = max(needed, as_many)
                if took >= needed and not self._defined(rival, set()):
                    return True
        return False

    def _defined(self, name: str, still: set[str | None]) -> bool:
        """`name` is defined in the tree: in the ID's file, or anywhere (one pass)."""
        if name in still:
            return True
        if name not in self._known:
            leaf = name.rpartition(".")[2]
            self._known[name] = any(e.name == name for _, e in self.lookup.holding({leaf}))
        return self._known[name]
