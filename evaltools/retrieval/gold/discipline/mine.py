"""Weak-label candidates from git history: the commit subject as query, changed code as gold.

High volume, high noise: every candidate is a draft for a person to review, never a gold
record as it stands. Subjects that are not queries are dropped with their reason counted.
"""

from __future__ import annotations

import functools
import re
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from evaltools.retrieval.code.chunk_id import ChunkId
from evaltools.retrieval.code.outline import Outline
from evaltools.retrieval.code.spans import DefinitionLike, Span
from evaltools.retrieval.records.strata import type_key, unit_hash
from evaltools.retrieval.sources.git import BlobReader, shallow_edge
from evaltools.retrieval.sources.git_history import (
    FileChange,
    RawCommit,
    file_changes,
    iter_commits,
    older_text,
)

SOURCE = "git_weak"
STATUS = "draft"
# A weak label never claims "exactly what was asked for" (3): review decides that.
DEFINITION_GRADE = 2
WHOLE_FILE_GRADE = 1

# Each dropped commit is counted under the first reason that applies, in this order.
DROP_REASONS = (
    "merge_commit",
    "empty_subject",
    "merge_subject",
    "release",
    "version_bump",
    "typo",
    "too_short",
    "no_gold",
)
MIN_WORDS = 3

_PREFIX = re.compile(r"^[A-Za-z]+(?:\([^)]*\))?!?:\s*")  # conventional commits: `fix(auth): `
# What git and forges write for merges (a squash or rebase can keep it on a plain commit).
_MERGE = re.compile(
    r"^Merge (?:(?:remote-tracking )?branch(?:es)?|pull request|tag|commit|changes|"
    r"[0-9a-f]{7,40}\b|['\"])|^Merged? ['\"]?[\w./-]+['\"]? into [\w./-]+$",
    re.IGNORECASE,
)
_RELEASE = re.compile(
    r"^(?:(?:prepare|cut|tag)\s+)?(?:release|version|tag)?\s*:?\s*"
    r"v?\d+(?:\.\d+)+(?:[-+.]?[0-9A-Za-z.]+)?$",
    re.IGNORECASE,
)
_BUMP = re.compile(
    r"\bbump(?:s|ed|ing)?\b.*(?:\bversions?\b|\bfrom\b.+\bto\b|\bto\s+v?\d+\.\d|"
    r"\bdep(?:endencie)?s\b)|\bversion bump\b|^(?:update|set|increase)\s+version\b",
    re.IGNORECASE,
)
_TYPO = re.compile(r"\b(?:typos?|misspell\w*|spelling)\b", re.IGNORECASE)

_EDGE_PUNCT = "\"'([{<>}]).,;:!?"
_CAMEL = re.compile(r"[a-z][A-Z][a-z0-9]")
_SNAKE = re.compile(r"[A-Za-z0-9]_[A-Za-z0-9]|^_+[A-Za-z]")
_DOTTED = re.compile(r"^[A-Za-z_]\w+(?:\.[A-Za-z_]\w+)+$|::|->")
_CALL = re.compile(r"^[A-Za-z_][\w.]*\(\)$")


def strip_prefix(subject: str) -> str:
    """The subject without a conventional-commit type (`feat(auth): `)."""
    return _PREFIX.sub("", subject, count=1)


def drop_reason(subject: str) -> str | None:
    """Why a subject is not a plausible search query, or None when it may be one."""
    if not subject.strip():
        return "empty_subject"
    if _MERGE.search(subject):
        return "merge_subject"
    bare = strip_prefix(subject).strip()
    if _RELEASE.match(bare) or _RELEASE.match(subject.strip()):
        return "release"
    if _BUMP.search(subject):
        return "version_bump"
    if _TYPO.search(subject):
        return "typo"
    if len(bare.split()) < MIN_WORDS:
        return "too_short"
    return None


def is_identifier(token: str) -> bool:
    """A token that names code: `snake_case`, `camelCase`, `a.b`, `A::b`, `f()`, or `quoted`."""
    if len(token) > 2 and token[0] == token[-1] == "`":
        return True
    word = token.strip(_EDGE_PUNCT)
    if not word or " " in word:
        return False
    return bool(
        _SNAKE.search(word) or _CAMEL.search(word) or _DOTTED.search(word) or _CALL.match(word)
    )


def guess_type(subject: str) -> str:
    """identifier if the subject is one identifier, mixed if it holds one, else intent."""
    tokens = strip_prefix(subject).split()
    if len(tokens) == 1 and is_identifier(tokens[0]):
        return "identifier"
    if any(is_identifier(token) for token in tokens):
        return "mixed"
    return "intent"


FindDefinitions = Callable[[str, bytes], Sequence[DefinitionLike]]


def mined_record(commit: RawCommit, gold: dict[str, int]) -> dict[str, Any]:
    """The draft record of a commit: a plain record like those the other gold discipline
    commands write (`discipline_io.dump_jsonl`), in the field order a person reviews."""
    return {
        "qid": f"git-{commit.sha[:12]}",
        "query": commit.subject,
        "type": guess_type(commit.subject),
        "gold": gold,
        "source": SOURCE,
        "status": STATUS,
        "revision": commit.sha,
    }


@dataclass
class MineResult:
    candidates: list[dict[str, Any]] = field(default_factory=list)  # `mined_record`s
    dropped: Counter[str] = field(default_factory=Counter)
    commits: int = 0
    # files whose definitions could not be read (fell back to a whole-file ID)
    unparsed_files: int = 0
    # commits at a shallow clone's edge, not mined (nor counted in `commits`)
    shallow_skipped: int = 0


def mine(
    repo: Path,
    *,
    since: str | None = None,
    rev_range: str | None = None,
    path_prefix: str = "",
    find_definitions: FindDefinitions | None = None,
    incremental: bool = True,
    on_commit: Callable[[int], None] | None = None,
) -> MineResult:
    """One candidate per non-merge commit whose subject may be a query and that has gold.

    Commits at a shallow clone's edge are skipped and counted in `shallow_skipped`.
    ``incremental=False`` reads and parses every touched file at every commit, as the
    reference that the derived outlines (see outline.py) must agree with. `on_commit` hears
    the count of commits read so far (for a progress line).
    """
    result = MineResult()
    edge = shallow_edge(repo) if repo.is_dir() else frozenset()
    with BlobReader(repo) as blobs:
        finder = find_definitions or _default_finder()
        gold_of = _CommitGold(blobs, finder, result, incremental=incremental)
        for commit in iter_commits(repo, since, rev_range):
            if commit.sha in edge:
                # Shown without its parents, its diff adds every file: all of it, not the change.
                result.shallow_skipped += 1
                continue
            result.commits += 1
            if on_commit is not None:
                on_commit(result.commits)
            reason = "merge_commit" if len(commit.parents) > 1 else drop_reason(commit.subject)
            if reason is not None:
                result.dropped[reason] += 1
                gold_of.carry(commit)
                continue
            gold = gold_of(commit)
            if not gold:
                result.dropped["no_gold"] += 1
                continue
            ordered = sorted(gold, key=lambda c: (c.path, c.start, c.end, c.symbol or ""))
            ids = {str(c.with_path(path_prefix + c.path)): gold[c] for c in ordered}
            result.candidates.append(mined_record(commit, ids))
    return result


def _default_finder() -> FindDefinitions:
    from evaltools.retrieval.code import symbols

    def find(path: str, source: bytes) -> Sequence[DefinitionLike]:
        return symbols.find_definitions(path, source) if symbols.is_supported(path) else []

    return find


def _key(blob: str | None, path: str) -> tuple[str, str] | None:
    """Outlines wait under (blob id, extension): the same content parses alike."""
    return (blob, path.rpartition(".")[2]) if blob else None


def _derivable(path: str) -> bool:
    """Languages whose definitions carry over through unchanged lines (see outline.py)."""
    return path.endswith((".py", ".pyi"))


class _CommitGold:
    """The gold of each commit, in git log order (newest first).

    Outlines derived from a newer version wait under the older blob's id until the commit
    that made that blob comes up; only what they cannot answer is read and parsed.
    """

    def __init__(
        self, blobs: BlobReader, find: FindDefinitions, result: MineResult, *, incremental: bool
    ) -> None:
        self.blobs = blobs
        self.find = find
        self.result = result
        self.incremental = incremental
        self.derived: dict[tuple[str, str], Outline] = {}

    def __call__(self, commit: RawCommit) -> dict[ChunkId, int]:
        """The definitions the commit changed; whole files only if it changed no definition.

        Per commit, not per file: when the commit touched definitions, the files it changed
        without touching one (a changelog, a version file, an import line) are left out
        rather than added as whole files, which would put the same noise into most
        candidates.
        """
        definitions: dict[ChunkId, int] = {}
        untouched: list[tuple[FileChange, Outline]] = []
        for change in file_changes(commit.diff) or []:
            outline, touched = self._touched(commit, change)
            if outline is None:
                continue
            for span in touched:
                chunk = ChunkId(change.path, span.start, span.end, span.name)
                definitions[chunk] = DEFINITION_GRADE
            if not touched:
                untouched.append((change, outline))
        if definitions:
            return definitions
        whole_files: dict[ChunkId, int] = {}
        for change, outline in untouched:
            line_count = outline.line_count
            if line_count is None:
                content = self._read(commit, change)
                line_count = Outline.parsed([], content or b"").line_count
            if line_count:
                whole_files[ChunkId(change.path, 1, line_count)] = WHOLE_FILE_GRADE
        return whole_files

    def carry(self, commit: RawCommit) -> None:
        """Pass outlines through a commit that yields no candidate, so the chain holds."""
        if len(commit.parents) > 1:
            return
        for change in file_changes(commit.diff) or []:
            key = _key(change.blob, change.path)
            outline = self.derived.pop(key, None) if key else None
            if outline is not None:
                self._derive(outline, change)

    def _touched(self, commit: RawCommit, change: FileChange) -> tuple[Outline | None, list[Span]]:
        key = _key(change.blob, change.path)
        outline = self.derived.pop(key, None) if key else None
        touched = outline.touched(change.hunks) if outline is not None else None
        if outline is None or touched is None:
            parse = functools.partial(self._definitions, change.path)
            if outline is not None and outline.text is not None:
                outline = outline.repaired(parse, change.hunks)
            else:
                content = self._read(commit, change)
                if content is None:
                    return None, []
                if outline is None:
                    derivable = _derivable(change.path)
                    outline = Outline.parsed(parse(content), content, derivable=derivable)
                else:
                    outline = outline.repaired(parse, change.hunks, content)
            touched = outline.touched(change.hunks) or []
        if _derivable(change.path):
            self._derive(outline, change)
        return outline, touched

    def _derive(self, outline: Outline, change: FileChange) -> None:
        older = _key(change.old_blob, change.path)
        if older is None or not self.incremental:
            return
        text = None if outline.text is None else older_text(outline.text, change)
        self.derived[older] = outline.derive(change.hunks, text)

    def _read(self, commit: RawCommit, change: FileChange) -> bytes | None:
        return self.blobs.read(change.blob or f"{commit.sha}:{change.path}")

    def _definitions(self, path: str, content: bytes) -> list[DefinitionLike]:
        try:
            return list(self.find(path, content))
        except (ValueError, RecursionError, MemoryError):
            self.result.unparsed_files += 1
            return []


def review_sample(
    candidates: Sequence[dict[str, Any]], per_type: int, seed: int
) -> list[dict[str, Any]]:
    """At most `per_type` candidates of each guessed type, chosen by a hash of the commit;
    kept in the candidates' order. The same repository and seed give the same sample."""
    chosen: set[str] = set()
    by_type: dict[str, list[dict[str, Any]]] = {}
    for candidate in candidates:
        by_type.setdefault(candidate["type"], []).append(candidate)
    for type_name in sorted(by_type, key=type_key):
        ranked = sorted(by_type[type_name], key=lambda c: unit_hash(str(seed), c["revision"]))
        chosen.update(c["revision"] for c in ranked[:per_type])
    return [c for c in candidates if c["revision"] in chosen]
