"""A same-name match in the file git paired a gone file with, doubted when the evidence is
split: git pairs each deleted file with one new file, best pairs first. When the old file
had a near twin at the revision (a generated copy: `deno/lib/` of `src/`), the twin's
rename takes the new file most like both, and the old file is paired with what is left (a
port that kept half of it). The name found there is not the ID's home for sure if another
new file holds the same name, with a body at least as alike, and at least as much of the
old file (more of it, when the path paired them where git did not): both are candidates,
and a person chooses (`ambiguous`, never rewritten).

Only an ID whose file git paired with different contents is weighed: a pure rename is not
split evidence, and costs one comparison of bytes already read.
"""

from __future__ import annotations

from collections import Counter

from evaltools.retrieval.code.chunk_id import ChunkId, parse_chunk_id
from evaltools.retrieval.code.symbols import grammar_of
from evaltools.retrieval.gold.reanchor.history.bodies import Body, similarity, source_lines
from evaltools.retrieval.gold.reanchor.history.old_defs import OldDefinitions, body_of
from evaltools.retrieval.gold.reanchor.lookup import Lookup
from evaltools.retrieval.gold.reanchor.plain.file_renames import paired_by_path
from evaltools.retrieval.gold.reanchor.resolve import MAX_CANDIDATES, GoldRef, Resolution, Status
from evaltools.retrieval.gold.reanchor.scope import is_test_path

# Past this many new files of the ID's language, the refactor rewrote the tree: they are
# not weighed one by one (git's pairing stands, as it did before this rule).
MAX_NEW_FILES = 5_000


class Partners:
    """The files new since a revision, and how much of an old file each holds, computed
    once a run and only for IDs a rename with edits resolved."""

    def __init__(self, lookup: Lookup, olds: OldDefinitions) -> None:
        self.lookup, self.olds = lookup, olds
        self._new: dict[tuple[str | None, bool, str], list[str]] = {}
        self._lines: dict[tuple[str, str | None], Counter[str]] = {}

    def doubt(
        self, cid: ChunkId, ref: GoldRef, old: Body, result: Resolution, *, by_git: bool = False
    ) -> Resolution:
        """`result` (a same-name match in a renamed file), or `ambiguous` between it and the
        namesakes in better partners of the old file; `by_git`: git paired the files (a
        rename or a copy), which the caller knows."""
        if result.status is not Status.RENAMED_FILE or result.new_chunk_id is None:
            return result
        assert cid.symbol is not None
        revision, paired = ref.revision, parse_chunk_id(result.new_chunk_id).path
        before = self.lookup.old_text(cid.path, revision)
        after = self.lookup.text(paired)
        if revision is None or before is None or after is None or before == after:
            return result
        new = body_of(result.new_chunk_id, self.lookup)
        kept = similarity(old, new) if new is not None else 0.0
        needle = cid.symbol.rpartition(".")[2].encode("utf-8")
        holders = [
            path
            for path in self.new_files(cid.path, revision)
            if path != paired and needle in (self.lookup.text(path) or b"")
        ]
        if not holders:
            return result
        # A file git did not pair was paired by its path (another extension or folder):
        # evidence of its own, which a file holding only as much of the old one leaves.
        by_git = (
            by_git
            or not paired_by_path(cid.path, paired)
            or paired in self.lookup.renamed(cid.path, revision)
        )
        rivals = self._rivals(cid, revision, old, paired, holders, by_git=by_git, kept=kept)
        if not rivals:
            return result
        pairs, share_word = ("git pairs", "as much") if by_git else ("paired", "more")
        return Resolution(
            Status.AMBIGUOUS,
            candidates=(result.new_chunk_id, *rivals[: MAX_CANDIDATES - 1]),
            detail=f"{pairs} {cid.path} with {paired}, but {parse_chunk_id(rivals[0]).path} "
            f"holds {share_word} of it and a `{cid.symbol}` as alike: the evidence is split",
            caveat=result.caveat,
        )

    def new_files(self, path: str, revision: str) -> list[str]:
        """The files of `path`'s language and kind (tests or not) that were not at the
        revision, read in one batch."""
        key = (grammar_of(path), is_test_path(path), revision)
        if key not in self._new:
            before = set(self.lookup.old_paths(path, revision))
            found = [
                p
                for p in self.lookup.paths()
                if (grammar_of(p), is_test_path(p)) == key[:2] and p not in before
            ]
            if not before or len(found) > MAX_NEW_FILES:
                found = []  # no listing of the revision, or a tree rewritten
            self.lookup.read_ahead(found, ())
            self._new[key] = found
        return self._new[key]

    def _rivals(
        self,
        cid: ChunkId,
        revision: str,
        old: Body,
        paired: str,
        holders: list[str],
        *,
        by_git: bool,
        kept: float,
    ) -> list[str]:
        """The ID's namesakes, new since the revision and at least as alike (`kept`), in
        the files (`holders`) that hold more of the old file than `paired` (or as much,
        when git paired it)."""
        share = self.share(cid.path, revision, paired)
        better = [
            path
            for path in holders
            if (rival := self.share(cid.path, revision, path)) > share
            or (by_git and rival == share)
        ]
        self.lookup.load(better)
        named = [
            entry.chunk_id
            for path in better
            if (found := self.lookup.get(path)) is not None
            for entry in found.entries
            if entry.name == cid.symbol
        ]
        return [
            chunk_id
            for chunk_id in self.olds.newcomers(named, cid, revision, old)
            if (body := body_of(chunk_id, self.lookup)) is not None
            and similarity(old, body) >= kept
        ]

    def share(self, old_path: str, revision: str, path: str) -> float:
        """How much of the old file `path` holds, as git scores a rename: the bytes of the
        lines they have in common over the larger file's."""
        before = self.lines(old_path, revision)
        after = self.lines(path, None)
        common = before & after
        size = max(_size(before), _size(after))
        return _size(common) / size if size else 0.0

    def lines(self, path: str, revision: str | None) -> Counter[str]:
        key = (path, revision)
        if key not in self._lines:
            data = (
                self.lookup.text(path) if revision is None else self.lookup.old_text(path, revision)
            )
            stripped = (line.strip() for line in source_lines(data or b""))
            self._lines[key] = Counter(line for line in stripped if line)
        return self._lines[key]


def _size(lines: Counter[str]) -> int:
    return sum((len(line) + 1) * count for line, count in lines.items())
