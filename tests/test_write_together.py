"""Outputs written together and outputs that cannot be written (issue 33, points 2, 4 and
6): a command writing related files writes them all or none; a conversion into a folder
that cannot take its files reports each one, leaves the files there as they were and no
temporary file; a read-only file is refused by every output form alike."""

from __future__ import annotations

import json
import os
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from evaltools.__main__ import main
from tests.commands.gold.test_gold_eval import cid, record, write_set, write_trec
from tests.commands.gold.test_gold_eval_plot import entry
from tests.example import gen_records
from tests.test_write_faults import evaltools, fill, temps

READ_ONLY = (
    "the file is read-only (mode 0444, no write permission for anyone): make it writable "
    "(chmod u+w) to let evaltools rewrite it"
)
RECORD = {"qid": "q1", "query": "x", "type": "intent", "gold": {"a.py:1-2:f": 3}}


def snapshot(folder: Path) -> dict[str, tuple[bytes, int]]:
    """Every file's bytes and inode: a file replaced by the same bytes is a change too."""
    return {
        str(p.relative_to(folder)): (p.read_bytes(), p.stat().st_ino)
        for p in sorted(folder.rglob("*"))
        if p.is_file()
    }


# --- all or none (point 2) -------------------------------------------------------------------


def test_gold_eval_leaves_the_plot_when_the_history_cannot_be_written(in_tmp: Path) -> None:
    write_set(in_tmp, [record("q1", {cid(1): 3}), record("q2", {cid(2): 3}, kind="identifier")])
    write_trec(in_tmp, "run.trec", [("q1", cid(1), 2.0), ("q2", cid(2), 1.0)])
    (in_tmp / "hist.jsonl").write_text(entry("old.trec", {"all": 0.5}), encoding="utf-8")
    args = ["gold", "eval", "--set", "set.jsonl", "--history", "hist.jsonl", "--plot", "c.svg"]
    assert main(args) == 0  # a chart of the history as it is
    (in_tmp / "hist.jsonl").chmod(0o444)
    before = snapshot(in_tmp)
    done = evaltools(*args[:2], "run.trec", *args[2:], "--metas", "metas.jsonl", cwd=in_tmp)
    assert done.returncode == 2
    assert done.stderr == (
        f"evaltools gold eval: error: cannot write --history hist.jsonl: hist.jsonl: {READ_ONLY}\n"
    )
    assert snapshot(in_tmp) == before
    assert temps(in_tmp) == []


def test_gold_merge_writes_neither_output_when_one_cannot_be_written(tmp_path: Path) -> None:
    (tmp_path / "a.jsonl").write_text(json.dumps(RECORD) + "\n")
    disagreeing = {**RECORD, "gold": {"a.py:1-2:f": 1}}  # a conflict to write
    (tmp_path / "b.jsonl").write_text(json.dumps(disagreeing) + "\n")
    (tmp_path / "m.jsonl").write_text("old merge\n")
    (tmp_path / "c.jsonl").write_text("old conflicts\n")
    (tmp_path / "c.jsonl").chmod(0o444)
    before = snapshot(tmp_path)
    args = ["gold", "merge", "a.jsonl", "b.jsonl", "-o", "m.jsonl", "--conflicts", "c.jsonl"]
    done = evaltools(*args, "--force", cwd=tmp_path)
    assert (done.returncode, done.stderr) == (1, "")
    assert f"c.jsonl:1:1: IO020 [error] {READ_ONLY}; the file was left unchanged" in done.stdout
    assert snapshot(tmp_path) == before
    assert temps(tmp_path) == []


def test_gold_split_writes_no_file_of_the_set_when_one_cannot_be_written(tmp_path: Path) -> None:
    kinds = ("identifier", "intent", "mixed")
    for name, first in (("a.jsonl", 0), ("b.jsonl", 10)):
        records = [{**RECORD, "qid": f"q{first + i}", "type": kinds[i % 3]} for i in range(10)]
        (tmp_path / name).write_text("".join(json.dumps(r) + "\n" for r in records))
    (tmp_path / "b.jsonl").chmod(0o444)
    before = snapshot(tmp_path)
    done = evaltools("gold", "split", "a.jsonl", "b.jsonl", "--seed", "1", cwd=tmp_path)
    assert (done.returncode, done.stderr) == (1, "")
    assert f"b.jsonl:1:1: IO020 [error] {READ_ONLY}; the file was left unchanged" in done.stdout
    assert snapshot(tmp_path) == before
    (tmp_path / "b.jsonl").chmod(0o644)
    done = evaltools("gold", "split", "a.jsonl", "b.jsonl", "--seed", "1", cwd=tmp_path)
    assert done.returncode == 0, done.stdout
    assert all(
        p.read_bytes() != before[p.name][0] for p in (tmp_path / "a.jsonl", tmp_path / "b.jsonl")
    )


# --- one rule for read-only outputs (point 6) ------------------------------------------------


@pytest.mark.parametrize("to", ["md", "json"])
def test_convert_into_a_folder_refuses_a_read_only_file_as_into_one_file(
    tmp_path: Path, to: str
) -> None:
    source = tmp_path / "set.jsonl"
    gen_records.write_jsonl(source, 5)
    done = evaltools("convert", "set.jsonl", "--to", to, "-o", "out", cwd=tmp_path)
    assert done.returncode == 0, done.stdout
    locked = sorted((tmp_path / "out").iterdir())[2]
    locked.write_text("mine\n")
    locked.chmod(0o444)
    others = {p: p.read_bytes() for p in (tmp_path / "out").iterdir() if p != locked}
    for p in others:
        p.write_text("old\n")
    inode = locked.stat().st_ino
    done = evaltools("convert", "set.jsonl", "--to", to, "-o", "out", "--force", cwd=tmp_path)
    assert (done.returncode, done.stderr) == (1, "")
    shown = f"out/{locked.name}"
    assert f"CV012 [error] cannot write {shown}: {READ_ONLY}" in done.stdout
    assert f"5 examples to {to} (4 written, 1 refused): out" in done.stdout
    assert (locked.read_text(), locked.stat().st_ino) == ("mine\n", inode)
    assert {p: p.read_bytes() for p in others} == others  # the others: new bytes
    # The same rule as for one file.
    done = evaltools(
        "convert", "set.jsonl", "--to", to, "--limit", "1", "-o", shown, "--force", cwd=tmp_path
    )
    assert done.returncode == 1
    assert f"CV012 [error] cannot write {shown}: {READ_ONLY}" in done.stdout
    assert temps(tmp_path) == []


# --- a folder that cannot take the files (point 4) -------------------------------------------


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[tuple[Path, str]]:
    """A real 64 KiB tmpfs (these tests run as root, as CI does); where mounting is not
    permitted, a folder without write permission, which only a user other than root feels:
    (folder, how) with how "tmpfs" or "folder", so that no run passes by doing nothing."""
    mount = tmp_path / "disk"
    mount.mkdir()
    done = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", str(mount)],
        check=False,
        capture_output=True,
    )
    if done.returncode != 0:
        assert os.geteuid() != 0, f"root, and cannot mount a tmpfs: {done.stderr!r}"
        yield mount, "folder"
        mount.chmod(0o755)
        return
    try:
        yield mount, "tmpfs"
    finally:
        subprocess.run(["umount", "-l", str(mount)], check=True)


def unwritable(disk: Path, how: str, fault: str) -> str:
    """Make `disk` refuse writes; the reason the system gives."""
    if how == "folder":
        disk.chmod(0o555)
        return "permission denied"
    if fault == "full":
        fill(disk)
        return "no space left on device"
    subprocess.run(["mount", "-o", "remount,ro", str(disk)], check=True)
    return "read-only file system"


@pytest.mark.parametrize("fault", ["full", "read-only"])
@pytest.mark.parametrize("to", ["md", "json"])
def test_convert_into_a_folder_that_cannot_take_the_files(
    small_disk: tuple[Path, str], tmp_path: Path, to: str, fault: str
) -> None:
    disk, how = small_disk
    source = tmp_path / "set.jsonl"
    gen_records.write_jsonl(source, 40)
    done = evaltools("convert", "set.jsonl", "--to", to, "--limit", "1", "-o", "one", cwd=tmp_path)
    assert done.returncode == 0, done.stdout
    first = next((tmp_path / "one").iterdir()).name
    (disk / first).write_text("mine\n")  # a file already there, for --force to replace
    reason = unwritable(disk, how, fault)
    before = snapshot(disk)
    args = ["convert", "set.jsonl", "--to", to, "-o", "disk", "--force"]
    done = evaltools(*args, cwd=tmp_path)
    assert (done.returncode, done.stderr) == (1, ""), done.stderr
    found = [line for line in done.stdout.splitlines() if " CV012 [error] " in line]
    assert len(found) == 40
    assert found[0].endswith(f"cannot write disk/{first}: {reason}")
    assert f"40 examples to {to} (0 written, 40 refused): disk" in done.stdout
    assert snapshot(disk) == before
    assert temps(disk) == []
    if fault == "full":
        return  # an empty folder takes no block: only its files fail
    # A folder it would have to make there: one finding, nothing else.
    done = evaltools("convert", "set.jsonl", "--to", to, "-o", "disk/new", cwd=tmp_path)
    assert (done.returncode, done.stderr) == (1, ""), done.stderr
    assert f"disk/new:1:1: CV012 [error] cannot write disk/new: {reason}" in done.stdout
    assert snapshot(disk) == before
