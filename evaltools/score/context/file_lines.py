"""The documents of a `.md`/spec-only example (our extension: upstream scores only `ep predict`
files, whose `prompt_inputs` hold the text). Such an example holds more of its files than the
cursor block: the old side of every expected hunk and the new side of every edit-history hunk
are lines of the same file at stated line numbers. Put together, they give the known lines of
each file as the cursor block shows it, and each run of consecutive known lines is a document
at its file rows, as `ep predict`'s cursor excerpt would be."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import NamedTuple

from evaltools.example.diffs.udiff import rust_lines
from evaltools.score.context.documents import Document, path_matches
from evaltools.score.patch_lines import (
    ADDITION,
    CONTEXT,
    DELETION,
    GARBAGE,
    PatchHunk,
    parse_patch_lines,
)

_OLD, _NEW = (CONTEXT, DELETION), (CONTEXT, ADDITION)


def _diff_lines(hunk: PatchHunk) -> list[tuple[str, str]]:
    """The hunk's lines as the applying parser reads them: an empty line is context, a
    `\\ No newline` line is no line, other garbage ends the hunk there."""
    out: list[tuple[str, str]] = []
    for kind, text in hunk.lines:
        if kind == GARBAGE:
            if text == "":
                out.append((CONTEXT, ""))
                continue
            if text.startswith("\\"):
                continue
            break
        out.append((kind, text))
    return out


class _Step(NamedTuple):
    """One edit-history hunk, placed in the file as it was just before it applied."""

    at: int  # 0-based row of its first old line
    lines: list[tuple[str, str]]

    def old_count(self) -> int:
        return sum(1 for kind, _ in self.lines if kind in _OLD)

    def new_count(self) -> int:
        return sum(1 for kind, _ in self.lines if kind in _NEW)

    def map_row(self, row: int) -> int | None:
        """Where a row of the file before this hunk is after it (None: the hunk deleted it)."""
        if row < self.at:
            return row
        if row >= self.at + self.old_count():
            return row + self.new_count() - self.old_count()
        old, new = self.at, self.at
        for kind, _ in self.lines:
            if kind == CONTEXT:
                if old == row:
                    return new
                old, new = old + 1, new + 1
            elif kind == DELETION:
                if old == row:
                    return None
                old += 1
            else:
                new += 1
        return None


# Candidate places for a block of lines come from where its rarest known lines are known.
_ANCHORS = 3


class _Known:
    """Known lines of one file, by 0-based row. What is known first wins: a later block that
    disagrees with it adds nothing. A block goes where its rows say, unless more of its
    non-blank lines agree at other rows, with none against them, and either at least `need`
    of them or every run of known lines it meets whole: the examples people write sometimes
    number a hunk by another state of the file, and the file holds those lines once."""

    def __init__(self) -> None:
        self.rows: dict[int, str] = {}
        self.where: dict[str, list[int]] = {}

    def _agreeing(self, placed: list[tuple[int, str]], shift: int) -> int | None:
        """How many non-blank lines agree at `shift`; None if any line disagrees."""
        count = 0
        for row, text in placed:
            have = self.rows.get(row + shift)
            if have is None:
                continue
            if have != text:
                return None
            count += bool(text.strip())
        return count

    def shift(self, placed: list[tuple[int, str]], *, stated: bool, need: int) -> int | None:
        """What to add to the rows of `placed`: 0 where they are consistent unless lines
        agree better elsewhere; None when the block fits nowhere."""
        best: tuple[int, int] | None = None  # (agreeing, shift)
        at_stated = self._agreeing(placed, 0) if stated else None
        if at_stated is not None:
            best = (at_stated, 0)
        solid = [(row, text) for row, text in placed if text.strip() and text in self.where]
        solid.sort(key=lambda item: len(self.where[item[1]]))
        lowest = min(row for row, _ in placed)
        shifts = {known - row for row, text in solid[:_ANCHORS] for known in self.where[text]}
        shifts = {shift for shift in shifts if lowest + shift >= 0}
        highest = max(row for row, _ in placed)
        for shift in sorted(shifts, key=lambda s: (abs(s), s)):
            count = self._agreeing(placed, shift)
            if not count or (best is not None and count <= best[0]):
                continue
            if count >= need or self._holds_whole_runs(lowest + shift, highest + shift):
                best = (count, shift)
        return None if best is None else best[1]

    def _holds_whole_runs(self, low: int, high: int) -> bool:
        """No run of known lines crosses the rows' edges: the block holds every run it meets
        whole (a short hunk numbered by another state of the file)."""
        inside, above, below = self.rows.keys(), low - 1, high + 1
        return not (above in inside and low in inside) and not (high in inside and below in inside)

    def add(
        self, placed: list[tuple[int, str]], *, stated: bool = True, need: int = 0
    ) -> int | None:
        """Adds the block where `shift` puts it; returns that shift, None if nowhere."""
        if not placed:
            return None
        solid = sum(1 for _, text in placed if text.strip())
        shift = self.shift(placed, stated=stated, need=need or max(1, (solid + 1) // 2))
        if shift is None:
            return None
        for row, text in placed:
            if row + shift not in self.rows:
                self.rows[row + shift] = text
                self.where.setdefault(text, []).append(row + shift)
        return shift

    def runs(self) -> Iterator[tuple[int, list[str]]]:
        start, run = -1, list[str]()
        for row in sorted(self.rows):
            if run and row != start + len(run):
                yield start, run
                run = []
            if not run:
                start = row
            run.append(self.rows[row])
        if run:
            yield start, run


def _file_key(filename: str, cursor_path: str) -> str:
    return cursor_path if path_matches(filename, cursor_path) else filename


def _expected_lines(patches: Iterable[str], cursor_path: str, files: dict[str, _Known]) -> None:
    for patch in patches:
        for hunk in parse_patch_lines(patch):
            old = [text for kind, text in _diff_lines(hunk) if kind in _OLD]
            if hunk.old_start < 1 or not old:
                continue
            known = files.setdefault(_file_key(hunk.filename, cursor_path), _Known())
            known.add([(hunk.old_start - 1 + i, text) for i, text in enumerate(old)])


def _sections(history: str) -> Iterator[str]:
    """The edit history's diffs, one per `---`/`+++` header pair, in the order they applied."""
    lines = rust_lines(history)
    chunk: list[str] = []
    for i, line in enumerate(lines):
        header = line.startswith("--- ") and i + 1 < len(lines) and lines[i + 1].startswith("+++")
        if header and chunk:
            yield "".join(x + "\n" for x in chunk)
            chunk = []
        chunk.append(line)
    if chunk:
        yield "".join(x + "\n" for x in chunk)


def _history_steps(history: str, cursor_path: str) -> dict[str, list[_Step]]:
    """Each file's edit-history hunks in the order they applied. A hunk's old start is in
    the file before its diff; the diff's earlier hunks had moved it by their line delta."""
    steps: dict[str, list[_Step]] = {}
    for section in _sections(history):
        delta: dict[str, int] = {}
        for hunk in parse_patch_lines(section):
            key = _file_key(hunk.filename, cursor_path)
            lines = _diff_lines(hunk)
            if hunk.old_start < 1 and not any(kind in _OLD for kind, _ in lines):
                at = max(hunk.new_start - 1, 0)
            else:
                at = max(hunk.old_start - 1, 0) + delta.get(key, 0)
            step = _Step(at, lines)
            steps.setdefault(key, []).append(step)
            delta[key] = delta.get(key, 0) + step.new_count() - step.old_count()
    return steps


def _history_lines(history: str, cursor_path: str, files: dict[str, _Known]) -> None:
    # The latest hunk first: its rows are those of the cursor block's state as written, an
    # earlier one's are carried there through every later hunk's numbers.
    for key, steps in _history_steps(history, cursor_path).items():
        for i, step in reversed(list(enumerate(steps))):
            placed: list[tuple[int, str]] = []
            row = step.at
            for kind, text in step.lines:
                if kind not in _NEW:
                    continue
                final: int | None = row
                for later in steps[i + 1 :]:
                    final = None if final is None else later.map_row(final)
                if final is not None:
                    placed.append((final, text))
                row += 1
            files.setdefault(key, _Known()).add(placed)


class FileLines(NamedTuple):
    documents: tuple[Document, ...]
    base: Document  # the document holding the cursor block


def file_documents(
    cursor_path: str,
    excerpt: str,
    expected_patches: Iterable[str],
    edit_history: str,
    fallback_start: int,
) -> FileLines:
    """Every run of known lines as a document, file by file (the cursor file first), rows
    ascending. The cursor block joins the cursor file's lines where it agrees with them;
    one that meets none is a document of its own at `fallback_start`."""
    files: dict[str, _Known] = {cursor_path: _Known()}
    _expected_lines(expected_patches, cursor_path, files)
    _history_lines(edit_history, cursor_path, files)
    lines = rust_lines(excerpt)
    # The cursor block has no row of its own: it goes where it meets a known line.
    start = files[cursor_path].add(list(enumerate(lines)), stated=False, need=1)
    documents: list[Document] = []
    base: Document | None = None
    if start is None:
        base = Document(cursor_path, fallback_start, fallback_start + len(lines), excerpt)
        documents.append(base)
    for path, known in files.items():
        for first, run in known.runs():
            document = Document(path, first, first + len(run), "".join(t + "\n" for t in run))
            documents.append(document)
            if path == cursor_path and start is not None and first <= start < document.end_row:
                base = document
    if base is None:  # an empty cursor block
        base = Document(cursor_path, fallback_start, fallback_start, excerpt)
    return FileLines(tuple(documents), base)
