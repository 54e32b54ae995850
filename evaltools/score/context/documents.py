"""Context documents (reference section 2, steps 4 and 7): the texts a patch is scored on
since the 2026-06-24 rewrite, and how each hunk of a patch finds its document."""

from __future__ import annotations

from typing import NamedTuple

from evaltools.score.apply import try_apply
from evaltools.score.patch_lines import ADDITION, CONTEXT, DELETION, PatchHunk, parse_patch_lines


class Document(NamedTuple):
    path: str
    start_row: int  # 0-based file row of the first line
    end_row: int  # exclusive
    content: str


def strip_first_component(path: str) -> str | None:
    """`project/src/a.rs` gives `src/a.rs`; None when nothing follows the first `/`."""
    _, sep, rest = path.partition("/")
    return rest if sep and rest else None


def path_matches(patch_path: str, document_path: str) -> bool:
    # Only the patch's path loses its first component: predictions may name the project.
    return patch_path == document_path or strip_first_component(patch_path) == document_path


def _adjust(start: int, document: Document) -> int:
    if start < 1:
        return start
    if document.start_row <= start - 1 <= document.end_row:
        return start - document.start_row
    return start


def document_diff(document: Document, hunks: list[PatchHunk]) -> str:
    """One diff for `document`, its hunks' starts made relative to its first row; garbage
    lines are written back as they were (the applying parser then ends the file there)."""
    out = [f"--- a/{document.path}\n+++ b/{document.path}\n"]
    for hunk in hunks:
        old = sum(1 for kind, _ in hunk.lines if kind in (CONTEXT, DELETION))
        new = sum(1 for kind, _ in hunk.lines if kind in (CONTEXT, ADDITION))
        old_start, new_start = _adjust(hunk.old_start, document), _adjust(hunk.new_start, document)
        out.append(f"@@ -{old_start},{old} +{new_start},{new} @@\n")
        out.extend(f"{kind}{text}\n" for kind, text in hunk.lines)
    return "".join(out)


class Applied(NamedTuple):
    texts: dict[int, str]  # document index: patched text
    dropped: int  # hunks with a change that fit no document, or whose document failed


def _home(hunk: PatchHunk, documents: tuple[Document, ...]) -> tuple[int, str] | None:
    """The first document with the hunk's path that the hunk applies to, and the result."""
    for i, doc in enumerate(documents):
        if path_matches(hunk.filename, doc.path):
            text = try_apply(document_diff(doc, [hunk]), doc.content)
            if text is not None:
                return i, text
    return None


def apply_to_documents(patch: str | list[PatchHunk], documents: tuple[Document, ...]) -> Applied:
    by_document: dict[int, list[PatchHunk]] = {}
    alone: dict[int, str] = {}  # a document's text when one hunk went to it
    dropped = 0
    for hunk in parse_patch_lines(patch) if isinstance(patch, str) else patch:
        if not hunk.has_change:
            continue
        home = _home(hunk, documents)
        if home is None:
            dropped += 1
        else:
            by_document.setdefault(home[0], []).append(hunk)
            alone[home[0]] = home[1]
    texts: dict[int, str] = {}
    for index in sorted(by_document):
        hunks = by_document[index]
        doc = documents[index]
        text = (
            alone[index] if len(hunks) == 1 else try_apply(document_diff(doc, hunks), doc.content)
        )
        if text is None:
            dropped += len(hunks)
        else:
            texts[index] = text
    return Applied(texts, dropped)
