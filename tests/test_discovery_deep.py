"""A file below a path longer than PATH_MAX (41 folders of 100 characters) is found and
read (a folder at a time, from descriptors), never passed over in silence."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from evaltools.__main__ import main
from tests.conftest import CORPUS

FOLDERS = 41
BROKEN = b"+++\nrepository_url = 1\n+++\n"


def deep_folder(top: Path) -> str:
    """Make the folders one below the other (a path this long cannot be named at once);
    return the path of the deepest, relative to `top`."""
    parts = [chr(ord("a") + i % 26) * 100 for i in range(FOLDERS)]
    fd = os.open(top, os.O_RDONLY)
    try:
        for part in parts:
            os.mkdir(part, dir_fd=fd)
            below = os.open(part, os.O_RDONLY, dir_fd=fd)
            os.close(fd)
            fd = below
        out = os.open("o--broken.md", os.O_WRONLY | os.O_CREAT, 0o644, dir_fd=fd)
        os.write(out, BROKEN)
        os.close(out)
    finally:
        os.close(fd)
    return "/".join(parts)


@pytest.fixture
def evals(in_tmp: Path) -> str:
    (in_tmp / "evals").mkdir()
    shutil.copyfile(CORPUS / "flask--add-import-statement.md", in_tmp / "evals" / "ok.md")
    deep = "evals/" + deep_folder(in_tmp / "evals")
    assert len(os.path.abspath(deep)) > os.pathconf(in_tmp, "PC_PATH_MAX")  # noqa: PTH100
    return deep


@pytest.mark.parametrize("command", ["lint", "check", "roundtrip"])
def test_a_broken_example_past_path_max_is_found_and_read(
    evals: str, capsys: pytest.CaptureFixture[str], command: str
) -> None:
    assert main([command, "evals"]) == 1
    out = capsys.readouterr().out
    if command == "roundtrip":
        assert f"{evals}/o--broken.md:" in out
        assert "1 invalid" in out
    else:
        assert f"{evals}/o--broken.md:2:1: EP003 [error] front matter `repository_url`" in out
        assert out.endswith(" in 2 files.\n")  # ok.md has its file-name warning
