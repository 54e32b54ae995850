"""`evaltools init` creates or completes [tool.evaltools] from what the repository holds."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from evaltools.__main__ import main
from tests.conftest import CORPUS

EXAMPLE = "flask--add-import-statement.md"
RECORD = '{"qid": "q1", "query": "where is f", "type": "intent", "gold": {"src/a.py:1-2:f": 3}}\n'
FOUND = (
    '[tool.evaltools]\npaths = [\n    "evals",\n]\n\n'
    '[tool.evaltools.retrieval]\nsets = [\n    "evals/retrieval.jsonl",\n]\nroot = "."\n'
)


@pytest.fixture
def repo(in_tmp: Path) -> Path:
    subprocess.run(["git", "init", "-q"], cwd=in_tmp, check=True)
    (in_tmp / "evals" / "sub").mkdir(parents=True)
    shutil.copyfile(CORPUS / EXAMPLE, in_tmp / "evals" / EXAMPLE)
    shutil.copyfile(CORPUS / EXAMPLE, in_tmp / "evals" / "sub" / "flask--copy.md")
    (in_tmp / "evals" / "retrieval.jsonl").write_text(RECORD)
    (in_tmp / "README.md").write_text("# a project\n")
    (in_tmp / "docs").mkdir()
    (in_tmp / "docs" / "notes.jsonl").write_text('{"text": "not a set"}\n')
    # Ignored files are not the project's: neither their examples nor their sets count.
    (in_tmp / ".gitignore").write_text("build/\n")
    (in_tmp / "build").mkdir()
    shutil.copyfile(CORPUS / EXAMPLE, in_tmp / "build" / EXAMPLE)
    (in_tmp / "build" / "set.jsonl").write_text(RECORD)
    return in_tmp


def _init(*args: str) -> int:
    return main(["init", *args])


def test_a_new_pyproject_gets_the_folders_and_sets_found(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert _init() == 0
    assert (repo / "pyproject.toml").read_text() == FOUND
    out = capsys.readouterr().out
    assert "pyproject.toml: added [tool.evaltools] paths, [tool.evaltools.retrieval] sets, " in out
    before = {
        p: p.read_bytes() for p in (repo / ".pre-commit-config.yaml", repo / "pyproject.toml")
    }
    assert _init() == 0
    assert {p: p.read_bytes() for p in before} == before
    assert "[tool.evaltools] already set; nothing to add" in capsys.readouterr().out


def test_a_repository_without_other_markdown_still_names_the_examples_folder(
    repo: Path,
) -> None:
    # "." would make a README added later an example with false errors on every commit.
    (repo / "README.md").unlink()
    assert _init() == 0
    assert (repo / "pyproject.toml").read_text() == FOUND


def test_a_folder_with_other_markdown_lists_the_example_files(repo: Path) -> None:
    (repo / "evals" / "sub" / "README.md").write_text("# about these\n")
    assert _init() == 0
    assert (
        (repo / "pyproject.toml")
        .read_text()
        .startswith(
            '[tool.evaltools]\npaths = [\n    "evals/flask--add-import-statement.md",\n'
            '    "evals/sub/flask--copy.md",\n]\n'
        )
    )


def test_an_existing_pyproject_keeps_every_byte_and_gets_the_table_appended(repo: Path) -> None:
    text = '# my project\n[project]\nname = "x"   # the name\n\n\n[tool.ruff]\nline-length = 99'
    (repo / "pyproject.toml").write_text(text)
    assert _init() == 0
    assert (repo / "pyproject.toml").read_text() == text + "\n\n" + FOUND


def test_an_existing_table_is_completed_never_overwritten(repo: Path) -> None:
    text = '[tool.evaltools]   # ours\nignore = ["EP205"]  # noisy\n\n[tool.other]\nx = 1\n'
    (repo / "pyproject.toml").write_text(text)
    assert _init() == 0
    assert (repo / "pyproject.toml").read_text() == (
        '[tool.evaltools]   # ours\npaths = [\n    "evals",\n]\nignore = ["EP205"]  # noisy\n\n'
        "[tool.other]\nx = 1\n\n[tool.evaltools.retrieval]\nsets = [\n"
        '    "evals/retrieval.jsonl",\n]\nroot = "."\n'
    )
    kept = '[tool.evaltools]\npaths = ["mine"]\n[tool.evaltools.retrieval]\nroot = "src"\n'
    (repo / "pyproject.toml").write_text(kept)
    assert _init() == 0
    assert (repo / "pyproject.toml").read_text() == kept.replace(
        "[tool.evaltools.retrieval]\n",
        '[tool.evaltools.retrieval]\nsets = [\n    "evals/retrieval.jsonl",\n]\n',
    )


def test_a_table_init_cannot_extend_is_left_alone_and_said(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = '[tool]\nevaltools = { ignore = ["EP205"] }\n'
    (repo / "pyproject.toml").write_text(text)
    assert _init() == 0
    assert (repo / "pyproject.toml").read_text() == text
    assert "pyproject.toml: left unchanged: the table is written in a form init cannot extend" in (
        capsys.readouterr().out
    )


def test_nothing_found_writes_a_commented_template_once(
    in_tmp: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    subprocess.run(["git", "init", "-q"], cwd=in_tmp, check=True)
    (in_tmp / "pyproject.toml").write_text('[project]\nname = "x"\n')
    assert _init() == 0
    after = (in_tmp / "pyproject.toml").read_text()
    assert after.startswith('[project]\nname = "x"\n\n# evaltools init found no example files')
    assert "\n# [tool.evaltools]\n# paths = [" in after
    assert "found no example files or retrieval sets; wrote a commented" in capsys.readouterr().out
    assert _init() == 0
    assert (in_tmp / "pyproject.toml").read_text() == after


def test_the_written_configuration_is_valid_for_check(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (repo / "src").mkdir()
    (repo / "src" / "a.py").write_text("def f():\n    return 1\n")
    assert _init() == 0
    capsys.readouterr()
    assert main(["check"]) == 0
    assert capsys.readouterr().out == "All checks passed: 3 files.\n"


def test_an_unreadable_pyproject_stops_init_before_anything_is_written(
    in_tmp: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (in_tmp / "pyproject.toml").write_text('[project\nname = "demo"\n')
    assert main(["init"]) == 2
    assert capsys.readouterr().err == (
        "evaltools init: error: pyproject.toml:1:9: not valid TOML (Expected ']' at the end "
        "of a table declaration): fix it; nothing written\n"
    )
    assert sorted(p.name for p in in_tmp.iterdir()) == ["pyproject.toml"]
