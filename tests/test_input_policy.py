"""One input policy for every reader (`fileio.open_input`), with real processes, FIFOs,
devices and sparse files: what is not a regular file is IO007, a file past its limit IO006,
TOML nested too deeply or holding a huge integer a finding at its place; never a hang, a
MemoryError or an internal error."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.score._examples import PERFECT, example, prediction, write_jsonl
from tests.test_write_faults import evaltools

# The input policy's limit for a file of records (`fileio.MAX_DATA_FILE_BYTES`).
MAX_DATA_FILE_BYTES = 1 << 30

FRONT = '+++\nrepository_url = "https://github.com/o/r"\nrevision = "{rev}"\n{extra}\n+++\n'
BODY = "\n## Cursor Position\n\n```a.py\nx<|user_cursor|>\n```\n"


def hostile_front_matter(folder: Path) -> None:
    deep = "tags = " + "[" * 5000 + "]" * 5000
    huge = "n = " + "9" * 5000
    (folder / "o--deep.md").write_text(FRONT.format(rev="a", extra=deep) + BODY)
    (folder / "o--huge.md").write_text(FRONT.format(rev="a", extra=huge) + BODY)


@pytest.mark.parametrize(
    "argv",
    [
        ["lint", "evals"],
        ["check", "evals"],
        ["roundtrip", "evals"],
        ["convert", "evals", "--to", "json", "-o", "out"],
        ["dupes", "evals"],
        ["score", "evals"],
    ],
    ids=lambda argv: argv[0],
)
def test_hostile_front_matter_is_a_finding_in_every_command(
    tmp_path: Path, argv: list[str]
) -> None:
    (tmp_path / "evals").mkdir()
    (tmp_path / "out").mkdir()
    hostile_front_matter(tmp_path / "evals")
    done = evaltools(*argv, cwd=tmp_path)
    assert "internal error" not in done.stderr
    assert "Traceback" not in done.stderr
    # score has nothing to score in an .md without --predictions; the others find EP003.
    assert done.returncode == (0 if argv[0] == "score" else 1), done.stdout + done.stderr


@pytest.mark.parametrize("command", ["lint", "check"])
def test_the_front_matter_finding_is_at_its_place(tmp_path: Path, command: str) -> None:
    (tmp_path / "evals").mkdir()
    hostile_front_matter(tmp_path / "evals")
    out = evaltools(command, "evals", cwd=tmp_path).stdout
    assert (
        "evals/o--deep.md:4:8: EP003 [error] front matter is not valid TOML (arrays or inline "
        "tables nested too deeply)"
    ) in out
    assert (
        "evals/o--huge.md:4:5: EP003 [error] front matter is not valid TOML (an integer longer "
        "than readers take)"
    ) in out


def test_a_configuration_nested_too_deeply_is_a_usage_error_at_its_line(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text(
        '[tool.evaltools]\npaths = ["evals"]\nx = ' + "[" * 5000 + "]" * 5000 + "\n"
    )
    done = evaltools("check", cwd=tmp_path)
    assert done.returncode == 2
    assert "pyproject.toml:3:5:" in done.stderr
    assert "internal error" not in done.stderr


@pytest.fixture
def scored(tmp_path: Path) -> Path:
    write_jsonl(tmp_path / "ex.jsonl", [example("ex", [prediction(PERFECT)])])
    return tmp_path


@pytest.mark.parametrize("kind", ["fifo", "/dev/zero", "/dev/urandom", "directory"])
def test_score_predictions_that_are_no_regular_file_are_io007(scored: Path, kind: str) -> None:
    if kind == "fifo":
        os.mkfifo(scored / "preds.jsonl")
        named = "preds.jsonl"
    elif kind == "directory":
        (scored / "preds").mkdir()
        named = "preds"
    else:
        named = kind
    done = evaltools("score", "ex.jsonl", "--predictions", named, cwd=scored, timeout=120)
    assert done.returncode == 1
    assert f"{named}:1:1: IO007 [error] is " in done.stdout + done.stderr
    assert "internal error" not in done.stderr


def test_score_refuses_predictions_past_the_limit_unread(scored: Path) -> None:
    with (scored / "preds.jsonl").open("wb") as out:
        out.truncate(MAX_DATA_FILE_BYTES + 1)  # sparse: no disk, and reading it would stall
    done = evaltools("score", "ex.jsonl", "--predictions", "preds.jsonl", cwd=scored)
    assert done.returncode == 1
    assert "preds.jsonl:1:1: IO006 [error] file is 1,073,741,825 bytes" in done.stderr
    assert "internal error" not in done.stderr


def test_score_nested_and_huge_values_are_findings_at_their_place(scored: Path) -> None:
    deep = '{"name": "ex", "patch": ' + "[" * 100_000 + "]" * 100_000 + "}\n"
    (scored / "preds.jsonl").write_text(deep)
    record = example("big", [prediction(PERFECT)])
    record["prompt_inputs"]["excerpt_start_row"] = 7
    text = json.dumps(record).replace(
        '"excerpt_start_row": 7', '"excerpt_start_row": ' + "9" * 5000
    )
    (scored / "big.jsonl").write_text(text + "\n")
    column = text.index("9" * 5000) + 1
    done = evaltools("score", "ex.jsonl", "big.jsonl", "--predictions", "preds.jsonl", cwd=scored)
    found = done.stdout + done.stderr
    assert (
        "preds.jsonl:1:1: SC005 [error] not a JSON line: the JSON value is nested too deeply"
        in found
    )
    assert f"big.jsonl:1:{column}: IO008 [error] integer of 5,000 digits" in found
    assert "internal error" not in done.stderr


@pytest.mark.parametrize(
    "argv",
    [
        ["validate", "big.jsonl"],
        ["check", "big.jsonl"],
        ["dupes", "big.jsonl"],
        ["lint", "big.jsonl"],
    ],
    ids=lambda argv: argv[0],
)
def test_a_huge_sparse_jsonl_is_refused_unread(tmp_path: Path, argv: list[str]) -> None:
    with (tmp_path / "big.jsonl").open("wb") as out:
        out.truncate(MAX_DATA_FILE_BYTES + 1)
    done = evaltools(*argv, cwd=tmp_path)
    assert done.returncode == 1, done.stdout + done.stderr
    assert "big.jsonl:1:1: IO006 [error] file is 1,073,741,825 bytes" in done.stdout
    assert "internal error" not in done.stderr


def test_a_fifo_named_as_a_run_is_io007_not_a_hang(tmp_path: Path) -> None:
    record = {
        "qid": "q1",
        "query": "x",
        "type": "intent",
        "split": "tune",
        "gold": {"a.py:1-2:f": 3},
    }
    (tmp_path / "set.jsonl").write_text(json.dumps(record) + "\n")
    (tmp_path / "metas.jsonl").write_text(json.dumps({"chunk_id": "a.py:1-2:f"}) + "\n")
    os.mkfifo(tmp_path / "run.jsonl")
    done = evaltools(
        "gold",
        "eval",
        "run.jsonl",
        "--set",
        "set.jsonl",
        "--metas",
        "metas.jsonl",
        cwd=tmp_path,
        timeout=120,
    )
    assert "run.jsonl:1:1: IO007 [error] is not a regular file" in done.stdout + done.stderr
    assert "internal error" not in done.stderr


# A file replaced by a FIFO after it was listed (or planned): the reader that opens it must
# refuse it, not wait for a writer that never comes.
REPLACED = """
import os, sys
from pathlib import Path
from evaltools.retrieval.records.validation import validate
plan = validate.plan_file(Path("set.jsonl"), jobs=1, schema_text=None)
os.unlink("set.jsonl"); os.mkfifo("set.jsonl")
result = validate.check_chunk(plan.tasks[0])
print([(d.code, d.message) for d in result.diagnostics])
"""


def test_a_file_replaced_by_a_fifo_after_validate_planned_it(tmp_path: Path) -> None:
    (tmp_path / "set.jsonl").write_text('{"qid": "q1"}\n')
    done = subprocess.run(  # noqa: PLW1510 (the output is the check)
        [sys.executable, "-c", REPLACED], cwd=tmp_path, capture_output=True, text=True, timeout=120
    )
    assert done.stdout == "[('IO007', 'is not a regular file (a device, socket or FIFO)')]\n"


REPLACED_BEFORE_REWRITE = """
import os, sys
from pathlib import Path
from evaltools.atomic import atomic_write, FileChanged
Path("a.md").write_bytes(b"old\\n")
os.unlink("a.md"); os.mkfifo("a.md")
try:
    atomic_write(Path("a.md"), b"new\\n", expect=b"old\\n")
except FileChanged:
    print("changed")
"""


def test_a_file_replaced_by_a_fifo_before_its_rewrite_is_changed_not_a_hang(tmp_path: Path) -> None:
    done = subprocess.run(  # noqa: PLW1510 (the output is the check)
        [sys.executable, "-c", REPLACED_BEFORE_REWRITE],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.stdout == "changed\n", done.stderr
    assert (tmp_path / "a.md").is_fifo()


def test_a_temp_looking_name_with_a_huge_number_does_not_stop_writes(tmp_path: Path) -> None:
    (tmp_path / "evals").mkdir()
    stray = tmp_path / "evals" / f".a.md.evaltools-{'9' * 40}-0a1b2c3d.tmp"
    stray.write_text("x")
    record = example("ex", [prediction(PERFECT)])
    write_jsonl(tmp_path / "ex.jsonl", [record])
    done = evaltools(
        "convert", "ex.jsonl", "--to", "md", "-o", "evals", "--allow-lossy", cwd=tmp_path
    )
    assert "internal error" not in done.stderr
    assert done.returncode in (0, 1), done.stderr
    assert (tmp_path / "evals" / "ex.md").exists()


@pytest.mark.parametrize("where", ["prediction", "expected", "predictions-file"])
def test_score_refuses_a_patch_too_long_to_score_at_its_place(scored: Path, where: str) -> None:
    long_line = "x" * 150_000
    huge = PERFECT.replace("+    let x = 100;", "+" + long_line)
    args = ["score", "huge.jsonl"]
    if where == "prediction":
        record = example("huge", [prediction(huge)])
        pointer = "/predictions/0/actual_patch"
    elif where == "expected":
        record = example("huge", [prediction(PERFECT)], expected=[huge])
        pointer = "/expected_patches/0"
    else:
        record = example("huge", [])
        del record["prompt_inputs"], record["predictions"]
        (scored / "preds.jsonl").write_text(json.dumps({"name": "huge", "patch": huge}) + "\n")
        args += ["--predictions", "preds.jsonl"]
        pointer = "/predictions/0/actual_patch"
    write_jsonl(scored / "huge.jsonl", [record])
    done = evaltools(*args, cwd=scored)
    assert done.returncode == 1
    assert f"huge.jsonl:1:1: IO009 [error] {pointer} is {len(huge):,} characters" in done.stderr
    assert "internal error" not in done.stderr
