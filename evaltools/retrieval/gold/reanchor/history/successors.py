"""Where a gone (or partly emptied) file's code went when git did not pair it with the
files that took it over: a file rewritten past git's rename threshold (`nfa.rs` split into
`nfa/noncontiguous.rs` and `nfa/contiguous.rs`), or definitions carried out of a file
that stays (`mod buffer;` from `lib.rs` to `util/mod.rs`).

With the record's revision, every definition of the old file then (not only the set's
IDs) that is not in it now is placed in the one file that defines its qualified name now
and did not at the revision, nor a file git renamed to it (rule 1 of `old_defs`), if the
body there is at least `HOLLOW_BELOW` alike: what `names` accepts for one ID. The files
that took at least `MIN_TAKEN` of them besides the ID (its own move is no evidence of
where it went), and a clear share (`MIN_SHARE`), are the old file's successors. A missing
ID of that file then goes to
- its qualified name in one successor (new there), even when other files define it too
  (`NFA.next_state` in both NFA files: one of them took the old file); an old body too
  short to tell (`MIN_BODY_CHARS`) that kept less than `HOLLOW_BELOW` of itself, only
  if about as long as it was (`lookup.NAME_LENGTH_FACTOR`);
- else its method renamed inside its type, the type now in a successor: of the new members
  of the type there whose names keep every word of the old name (`add_start_state_loop`
  -> `add_unanchored_start_state_loop`), the one whose body tells (`MIN_BODY_CHARS`) and
  is at least `HOLLOW_BELOW` alike and `BODY_MARGIN` ahead.
A name kept on a body that went elsewhere is still `hollowed` (`hollow.hollowed_or`).
"""

from __future__ import annotations

import dataclasses
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field

from evaltools.retrieval.code.chunk_id import ChunkId
from evaltools.retrieval.code.spans import Definition
from evaltools.retrieval.gold.reanchor.history.bodies import (
    BODY_MARGIN,
    HOLLOW_BELOW,
    MIN_BODY_CHARS,
    Body,
    make_body,
    similarity,
    source_lines,
)
from evaltools.retrieval.gold.reanchor.history.old_defs import OldDefinitions, body_of, kept
from evaltools.retrieval.gold.reanchor.lookup import NAME_LENGTH_FACTOR, Entry, Lookup
from evaltools.retrieval.gold.reanchor.resolve import GoldRef, Resolution, resolved
from evaltools.retrieval.gold.reanchor.scope import is_test_path, scope_of
from evaltools.retrieval.gold.reanchor.similarity import name_words

# A successor took at least this many of the old file's definitions that left it...
MIN_TAKEN = 2
# ...and at least this share of those whose new place is known.
MIN_SHARE = 0.2
# Past this many definitions gone from one file, the tree was rewritten: not weighed.
MAX_LEFT = 2_000


@dataclass
class Heirs:
    """The files that took an old file's definitions, and how many each took."""

    taken: dict[str, set[str]] = field(default_factory=dict)  # file -> names it took
    left: int = 0  # definitions of the old file not in it now
    gone: bool = False  # the old file is not in the tree


class Successors:
    def __init__(self, lookup: Lookup, olds: OldDefinitions) -> None:
        self.lookup, self.olds = lookup, olds
        self._heirs: dict[tuple[str, str], Heirs] = {}

    def prepare(self, wanted: Iterable[tuple[str, str]]) -> None:
        """The successors of the old files `wanted` (path, revision), found in one pass
        over the tree for all of them."""
        todo = [key for key in dict.fromkeys(wanted) if key not in self._heirs]
        if not todo:
            return
        self.lookup.read_ahead((), todo)
        lefts = {key: self._left(*key) for key in todo}
        leaves = {d.leaf for left in lefts.values() for d in left}
        holding: dict[str, list[tuple[str, Entry]]] = defaultdict(list)
        for place, entry in self.lookup.holding(leaves) if leaves else []:
            if entry.name is not None:
                holding[entry.name].append((place, entry))
        for (path, revision), left in lefts.items():
            self._heirs[(path, revision)] = self._find(path, revision, left, holding)

    def _left(self, path: str, revision: str) -> list[Definition]:
        """The definitions of `path` at the revision that it does not hold now (none: too
        few to leave a successor, or too many to weigh)."""
        now = self.lookup.get(path)
        kept = {e.name for e in now.entries} if now is not None else set()
        left = [d for d in self.olds.at(path, revision) if d.name not in kept]
        return left if MIN_TAKEN <= len(left) <= MAX_LEFT else []

    def _find(
        self,
        path: str,
        revision: str,
        left: list[Definition],
        holding: dict[str, list[tuple[str, Entry]]],
    ) -> Heirs:
        heirs = Heirs(left=len(left), gone=self.lookup.get(path) is None)
        language, test = scope_of(path)[0], is_test_path(path)
        holders = {
            d.name: [
                (place, entry)
                for place, entry in holding.get(d.name, [])
                if place != path and scope_of(place)[0] == language and is_test_path(place) == test
            ]
            for d in left
        }
        # What each holder defined at the revision: read in one batch.
        places = {place for held in holders.values() for place, _ in held}
        self.lookup.read_ahead((), [(place, revision) for place in places])
        lines = source_lines(self.lookup.old_text(path, revision) or b"")
        taken: dict[str, set[str]] = defaultdict(set)
        placed = 0
        for d in left:
            fresh = [
                (place, entry)
                for place, entry in holders[d.name]
                if d.name not in self.olds.names_then(place, revision, path)
            ]
            if len(fresh) != 1:
                continue
            place, entry = fresh[0]
            new = body_of(entry.chunk_id, self.lookup)
            old = make_body(path, "", d.name, lines[d.start - 1 : d.end])
            if new is None or similarity(old, new) < HOLLOW_BELOW:
                continue
            placed += 1
            taken[place].add(d.name)
        heirs.taken = {
            place: names
            for place, names in sorted(taken.items(), key=lambda item: -len(item[1]))
            if len(names) >= MIN_SHARE * placed
        }
        return heirs

    def of(self, cid: ChunkId, ref: GoldRef) -> Heirs:
        """The successors of `cid`'s file, by its other definitions: the ID's own is no
        evidence of where it went."""
        assert cid.symbol is not None and ref.revision is not None
        self.prepare([(cid.path, ref.revision)])
        found = self._heirs[(cid.path, ref.revision)]
        taken = {place: names - {cid.symbol} for place, names in found.taken.items()}
        return dataclasses.replace(
            found, taken={place: names for place, names in taken.items() if len(names) >= MIN_TAKEN}
        )

    def place(self, cid: ChunkId, ref: GoldRef, old: Body) -> Resolution | None:
        """Where the missing `cid` went in its old file's successors, if one place says."""
        assert cid.symbol is not None and ref.revision is not None
        heirs = self.of(cid, ref)
        if not heirs.taken:
            return None
        self.lookup.load(list(heirs.taken))
        entries = [
            (place, entry)
            for place in heirs.taken
            if (found := self.lookup.get(place)) is not None
            for entry in found.entries
            if entry.name is not None
        ]
        named = [e for _, e in entries if e.name == cid.symbol]
        if not named:
            return self._renamed_member(cid, ref.revision, old, heirs, entries)
        fresh = self.olds.newcomers([e.chunk_id for e in named], cid, ref.revision, old)
        if len(fresh) != 1 or len(named) != 1:
            return None  # in two successors, or one had it already: not one place
        entry = named[0]
        alike = kept(old, entry.chunk_id, self.lookup)
        # As in a file git paired it with, the name says where it went, even rewritten;
        # but a body too short to say what it was (an alias, a declaration) is then only
        # about as long as it was (`names`): a one-line alias is not the 300-line type
        # that took its name.
        told = old.size >= MIN_BODY_CHARS
        as_long = entry.about_as_long(cid.start, cid.end, NAME_LENGTH_FACTOR)
        if alike < HOLLOW_BELOW and not told and not as_long:
            return None
        # A body rewritten follows its name only into a file that took a fair share of the
        # old file, not into a rewrite of it that kept a few names (regex-syntax 0.7:
        # `literal/mod.rs` rewritten as `literal.rs`, 2 of its 83 definitions there).
        if alike < HOLLOW_BELOW and len(heirs.taken[entry.path]) < MIN_SHARE * heirs.left:
            return None
        place = entry.path
        why = f"same name in {place}, {self._took(cid.path, heirs, place)}, body {alike:.2f} alike"
        return resolved(cid, entry.chunk_id, "its file's successor defines it", why)

    def _renamed_member(
        self,
        cid: ChunkId,
        revision: str,
        old: Body,
        heirs: Heirs,
        entries: list[tuple[str, Entry]],
    ) -> Resolution | None:
        """A method renamed inside its type, the type now in a successor."""
        assert cid.symbol is not None
        owner = cid.symbol.rpartition(".")[0]
        if not owner:
            return None
        before = self.olds.names(cid.path, revision)
        # A name that keeps every word of the old one (`add_x` -> `add_unanchored_x`): a
        # body alike under another name is often another method taking over its work
        # (`buildOptions` -> a test's `setUp`).
        words = name_words(cid.symbol.rpartition(".")[2])
        members = [
            e.chunk_id
            for _, e in entries
            if e.name is not None
            and e.name.rpartition(".")[0] == owner
            and e.name not in before
            and words <= name_words(e.name.rpartition(".")[2])
        ]
        members = self.olds.newcomers(members, cid, revision, old)
        scored = sorted(
            ((similarity(old, body), c) for c in members if (body := body_of(c, self.lookup))),
            reverse=True,
        )
        # Another name: the body must be long enough to tell (`bodies.MIN_BODY_CHARS`).
        if old.size < MIN_BODY_CHARS or not scored or scored[0][0] < HOLLOW_BELOW:
            return None
        best = scored[0][0]
        close = [c for score, c in scored if best - score < BODY_MARGIN]
        if len(close) > 1:
            return None
        pick = close[0]
        place = pick.rsplit(":", 2)[0]
        alike = next(score for score, c in scored if c == pick)
        evidence = (
            f"`{owner}` moved to {place} ({self._took(cid.path, heirs, place)}), "
            f"a new member of it {alike:.2f} alike, its name keeping the old one's words"
        )
        return resolved(cid, pick, "its type moved to its file's successor", evidence)

    @staticmethod
    def _took(path: str, heirs: Heirs, place: str) -> str:
        what = f"definitions of {path}" if heirs.gone else f"definitions that left {path}"
        return f"which took {len(heirs.taken[place])} of {heirs.left} {what}"
