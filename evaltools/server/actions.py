"""Code actions and hover of `evaltools server`: the fixes `check --fix` and `roundtrip --fix`
make, offered one at a time, and the rule documentation `evaltools rule CODE` prints."""

from __future__ import annotations

import re
from collections.abc import Callable

from lsprotocol import types as t
from pygls.workspace import TextDocument
from pygls.workspace.position_codec import ServerTextPosition, ServerTextRange

from evaltools.diagnostics import Diagnostic
from evaltools.server import analysis

# A JSON string that reads as a chunk ID (`path:start-end[:symbol]`).
CHUNK_ID = re.compile(r'"([^"\\\s:]+(?:/[^"\\\s:]+)*:\d+-\d+(?::[^"\\]*)?)"')


def code_actions(
    doc: TextDocument,
    params: t.CodeActionParams,
    gold: analysis.Gold | None,
    canonical_edit: Callable[[TextDocument], t.TextEdit | None],
) -> list[t.CodeAction]:
    actions: list[t.CodeAction] = []
    asked = params.context.diagnostics
    for diagnostic in asked:
        fix = diagnostic.data.get("fix") if isinstance(diagnostic.data, dict) else None
        if isinstance(fix, dict):
            action = _suggestion(doc, diagnostic, fix)
            if action is not None:
                actions.append(action)
    if gold is not None and gold.check is not None:
        first, last = params.range.start.line, params.range.end.line
        for item in gold.check.items:
            result = item.result
            row = item.line.line - 1
            if result is None or not result.status.repairable or not result.new_chunk_id:
                continue
            if first <= row <= last:
                edit = _replace_id(doc, row, item.ref.chunk_id, result.new_chunk_id)
                if edit is not None:
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
    doc: TextDocument, diagnostic: t.Diagnostic, fix: dict[str, object]
) -> t.CodeAction | None:
    """A "did you mean" hint (`diagnostics.Fix`): the first `old` on the finding's line
    becomes `new`; none when the text has changed since."""
    old, new = str(fix.get("old", "")), str(fix.get("new", ""))
    edit = _replace_text(doc, diagnostic.range.start.line, old, new) if old else None
    if edit is None:
        return None
    action = _action(doc, f"Replace with {new}", edit, t.CodeActionKind.QuickFix)
    action.diagnostics = [diagnostic]
    action.is_preferred = True
    return action


def _replace_id(doc: TextDocument, row: int, old: str, new: str) -> t.TextEdit | None:
    return _replace_text(doc, row, f'"{old}"', f'"{new}"')


def _replace_text(doc: TextDocument, row: int, old: str, new: str) -> t.TextEdit | None:
    if row >= len(doc.lines):
        return None
    line = doc.lines[row]
    at = line.find(old)
    if at < 0:
        return None
    span = ServerTextRange(ServerTextPosition(row, at), ServerTextPosition(row, at + len(old)))
    return t.TextEdit(doc.range_to_client_units(span), new)


def finding_range(doc: TextDocument, line: int, column: int) -> t.Range:
    """From the finding's column (characters) to the end of its word on that line."""
    lines = doc.lines
    row = min(max(line - 1, 0), max(len(lines) - 1, 0))
    text = lines[row].rstrip("\r\n") if lines else ""
    start = min(max(column - 1, 0), len(text))
    end = start
    while end < len(text) and not text[end].isspace():
        end += 1
    if end == start:
        end = len(text)
    at = ServerTextRange(ServerTextPosition(row, start), ServerTextPosition(row, end))
    return doc.range_to_client_units(at)


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
    for d in found:
        span = finding_range(doc, d.line, d.column)
        if span.start.line == position.line and (
            span.start.character <= position.character <= span.end.character
        ):
            rule = RULES.get(d.code)
            if rule is not None and rule.code not in {x[0] for x in texts}:
                texts.append((rule.code, f"```text\n{text_section(rule)}```"))
    definition = _gold_hover(doc, position, gold)
    shown = [text for _, text in texts] + ([definition] if definition else [])
    return "\n\n".join(shown) if shown else None


def _gold_hover(doc: TextDocument, position: t.Position, gold: analysis.Gold | None) -> str | None:
    if gold is None or position.line >= len(doc.lines):
        return None
    here = doc.position_from_client_units(position).character
    line = doc.lines[position.line]
    for match in CHUNK_ID.finditer(line):
        if match.start() <= here <= match.end():
            written = match.group(1)
            current = _current_place(gold, position.line + 1, written)
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
