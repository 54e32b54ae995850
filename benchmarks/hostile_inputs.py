"""Run every reading command over a corpus of hostile inputs, each in a process of its own
with a time limit, and count what held: an exit code of 0, 1 or 2 with no internal error
and no traceback, within the limit.

    python benchmarks/hostile_inputs.py [--timeout 60] [--only KIND]

Not a benchmark of speed: the closing tally of issue 33 (the kinds beyond those the tests
pin down). Each kind is one file (or node) in a fresh folder, named as its command expects.
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

EXAMPLE = (
    '+++\nrepository_url = "https://github.com/o/r"\nrevision = "{rev}"\n{extra}+++\n\n'
    "## Cursor Position\n\n```a.py\nx\n#^[CURSOR_POSITION]\n```\n\n"
    "## Expected Patch\n\n```diff\n--- a/a.py\n+++ b/a.py\n@@ -1 +1 @@\n-x\n+y\n```\n"
)
RECORD = '{"qid": "q1", "query": "x", "type": "intent", "gold": {"a.py:1-2:f": 3}}'


def _example_line(patches: int) -> bytes:
    """One JSONL example with `patches` empty expected patches (EP313 past 1,000)."""
    example = {
        "name": "x",
        "repository_url": "https://github.com/o/r",
        "revision": "a",
        "cursor_path": "a.py",
        "cursor_position": "x<|user_cursor|>",
        "edit_history": "",
        "expected_patches": [""] * patches,
    }
    return json.dumps(example).encode() + b"\n"


def _gold_line(entries: int) -> bytes:
    """One retrieval record with `entries` gold IDs (IO010 past 1,000)."""
    gold = {f"src/m{i}.py:1-2:f{i}": 1 for i in range(entries)}
    return json.dumps({"qid": "q1", "query": "x", "type": "intent", "gold": gold}).encode() + b"\n"


def write(data: bytes) -> Callable[[Path], None]:
    def make(path: Path) -> None:
        path.write_bytes(data)

    return make


def _sparse(path: Path) -> None:
    with path.open("wb") as out:
        out.truncate((1 << 30) + 1)


def _socket(path: Path) -> None:
    sock = socket.socket(socket.AF_UNIX)
    sock.bind(str(path))  # left bound: the node stays while this process lives


def _loop(path: Path) -> None:
    path.symlink_to(path.name)


KINDS: dict[str, Callable[[Path], None]] = {
    "empty": write(b""),
    "nul-bytes": write(b"\0" * 100),
    "bom": write(b"\xef\xbb\xbf" + EXAMPLE.format(rev="a", extra="").encode()),
    "crlf": write(EXAMPLE.format(rev="a", extra="").replace("\n", "\r\n").encode()),
    "latin-1": write(EXAMPLE.format(rev="caf\xe9", extra="").encode("latin-1")),
    "broken-link": lambda p: p.symlink_to("gone"),
    "link-loop": _loop,
    "directory": lambda p: p.mkdir(),
    "fifo": os.mkfifo,
    "socket": _socket,
    "json-nested-100k": write(b"[" * 100_000 + b"]" * 100_000 + b"\n"),
    "json-int-5000-digits": write(RECORD.replace("3}", "9" * 5000 + "}").encode() + b"\n"),
    "json-1e400": write(RECORD.replace("3}", "1e400}").encode() + b"\n"),
    "json-lone-surrogate": write(RECORD.replace('"x"', '"\\ud800"').encode() + b"\n"),
    "json-repeated-key": write(RECORD.replace('"query"', '"qid": "q2", "query"').encode() + b"\n"),
    "one-20mb-line": write(b'{"qid": "' + b"x" * 20_000_000 + b'"'),
    "a-million-newlines": write(b"\n" * 1_000_000),
    "toml-nested-5000": write(
        EXAMPLE.format(rev="a", extra="t = " + "[" * 5000 + "]" * 5000 + "\n").encode()
    ),
    "toml-int-5000-digits": write(
        EXAMPLE.format(rev="a", extra="n = " + "9" * 5000 + "\n").encode()
    ),
    "sparse-1gib": _sparse,
    "a-million-empty-records": write(b"{}\n" * 1_000_000),
    "a-million-expected-patches": write(_example_line(1_000_000)),
    "gold-100k-entries": write(_gold_line(100_000)),
}
COMMANDS = [
    ["lint"],
    ["check"],
    ["roundtrip"],
    ["validate"],
    ["dupes"],
    ["score"],
    ["convert", "--to", "jsonl", "-o", "out.jsonl"],
    ["gold", "stats"],
    ["gold", "check", "--root", "."],
]


def run(kind: str, command: list[str], timeout: float) -> str:
    with tempfile.TemporaryDirectory() as temp:
        folder = Path(temp)
        suffix = ".md" if command[0] in ("lint", "roundtrip") else ".jsonl"
        if command[0] in ("check", "dupes", "score", "convert"):
            suffix = ".md" if kind.startswith(("toml", "bom", "crlf", "latin")) else ".jsonl"
        target = folder / f"o--x{suffix}"
        KINDS[kind](target)
        argv = [sys.executable, "-m", "evaltools", command[0], target.name, *command[1:]]
        try:
            done = subprocess.run(
                argv, cwd=folder, capture_output=True, text=True, timeout=timeout, check=False
            )
        except subprocess.TimeoutExpired:
            return "timeout"
        if "internal error" in done.stderr or "Traceback" in done.stderr:
            return "internal error: " + done.stderr.strip().splitlines()[-1][:120]
        return "held" if done.returncode in (0, 1, 2) else f"exit {done.returncode}"


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--timeout", type=float, default=60)
    parser.add_argument("--only", action="append")
    args = parser.parse_args()
    tally: dict[str, int] = {}
    for kind in args.only or list(KINDS):
        for command in COMMANDS:
            outcome = run(kind, command, args.timeout)
            tally[outcome if outcome == "held" else "failed"] = (
                tally.get(outcome if outcome == "held" else "failed", 0) + 1
            )
            if outcome != "held":
                print(f"{kind:24} {' '.join(command):28} {outcome}")
    print(json.dumps(tally))
    return 0 if tally.get("failed", 0) == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
