"""What one example's predictions share while they are scored: patches parsed and applied to
the documents, n-gram deltas, token changes, brace counts, kept-rate units, the reversal's
history, patch locations and the editable-context coverage. Made once per example."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import NamedTuple

from evaltools.score.context.documents import Applied, Document, apply_to_documents, path_matches
from evaltools.score.metrics.chrf import ChrFCache, braces_disbalance
from evaltools.score.metrics.jumps import LineFile, Locations, editable_context_coverage, locations
from evaltools.score.metrics.kept_rate import Memo
from evaltools.score.metrics.reversal import ReversalMemo
from evaltools.score.metrics.tokens import TokenChanges, count_patch_token_changes
from evaltools.score.patch_lines import PatchHunk, changed_lines, parse_patch_lines


class Joined(NamedTuple):
    """One patch's texts of the documents a scoring touches, as upstream joins them."""

    text: str  # the documents' texts joined with "\n"
    braces: int  # the sum of each text's brace imbalance
    target: str | None  # the last touched document that is the cursor file, its text


class Cache:
    """What one example's predictions share: patches applied to the documents (each expected
    patch, and a prediction against every expected patch), and the parts of delta chrF that
    repeat. Made once per example."""

    def __init__(self) -> None:
        self.chrf = ChrFCache()
        self.applied: dict[str, Applied] = {}
        self.lines: dict[str, Counter[str]] = {}
        self.hunks: dict[str, list[PatchHunk]] = {}
        self.tokens: dict[str, TokenChanges] = {}
        self.kept = Memo()
        self.brace_counts: dict[str, int] = {}
        self.located: dict[str, Locations] = {}
        self.covered: LineFile | None = None
        self.reversal = ReversalMemo()
        self.joins: dict[tuple[str | None, tuple[int, ...]], Joined] = {}

    def parsed(self, patch: str) -> list[PatchHunk]:
        found = self.hunks.get(patch)
        if found is None:
            found = self.hunks[patch] = parse_patch_lines(patch)
        return found

    def on_documents(self, patch: str, documents: tuple[Document, ...]) -> Applied:
        found = self.applied.get(patch)
        if found is None:
            found = self.applied[patch] = apply_to_documents(self.parsed(patch), documents)
        return found

    def joined(
        self,
        patch: str | None,
        touched: tuple[int, ...],
        documents: tuple[Document, ...],
        cursor_path: str,
    ) -> Joined:
        """`patch` applied (None: the documents as they are) over the `touched` documents;
        the same pair repeats for every expected patch a prediction is scored against."""
        key = (patch, touched)
        found = self.joins.get(key)
        if found is None:
            patched = {} if patch is None else self.on_documents(patch, documents).texts
            texts = [patched.get(i, documents[i].content) for i in touched]
            target = None
            for i, text in zip(touched, texts, strict=True):
                if path_matches(cursor_path, documents[i].path):
                    target = text
            braces = sum(map(self.braces, texts))
            found = self.joins[key] = Joined("\n".join(texts), braces, target)
        return found

    def locations(self, patch: str) -> Locations:
        found = self.located.get(patch)
        if found is None:
            found = self.located[patch] = locations(self.parsed(patch))
        return found

    def coverage(self, patches: Iterable[str], documents: tuple[Document, ...]) -> LineFile:
        """The expected patches' best by line F1, then file F1 (the last of equal ones): the
        same for every prediction of the example."""
        if self.covered is None:
            for patch in patches:
                found = editable_context_coverage(self.locations(patch), documents)
                if self.covered is None or (found.lines_f1, found.files_f1) >= (
                    self.covered.lines_f1,
                    self.covered.files_f1,
                ):
                    self.covered = found
        assert self.covered is not None
        return self.covered

    def braces(self, text: str) -> int:
        found = self.brace_counts.get(text)
        if found is None:
            found = self.brace_counts[text] = braces_disbalance(text)
        return found

    def token_changes(self, patch: str) -> TokenChanges:
        found = self.tokens.get(patch)
        if found is None:
            found = self.tokens[patch] = count_patch_token_changes(patch)
        return found

    def changed_lines(self, patch: str) -> Counter[str]:
        found = self.lines.get(patch)
        if found is None:
            found = self.lines[patch] = changed_lines(patch)
        return found
