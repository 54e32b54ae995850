"""A file saved as UTF-16 or UTF-32 (Notepad's "Unicode", PowerShell's `>`) is named so,
at 1:1, in every form `check` reads: not as a NUL byte of a binary file, nor as a stray
byte 0xff, so that the message says what to do. Nothing is rewritten."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from evaltools.__main__ import main
from tests.commands.test_check_forms import FIXED, SET

CONFIG = (
    '[tool.evaltools]\npaths = ["evals"]\n\n[tool.evaltools.retrieval]\nsets = ["sets/set.jsonl"]\n'
)
EXAMPLE = json.dumps(
    {
        "name": "x",
        "repository_url": "https://github.com/o/r",
        "revision": "a" * 40,
        "cursor_path": "a.py",
        "cursor_position": "x = 1\n# ^[CURSOR_POSITION]\n",
        "edit_history": "",
        "expected_patches": ["--- a/a.py\n+++ b/a.py\n@@ -1 +1 @@\n-x = 1\n+x = 2\n"],
    }
)
TEXTS = {
    "evals/flask--x.md": FIXED,
    "evals/x.json": EXAMPLE + "\n",
    "evals/x.jsonl": EXAMPLE + "\n",
    "sets/set.jsonl": SET,
}
ENCODINGS = {
    "utf-16": "it starts with a UTF-16 byte order mark",
    "utf-16-be": "every other byte is NUL",  # no mark: Python's utf-16-be writes none
    "utf-32": "it starts with a UTF-32 byte order mark",
}


@pytest.mark.parametrize("encoding", sorted(ENCODINGS))
@pytest.mark.parametrize("name", sorted(TEXTS))
def test_a_file_saved_as_utf16_is_named_so(
    in_tmp: Path, capsys: pytest.CaptureFixture[str], name: str, encoding: str
) -> None:
    (in_tmp / "pyproject.toml").write_text(CONFIG)
    for other, text in TEXTS.items():
        (in_tmp / other).parent.mkdir(exist_ok=True)
        (in_tmp / other).write_text(text)
    data = TEXTS[name].encode(encoding)
    (in_tmp / name).write_bytes(data)
    said = f"file is {encoding[:6].upper()} ({ENCODINGS[encoding]}): save it as UTF-8"
    assert main(["check", "--fix"]) == 1
    first = capsys.readouterr().out.splitlines()[0]
    assert first.startswith(f"{name}:1:1: IO00"), first
    assert first.endswith(said), first
    assert (in_tmp / name).read_bytes() == data


@pytest.mark.parametrize("name", sorted(TEXTS))
def test_a_utf8_byte_order_mark_is_said_alike_in_every_form(
    in_tmp: Path, capsys: pytest.CaptureFixture[str], name: str
) -> None:
    """An editor's BOM at the start of a `.json` or `.jsonl` example was IO008 "were two
    files joined?"; it is IO002 with the words `.md` files and sets get."""
    (in_tmp / "pyproject.toml").write_text(CONFIG)
    for other, text in TEXTS.items():
        (in_tmp / other).parent.mkdir(exist_ok=True)
        (in_tmp / other).write_text(text)
    data = b"\xef\xbb\xbf" + TEXTS[name].encode()
    (in_tmp / name).write_bytes(data)
    assert main(["check", "--fix"]) == 1
    first = capsys.readouterr().out.splitlines()[0]
    bom = "IO002 [error] file starts with a UTF-8 byte order mark: save it as UTF-8 without BOM"
    assert first == f"{name}:1:1: {bom}"
    assert (in_tmp / name).read_bytes() == data


def test_a_byte_order_mark_inside_a_jsonl_file_is_two_files_joined(
    in_tmp: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (in_tmp / "x.jsonl").write_bytes(EXAMPLE.encode() + b"\n\xef\xbb\xbf" + EXAMPLE.encode())
    assert main(["lint", "x.jsonl"]) == 1
    out = capsys.readouterr().out
    assert "x.jsonl:2:1: IO008 [error] text starts with a byte order mark (were two" in out
