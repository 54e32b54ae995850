from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from evaltools.__main__ import main
from evaltools.example.markdown.reader import from_markdown
from evaltools.example.spec import Example, dumps_example
from tests.conftest import CORPUS

CODE = "def helper():\n    return 1\n\n\ndef target(x):\n    return x + 1\n"
PYPROJECT = """[tool.evaltools]
paths = ["evals"]

[tool.evaltools.retrieval]
sets = ["evals/retrieval.jsonl"]
root = "."
"""


def _record(qid: str, gold: dict[str, int]) -> str:
    return json.dumps({"qid": qid, "query": "add one to x", "type": "intent", "gold": gold})


@pytest.fixture
def project(in_tmp: Path) -> Path:
    (in_tmp / "pyproject.toml").write_text(PYPROJECT)
    (in_tmp / "src").mkdir()
    (in_tmp / "src" / "mod.py").write_text(CODE)
    evals = in_tmp / "evals"
    evals.mkdir()
    shutil.copyfile(CORPUS / "codex-acp--add-derive.md", evals / "codex-acp--add-derive.md")
    (evals / "retrieval.jsonl").write_text(_record("q1", {"src/mod.py:5-6:target": 3}) + "\n")
    return in_tmp


def test_clean_project_passes(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check"]) == 0
    assert capsys.readouterr().out == "All checks passed: 2 files.\n"


def test_every_kind_of_problem_is_reported_with_one_exit_code(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    evals = project / "evals"
    shutil.copyfile(
        CORPUS / "tree-sitter--if-let-to-match.md", evals / "tree-sitter--if-let-to-match.md"
    )
    (evals / "repo--broken.md").write_text("## Cursor Position\n\n```a.py\nx\n```\n")
    (project / "src" / "mod.py").write_text("import os\n\n" + CODE)
    assert main(["check", "--format", "json"]) == 1
    found = {(Path(d["path"]).name, d["code"]) for d in json.loads(capsys.readouterr().out)}
    assert ("tree-sitter--if-let-to-match.md", "RT001") in found
    assert ("repo--broken.md", "EP001") in found
    assert ("retrieval.jsonl", "RG001") in found
    assert ("repo--broken.md", "RT003") not in found  # lint already says why it cannot be read


def test_fix_repairs_layout_and_moved_gold(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    evals = project / "evals"
    name = "tree-sitter--if-let-to-match.md"
    shutil.copyfile(CORPUS / name, evals / name)
    (project / "src" / "mod.py").write_text("import os\n\n" + CODE)
    assert main(["check", "--fix"]) == 0
    captured = capsys.readouterr()
    # The gold rewrite is a finding of its own, in every format, saying what became what.
    assert captured.out == (
        "evals/retrieval.jsonl:1:67: RG012 [info] src/mod.py:5-6:target -> "
        "src/mod.py:7-8:target (moved: `target` is now at lines 7-8; evidence: the same name, "
        "once in the file)\n"
        "Found 1 info in 1 of 3 files.\n"
    )
    assert f"fixed: evals/{name}: rewritten in canonical layout" in captured.err
    assert '"src/mod.py:7-8:target"' in (evals / "retrieval.jsonl").read_text()
    assert main(["check"]) == 0


def test_explicit_paths_sort_sets_from_example_records(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    spec = from_markdown((CORPUS / "codex-acp--add-derive.md").read_text(), "x")
    records = project / "examples.jsonl"
    records.write_text(dumps_example(Example(spec)) + "\n{broken\n")
    assert main(["check", "examples.jsonl", "evals/retrieval.jsonl"]) == 1
    out = capsys.readouterr().out
    assert "examples.jsonl:2:2: IO008 [error]" in out
    assert "retrieval.jsonl" not in out
    assert out.endswith("Found 1 error in 1 of 2 files.\n")


def test_configuration_selects_across_commands(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (project / "src" / "mod.py").write_text("import os\n\n" + CODE)
    (project / "pyproject.toml").write_text(
        PYPROJECT.replace('paths = ["evals"]', 'paths = ["evals"]\nignore = ["RG001"]')
    )
    assert main(["check"]) == 0
    assert capsys.readouterr().out == "All checks passed: 2 files.\n"


@pytest.mark.parametrize("fmt", ["text", "json", "github", "sarif"])
def test_without_a_root_the_skipped_gold_check_is_a_finding(
    project: Path, capsys: pytest.CaptureFixture[str], fmt: str
) -> None:
    """Not a note on stderr: `check --format json` printed `[]`, as if all were checked."""
    (project / "pyproject.toml").write_text(PYPROJECT.replace('root = "."\n', ""))
    assert main(["check", "evals/retrieval.jsonl", "--format", fmt]) == 0  # a warning
    out = capsys.readouterr().out
    assert "RG015" in out and "gold IDs not checked" in out
    if fmt == "json":
        [finding] = json.loads(out)
        assert (finding["path"], finding["line"], finding["severity"]) == (
            "evals/retrieval.jsonl",
            1,
            "warning",
        )


def test_a_bad_chunk_id_is_reported_once(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """validate (RV009) and the gold check (RG006) both read the key: `check` says it once,
    as validate's finding; `gold check` alone still reports it."""
    sets = project / "evals" / "retrieval.jsonl"
    sets.write_text(
        '{"qid": "q1", "query": "q", "type": "intent", "gold": {"src/mod.py:5-2:target": 3}}\n'
        "not json\n"
    )
    assert main(["check"]) == 1
    out = capsys.readouterr().out
    assert sum("5-2" in line for line in out.splitlines()) == 1
    assert "RV009" in out and "RG006" not in out
    assert out.count("IO008") == 1
    assert main(["gold", "check", str(sets)]) == 1
    assert "RG006" in capsys.readouterr().out


def test_nothing_to_check_is_a_usage_error(
    in_tmp: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (in_tmp / "pyproject.toml").write_text("[tool.evaltools]\n")
    assert main(["check"]) == 2
    assert "nothing to check" in capsys.readouterr().err
    (in_tmp / "pyproject.toml").write_text('[tool.evaltools]\npaths = "evals"\n')
    assert main(["check"]) == 2
    assert "must be a list of paths" in capsys.readouterr().err


def test_configured_places_without_eval_files_pass_and_say_so(
    in_tmp: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # A fresh setup: the places exist, nothing is in them yet (as ruff passes a folder
    # without Python files, saying so).
    (in_tmp / "evals").mkdir()
    (in_tmp / "evals" / "notes.txt").write_text("soon\n")
    (in_tmp / "pyproject.toml").write_text('[tool.evaltools]\npaths = ["evals"]\n')
    assert main(["check", "--format", "json"]) == 0
    captured = capsys.readouterr()
    assert captured.out == "[]\n"
    assert captured.err == (
        "evaltools check: warning: no example files (*.md, *.json, *.jsonl) under evals/ "
        "(1 file with other suffixes)\n"
    )
    (in_tmp / "pyproject.toml").write_text("[tool.evaltools]\npaths = []\n")
    assert main(["check"]) == 0
    assert capsys.readouterr().err.startswith("evaltools check: warning: nothing to check yet")
    # A configured place that is not there is still an error: a clone without it is no pass.
    (in_tmp / "pyproject.toml").write_text('[tool.evaltools]\npaths = ["evals", "gone"]\n')
    assert main(["check"]) == 2
    assert capsys.readouterr().err == (
        'evaltools check: error: pyproject.toml:2:19: "gone" in `paths` of [tool.evaltools]: '
        "no such file or directory (create it, or remove it from `paths`)\n"
    )


@pytest.mark.parametrize(
    ("line", "command", "why"),
    [
        (
            'root = "gone"',
            ["check"],
            "`root` of [tool.evaltools.retrieval] names gone: no such folder",
        ),
        ('root = "set.jsonl"', ["gold", "check"], "names set.jsonl: not a folder"),
        (
            'metas = "m.jsonl"',
            ["check"],
            "`metas` of [tool.evaltools.retrieval] names m.jsonl: no such file",
        ),
        ('metas = "m.jsonl"', ["gold", "check"], "names m.jsonl: no such file"),
        (
            'schema = "s.json"',
            ["check"],
            "`schema` of [tool.evaltools.retrieval] names s.json: no such file",
        ),
        ('schema = "s.json"', ["validate", "set.jsonl"], "names s.json: no such file"),
    ],
)
def test_a_configured_source_that_is_not_there_is_an_error_at_its_value(
    in_tmp: Path, capsys: pytest.CaptureFixture[str], line: str, command: list[str], why: str
) -> None:
    (in_tmp / "set.jsonl").write_text(
        '{"qid": "q1", "query": "x", "type": "intent", "gold": {"a.py:1-2:f": 3}}\n'
    )
    (in_tmp / "pyproject.toml").write_text(
        f'[tool.evaltools.retrieval]\nsets = ["set.jsonl"]\n{line}\n'
    )
    assert main(command) == 2
    err = capsys.readouterr().err
    column = line.index('"') + 1
    name = " ".join(command[: 2 if command[0] == "gold" else 1])
    assert err.startswith(f"evaltools {name}: error: pyproject.toml:3:{column}: ")
    assert why in err and err.endswith("`)\n")


def test_a_fresh_setup_whose_sources_are_not_there_yet_passes(
    in_tmp: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Sets configured, none written yet: where their gold will resolve need not exist.
    (in_tmp / "retrieval").mkdir()
    (in_tmp / "pyproject.toml").write_text(
        '[tool.evaltools.retrieval]\nsets = ["retrieval"]\nroot = "src"\n'
    )
    assert main(["check"]) == 0
    assert (
        capsys.readouterr().err
        == "evaltools check: warning: no eval sets (*.jsonl) under retrieval/\n"
    )


def test_a_jsonl_too_deep_to_read_is_a_finding_not_a_crash(
    in_tmp: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (in_tmp / "deep.jsonl").write_text("[" * 100_000 + "\n")
    assert main(["check", "deep.jsonl"]) == 1
    out, err = capsys.readouterr()
    assert out.startswith("deep.jsonl:1:1: IO008 [error] the JSON value is nested too deeply")
    assert err == ""


def test_a_pyproject_whose_tool_is_not_a_table_is_a_usage_error(
    in_tmp: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # It names evaltools, so it may be the configuration: a file that does not is skipped.
    (in_tmp / "pyproject.toml").write_text('tool = "evaltools"\n')
    assert main(["check"]) == 2
    assert capsys.readouterr().err == (
        "evaltools check: error: pyproject.toml:1:8: `tool` must be a table "
        "([tool.evaltools] lives in it)\n"
    )


def test_config_file_named_elsewhere_drives_the_retrieval_half(
    project: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    elsewhere = project / "sub"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    (project / "src" / "mod.py").write_text("import os\n\n" + CODE)
    assert main(["check", "--config", str(project / "pyproject.toml")]) == 1
    assert "RG001" in capsys.readouterr().out


def test_a_configured_set_with_a_broken_first_line_is_still_a_set(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    sets = project / "evals" / "retrieval.jsonl"
    sets.write_text("{broken\n" + sets.read_text())
    assert main(["check", "evals/retrieval.jsonl"]) == 1
    out = capsys.readouterr().out
    assert "evals/retrieval.jsonl:1:2: IO008" in out
    assert "EP501" not in out
