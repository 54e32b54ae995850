"""The `--fix` rewrite lives in the retrieval package (`retrieval/repair.py`); the command
only reports. Tested here without the command line, on real files."""

from __future__ import annotations

import ast
import io
import subprocess
import sys
from pathlib import Path

import evaltools
from evaltools.atomic import FileChanged
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
    outcome = repair_file(path, data, _lines(data), [move, collide, last]).keys
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
    assert isinstance(outcome.write_error, FileChanged)
    assert outcome.write_error.reason == (
        "file changed while evaltools was working on it; nothing was written, run again"
    )
    assert outcome.keys == {repair: None}  # safe to write, yet not written
    assert not outcome.written(repair)
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
    command = PACKAGE / "commands" / "gold" / "check.py"
    assert _calls(command, "atomic_write") == 0
    assert "rewrite_gold_keys" not in command.read_text(encoding="utf-8")
    writers = sorted(
        p.name for p in (PACKAGE / "retrieval").rglob("*.py") if _calls(p, "atomic_write")
    )
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


def test_ids_that_swap_spans_are_both_rewritten(tmp_path: Path) -> None:
    """Twins in an if/else, 3 lines inserted above: 7-8 -> 10-11 and 4-5 -> 7-8. The old
    key 7-8 is rewritten too, so no key is there twice afterwards (one run, not two)."""
    data = b'{"qid": "q1", "gold": {"m.py:7-8:sep": 3, "m.py:4-5:sep": 2}, "x": 1}\n'
    path = tmp_path / "set.jsonl"
    path.write_bytes(data)
    first = KeyRepair(1, "m.py:7-8:sep", "m.py:10-11:sep")
    second = KeyRepair(1, "m.py:4-5:sep", "m.py:7-8:sep")
    outcome = repair_file(path, data, _lines(data), [first, second])
    assert outcome.keys == {first: None, second: None}
    assert path.read_bytes() == (
        b'{"qid": "q1", "gold": {"m.py:10-11:sep": 3, "m.py:7-8:sep": 2}, "x": 1}\n'
    )


def test_a_refused_repair_keeps_its_key_and_refuses_what_then_collides(tmp_path: Path) -> None:
    """Two old IDs mapped to one new one are refused; the swap partner of one of them
    would then collide with the key left in place, so it is refused too."""
    data = b'{"qid": "q1", "gold": {"a:1-2:f": 3, "a:3-4:f": 2, "a:5-6:f": 1}}\n'
    path = tmp_path / "set.jsonl"
    path.write_bytes(data)
    onto_one = [KeyRepair(1, "a:1-2:f", "a:9-9:f"), KeyRepair(1, "a:3-4:f", "a:9-9:f")]
    into_refused = KeyRepair(1, "a:5-6:f", "a:3-4:f")  # a:3-4:f stays: a collision
    outcome = repair_file(path, data, _lines(data), [*onto_one, into_refused])
    assert all("gold key twice" in (outcome.keys[r] or "") for r in [*onto_one, into_refused])
    assert path.read_bytes() == data


def test_revision_is_written_only_with_every_key_of_its_record(tmp_path: Path) -> None:
    data = (
        b'{"qid": "q1", "gold": {"a:1-2:f": 3}, "revision": "old", "z": [1, 2]}\n'
        b'{"qid": "q2", "gold": {"a:1-2:f": 3, "a:3-4:f": 2}, "revision": "old"}\n'
    )
    path = tmp_path / "set.jsonl"
    path.write_bytes(data)
    repairs = [
        KeyRepair(1, "a:1-2:f", "a:5-6:f"),
        KeyRepair(2, "a:1-2:f", "a:3-4:f"),  # collides: q2 is half fixed at best
    ]
    outcome = repair_file(path, data, _lines(data), repairs, {1: "c" * 40, 2: "d" * 40})
    assert outcome.revised == {1}
    assert path.read_bytes() == data.replace(
        b'"a:1-2:f": 3}, "revision": "old", "z"',
        (b'"a:5-6:f": 3}, "revision": "' + b"c" * 40 + b'", "z"'),
    )
