"""`evaltools server`: the Language Server Protocol over stdio (pygls), a thin layer over
`evaltools.server.analysis` (which is `evaltools check` on the editor's text)."""

from __future__ import annotations

import concurrent.futures
import os
import threading
from pathlib import Path

from lsprotocol import types as t
from pygls.lsp.server import LanguageServer
from pygls.uris import to_fs_path
from pygls.workspace import TextDocument
from pygls.workspace.position_codec import ServerTextPosition, ServerTextRange

from evaltools import __version__
from evaltools.diagnostics import Diagnostic, Severity
from evaltools.server import analysis

SEVERITIES = {
    Severity.ERROR: t.DiagnosticSeverity.Error,
    Severity.WARNING: t.DiagnosticSeverity.Warning,
    Severity.INFO: t.DiagnosticSeverity.Information,
}
SOURCE = "evaltools"


class State:
    """Per document: the last lint and gold results, and the version they were made for."""

    def __init__(self) -> None:
        self.version: dict[str, int] = {}
        self.lint: dict[str, list[Diagnostic]] = {}
        self.gold: dict[str, analysis.Gold] = {}
        self.pending: dict[str, concurrent.futures.Future[None]] = {}
        self.lock = threading.Lock()
        # One worker: a newer text supersedes a queued gold check of the same document.
        self.pool = concurrent.futures.ThreadPoolExecutor(max_workers=1)


def path_of(uri: str) -> Path | None:
    fs = to_fs_path(uri)
    return None if fs is None else Path(fs)


def lsp_diagnostic(doc: TextDocument, d: Diagnostic) -> t.Diagnostic:
    return t.Diagnostic(
        range=finding_range(doc, d.line, d.column),
        message=d.message,
        severity=SEVERITIES[d.severity],
        code=d.code,
        source=SOURCE,
        data={"name": d.name, "fix": None if d.fix is None else d.fix._asdict()},
    )


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


def build() -> LanguageServer:
    server = LanguageServer(
        "evaltools", __version__, text_document_sync_kind=t.TextDocumentSyncKind.Incremental
    )
    state = State()

    def publish(uri: str, version: int) -> None:
        doc = server.workspace.get_text_document(uri)
        with state.lock:
            if state.version.get(uri) != version:
                return  # superseded by a newer text
            found = list(state.lint.get(uri, []))
            gold = state.gold.get(uri)
        if gold is not None:
            found += gold.findings
        found.sort(key=Diagnostic.sort_key)
        params = t.PublishDiagnosticsParams(
            uri=uri, version=version, diagnostics=[lsp_diagnostic(doc, d) for d in found]
        )
        server.text_document_publish_diagnostics(params)

    def gold_check(uri: str, path: Path, text: str, version: int) -> None:
        with state.lock:
            if state.version.get(uri) != version:
                return
            validated = list(state.lint.get(uri, []))
        try:
            result = analysis.gold(path, text, validated)
        except Exception as error:
            server.window_log_message(
                t.LogMessageParams(t.MessageType.Warning, f"evaltools: gold check: {error}")
            )
            return
        with state.lock:
            if state.version.get(uri) != version:
                return
            state.gold[uri] = result
        publish(uri, version)

    def refresh(uri: str) -> None:
        doc = server.workspace.get_text_document(uri)
        path = path_of(uri)
        version = (state.version.get(uri, 0) + 1) if doc.version is None else doc.version
        with state.lock:
            state.version[uri] = version
            state.gold.pop(uri, None)
            queued = state.pending.pop(uri, None)
        if queued is not None:
            queued.cancel()  # a queued gold check of an older text never runs
        if path is None:
            return
        try:
            result = analysis.lint(path, doc.source)
        except Exception as error:
            server.window_log_message(
                t.LogMessageParams(t.MessageType.Error, f"evaltools: {path.name}: {error!r}")
            )
            result = analysis.Lint(analysis.Form.NONE)
        with state.lock:
            state.lint[uri] = result.findings
        publish(uri, version)
        if result.form is analysis.Form.SET and path.is_file():
            future = state.pool.submit(gold_check, uri, path, doc.source, version)
            with state.lock:
                state.pending[uri] = future

    @server.feature(t.TEXT_DOCUMENT_DID_OPEN)
    def did_open(ls: LanguageServer, params: t.DidOpenTextDocumentParams) -> None:
        refresh(params.text_document.uri)

    @server.feature(t.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(ls: LanguageServer, params: t.DidChangeTextDocumentParams) -> None:
        refresh(params.text_document.uri)

    @server.feature(t.TEXT_DOCUMENT_DID_SAVE)
    def did_save(ls: LanguageServer, params: t.DidSaveTextDocumentParams) -> None:
        refresh(params.text_document.uri)

    @server.feature(t.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(ls: LanguageServer, params: t.DidCloseTextDocumentParams) -> None:
        uri = params.text_document.uri
        with state.lock:
            for table in (state.version, state.lint, state.gold, state.pending):
                table.pop(uri, None)
        server.text_document_publish_diagnostics(t.PublishDiagnosticsParams(uri, []))

    @server.feature(t.TEXT_DOCUMENT_FORMATTING)
    def formatting(ls: LanguageServer, params: t.DocumentFormattingParams) -> list[t.TextEdit]:
        doc = server.workspace.get_text_document(params.text_document.uri)
        edit = _canonical_edit(doc)
        return [] if edit is None else [edit]

    @server.feature(
        t.TEXT_DOCUMENT_CODE_ACTION,
        t.CodeActionOptions(
            code_action_kinds=[t.CodeActionKind.QuickFix, t.CodeActionKind.SourceFixAll]
        ),
    )
    def code_action(ls: LanguageServer, params: t.CodeActionParams) -> list[t.CodeAction]:
        from evaltools.server.actions import code_actions

        doc = server.workspace.get_text_document(params.text_document.uri)
        with state.lock:
            gold = state.gold.get(doc.uri)
        return code_actions(doc, params, gold, _canonical_edit)

    @server.feature(t.TEXT_DOCUMENT_HOVER)
    def hover(ls: LanguageServer, params: t.HoverParams) -> t.Hover | None:
        from evaltools.server.actions import hover_text

        doc = server.workspace.get_text_document(params.text_document.uri)
        with state.lock:
            found = list(state.lint.get(doc.uri, []))
            gold = state.gold.get(doc.uri)
        if gold is not None:
            found += gold.findings
        text = hover_text(doc, params.position, found, gold)
        if text is None:
            return None
        return t.Hover(t.MarkupContent(t.MarkupKind.Markdown, text))

    return server


def _canonical_edit(doc: TextDocument) -> t.TextEdit | None:
    path = path_of(doc.uri)
    if path is None:
        return None
    text = doc.source
    rendered = analysis.canonical(path, text)
    if rendered is None or rendered == text:
        return None
    lines = doc.lines
    # Past the last line: the codec gives (len(lines), 0), the end of any text.
    end = doc.position_to_client_units(ServerTextPosition(len(lines), 0))
    return t.TextEdit(t.Range(t.Position(0, 0), end), rendered)


def serve() -> int:
    # Copies of stdin and stdout: pygls closes its streams when it stops, and the CLI's
    # exit still flushes sys.stdout.
    with os.fdopen(os.dup(0), "rb") as stdin, os.fdopen(os.dup(1), "wb") as stdout:
        build().start_io(stdin, stdout)
    return 0
