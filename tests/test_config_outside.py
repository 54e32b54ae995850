"""A configured place outside the project (`paths = ["/"]`, `root = "/"`) is said, once, at
its item: the command would otherwise search the whole file system without a word."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from evaltools.__main__ import main
from tests.conftest import CORPUS


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    inside, outside = tmp_path / "project", tmp_path / "elsewhere"
    for folder in (inside / "evals", outside):
        folder.mkdir(parents=True)
        shutil.copyfile(CORPUS / "flask--add-import-statement.md", folder / "o--x.md")
    monkeypatch.chdir(inside)
    return tmp_path


def test_configured_places_outside_the_project_are_warnings_at_their_item(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    outside = project / "elsewhere"
    Path("pyproject.toml").write_text(
        f'[tool.evaltools]\npaths = ["evals", "{outside}"]\n\n'
        f'[tool.evaltools.retrieval]\nsets = []\nroot = "/"\n'
    )
    assert main(["check"]) == 0
    err = capsys.readouterr().err
    inside = project / "project"
    assert err == (
        f"evaltools: pyproject.toml:2:19: warning: `paths` of [tool.evaltools] names "
        f"{outside}, outside the project ({inside}): everything below it is searched; name "
        "a folder of the project\n"
        f"evaltools: pyproject.toml:6:8: warning: `root` of [tool.evaltools.retrieval] names "
        f"/, outside the project ({inside}): everything below it is searched; name a folder "
        "of the project\n"
    )


def test_places_inside_the_project_say_nothing(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    Path("pyproject.toml").write_text('[tool.evaltools]\npaths = ["evals", "./evals/../evals"]\n')
    assert main(["check"]) == 0
    assert capsys.readouterr().err == ""
