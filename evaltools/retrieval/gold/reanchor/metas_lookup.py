"""Where gold IDs are resolved when the set is checked against an index's chunk list
(metas) instead of a code tree: names and git's renames only, no bodies."""

from __future__ import annotations

from collections.abc import Collection
from typing import TYPE_CHECKING

from evaltools.retrieval.gold.reanchor.lookup import Entry, FileEntries
from evaltools.retrieval.sources.metas import MetasIndex
from evaltools.retrieval.sources.source import CodeTree

if TYPE_CHECKING:
    from evaltools.retrieval.gold.reanchor.history.bodies import BodySearch


class MetasLookup:
    """Chunks of the index; git rename evidence from the code tree when there is one."""

    def __init__(self, index: MetasIndex, tree: CodeTree | None) -> None:
        self.index = index
        self.tree = tree
        self._cache: dict[str, FileEntries | None] = {}

    def known(self, chunk_id: str) -> bool:
        return chunk_id in self.index.ids

    def absent(self, path: str) -> str:
        # The file may well exist: the index is what was asked, and it has none of it.
        held = self.tree is not None and self.tree.mount(path) is not None
        renames = " and git records no rename of it" if held else ""
        return f"the index has no chunk of {path}{renames}"

    def load(self, paths: Collection[str]) -> None:
        return None

    def get(self, path: str) -> FileEntries | None:
        if path not in self._cache:
            chunks = self.index.chunks(path)
            self._cache[path] = (
                None
                if chunks is None
                else FileEntries(
                    tuple(
                        Entry(c.symbol, c.start, c.end, c.chunk_id)
                        for c in chunks
                        if c.start is not None and c.end is not None
                    ),
                    None,
                )
            )
        return self._cache[path]

    def renamed(self, path: str, since: str | None) -> list[str]:
        if self.tree is None:
            return []
        return [p for p in self.tree.renamed(path, since) if self.index.chunks(p) is not None]

    def history_gap(self, path: str, since: str | None) -> str | None:
        return None if self.tree is None else self.tree.history_gap(path, since)

    def moved_to(self, path: str, since: str | None) -> list[str]:
        return self.renamed(path, since)

    def renamed_from(self, path: str, since: str, *, copies: bool = True) -> list[str]:
        return []

    def pair(self, path: str, since: str, new: str) -> None:
        return None  # no listing of the revision: nothing is paired beyond git (`old_paths`)

    def paired(self, path: str, since: str | None) -> list[str]:
        return []

    def old_paths(self, path: str, since: str) -> list[str]:
        return []

    def old_text(self, path: str, since: str | None) -> bytes | None:
        return None  # the index's chunks hold no code: bodies are not compared

    def text(self, path: str) -> bytes | None:
        return None

    def bodies(self) -> BodySearch | None:
        return None

    def read_ahead(self, paths: Collection[str], old: Collection[tuple[str, str]]) -> None:
        return None

    def save(self) -> None:
        return None

    def paths(self) -> list[str]:
        return sorted(self.index.by_path)

    def holding(self, leaves: Collection[str]) -> list[tuple[str, Entry]]:
        found: list[tuple[str, Entry]] = []
        for path in self.paths():
            entries = self.get(path)
            if entries is not None:
                found.extend((path, e) for e in entries.entries if e.leaf in leaves)
        return found
