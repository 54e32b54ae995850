"""Code actions and hover of `evaltools server`: the fixes `check --fix` and `roundtrip --fix`
make, offered one at a time, and the rule documentation `evaltools rule CODE` prints."""

from __future__ import annotations

import re
from collections.abc import Callable

from lsprotocol import types as t
from pygls.workspace import TextDocument

from evaltools.diagnostics import Diagnostic
from evaltools.server import analysis
from evaltools.server.lines import DocumentLines

# A JSON string that reads as a chunk ID (`path:start-end[:symbol]`).
CHUNK_ID = re.compile(r'"([^"\\\s:]+(?:/[^"\\\s:]+)*:\d+-\d+(?::[^"\\]*)?)"')


def code_actions(
    doc: TextDocument,
    params: t.CodeActionParams,
    gold: analysis.Gold | None,
    canonical_edit: Callable[[TextDocument], t.TextEdit | None],
) -> list[t.CodeAction]:
    actions: list[t.CodeAction] = []
    lines = document_lines(doc)
    asked = params.context.diagnostics
    for diagnostic in asked:
        fix = diagnostic.data.get("fix") if isinstance(diagnostic.data, dict) else None
        if isinstance(fix, dict):
            action = _suggestion(doc, lines, diagnostic, fix)
            if action is not None:
                actions.append(action)
    if gold is not None and gold.check is not None:
        first, last = params.range.start.line, params.range.end.line
        for item in gold.check.items:
            result = item.result
            if result is None or not result.status.repairable or not result.new_chunk_id:
                continue
            span = lines.line_span(lines.offset(item.line.line, 1))
            old, new = f'"{item.ref.chunk_id}"', f'"{result.new_chunk_id}"'
            edit = _replace_text(lines, span, old, new)
            # Offered on the ID's own line, which a lone "\r" in its record may move down.
            if edit is not None and first <= edit.range.start.line <= last:
                title = f"Rewrite the gold ID to {result.new_chunk_id}"
                actions.append(_action(doc, title, edit, t.CodeActionKind.QuickFix))
    edit = canonical_edit(doc)
    if edit is not None:
        title = "Rewrite in canonical layout (roundtrip --fix)"
        actions.append(_action(doc, title, edit, t.CodeActionKind.SourceFixAll))
    return actions


def _action(doc: TextDocument, title: str, edit: t.TextEdit, kind: str) -> t.CodeAction:
    change = t.WorkspaceEdit(changes={doc.uri: [edit]})
    return t.CodeAction(title=title, kind=kind, edit=change)


def _suggestion(
    doc: TextDocument, lines: DocumentLines, diagnostic: t.Diagnostic, fix: dict[str, object]
) -> t.CodeAction | None:
    """A "did you mean" hint (`diagnostics.Fix`): the first `old` on the finding's line
    becomes `new`; none when the text has changed since."""
    old, new = str(fix.get("old", "")), str(fix.get("new", ""))
    row = lines.row_span(diagnostic.range.start.line)
    edit = _replace_text(lines, row, old, new) if old else None
    if edit is None:
        return None
    action = _action(doc, f"Replace with {new}", edit, t.CodeActionKind.QuickFix)
    action.diagnostics = [diagnostic]
    action.is_preferred = True
    return action


def _replace_text(
    lines: DocumentLines, span: tuple[int, int], old: str, new: str
) -> t.TextEdit | None:
    """The first `old` between the offsets of `span` replaced by `new`."""
    at = lines.source.find(old, *span)
    if at < 0:
        return None
    return t.TextEdit(lines.range(at, at + len(old)), new)


def document_lines(doc: TextDocument) -> DocumentLines:
    return DocumentLines(doc.source, doc.position_codec)


def finding_range(lines: DocumentLines, line: int, column: int) -> t.Range:
    """From the finding's column (characters) to the end of its word on that line."""
    start = lines.offset(line, column)
    row_end = lines.row_span(lines.position(start).line)[1]
    start = min(start, row_end)  # a column on a CRLF line's "\r" is its line's end
    end = start
    while end < row_end and not lines.source[end].isspace():
        end += 1
    return lines.range(start, end if end > start else row_end)


def hover_text(
    doc: TextDocument,
    position: t.Position,
    found: list[Diagnostic],
    gold: analysis.Gold | None,
) -> str | None:
    """A finding's rule documentation on its place, and a gold ID's definition."""
    from evaltools.catalogue import RULES
    from evaltools.catalogue.text import text_section

    texts: list[tuple[str, str]] = []
    lines = document_lines(doc)
    for d in found:
        span = finding_range(lines, d.line, d.column)
        if span.start.line == position.line and (
            span.start.character <= position.character <= span.end.character
        ):
            rule = RULES.get(d.code)
            if rule is not None and rule.code not in {x[0] for x in texts}:
                texts.append((rule.code, f"```text\n{text_section(rule)}```"))
    definition = _gold_hover(lines, position, gold)
    shown = [text for _, text in texts] + ([definition] if definition else [])
    return "\n\n".join(shown) if shown else None


def _gold_hover(
    lines: DocumentLines, position: t.Position, gold: analysis.Gold | None
) -> str | None:
    if gold is None:
        return None
    offset = lines.offset_of(position)
    start, end = lines.line_span(offset)
    for match in CHUNK_ID.finditer(lines.source, start, end):
        if match.start() <= offset <= match.end():
            written = match.group(1)
            current = _current_place(gold, lines.line_number(offset), written)
            body = analysis.definition_lines(gold.root, current)
            if body is None:
                return None
            moved = "" if current == written else f" (now `{current}`)"
            return f"`{written}`{moved}\n\n```\n{body}\n```"
    return None


def _current_place(gold: analysis.Gold, line: int, written: str) -> str:
    if gold.check is None:
        return written
    for item in gold.check.items:
        if item.line.line == line and item.ref.chunk_id == written and item.result is not None:
            return item.result.new_chunk_id or written
    return written
