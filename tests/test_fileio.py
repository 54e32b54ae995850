"""What `evaltools.fileio` owes every command: paths shown as named, links and loops that are
findings (not crashes), one line per finding, and rewrites that keep links and devices."""

from __future__ import annotations

import json
import os
import shutil
import stat
import threading
from pathlib import Path

import pytest

from evaltools.__main__ import main
from tests.conftest import CORPUS

RECORD = {"qid": "q1", "query": "x", "type": "identifier", "gold": {"a.py:1-2:f": 3}}
# Round-trips as `reformat`: a doubled blank line, which --fix removes.
REFORMAT = (CORPUS / "flask--add-import-statement.md").read_text().replace("\n\n", "\n\n\n", 1)


def _loop(directory: Path, suffix: str) -> None:
    (directory / f"a{suffix}").symlink_to(f"b{suffix}")
    (directory / f"b{suffix}").symlink_to(f"a{suffix}")


@pytest.mark.parametrize(
    ("argv", "suffix", "expected"),
    [
        (["lint", "evals"], ".md", "evals/a.md:1:1: IO007 [error] is not a regular file"),
        (["roundtrip", "evals"], ".md", "evals/a.md:1:1: IO007 [error] is not a regular file"),
        (["validate", "evals"], ".jsonl", "evals/a.jsonl:1:1: IO007 [error] is not a regular"),
        (["gold", "stats", "evals"], ".jsonl", "evals/a.jsonl:1:1: IO007 [error] is not a"),
        (["gold", "check", "evals", "--root", "."], ".jsonl", "evals/a.jsonl:1:1: IO007"),
        (["check", "evals"], ".jsonl", "evals/a.jsonl:1:1: IO007 [error] is not a regular"),
    ],
)
def test_a_symlink_loop_in_a_searched_directory_is_a_finding_not_a_crash(
    in_tmp: Path,
    capsys: pytest.CaptureFixture[str],
    argv: list[str],
    suffix: str,
    expected: str,
) -> None:
    (in_tmp / "evals").mkdir()
    _loop(in_tmp / "evals", suffix)
    assert main(argv) == 1
    out, err = capsys.readouterr()
    assert expected in out + err
    assert "internal error" not in err


def test_a_broken_link_named_directly_is_a_usage_error_that_says_so(
    in_tmp: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _loop(in_tmp, ".md")
    assert main(["lint", "a.md"]) == 2
    assert capsys.readouterr().err == (
        "evaltools lint: error: broken symbolic link (its target is missing or loops): a.md\n"
    )


def test_findings_are_shown_under_the_name_of_the_link(
    in_tmp: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (in_tmp / "real.md").write_text("")
    (in_tmp / "link.md").symlink_to("real.md")
    assert main(["lint", "link.md"]) == 1
    assert capsys.readouterr().out.startswith("link.md:1:1: IO004 [error] file is empty")


def test_a_file_that_cannot_be_read_is_a_finding(
    in_tmp: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # chmod 000 does not stop root; make the read fail as it does for everyone else.
    shutil.copyfile(CORPUS / "flask--add-import-statement.md", in_tmp / "locked.md")
    real_open = os.open

    def os_open(path: str, *args: object, **kwargs: object) -> int:
        if str(path).endswith("locked.md"):
            raise PermissionError(13, "Permission denied", str(path))
        return real_open(path, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(os, "open", os_open)
    assert main(["lint", "locked.md"]) == 1
    out, err = capsys.readouterr()
    assert out.startswith("locked.md:1:1: IO007 [error] cannot read the file: permission denied")
    assert err == ""


def test_one_finding_is_one_line_whatever_the_file_name_holds(
    in_tmp: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (in_tmp / "a\nb\rc.md").write_text("")
    assert main(["lint", "."]) == 1
    assert capsys.readouterr().out == (
        "a\\nb\\rc.md:1:1: IO004 [error] file is empty: delete it or fill it in\n"
        "Found 1 error in 1 file.\n"
    )


def test_a_rewrite_through_a_symbolic_link_keeps_the_link(
    in_tmp: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (in_tmp / "real.md").write_text(REFORMAT)
    (in_tmp / "link.md").symlink_to("real.md")
    assert main(["roundtrip", "--fix", "link.md"]) == 0
    assert "link.md: fixed (rewritten in canonical form)" in capsys.readouterr().out
    assert (in_tmp / "link.md").is_symlink()
    assert (in_tmp / "real.md").read_text() != REFORMAT
    assert main(["roundtrip", "real.md"]) == 0


def test_an_output_that_is_a_fifo_is_written_into_not_replaced(
    in_tmp: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # As for -o /dev/null: renaming a temporary file onto it would replace the node.
    (in_tmp / "set.jsonl").write_text(json.dumps(RECORD) + "\n")
    fifo = in_tmp / "sample.jsonl"
    os.mkfifo(fifo)
    received: list[bytes] = []
    reader = threading.Thread(target=lambda: received.append(fifo.read_bytes()), daemon=True)
    reader.start()
    argv = ["gold", "sample", "set.jsonl", "--seed", "1", "--fraction", "1", "-o", str(fifo)]
    assert main([*argv, "--force"]) == 0
    assert stat.S_ISFIFO(fifo.lstat().st_mode)
    reader.join(timeout=120)  # liveness only: the writer has closed the FIFO
    assert b'"chunk_id": "a.py:1-2:f"' in b"".join(received)


@pytest.mark.parametrize("command", ["roundtrip", "check"])
def test_a_command_that_reads_no_stdin_says_so_for_dash(
    command: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main([command, "-"]) == 2
    assert capsys.readouterr().err == (
        f"evaltools {command}: error: this command does not read standard input (`-`): "
        "name the files\n"
    )
