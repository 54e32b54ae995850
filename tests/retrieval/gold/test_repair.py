"""The `--fix` rewrite lives in the retrieval package (`retrieval/repair.py`); the command
only reports. Tested here without the command line, on real files."""

from __future__ import annotations

import ast
import io
import subprocess
import sys
from pathlib import Path

import evaltools
from evaltools.retrieval.gold.repair import KeyRepair, repair_file
from evaltools.retrieval.records.record import RecordLine, iter_record_lines

PACKAGE = Path(evaltools.__file__).parent


def _lines(data: bytes) -> list[RecordLine]:
    return list(iter_record_lines(io.BytesIO(data)))


def test_repair_file_rewrites_only_the_keys(tmp_path: Path) -> None:
    data = (
        b'\xef\xbb\xbf{"qid": "q1", "gold": {"a.py:1-2:f": 3, "a.py:5-6:g": 1}}\r\n'
        b'{"qid": "q2", "gold": {"a.py:1-2:f":2, "b.py:1-1:h": 2}, "notes": "caf\xc3\xa9"}\n'
        b'{"qid": "q3", "gold": {"a.py:9-9:k": 3}}'
    )
    path = tmp_path / "set.jsonl"
    path.write_bytes(data)
    move = KeyRepair(1, "a.py:1-2:f", "a.py:3-4:f")
    collide = KeyRepair(2, "a.py:1-2:f", "b.py:1-1:h")  # the record already has that key
    last = KeyRepair(3, "a.py:9-9:k", "a.py:10-10:k")
    outcome = repair_file(path, data, _lines(data), [move, collide, last])
    assert outcome[move] is None and outcome[last] is None
    assert "would then be a gold key twice in this record" in (outcome[collide] or "")
    assert path.read_bytes() == (
        b'\xef\xbb\xbf{"qid": "q1", "gold": {"a.py:3-4:f": 3, "a.py:5-6:g": 1}}\r\n'
        b'{"qid": "q2", "gold": {"a.py:1-2:f":2, "b.py:1-1:h": 2}, "notes": "caf\xc3\xa9"}\n'
        b'{"qid": "q3", "gold": {"a.py:10-10:k": 3}}'
    )


def test_repair_file_never_overwrites_an_edit_made_meanwhile(tmp_path: Path) -> None:
    checked = b'{"qid": "q1", "gold": {"a.py:1-2:f": 3}}\n'
    path = tmp_path / "set.jsonl"
    path.write_bytes(checked + b"\n")  # someone added a line after the check read it
    repair = KeyRepair(1, "a.py:1-2:f", "a.py:3-4:f")
    outcome = repair_file(path, checked, _lines(checked), [repair])
    assert outcome[repair] == (
        "not rewritten: file changed while evaltools was working on it; nothing was written, "
        "run again"
    )
    assert path.read_bytes() == checked + b"\n"


def _calls(path: Path, name: str) -> int:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return sum(
        1
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and getattr(node.func, "id", getattr(node.func, "attr", None)) == name
    )


def test_the_command_only_reports_and_one_place_writes() -> None:
    command = PACKAGE / "commands" / "gold_check.py"
    assert _calls(command, "atomic_write") == 0
    assert "rewrite_gold_keys" not in command.read_text(encoding="utf-8")
    writers = [p.name for p in (PACKAGE / "retrieval").rglob("*.py") if _calls(p, "atomic_write")]
    assert writers == ["repair.py"]
    assert _calls(PACKAGE / "retrieval" / "gold" / "repair.py", "atomic_write") == 1


def test_symbols_and_ts_symbols_do_not_import_each_other() -> None:
    code = (
        "import sys\n"
        "import evaltools.retrieval.code.ts_symbols\n"
        "print('evaltools.retrieval.code.symbols' in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
