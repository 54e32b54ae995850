"""Writes under real faults, with real processes (`python -m evaltools`) and real signals:
an edit saved while a command works, a full or read-only file system (a real 64 KiB tmpfs,
mounted for the test: these tests run as root, like the project's CI container), a
SIGKILL at a random moment of every rewriting command."""

from __future__ import annotations

import contextlib
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Iterator, Sequence
from pathlib import Path

import pytest

from evaltools.atomic import is_evaltools_temp
from tests.conftest import CORPUS
from tests.example import gen_records

REFORMAT = (CORPUS / "flask--add-import-statement.md").read_text().replace("\n\n", "\n\n\n", 1)
CHANGED = "file changed while evaltools was working on it; nothing was written, run again"

# Runs the CLI with `target` paused after it has done its work (before the write): it says
# so on stderr and waits for a line on stdin. No hook in evaltools: the test patches it.
PAUSED_CLI = """
import sys, importlib
from evaltools.__main__ import main
module_name, name = sys.argv[1].rsplit(".", 1)
module = importlib.import_module(module_name)
real = getattr(module, name)
def paused(*args, **kwargs):
    result = real(*args, **kwargs)
    sys.stderr.write("worked\\n"); sys.stderr.flush()
    sys.stdin.readline()
    return result
setattr(module, name, paused)
sys.exit(main(sys.argv[2:]))
"""


def evaltools(*args: str, cwd: Path, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    """The CLI in a process of its own: a hang is a TimeoutExpired, not a stuck suite."""
    return subprocess.run(
        [sys.executable, "-m", "evaltools", *args],
        check=False,
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def temps(directory: Path) -> list[str]:
    return sorted(p.name for p in directory.rglob("*") if is_evaltools_temp(p.name))


def edit_while_paused(
    target: str, args: Sequence[str], cwd: Path, edit: object
) -> subprocess.CompletedProcess[str]:
    """Run the CLI, make `edit` once `target` has done its work, then let it write."""
    process = subprocess.Popen(
        [sys.executable, "-c", PAUSED_CLI, target, *args],
        cwd=cwd,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert process.stderr is not None and process.stdin is not None
    try:
        assert process.stderr.readline() == "worked\n"
        assert callable(edit)
        edit()
        out, err = process.communicate("\n", timeout=60)
    finally:
        process.kill()
        process.wait()
    return subprocess.CompletedProcess(process.args, process.returncode, out, err)


# --- lost updates (issue 12.1) ---------------------------------------------------------------


def test_roundtrip_fix_keeps_an_edit_an_editor_saved_while_it_worked(tmp_path: Path) -> None:
    path = tmp_path / "a.md"
    path.write_text(REFORMAT)
    edited = REFORMAT + "\n## Reasoning\n\nSaved meanwhile.\n"

    def save_as_an_editor_does() -> None:
        (tmp_path / "a.md~").write_text(edited)
        (tmp_path / "a.md~").replace(path)

    done = edit_while_paused(
        "evaltools.example.markdown.roundtrip_files.check_roundtrip",
        ["roundtrip", "--fix", "a.md"],
        tmp_path,
        save_as_an_editor_does,
    )
    assert done.returncode == 1, done.stderr
    assert f"a.md:1:1: IO021 [error] {CHANGED}" in done.stdout
    assert "fixed" not in done.stdout
    assert path.read_text() == edited
    assert temps(tmp_path) == []


def test_gold_split_keeps_a_record_appended_while_it_worked(tmp_path: Path) -> None:
    path = tmp_path / "set.jsonl"
    record = {"qid": "q1", "query": "x", "type": "intent", "gold": {"a.py:1-2:f": 3}}
    path.write_text(json.dumps(record) + "\n")
    appended = json.dumps({**record, "qid": "q2"}) + "\n"

    def append() -> None:
        with path.open("a") as stream:
            stream.write(appended)

    done = edit_while_paused(
        "evaltools.retrieval.gold.discipline.holdout.split_set",
        ["gold", "split", "set.jsonl", "--holdout", "0.5", "--seed", "1"],
        tmp_path,
        append,
    )
    assert done.returncode == 1, done.stderr
    assert f"set.jsonl:1:1: IO021 [error] {CHANGED}" in done.stdout
    assert path.read_text() == json.dumps(record) + "\n" + appended
    assert temps(tmp_path) == []


# --- write failures (issue 12.4) -------------------------------------------------------------


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Path]:
    """A real 64 KiB tmpfs."""
    mount = tmp_path / "disk"
    mount.mkdir()
    subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", str(mount)], check=True)
    try:
        yield mount
    finally:
        subprocess.run(["umount", "-l", str(mount)], check=True)


def fill(disk: Path) -> None:
    """Use up every free block of the file system."""
    with (disk / "filler").open("wb", buffering=0) as stream:
        for size in (4096, 1):
            try:
                while True:
                    stream.write(b"x" * size)
            except OSError:
                pass


def read_only(disk: Path) -> None:
    subprocess.run(["mount", "-o", "remount,ro", str(disk)], check=True)


def test_roundtrip_fix_reports_a_full_disk_and_goes_on(small_disk: Path, tmp_path: Path) -> None:
    for name in ("b.md", "c.md"):
        (tmp_path / name).write_text(REFORMAT)
    (small_disk / "a.md").write_text(REFORMAT)
    fill(small_disk)
    done = evaltools("roundtrip", "--fix", "b.md", "disk/a.md", "c.md", cwd=tmp_path)
    assert done.returncode == 1, done.stderr
    lines = done.stdout.splitlines()
    assert "b.md: fixed (rewritten in canonical form)" in lines
    assert "c.md: fixed (rewritten in canonical form)" in lines
    assert (
        "disk/a.md:1:1: IO020 [error] no space left on device; the file was left unchanged" in lines
    )
    assert lines[-1] == "3 files: 3 reformat (2 fixed)."
    assert (small_disk / "a.md").read_text() == REFORMAT
    assert temps(small_disk) == []


def test_a_read_only_file_system_is_a_finding_for_every_writer(
    small_disk: Path, tmp_path: Path
) -> None:
    (small_disk / "a.md").write_text(REFORMAT)
    record = {"qid": "q1", "query": "x", "type": "intent", "gold": {"a.py:1-2:f": 3}}
    (small_disk / "set.jsonl").write_text(json.dumps(record) + "\n")
    read_only(small_disk)
    message = "IO020 [error] read-only file system; the file was left unchanged"
    done = evaltools("roundtrip", "--fix", "disk/a.md", cwd=tmp_path)
    assert (done.returncode, done.stderr) == (1, "")
    assert f"disk/a.md:1:1: {message}" in done.stdout
    split = ["gold", "split", "disk/set.jsonl", "--holdout", "0.5", "--seed", "1"]
    done = evaltools(*split, cwd=tmp_path)
    assert (done.returncode, done.stderr) == (1, "")
    assert f"disk/set.jsonl:1:1: {message}" in done.stdout
    sample = ["gold", "sample", "disk/set.jsonl", "--fraction", "1", "--seed", "1", "-o"]
    done = evaltools(*sample, "disk/sample.jsonl", cwd=tmp_path)
    assert (done.returncode, done.stderr) == (1, "")
    assert f"disk/sample.jsonl:1:1: {message}" in done.stdout


def test_merge_on_a_full_disk_writes_neither_output(small_disk: Path, tmp_path: Path) -> None:
    record = {"qid": "q1", "query": "x", "type": "intent", "gold": {"a.py:1-2:f": 3}}
    (tmp_path / "a.jsonl").write_text(json.dumps(record) + "\n")
    disagreeing = {**record, "gold": {"a.py:1-2:f": 1}}  # a conflict to write
    (tmp_path / "b.jsonl").write_text(json.dumps(disagreeing) + "\n")
    fill(small_disk)
    args = ["gold", "merge", "a.jsonl", "b.jsonl", "-o", "m.jsonl", "--conflicts", "disk/c.jsonl"]
    done = evaltools(*args, cwd=tmp_path)
    assert done.returncode == 1
    assert done.stderr == ""
    assert "disk/c.jsonl:1:1: IO020 [error] no space left on device" in done.stdout
    assert not (tmp_path / "m.jsonl").exists()  # -o and --conflicts: both or neither
    assert not (small_disk / "c.jsonl").exists()
    assert temps(small_disk) == []


def test_convert_to_jsonl_on_a_full_disk_leaves_no_temporary_file(
    small_disk: Path, tmp_path: Path
) -> None:
    source = tmp_path / "set.jsonl"
    gen_records.write_jsonl(source, 200)  # well over 64 KiB
    done = evaltools("convert", str(source), "--to", "jsonl", "-o", "disk/out.jsonl", cwd=tmp_path)
    assert done.returncode == 1, done.stderr
    assert "CV012" in done.stdout
    assert "cannot write disk/out.jsonl: no space left on device; nothing was written" in (
        done.stdout
    )
    assert sorted(p.name for p in small_disk.iterdir()) == []


# --- stale temporary files (issue 12.10) -----------------------------------------------------


def kill_group(process: subprocess.Popen[bytes]) -> None:
    """SIGKILL a run started in its own session, and everything it started."""
    with contextlib.suppress(ProcessLookupError):
        os.killpg(process.pid, signal.SIGKILL)
    process.wait(timeout=120)


def no_process_left(group: int) -> bool:
    deadline = time.monotonic() + 60  # the kernel reaps orphans asynchronously, and slowly
    while time.monotonic() < deadline:  # on a loaded machine
        try:
            os.killpg(group, 0)
        except ProcessLookupError:
            return True
        time.sleep(0.05)
    return False


def test_a_killed_conversion_leaves_named_temporaries_the_next_run_removes(
    tmp_path: Path,
) -> None:
    source = tmp_path / "set.jsonl"
    gen_records.write_jsonl(source, 3000)
    out = tmp_path / "out"
    out.mkdir()
    argv = [sys.executable, "-m", "evaltools", "convert", str(source), "--to", "md", "-o", "out"]
    process = subprocess.Popen([*argv, "--jobs", "2"], cwd=tmp_path, start_new_session=True)
    try:
        deadline = time.monotonic() + 120
        while not temps(out) and time.monotonic() < deadline:
            time.sleep(0.001)
        os.kill(process.pid, signal.SIGKILL)  # the main process: workers' spools stay
    finally:
        kill_group(process)
    assert no_process_left(process.pid)
    assert temps(out), "the run was killed before it spooled anything"
    assert all(f"evaltools-{process.pid}-" in name for name in temps(out))
    done = evaltools(*argv[3:], "--force", "--limit", "1", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert temps(out) == []


# --- random SIGKILL during every rewriting command (issue 12 acceptance) ---------------------


def _setups(root: Path) -> dict[str, tuple[list[str], list[Path]]]:
    """Per command: its argv and the folders it works in."""
    md = root / "md"
    md.mkdir()
    for i in range(30):
        (md / f"e{i:02d}.md").write_text(REFORMAT)
    checked = root / "checked"
    shutil.copytree(md, checked)
    gold = root / "gold"
    gold.mkdir()
    kinds = ("identifier", "intent", "mixed")
    records = [
        {"qid": f"q{i}", "query": "x" * 200, "type": kinds[i % 3], "gold": {f"a{i}.py:1-2:f": 3}}
        for i in range(8_000)
    ]
    (gold / "set.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records))
    (gold / "b.jsonl").write_text((gold / "set.jsonl").read_text())
    for name in ("sample.jsonl", "merged.jsonl", "out.jsonl"):
        (gold / name).write_text("old\n")
    converted = root / "convert"
    converted.mkdir()
    gen_records.write_jsonl(converted / "in.jsonl", 600)
    (converted / "out.jsonl").write_text("old\n")
    return {
        "roundtrip": (["roundtrip", "--fix", str(md)], [md]),
        "check": (["check", "--fix", str(checked)], [checked]),
        "split": (["gold", "split", str(gold / "set.jsonl"), "--seed", "3"], [gold]),
        "sample": (
            [
                "gold",
                "sample",
                str(gold / "b.jsonl"),
                "--fraction",
                "0.5",
                "--seed",
                "3",
                "-o",
                str(gold / "sample.jsonl"),
                "--force",
            ],
            [gold],
        ),
        "merge": (
            [
                "gold",
                "merge",
                str(gold / "b.jsonl"),
                str(gold / "b.jsonl"),
                "-o",
                str(gold / "merged.jsonl"),
                "--force",
            ],
            [gold],
        ),
        "convert": (
            [
                "convert",
                str(converted / "in.jsonl"),
                "--to",
                "jsonl",
                "-o",
                str(converted / "out.jsonl"),
                "--force",
            ],
            [converted],
        ),
    }


def _snapshot(folders: list[Path]) -> dict[Path, bytes]:
    return {
        p: p.read_bytes()
        for folder in folders
        for p in sorted(folder.iterdir())
        if p.is_file() and not is_evaltools_temp(p.name)
    }


def test_random_sigkill_leaves_every_target_old_or_new_and_no_temporary_file(
    tmp_path: Path,
) -> None:
    rng = random.Random(20261202)
    setups = _setups(tmp_path)
    for name, (args, folders) in setups.items():
        old = _snapshot(folders)
        started = time.monotonic()
        done = evaltools(*args, cwd=tmp_path)
        took = time.monotonic() - started
        assert done.returncode in (0, 1), (name, done.stderr)
        new = _snapshot(folders)
        for round_ in range(2):
            for path, data in old.items():  # the inputs as they were before any run
                path.write_bytes(data)
            process = subprocess.Popen(
                [sys.executable, "-m", "evaltools", *args],
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                cwd=tmp_path,
                start_new_session=True,
            )
            try:
                time.sleep(rng.uniform(0.3 * took, took))  # past most of start-up
                os.kill(process.pid, signal.SIGKILL)
            finally:
                kill_group(process)
            assert no_process_left(process.pid), name
            for path, data in _snapshot(folders).items():
                assert data in (old[path], new[path]), (name, round_, path)
        done = evaltools(*args, cwd=tmp_path)
        assert done.returncode in (0, 1), (name, done.stderr)
        assert [temps(folder) for folder in folders] == [[] for _ in folders], name
        assert _snapshot(folders) == new, name
