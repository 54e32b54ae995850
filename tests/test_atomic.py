"""The one write every command uses (`evaltools.atomic`), through the commands that write:
no lost update, new files with the umask's mode, links written through, temporary files
that are recognisable and cleaned up. The real-process and real-signal tests are in
`test_write_faults.py`."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from evaltools.__main__ import main
from evaltools.atomic import (
    GITIGNORE_PATTERN,
    MISSING,
    AtomicFile,
    FileChanged,
    atomic_write,
    is_evaltools_temp,
    remove_stale_temps,
)
from evaltools.discover import discover
from tests.conftest import CORPUS

REFORMAT = (CORPUS / "flask--add-import-statement.md").read_text().replace("\n\n", "\n\n\n", 1)
RECORD = {"qid": "q1", "query": "x", "type": "identifier", "gold": {"a.py:1-2:f": 3}}


def temps(directory: Path) -> list[str]:
    return sorted(p.name for p in directory.rglob("*") if is_evaltools_temp(p.name))


def dead_pid() -> int:
    """The number of a process that has exited (and been reaped)."""
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    return child.pid


@pytest.fixture
def umask_022() -> Iterator[None]:
    old = os.umask(0o022)
    yield
    os.umask(old)


# --- lost updates ----------------------------------------------------------------------------


def test_the_writer_refuses_when_the_file_is_not_what_was_read(tmp_path: Path) -> None:
    path = tmp_path / "a.md"
    path.write_bytes(b"edited meanwhile\n")
    with pytest.raises(FileChanged) as caught:
        atomic_write(path, b"new\n", expect=b"what was read\n")
    assert "file changed while evaltools was working on it" in str(caught.value)
    assert path.read_bytes() == b"edited meanwhile\n"
    assert temps(tmp_path) == []
    atomic_write(path, b"new\n", expect=b"edited meanwhile\n")
    assert path.read_bytes() == b"new\n"


def test_check_fix_does_not_overwrite_an_edit_saved_while_it_worked(
    in_tmp: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    path = in_tmp / "a.md"
    path.write_text(REFORMAT)
    edited = REFORMAT + "\n## Reasoning\n\nSaved by an editor meanwhile.\n"
    from evaltools.example.markdown.roundtrip import check_roundtrip as real

    def check_then_edit(*args: object, **kwargs: object) -> object:
        result = real(*args, **kwargs)  # type: ignore[arg-type]
        path.with_name("edit.tmp").write_text(edited)
        path.with_name("edit.tmp").replace(path)  # as an editor saves
        return result

    monkeypatch.setattr(
        "evaltools.example.markdown.roundtrip_files.check_roundtrip", check_then_edit
    )
    assert main(["check", "--fix", "a.md"]) == 1
    out = capsys.readouterr().out
    assert (
        "a.md:1:1: IO021 [error] file changed while evaltools was working on it; "
        "nothing was written, run again"
    ) in out
    assert path.read_text() == edited
    assert temps(in_tmp) == []


# --- file modes ------------------------------------------------------------------------------


def test_new_files_get_the_umask_mode_and_rewritten_files_keep_theirs(
    in_tmp: Path, capsys: pytest.CaptureFixture[str], umask_022: None
) -> None:
    (in_tmp / "set.jsonl").write_text(json.dumps(RECORD) + "\n")
    (in_tmp / "b.jsonl").write_text(json.dumps(RECORD) + "\n")
    sample = ["gold", "sample", "set.jsonl", "--seed", "1", "--fraction", "1", "-o"]
    assert main([*sample, "sample.jsonl"]) == 0
    assert main(["gold", "merge", "set.jsonl", "b.jsonl", "-o", "m.jsonl", "--conflicts", "c"]) == 0
    assert main(["init"]) == 0
    for name in ("sample.jsonl", "m.jsonl", "c", ".pre-commit-config.yaml"):
        assert (in_tmp / name).stat().st_mode & 0o777 == 0o644, name
    (in_tmp / "sample.jsonl").chmod(0o640)
    assert main([*sample, "sample.jsonl", "--force"]) == 0
    assert (in_tmp / "sample.jsonl").stat().st_mode & 0o777 == 0o640
    (in_tmp / "a.md").write_text(REFORMAT)
    (in_tmp / "a.md").chmod(0o600)
    assert main(["roundtrip", "--fix", "a.md"]) == 0
    assert (in_tmp / "a.md").stat().st_mode & 0o777 == 0o600
    capsys.readouterr()


READ_ONLY = (
    "the file is read-only (mode 0444, no write permission for anyone): make it writable "
    "(chmod u+w) to let evaltools rewrite it"
)


@pytest.mark.parametrize(
    ("name", "argv"),
    [
        ("a.md", ["roundtrip", "--fix", "a.md"]),
        ("out.jsonl", ["convert", "a.md", "--to", "jsonl", "-o", "out.jsonl", "--force"]),
        ("set.jsonl", ["gold", "split", "set.jsonl", "--holdout", "0.5", "--seed", "1"]),
    ],
)
def test_a_read_only_file_is_not_rewritten_even_by_root(
    in_tmp: Path, capsys: pytest.CaptureFixture[str], name: str, argv: list[str]
) -> None:
    # Decided from the mode bits, not `os.access` (which lets root write anything): run as
    # root, as this suite runs on CI, the refusal is the same as for any user.
    (in_tmp / "a.md").write_text(REFORMAT)
    (in_tmp / "out.jsonl").write_text("old\n")
    (in_tmp / "set.jsonl").write_text(json.dumps(RECORD) + "\n")
    before = (in_tmp / name).read_bytes()
    (in_tmp / name).chmod(0o444)
    assert main(argv) == 1
    found = [line for line in capsys.readouterr().out.splitlines() if READ_ONLY in line]
    assert len(found) == 1
    assert found[0].startswith(f"{name}:1:1: ")
    assert (in_tmp / name).read_bytes() == before
    assert (in_tmp / name).stat().st_mode & 0o777 == 0o444
    assert temps(in_tmp) == []


# --- symbolic links --------------------------------------------------------------------------


def test_convert_writes_through_an_output_link_as_every_write_does(
    in_tmp: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = CORPUS / "flask--add-import-statement.md"
    (in_tmp / "real.jsonl").write_text("old\n")
    (in_tmp / "link.jsonl").symlink_to("real.jsonl")
    assert main(["convert", str(source), "--to", "jsonl", "-o", "link.jsonl", "--force"]) == 0
    assert (in_tmp / "link.jsonl").is_symlink()
    assert json.loads((in_tmp / "real.jsonl").read_text())["name"]
    # one example into one Markdown file, and into a directory holding a link
    (in_tmp / "real.md").write_text("old\n")
    (in_tmp / "one.md").symlink_to("real.md")
    jsonl = ["real.jsonl", "--to", "md", "--force", "-o"]
    assert main(["convert", *jsonl, "one.md"]) == 0
    assert (in_tmp / "one.md").is_symlink()
    assert (in_tmp / "real.md").read_text().startswith("+++")
    (in_tmp / "out").mkdir()
    name = json.loads((in_tmp / "real.jsonl").read_text())["name"]
    (in_tmp / "elsewhere.md").write_text("old\n")
    (in_tmp / "out" / f"{name}.md").symlink_to(in_tmp / "elsewhere.md")
    (in_tmp / "more.jsonl").write_text((in_tmp / "real.jsonl").read_text() * 2)
    assert main(["convert", "more.jsonl", "--to", "md", "--force", "-o", "out"]) == 0
    assert (in_tmp / "out" / f"{name}.md").is_symlink()
    assert (in_tmp / "elsewhere.md").read_text().startswith("+++")
    assert temps(in_tmp) == []
    capsys.readouterr()


def test_gold_outputs_write_through_links(in_tmp: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (in_tmp / "set.jsonl").write_text(json.dumps(RECORD) + "\n")
    (in_tmp / "real.jsonl").write_text("old\n")
    (in_tmp / "link.jsonl").symlink_to("real.jsonl")
    argv = ["gold", "sample", "set.jsonl", "--seed", "1", "--fraction", "1", "-o", "link.jsonl"]
    assert main([*argv, "--force"]) == 0
    assert (in_tmp / "link.jsonl").is_symlink()
    assert "a.py:1-2:f" in (in_tmp / "real.jsonl").read_text()
    capsys.readouterr()


# --- temporary files -------------------------------------------------------------------------


def test_temporary_file_names_are_recognised_and_ignored_by_discovery_and_git(
    tmp_path: Path,
) -> None:
    names = [".a.md.evaltools-123-0a1b2c3d.tmp", ".evaltools-77-0a1b2c3d-12-5.tmp"]
    assert all(is_evaltools_temp(n) for n in names)
    assert not any(is_evaltools_temp(n) for n in ("a.md", ".a.md.tmp", "evaltools-1-a.tmp"))
    for name in [*names, "a.md"]:
        (tmp_path / name).write_text("x")
    assert [p.name for p in discover([tmp_path], (".md",))] == ["a.md"]
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    (tmp_path / ".gitignore").write_text(GITIGNORE_PATTERN + "\n")
    status = subprocess.run(
        ["git", "-C", str(tmp_path), "status", "--porcelain", "--untracked-files=all"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    assert sorted(line[3:] for line in status.splitlines()) == [".gitignore", "a.md"]


def test_stale_temporary_files_go_and_live_ones_stay(tmp_path: Path) -> None:
    stale = tmp_path / f".a.md.evaltools-{dead_pid()}-0a1b2c3d.tmp"
    live = tmp_path / f".b.md.evaltools-{os.getppid()}-0a1b2c3d.tmp"  # our parent: alive
    stale.write_text("x")
    live.write_text("x")
    # A live process that started after the file was written is a reused number: stale.
    reused = tmp_path / f".c.md.evaltools-{os.getppid()}-0a1b2c3d.tmp"
    reused.write_text("x")
    os.utime(reused, (1_000_000, 1_000_000))
    assert remove_stale_temps(tmp_path) == 2
    assert temps(tmp_path) == [live.name]


def test_the_next_write_into_a_folder_removes_what_a_killed_run_left(
    in_tmp: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    left = in_tmp / f".a.md.evaltools-{dead_pid()}-0a1b2c3d.tmp"
    left.write_text("x" * 1000)
    (in_tmp / "a.md").write_text(REFORMAT)
    assert main(["roundtrip", "--fix", "a.md"]) == 0
    assert "a.md: fixed" in capsys.readouterr().out
    assert temps(in_tmp) == []


def test_a_file_given_a_mode_has_it_from_its_creation(tmp_path: Path) -> None:
    """A key: no other user may open the temporary file even before a byte is in it."""
    target = tmp_path / "rows.key"
    old = os.umask(0o022)
    try:
        with AtomicFile(target, expect=MISSING, mode=0o600) as out:
            assert out.temp is not None
            assert out.temp.stat().st_mode & 0o777 == 0o600
            out.write(b"k" * 32)
            out.commit()
    finally:
        os.umask(old)
    assert target.stat().st_mode & 0o777 == 0o600
    assert target.read_bytes() == b"k" * 32
