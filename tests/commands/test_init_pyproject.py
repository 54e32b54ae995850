"""`evaltools init` creates or completes [tool.evaltools] from what the repository holds."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest
from ruamel.yaml import YAML

from evaltools.__main__ import main
from tests.conftest import CORPUS

EXAMPLE = "flask--add-import-statement.md"
RECORD = '{"qid": "q1", "query": "where is f", "type": "intent", "gold": {"src/a.py:1-2:f": 3}}\n'
FOUND = (
    '[tool.evaltools]\npaths = [\n    "evals",\n]\n'
    "# Uncomment to make warnings fail `evaltools check` (and so the commit) as errors do:\n"
    "# max-warnings = 0\n\n"
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


@pytest.mark.parametrize(
    ("text", "place", "why"),
    [
        (
            '[tool]\nevaltools = { ignore = ["EP205"] }\n',
            "2:1",
            "[tool.evaltools] is written inline or by dotted keys, which init cannot extend: "
            "write it as a [tool.evaltools] table, or add the eval files to it by hand",
        ),
        (
            '[tool.evaltools]\nignore = ["EP205"]\nretrieval = { root = "." }\n',
            "3:1",
            "[tool.evaltools.retrieval] is written inline or by dotted keys, which init cannot "
            "extend: write it as a [tool.evaltools.retrieval] table, or add the eval files to "
            "it by hand",
        ),
        (
            "[tool.evaltools]\npaths = [\n]\n",
            "2:1",
            "`paths = []` is written in a form init cannot fill (it fills `paths = []` on one "
            "line below a [tool.evaltools] header): list the eval folders by hand",
        ),
        (
            "tool.evaltools.paths = []\n",
            "1:1",
            "`paths = []` is written in a form init cannot fill (it fills `paths = []` on one "
            "line below a [tool.evaltools] header): list the eval folders by hand",
        ),
        (
            '[tool]\nevaltools = { paths = ["evals"] }\n',
            "2:1",
            "[tool.evaltools] is written inline or by dotted keys, which init cannot extend: "
            "write it as a [tool.evaltools] table, or add the eval files to it by hand",
        ),
    ],
)
def test_a_table_init_cannot_extend_stops_it_and_nothing_is_written(
    repo: Path, capsys: pytest.CaptureFixture[str], text: str, place: str, why: str
) -> None:
    # As a file it cannot read: a hook written without its configuration would fail every
    # commit ("nothing to check"), so nothing is written, and the place and remedy are said.
    (repo / "pyproject.toml").write_text(text)
    assert _init() == 2
    assert (repo / "pyproject.toml").read_text() == text
    assert not (repo / ".pre-commit-config.yaml").exists()
    assert capsys.readouterr().err == (
        f"evaltools init: error: pyproject.toml:{place}: {why}; nothing written\n"
    )


def test_nothing_found_writes_an_empty_table_and_a_template_once(
    in_tmp: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    subprocess.run(["git", "init", "-q"], cwd=in_tmp, check=True)
    (in_tmp / "pyproject.toml").write_text('[project]\nname = "x"\n')
    assert _init() == 0
    after = (in_tmp / "pyproject.toml").read_text()
    assert after.startswith('[project]\nname = "x"\n\n# evaltools init found no example files')
    assert "\n[tool.evaltools]\npaths = []  " in after
    assert "\n# [tool.evaltools.retrieval]\n# sets = [" in after
    out = capsys.readouterr().out
    assert "found no example files or retrieval sets; wrote [tool.evaltools] with `paths" in out
    assert "`evaltools check` passes, saying there is nothing to check" in out
    assert _init() == 0
    assert (in_tmp / "pyproject.toml").read_text() == after
    # Until there is something to check, `check` (the hook) passes and says why.
    capsys.readouterr()
    assert main(["check"]) == 0
    assert "warning: nothing to check yet" in capsys.readouterr().err


def test_eval_files_added_after_an_empty_init_stop_the_gate_until_init_adds_them(
    in_tmp: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # `paths = []` must not pass every commit forever once examples exist: the new files
    # would never be checked.
    subprocess.run(["git", "init", "-q"], cwd=in_tmp, check=True)
    assert _init() == 0
    (in_tmp / "evals" / "deep").mkdir(parents=True)
    shutil.copy(CORPUS / EXAMPLE, in_tmp / "evals" / "deep")
    subprocess.run(["git", "add", "-A"], cwd=in_tmp, check=True)
    capsys.readouterr()
    assert main(["check"]) == 2
    assert capsys.readouterr().err == (
        "evaltools check: error: pyproject.toml:4:1: [tool.evaltools] names no eval files, but "
        "there are some now (evals): run `evaltools init` again to add them, or list them in "
        "`paths` (examples) and [tool.evaltools.retrieval] `sets`\n"
    )
    assert _init() == 0
    assert "added [tool.evaltools] paths" in capsys.readouterr().out
    text = (in_tmp / "pyproject.toml").read_text()
    assert '\npaths = ["evals"]                             # folders of' in text
    assert main(["check"]) == 0
    assert capsys.readouterr().out == "All checks passed: 1 file.\n"


def test_a_table_that_names_nothing_to_check_gets_an_empty_paths(repo: Path) -> None:
    for folder in ("evals", "build"):
        shutil.rmtree(repo / folder)
    (repo / "pyproject.toml").write_text('[tool.evaltools]\nignore = ["EP205"]\n')
    assert _init() == 0
    assert (repo / "pyproject.toml").read_text() == (
        '[tool.evaltools]\npaths = []\nignore = ["EP205"]\n'
    )
    assert main(["check"]) == 0


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


def test_a_key_set_twice_in_pyproject_stops_init_naming_it(
    in_tmp: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # The message check gives for it (tomlio.explain), not tomllib's "Cannot overwrite a value".
    text = '[project]\nname = "demo"\nversion = "1"\nname = "other"\n'
    (in_tmp / "pyproject.toml").write_text(text)
    assert main(["init"]) == 2
    assert capsys.readouterr().err == (
        "evaltools init: error: pyproject.toml:4:1: key `name` is set twice, first on line 2: "
        "delete one of the two lines; nothing written\n"
    )
    assert sorted(p.name for p in in_tmp.iterdir()) == ["pyproject.toml"]
    assert (in_tmp / "pyproject.toml").read_text() == text


def test_from_a_subdirectory_init_writes_at_the_top_level(
    repo: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    app = repo / "src" / "app"
    app.mkdir(parents=True)
    (repo / "src" / "a.py").write_text("def f():\n    return 1\n")
    # A package's own pyproject.toml is not the project's: the hook runs at the top level.
    (app / "pyproject.toml").write_text('[project]\nname = "app"\n')
    monkeypatch.chdir(app)
    assert _init() == 0
    assert (repo / "pyproject.toml").read_text() == FOUND
    assert (repo / ".pre-commit-config.yaml").is_file()
    assert sorted(p.name for p in app.iterdir()) == ["pyproject.toml"]
    assert (app / "pyproject.toml").read_text() == '[project]\nname = "app"\n'
    out = capsys.readouterr().out
    assert f"the repository's top level is {repo.resolve().as_posix()}: writing there" in out
    # Said where: absolute here, since src/app has a pyproject.toml of its own.
    top = repo.resolve().as_posix()
    assert f"\n{top}/.pre-commit-config.yaml: created with evaltools" in out
    assert f"\n{top}/pyproject.toml: added [tool.evaltools] paths" in out
    assert main(["check"]) == 0


def test_outside_a_git_repository_init_writes_here_and_says_pre_commit_needs_one(
    in_tmp: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (in_tmp / "evals").mkdir()
    shutil.copyfile(CORPUS / EXAMPLE, in_tmp / "evals" / EXAMPLE)
    assert _init() == 0
    assert sorted(p.name for p in in_tmp.iterdir()) == [
        ".pre-commit-config.yaml",
        "evals",
        "pyproject.toml",
    ]
    captured = capsys.readouterr()
    assert "not in a git repository, and pre-commit needs one: run `git init` here" in (
        captured.err
    )
    assert "run `pre-commit install`" not in captured.out


def _files_of(config: Path) -> dict[str, str]:
    loaded = YAML(typ="safe", pure=True).load(config.read_text())
    return {h["id"]: h.get("files") for h in loaded["repos"][0]["hooks"]}


def test_per_file_hooks_are_narrowed_to_the_configured_places(repo: Path) -> None:
    hooks = ("evaltools-lint", "evaltools-roundtrip-fix", "evaltools-validate")
    assert _init(*(arg for hook in hooks for arg in ("--hook", hook))) == 0
    files = _files_of(repo / ".pre-commit-config.yaml")
    assert files == {
        "evaltools-lint": r"^evals/.*\.md$",
        "evaltools-roundtrip-fix": r"^evals/.*\.md$",
        "evaltools-validate": r"^evals/retrieval\.jsonl$",
    }
    # As pre-commit matches them: from the top level, with `re.search`.
    md = re.compile(files["evaltools-lint"])
    assert md.search("evals/sub/flask--copy.md") and md.search("evals/x.md")
    assert not any(md.search(p) for p in ("README.md", "docs/evals/x.md", "evalsx/a.md"))


def test_narrowed_patterns_escape_what_the_paths_hold(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (repo / "my evals+1 (old)").mkdir()
    (repo / "x").mkdir()
    (repo / "pyproject.toml").write_text(
        '[tool.evaltools]\npaths = ["./my evals+1 (old)/", "x/a.md"]\n'
        '[tool.evaltools.retrieval]\nsets = ["evals/retrieval.jsonl"]\n'
    )
    assert _init("--hook", "evaltools-roundtrip", "--hook", "evaltools-gold-check") == 0
    files = _files_of(repo / ".pre-commit-config.yaml")
    md = re.compile(files["evaltools-roundtrip"])
    assert md.search("my evals+1 (old)/deep/e.md") and md.search("x/a.md")
    assert not any(md.search(p) for p in ("my evals1 (old)/e.md", "x/a.mdx", "x/b.md", "a.md"))
    assert files["evaltools-gold-check"] == r"^evals/retrieval\.jsonl$"
    # The whole repository is no narrowing: the hook keeps its pattern, and init says so.
    (repo / ".pre-commit-config.yaml").unlink()
    (repo / "pyproject.toml").write_text('[tool.evaltools]\npaths = ["."]\n')
    capsys.readouterr()
    assert _init("--hook", "evaltools-lint") == 0
    assert _files_of(repo / ".pre-commit-config.yaml")["evaltools-lint"] == r"\.md$"
    assert "evaltools-lint runs on every file matching `\\.md$`" in capsys.readouterr().out
