"""Writes racing other processes (issue 33, points 1 and 11), with real `python -m
evaltools` processes: two `gold eval` runs recording into one history at once, and an edit
that lands between the writer's comparison with what it read and its rename."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from evaltools.atomic import is_evaltools_temp
from tests.commands.gold.test_gold_eval import cid, record, write_set, write_trec
from tests.conftest import CORPUS

REFORMAT = (CORPUS / "flask--add-import-statement.md").read_text().replace("\n\n", "\n\n\n", 1)
CHANGED = "file changed while evaltools was working on it; nothing was written, run again"


def temps(directory: Path) -> list[str]:
    return sorted(p.name for p in directory.rglob("*") if is_evaltools_temp(p.name))


# --- two runs recording into one history ----------------------------------------------------

TRIALS = 50


def test_two_gold_evals_recording_at_once_both_land(tmp_path: Path) -> None:
    write_set(tmp_path, [record("q1", {cid(1): 3}), record("q2", {cid(2): 3}, kind="identifier")])
    for name in ("a.trec", "b.trec"):
        write_trec(tmp_path, name, [("q1", cid(1), 2.0), ("q2", cid(2), 1.0)])
    lost = []
    for trial in range(TRIALS):
        history = f"h{trial}.jsonl"  # not there yet, as in the first run of a CI matrix
        options = ["--set", "set.jsonl", "--metas", "metas.jsonl", "--history", history]
        runs = [
            subprocess.Popen(
                [sys.executable, "-m", "evaltools", "gold", "eval", run, *options],
                cwd=tmp_path,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.PIPE,
                text=True,
            )
            for run in ("a.trec", "b.trec")
        ]
        for process in runs:
            _, err = process.communicate(timeout=120)
            assert process.returncode == 0, err
        lines = (tmp_path / history).read_text().splitlines()
        recorded = sorted(json.loads(line)["run"] for line in lines)
        if recorded != ["a.trec", "b.trec"]:
            lost.append((trial, recorded))
    assert lost == []
    assert temps(tmp_path) == []


# --- an edit between the comparison and the rename ------------------------------------------

# Runs the CLI with an edit made by `EDIT` (a file of Python run by this process) at the
# writer's hook point between its comparison with what it read and its rename.
RACED_CLI = """
import sys
from pathlib import Path
from evaltools.__main__ import main
from evaltools.atomic import install

edit, args = sys.argv[1], sys.argv[2:]
state = {"done": []}

def race(target: Path) -> None:
    state["target"] = target
    exec(Path(edit).read_text(), state)

install.before_rename = race
sys.exit(main(args))
"""

# Once: the edit an editor saves at the worst moment.
SAVE_AS_AN_EDITOR_DOES = """
if not done:
    done.append(target)
    (target.parent / (target.name + "~")).write_text(EDITED)
    (target.parent / (target.name + "~")).replace(target)
"""

WRITE_INTO_THE_FILE = """
if not done:
    done.append(target)
    with target.open("a") as stream:
        stream.write(APPENDED)
"""

# A folder where the second output of a set goes, just before its rename.
FOLDER_IN_THE_WAY = """
if target.name == SECOND:
    (target / "x").mkdir(parents=True)
"""


def race(
    tmp_path: Path, edit: str, values: dict[str, str], *args: str
) -> subprocess.CompletedProcess[str]:
    script = tmp_path.parent / f"{tmp_path.name}-edit.py"
    assignments = "".join(f"{name} = {value!r}\n" for name, value in values.items())
    script.write_text(assignments + edit)
    return subprocess.run(
        [sys.executable, "-c", RACED_CLI, str(script), *args],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )


@pytest.mark.parametrize("edit", [SAVE_AS_AN_EDITOR_DOES, WRITE_INTO_THE_FILE])
def test_roundtrip_fix_keeps_an_edit_landing_just_before_its_rename(
    tmp_path: Path, edit: str
) -> None:
    path = tmp_path / "a.md"
    path.write_text(REFORMAT)
    added = "\n## Reasoning\n\nSaved meanwhile.\n"
    values = {"EDITED": REFORMAT + added, "APPENDED": added}
    done = race(tmp_path, edit, values, "roundtrip", "--fix", "a.md")
    assert (done.returncode, done.stderr) == (1, "")
    assert f"a.md:1:1: IO021 [error] {CHANGED}" in done.stdout
    assert "fixed" not in done.stdout
    assert path.read_text() == REFORMAT + added
    assert temps(tmp_path) == []


@pytest.mark.parametrize("edit", [SAVE_AS_AN_EDITOR_DOES, WRITE_INTO_THE_FILE])
def test_gold_split_keeps_a_record_added_just_before_its_rename(tmp_path: Path, edit: str) -> None:
    path = tmp_path / "set.jsonl"
    first = json.dumps({"qid": "q1", "query": "x", "type": "intent", "gold": {"a.py:1-2:f": 3}})
    path.write_text(first + "\n")
    appended = first.replace('"q1"', '"q2"') + "\n"
    values = {"EDITED": first + "\n" + appended, "APPENDED": appended}
    args = ["gold", "split", "set.jsonl", "--holdout", "0.5", "--seed", "1"]
    done = race(tmp_path, edit, values, *args)
    assert (done.returncode, done.stderr) == (1, "")
    assert f"set.jsonl:1:1: IO021 [error] {CHANGED}" in done.stdout
    assert path.read_text() == first + "\n" + appended
    assert temps(tmp_path) == []


def test_a_history_created_just_before_the_rename_is_kept(tmp_path: Path) -> None:
    """The first run into a history that is not there yet: a file another process creates
    meanwhile is not replaced (the command fails loudly and writes nothing)."""
    write_set(tmp_path, [record("q1", {cid(1): 3})])
    write_trec(tmp_path, "run.trec", [("q1", cid(1), 2.0)])
    theirs = '{"note": "another writer"}\n'
    args = ["gold", "eval", "run.trec", "--set", "set.jsonl", "--metas", "metas.jsonl"]
    done = race(tmp_path, SAVE_AS_AN_EDITOR_DOES, {"EDITED": theirs}, *args, "--history", "h.jsonl")
    assert done.returncode == 2
    assert done.stderr == (
        f"evaltools gold eval: error: cannot write --history h.jsonl: h.jsonl: {CHANGED}\n"
    )
    assert (tmp_path / "h.jsonl").read_text() == theirs
    assert temps(tmp_path) == []


def test_init_keeps_a_configuration_created_just_before_its_rename(tmp_path: Path) -> None:
    subprocess.run(["git", "init", "-q"], cwd=tmp_path, check=True)
    theirs = "repos: []  # written meanwhile\n"
    done = race(tmp_path, SAVE_AS_AN_EDITOR_DOES, {"EDITED": theirs}, "init")
    assert done.returncode == 1
    assert f".pre-commit-config.yaml: not written: {CHANGED}" in done.stdout
    assert (tmp_path / ".pre-commit-config.yaml").read_text() == theirs
    assert temps(tmp_path) == []


def test_a_rename_that_fails_puts_back_the_outputs_already_renamed(tmp_path: Path) -> None:
    record_ = {"qid": "q1", "query": "x", "type": "intent", "gold": {"a.py:1-2:f": 3}}
    (tmp_path / "a.jsonl").write_text(json.dumps(record_) + "\n")
    disagreeing = {**record_, "gold": {"a.py:1-2:f": 1}}  # a conflict to write
    (tmp_path / "b.jsonl").write_text(json.dumps(disagreeing) + "\n")
    (tmp_path / "m.jsonl").write_text("old merge\n")
    inode = (tmp_path / "m.jsonl").stat().st_ino
    args = ["gold", "merge", "a.jsonl", "b.jsonl", "-o", "m.jsonl", "--conflicts", "c.jsonl"]
    done = race(tmp_path, FOLDER_IN_THE_WAY, {"SECOND": "c.jsonl"}, *args, "--force")
    assert (done.returncode, done.stderr) == (1, "")
    assert "c.jsonl:1:1: IO020 [error] is a directory; the file was left unchanged" in done.stdout
    assert (tmp_path / "m.jsonl").read_text() == "old merge\n"
    assert (tmp_path / "m.jsonl").stat().st_ino == inode
    assert temps(tmp_path) == []
