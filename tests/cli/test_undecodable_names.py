"""A file name that is not UTF-8 (`x\\xff.md`): every output format stays valid.

Run as a real process, on stdout's bytes: text prints the name's bytes as the file system
holds them (as ruff does), JSON writes U+FFFD for the undecodable byte, SARIF URIs
percent-encode the raw byte, and GitHub commands are valid UTF-8.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from evaltools import jsonio
from tests.conftest import CORPUS, REPO

NAME = b"zed--x\xff.md"
RECORDS = b"r\xfe.jsonl"
FORMATS = ("text", "json", "github", "sarif")


def run(args: list[str], cwd: Path, *, encoding: str | None = None) -> tuple[int, bytes]:
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    if encoding is not None:
        env["PYTHONIOENCODING"] = encoding  # a strict stdout, as under a UTF-8 locale
    done = subprocess.run(
        [sys.executable, "-m", "evaltools", *args],
        cwd=cwd,
        env=env,
        capture_output=True,
        check=False,
    )
    assert b"internal error" not in done.stderr, done.stderr
    return done.returncode, done.stdout


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    (tmp_path / "pyproject.toml").write_text("[tool.evaltools]\n", encoding="utf-8")
    examples = tmp_path / "b"
    examples.mkdir()
    data = (CORPUS / "zed--change-match-arm.md").read_bytes()
    (examples / os.fsdecode(NAME)).write_bytes(data)
    records = tmp_path / "v"
    records.mkdir()
    (records / os.fsdecode(RECORDS)).write_bytes(b'{"qid": 1}\n')
    return tmp_path


COMMANDS = [
    pytest.param(["lint", "b"], NAME, id="lint"),
    pytest.param(["check", "b"], NAME, id="check"),
    pytest.param(["validate", "v"], RECORDS, id="validate"),
]


@pytest.mark.parametrize(("args", "raw"), COMMANDS)
@pytest.mark.parametrize("fmt", FORMATS)
def test_every_format_is_valid_for_a_name_that_is_not_utf8(
    tree: Path, args: list[str], raw: bytes, fmt: str
) -> None:
    code, out = run([*args, "--format", fmt], tree, encoding="utf-8")
    assert code in (0, 1)
    shown = raw.decode("utf-8", "replace")
    if fmt == "text":
        assert raw in out  # the bytes as the OS has them
        return
    text = out.decode("utf-8")  # strict: valid UTF-8 or a failure
    if fmt == "github":
        assert f"file={args[1]}/{shown},".encode() in out
        return
    found = jsonio.loads(text)  # strict JSON: no lone surrogate escapes either
    if fmt == "json":
        assert {Path(item["path"]).name for item in found} == {shown}
        return
    uris = {
        result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
        for result in found["runs"][0]["results"]
    }
    percent = "".join(f"%{b:02X}" if b >= 0x80 else chr(b) for b in raw)
    assert uris == {f"{args[1]}/{percent}"}
    assert json.loads(text) == found
