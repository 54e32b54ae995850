"""Warnings that can fail a run (issue 28, point 2): `--max-warnings N` and `max-warnings`
(ESLint's convention: more warnings than N exit 1), and `[tool.evaltools.severity]`, which
changes the severity every format prints and the exit code, in a real git repository."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from evaltools.__main__ import main
from tests.retrieval.gitrepo import GitRepo

REVISION = "0123456789abcdef0123456789abcdef01234567"
EXAMPLE = (
    f'+++\nrepository_url = "https://github.com/o/r"\nrevision = "{REVISION}"\n+++\n\n'
    "## Edit History\n\n(No edit history)\n\n"
    '## Cursor Position\n\n```src/app.py\ndef main():\n    print("hello")\n'
    "#         ^[CURSOR_POSITION]\n    return 0\n```\n\n"
    "## Expected Patch\n\n```diff\n--- a/src/app.py\n+++ b/src/app.py\n@@ -1,3 +1,3 @@\n"
    ' def main():\n     print("hello")\n-    return 0\n+    return 1\n```\n'
)
NAME = "evals/app--return-one.md"
FINDING = (
    f"{NAME}:3:1: EP402 [{{}}] revision 'main' is not a full 40-digit lower-case commit id: "
    "use `git rev-parse <rev>`"
)
SET = (
    '{"qid": "q1", "query": "end a session", "type": "intent", "gold": {"src/s.py:1-2:f": 3}}\n'
    '{"qid": "q2", "query": "open one", "type": "intent", "gold": {"src/s.py:1-2:f": 3}}\n'
)


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> GitRepo:
    """A project whose one example has a branch name as `revision` (EP402, a warning)."""
    repo = GitRepo(tmp_path / "project")
    repo.write("pyproject.toml", '[tool.evaltools]\npaths = ["evals"]\n')
    repo.write(NAME, EXAMPLE.replace(REVISION, "main"))
    repo.commit("first")
    monkeypatch.chdir(repo.path)
    return repo


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_a_warning_passes_until_max_warnings_says_otherwise(
    repo: GitRepo, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = _run(capsys, "check")
    assert (code, out) == (0, FINDING.format("warning") + "\nFound 1 warning in 1 file.\n")
    code, out, _ = _run(capsys, "check", "--max-warnings", "1")
    assert code == 0
    code, out, _ = _run(capsys, "check", "--max-warnings", "0")
    assert code == 1
    assert out == (
        FINDING.format("warning") + "\n"
        "Found 1 warning in 1 file (more than 0 warnings allowed by --max-warnings).\n"
    )

    repo.write("pyproject.toml", '[tool.evaltools]\npaths = ["evals"]\nmax-warnings = 0\n')
    for command in ("check", "lint"):
        code, out, _ = _run(capsys, command)
        assert code == 1
        assert out.endswith(
            "Found 1 warning in 1 file (more than 0 warnings allowed by max-warnings).\n"
        )
    # The command line overrides the configuration; -1 is no limit.
    assert _run(capsys, "check", "--max-warnings", "-1")[0] == 0
    assert _run(capsys, "lint", "--max-warnings", "3")[0] == 0
    # A machine format keeps stdout to findings; the reason goes to stderr.
    code, out, err = _run(capsys, "lint", "--format", "json")
    assert code == 1
    assert [(f["line"], f["column"], f["severity"]) for f in json.loads(out)] == [(3, 1, "warning")]
    assert err == "evaltools: failed: more than 0 warnings allowed by max-warnings\n"

    repo.write(NAME, EXAMPLE)  # fixed
    assert _run(capsys, "check") == (0, "All checks passed: 1 file.\n", "")


def test_a_severity_override_shows_in_every_format_and_sets_the_exit_code(
    repo: GitRepo, capsys: pytest.CaptureFixture[str]
) -> None:
    repo.write(
        "pyproject.toml",
        '[tool.evaltools]\npaths = ["evals"]\n\n[tool.evaltools.severity]\nEP402 = "error"\n',
    )
    code, out, _ = _run(capsys, "check")
    assert (code, out) == (1, FINDING.format("error") + "\nFound 1 error in 1 file.\n")
    code, out, _ = _run(capsys, "lint", "--format", "json")
    assert code == 1
    assert [(f["path"], f["line"], f["code"], f["severity"]) for f in json.loads(out)] == [
        (NAME, 3, "EP402", "error")
    ]
    code, out, _ = _run(capsys, "check", "--format", "github")
    assert code == 1
    assert out.startswith(f"::error file={NAME},line=3,col=1,title=EP402 bad-revision::")
    code, out, _ = _run(capsys, "lint", "--format", "sarif")
    assert code == 1
    (result,) = json.loads(out)["runs"][0]["results"]
    assert (result["ruleId"], result["level"]) == ("EP402", "error")

    # A prefix sets a family; the more specific selector wins, as in select/ignore.
    repo.write(
        "pyproject.toml",
        '[tool.evaltools]\npaths = ["evals"]\nmax-warnings = 0\n\n'
        '[tool.evaltools.severity]\nEP4 = "error"\nbad-revision = "info"\n',
    )
    code, out, _ = _run(capsys, "check")
    assert (code, out) == (0, FINDING.format("info") + "\nFound 1 info in 1 file.\n")

    repo.write(NAME, EXAMPLE)  # fixed
    assert _run(capsys, "check") == (0, "All checks passed: 1 file.\n", "")


@pytest.mark.parametrize(
    ("table", "message"),
    [
        (
            '[tool.evaltools.severity]\nEP42 = "error"\n',
            "pyproject.toml:4:1: unknown rule selector 'EP42' in [tool.evaltools.severity]: did "
            "you mean 'EP402'? (`evaltools rule` lists the rules)",
        ),
        (
            '[tool.evaltools.severity]\nEP402 = "eror"\n',
            'pyproject.toml:4:9: [tool.evaltools.severity] EP402 must be one of "error", '
            '"warning", "info", not \'eror\' (did you mean "error"?)',
        ),
        (
            "[tool.evaltools.severity]\nEP402 = 2\n",
            'pyproject.toml:4:9: [tool.evaltools.severity] EP402 must be one of "error", '
            '"warning", "info", not 2',
        ),
        (
            "severity = 1\n",
            "pyproject.toml:3:12: [tool.evaltools.severity] must be a table, e.g. "
            '{ EP402 = "error" }',
        ),
        (
            "max-warnings = -2\n",
            "pyproject.toml:3:16: [tool.evaltools] max-warnings must be a whole number of "
            "warnings that still pass, e.g. 0 (-1: no limit)",
        ),
        (
            'max-warnings = "0"\n',
            "pyproject.toml:3:16: [tool.evaltools] max-warnings must be a whole number of "
            "warnings that still pass, e.g. 0 (-1: no limit)",
        ),
    ],
)
def test_a_bad_severity_table_or_limit_is_a_configuration_error_at_its_place(
    repo: GitRepo, capsys: pytest.CaptureFixture[str], table: str, message: str
) -> None:
    repo.write("pyproject.toml", '[tool.evaltools]\npaths = ["evals"]\n' + table)
    for command in ("check", "lint", "roundtrip"):
        argv = (command, "evals") if command == "roundtrip" else (command,)
        assert _run(capsys, *argv) == (2, "", f"evaltools {command}: error: {message}\n")


def test_a_negative_flag_other_than_minus_one_is_a_usage_error(
    repo: GitRepo, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = _run(capsys, "lint", "--max-warnings", "-2")
    assert code == 2
    assert err == "evaltools lint: error: --max-warnings must be 0 or more (-1: no limit), not -2\n"


def test_every_command_that_reports_findings_takes_the_limit(
    repo: GitRepo, capsys: pytest.CaptureFixture[str]
) -> None:
    repo.write(NAME, EXAMPLE)
    repo.write("evals/retrieval.jsonl", SET)
    repo.write("src/s.py", "def f():\n    return 1\n")
    # dupes: two queries with the same gold (DU103, a warning).
    assert _run(capsys, "dupes", "evals/retrieval.jsonl")[0] == 0
    code, out, _ = _run(capsys, "dupes", "evals/retrieval.jsonl", "--max-warnings", "0")
    assert code == 1
    assert "evals/retrieval.jsonl:2:1: DU103 [warning] " in out
    assert out.endswith("(more than 0 warnings allowed by --max-warnings).\n")
    # validate and gold check: an error made a warning by the configuration, then limited.
    repo.write("evals/retrieval.jsonl", SET.replace('"q2"', '"q1"'))  # RV004, a repeated qid
    assert _run(capsys, "validate", "evals/retrieval.jsonl")[0] == 1
    repo.write(
        "pyproject.toml",
        '[tool.evaltools]\npaths = ["evals"]\n\n[tool.evaltools.severity]\n'
        'RV004 = "warning"\nRG004 = "warning"\n',
    )
    code, out, _ = _run(capsys, "validate", "evals/retrieval.jsonl")
    assert code == 0
    assert "evals/retrieval.jsonl:2:" in out
    assert " RV004 [warning] " in out
    assert _run(capsys, "validate", "evals/retrieval.jsonl", "--max-warnings", "0")[0] == 1
    repo.write("evals/retrieval.jsonl", SET.replace("src/s.py", "src/gone.py"))  # RG004
    code, out, _ = _run(capsys, "gold", "check", "evals/retrieval.jsonl", "--root", ".")
    assert code == 0
    assert "evals/retrieval.jsonl:1:" in out
    assert " RG004 [warning] " in out
    code, out, _ = _run(
        capsys, "gold", "check", "evals/retrieval.jsonl", "--root", ".", "--max-warnings", "1"
    )
    assert code == 1
    assert out.endswith("(more than 1 warning allowed by --max-warnings).\n")
    code, out, _ = _run(
        capsys, "gold", "check", "evals/retrieval.jsonl", "--root", ".", "--format", "json"
    )
    assert {item["severity"] for item in json.loads(out)} == {"warning"}
    # score: a prediction that holds no hunk with a change (SC001, a warning, on stderr).
    predictions = repo.write(
        "predictions.jsonl",
        json.dumps({"name": "app--return-one", "patch": "No change.", "cursor_offset": None})
        + "\n",
    )
    score = ("score", NAME, "--predictions", str(predictions), "--format", "json")
    assert _run(capsys, *score)[0] == 0
    code, _, err = _run(capsys, *score, "--max-warnings", "0")
    assert code == 1
    assert "predictions.jsonl:1:1: SC001 [warning] " in err
    assert err.endswith("evaltools score: failed: more than 0 warnings allowed by --max-warnings\n")
    # roundtrip: a file --fix rewrote has nothing left to warn about.
    assert _run(capsys, "roundtrip", "evals", "--max-warnings", "0")[0] == 0
