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

from evaltools import __version__
from evaltools.diagnostics import Diagnostic, Severity
from evaltools.server import analysis
from evaltools.server.actions import code_actions, document_lines, finding_range, hover_text
from evaltools.server.lines import DocumentLines

SEVERITIES = {
    Severity.ERROR: t.DiagnosticSeverity.Error,
    Severity.WARNING: t.DiagnosticSeverity.Warning,
    Severity.INFO: t.DiagnosticSeverity.Information,
}
SOURCE = "evaltools"


def path_of(uri: str) -> Path | None:
    fs = to_fs_path(uri)
    return None if fs is None else Path(fs)


def lsp_diagnostic(lines: DocumentLines, d: Diagnostic) -> t.Diagnostic:
    return t.Diagnostic(
        range=finding_range(lines, d.line, d.column),
        message=d.message,
        severity=SEVERITIES[d.severity],
        code=d.code,
        source=SOURCE,
        data={"name": d.name, "fix": None if d.fix is None else d.fix._asdict()},
    )


class EvalServer(LanguageServer):
    """The documents' last lint and gold results, and the version each was made for."""

    def __init__(self) -> None:
        # Whole texts, not edits: pygls applies an edit on `str.splitlines` lines, which a
        # form feed or U+2028 splits where the editor does not, and the copy would drift.
        super().__init__(
            "evaltools", __version__, text_document_sync_kind=t.TextDocumentSyncKind.Full
        )
        self.versions: dict[str, int] = {}
        self.lint: dict[str, list[Diagnostic]] = {}
        self.gold: dict[str, analysis.Gold] = {}
        self.pending: dict[str, concurrent.futures.Future[None]] = {}
        self.lock = threading.Lock()
        self.told: set[str | None] = set()  # configuration problems already shown
        # One worker off the typing path: a newer text cancels a queued gold check of the
        # same document, and a running one's result is dropped when it comes back stale.
        self.pool = concurrent.futures.ThreadPoolExecutor(max_workers=1)

    def findings(self, uri: str) -> tuple[list[Diagnostic], analysis.Gold | None]:
        with self.lock:
            found = list(self.lint.get(uri, []))
            gold = self.gold.get(uri)
        return found + (gold.findings if gold is not None else []), gold

    def publish(self, uri: str, version: int) -> None:
        doc = self.workspace.get_text_document(uri)
        with self.lock:
            if self.versions.get(uri) != version:
                return  # superseded by a newer text
        found, _ = self.findings(uri)
        found.sort(key=Diagnostic.sort_key)
        lines = document_lines(doc)
        params = t.PublishDiagnosticsParams(
            uri=uri, version=version, diagnostics=[lsp_diagnostic(lines, d) for d in found]
        )
        self.text_document_publish_diagnostics(params)

    def gold_check(self, uri: str, path: Path, text: str, version: int) -> None:
        with self.lock:
            if self.versions.get(uri) != version:
                return
            validated = list(self.lint.get(uri, []))
        try:
            result = analysis.gold(path, text, validated)
        except Exception as error:  # a half-typed set must not end the server
            self.log(t.MessageType.Warning, f"gold check of {path.name}: {error!r}")
            return
        with self.lock:
            if self.versions.get(uri) != version:
                return
            self.gold[uri] = result
        self.publish(uri, version)

    def log(self, kind: t.MessageType, message: str) -> None:
        self.window_log_message(t.LogMessageParams(kind, f"evaltools: {message}"))

    def refresh(self, uri: str) -> None:
        """Lint the document's text now and publish; queue its gold check when a set."""
        doc = self.workspace.get_text_document(uri)
        path = path_of(uri)
        with self.lock:
            version = self.versions.get(uri, 0) + 1 if doc.version is None else doc.version
            self.versions[uri] = version
            self.gold.pop(uri, None)
            queued = self.pending.pop(uri, None)
        if queued is not None:
            queued.cancel()  # a queued gold check of an older text never runs
        if path is None:
            return
        try:
            result = analysis.lint(path, doc.source)
        except Exception as error:  # say it, keep serving
            self.log(t.MessageType.Error, f"{path.name}: {error!r}")
            result = analysis.Lint(analysis.Form.NONE)
        with self.lock:
            self.lint[uri] = result.findings
            told = result.problem in self.told
            self.told.add(result.problem)
        if result.problem is not None and not told:
            # As `check` would refuse to run: said once, the defaults used meanwhile.
            message = f"evaltools: {result.problem} (the defaults apply until it is fixed)"
            self.window_show_message(t.ShowMessageParams(t.MessageType.Error, message))
        self.publish(uri, version)
        if result.form is analysis.Form.SET and path.is_file():
            future = self.pool.submit(self.gold_check, uri, path, doc.source, version)
            with self.lock:
                self.pending[uri] = future

    def forget(self, uri: str) -> None:
        with self.lock:
            for table in (self.versions, self.lint, self.gold, self.pending):
                table.pop(uri, None)
        self.text_document_publish_diagnostics(t.PublishDiagnosticsParams(uri, []))


def build() -> EvalServer:
    server = EvalServer()

    @server.feature(t.TEXT_DOCUMENT_DID_OPEN)
    def did_open(ls: EvalServer, params: t.DidOpenTextDocumentParams) -> None:
        ls.refresh(params.text_document.uri)

    @server.feature(t.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(ls: EvalServer, params: t.DidChangeTextDocumentParams) -> None:
        ls.refresh(params.text_document.uri)

    @server.feature(t.TEXT_DOCUMENT_DID_SAVE)
    def did_save(ls: EvalServer, params: t.DidSaveTextDocumentParams) -> None:
        ls.refresh(params.text_document.uri)

    @server.feature(t.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(ls: EvalServer, params: t.DidCloseTextDocumentParams) -> None:
        ls.forget(params.text_document.uri)

    @server.feature(t.TEXT_DOCUMENT_FORMATTING)
    def formatting(ls: EvalServer, params: t.DocumentFormattingParams) -> list[t.TextEdit]:
        edit = _canonical_edit(ls.workspace.get_text_document(params.text_document.uri))
        return [] if edit is None else [edit]

    kinds = [t.CodeActionKind.QuickFix, t.CodeActionKind.SourceFixAll]

    @server.feature(t.TEXT_DOCUMENT_CODE_ACTION, t.CodeActionOptions(code_action_kinds=kinds))
    def code_action(ls: EvalServer, params: t.CodeActionParams) -> list[t.CodeAction]:
        doc = ls.workspace.get_text_document(params.text_document.uri)
        _, gold = ls.findings(doc.uri)
        return code_actions(doc, params, gold, _canonical_edit)

    @server.feature(t.TEXT_DOCUMENT_HOVER)
    def hover(ls: EvalServer, params: t.HoverParams) -> t.Hover | None:
        doc = ls.workspace.get_text_document(params.text_document.uri)
        found, gold = ls.findings(doc.uri)
        text = hover_text(doc, params.position, found, gold)
        return None if text is None else t.Hover(t.MarkupContent(t.MarkupKind.Markdown, text))

    return server


def _canonical_edit(doc: TextDocument) -> t.TextEdit | None:
    path = path_of(doc.uri)
    if path is None:
        return None
    text = doc.source
    rendered = analysis.canonical(path, text)
    if rendered is None or rendered == text:
        return None
    return t.TextEdit(t.Range(t.Position(0, 0), document_lines(doc).end()), rendered)


def serve() -> int:
    # Copies of stdin and stdout: pygls closes its streams when it stops, and the CLI's
    # exit still flushes sys.stdout.
    with os.fdopen(os.dup(0), "rb") as stdin, os.fdopen(os.dup(1), "wb") as stdout:
        build().start_io(stdin, stdout)
    return 0
