"""A small LSP client over the server's stdio pipes: JSON-RPC with Content-Length framing."""

from __future__ import annotations

import json
import queue
import re
import subprocess
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any, cast

Message = dict[str, Any]
WAIT = 120.0  # seconds: generous, a loaded machine is slow; a hang fails, it never passes


class Client:
    def __init__(self, cwd: Path) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "evaltools", "server", "--stdio"],
            cwd=cwd,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        self.inbox: queue.Queue[Message] = queue.Queue()
        self.notes: list[Message] = []
        self.next_id = 0
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        out = self.process.stdout
        assert out is not None
        while True:
            length = 0
            while True:
                header = out.readline()
                if not header:
                    return
                if header in (b"\r\n", b"\n"):
                    break
                name, _, value = header.decode("ascii").partition(":")
                if name.lower() == "content-length":
                    length = int(value)
            self.inbox.put(json.loads(out.read(length)))

    def send(self, message: Message) -> None:
        body = json.dumps({"jsonrpc": "2.0", **message}).encode("utf-8")
        stdin = self.process.stdin
        assert stdin is not None
        stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        stdin.flush()

    def notify(self, method: str, params: Any) -> None:
        self.send({"method": method, "params": params})

    def request(self, method: str, params: Any) -> Any:
        self.next_id += 1
        ident = self.next_id
        self.send({"id": ident, "method": method, "params": params})
        reply = self.wait(lambda m: m.get("id") == ident and "method" not in m)
        assert "error" not in reply, reply
        return reply.get("result")

    def wait(self, wanted: Callable[[Message], bool]) -> Message:
        for kept in self.notes:
            if wanted(kept):
                self.notes.remove(kept)
                return kept
        while True:
            message = self.inbox.get(timeout=WAIT)
            if "id" in message and "method" in message:  # a request from the server
                self.send({"id": message["id"], "result": None})
            elif wanted(message):
                return message
            else:
                self.notes.append(message)

    def diagnostics(self, uri: str, version: int) -> list[Message]:
        """The diagnostics published for `uri` at `version` (the first such publication)."""

        def wanted(m: Message) -> bool:
            params = m.get("params") or {}
            return (
                m.get("method") == "textDocument/publishDiagnostics"
                and params.get("uri") == uri
                and params.get("version") == version
            )

        return cast(list[Message], self.wait(wanted)["params"]["diagnostics"])

    def start(self, root: Path) -> Message:
        result = self.request(
            "initialize",
            {"processId": None, "rootUri": root.as_uri(), "capabilities": {}},
        )
        self.notify("initialized", {})
        return cast(Message, result)

    def open(self, path: Path, text: str, version: int = 1) -> str:
        uri = path.as_uri()
        language = {".md": "markdown", ".json": "json"}.get(path.suffix, "jsonl")
        document = {"uri": uri, "languageId": language, "version": version, "text": text}
        self.notify("textDocument/didOpen", {"textDocument": document})
        return uri

    def change(self, uri: str, version: int, text: str) -> None:
        self.notify(
            "textDocument/didChange",
            {"textDocument": {"uri": uri, "version": version}, "contentChanges": [{"text": text}]},
        )

    def stop(self) -> int:
        self.request("shutdown", None)
        self.notify("exit", None)
        assert self.process.stdin is not None
        self.process.stdin.close()  # as an editor's end of the pipe goes
        return self.process.wait(timeout=WAIT)


def offset_at(text: str, position: Message) -> int:
    """The offset of an LSP position in `text`: lines end at "\r\n", "\r" or "\n" (as the
    protocol says, and editors count), characters are UTF-16 code units (the client
    announced no other encoding)."""
    lines = re.findall(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+$", text)
    row, column = position["line"], position["character"]
    if row >= len(lines):
        return len(text)
    before = sum(len(line) for line in lines[:row])
    units = lines[row].encode("utf-16-le")[: 2 * column].decode("utf-16-le")
    return before + len(units)


def apply_edits(text: str, edits: list[Message]) -> str:
    """Apply LSP text edits to `text`."""
    for edit in sorted(edits, key=lambda e: offset_at(text, e["range"]["start"]), reverse=True):
        start, end = offset_at(text, edit["range"]["start"]), offset_at(text, edit["range"]["end"])
        text = text[:start] + edit["newText"] + text[end:]
    return text
