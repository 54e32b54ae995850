"""`evaltools lint --format json|sarif|github`: what CI parses."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

import jsonschema  # type: ignore[import-untyped, unused-ignore]
import pytest

from evaltools.__main__ import main
from evaltools.diagnostics import Diagnostic, Severity
from evaltools.report import github, sarif
from tests.conftest import CORPUS, DATA

SARIF_SCHEMA = DATA / "sarif-schema-2.1.0.json"
PROSE = CORPUS / "zed--change-match-arm.md"  # EP108 at line 6
ERRORS = CORPUS / "vscode--add-class-decorator.md"


def copy(source: Path, target: Path) -> Path:
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_bytes(source.read_bytes())
    return target


def with_errors(target: Path) -> Path:
    """EP403 (warning, unless well named) at line 1, EP104 at the heading, line 61."""
    text = ERRORS.read_text(encoding="utf-8").replace("## Expected Patch\n", "## Expected Patchs\n")
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(text, encoding="utf-8")
    return target


def lint_output(argv: list[str], capsys: pytest.CaptureFixture[str], code: int) -> str:
    assert main(["lint", *argv]) == code
    captured = capsys.readouterr()
    assert captured.err == ""
    return captured.out


# --- json -------------------------------------------------------------------------------------


def test_json_has_the_keys_cli_md_fixes(in_tmp: Path, capsys: pytest.CaptureFixture[str]) -> None:
    copy(PROSE, in_tmp / "evals" / PROSE.name)
    with_errors(in_tmp / "evals" / "Bad.md")
    found = json.loads(lint_output(["evals", "--format", "json"], capsys, 1))
    for item in found:
        assert {"path", "line", "column", "code", "name", "severity", "message"} <= set(item)
        assert item["line"] >= 1
        assert item["column"] >= 1
    assert [
        (d["path"], d["line"], d["column"], d["code"], d["name"], d["severity"]) for d in found
    ] == [
        ("evals/Bad.md", 1, 1, "EP403", "bad-file-name", "warning"),
        ("evals/Bad.md", 61, 1, "EP104", "unknown-section", "error"),
        ("evals/zed--change-match-arm.md", 6, 1, "EP108", "prose-outside-sections", "warning"),
    ]


def test_json_of_a_clean_run_is_an_empty_array(
    in_tmp: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    copy(CORPUS / "flask--add-import-statement.md", in_tmp / "flask--add-import-statement.md")
    assert (
        json.loads(lint_output(["flask--add-import-statement.md", "--format", "json"], capsys, 0))
        == []
    )


# --- sarif ------------------------------------------------------------------------------------


def sarif_validator() -> Any:
    schema = json.loads(SARIF_SCHEMA.read_text(encoding="utf-8"))
    cls = jsonschema.validators.validator_for(schema)
    assert cls is jsonschema.Draft7Validator  # what the schema's $schema names
    cls.check_schema(schema)
    return cls(schema, format_checker=cls.FORMAT_CHECKER)


def git_repo(path: Path) -> Path:
    path.mkdir(parents=True)
    subprocess.run(["git", "init", "-q", str(path)], check=True)
    return path


def test_the_shipped_schema_is_the_sarif_2_1_0_schema() -> None:
    schema = json.loads(SARIF_SCHEMA.read_text(encoding="utf-8"))
    assert schema["title"] == "Static Analysis Results Format (SARIF) Version 2.1.0 JSON Schema"
    assert schema["properties"]["version"] == {
        "description": "The SARIF format version of this log file.",
        "enum": ["2.1.0"],
    }
    validator = sarif_validator()
    with pytest.raises(jsonschema.ValidationError):
        validator.validate({"version": "2.1.0", "runs": [{"tool": {"driver": {}}}]})


def test_sarif_validates_with_uris_relative_to_the_repository_root(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = git_repo(tmp_path / "repo")
    with_errors(repo / "evals" / "sub" / "odd name: #1?.md")
    copy(PROSE, repo / "evals" / PROSE.name)
    outside = copy(PROSE, tmp_path / "elsewhere" / PROSE.name)
    (repo / "tools").mkdir()
    monkeypatch.chdir(repo / "tools")
    log = json.loads(lint_output(["../evals", str(outside), "--format", "sarif"], capsys, 1))
    sarif_validator().validate(log)
    run = log["runs"][0]
    assert run["originalUriBaseIds"] == {"%SRCROOT%": {"uri": repo.resolve().as_uri() + "/"}}
    # SARIF keeps its own URIs: the file outside the repository is an absolute file URI.
    located = [r["locations"][0]["physicalLocation"] for r in run["results"]]
    elsewhere = [loc for loc in located if "uriBaseId" not in loc["artifactLocation"]]
    assert [loc["artifactLocation"] for loc in elsewhere] == [{"uri": outside.resolve().as_uri()}]
    locations = [loc for loc in located if loc not in elsewhere]
    uris = [loc["artifactLocation"]["uri"] for loc in locations]
    assert uris[:2] == ["evals/sub/odd%20name%3A%20%231%3F.md"] * 2
    assert uris[2] == "evals/zed--change-match-arm.md"
    for uri in uris:
        assert urlsplit(uri).scheme == ""
        assert not uri.startswith("/")
    assert unquote(uris[0]) == "evals/sub/odd name: #1?.md"
    assert {loc["artifactLocation"].get("uriBaseId") for loc in locations} == {"%SRCROOT%"}
    assert len(locations) == 3
    assert [loc["region"] for loc in locations[:2]] == [
        {"startLine": line, "startColumn": 1} for line in (1, 61)
    ]


def test_sarif_rule_ids_are_the_codes_and_stable(
    in_tmp: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    git_repo(in_tmp / "repo")
    with_errors(in_tmp / "repo" / "Bad.md")
    copy(PROSE, in_tmp / "repo" / PROSE.name)
    first = lint_output(["repo", "--format", "sarif"], capsys, 1)
    assert lint_output(["repo", "--format", "sarif"], capsys, 1) == first
    driver: dict[str, Any] = json.loads(first)["runs"][0]["tool"]["driver"]
    results = json.loads(first)["runs"][0]["results"]
    assert [rule["id"] for rule in driver["rules"]] == ["EP104", "EP108", "EP403"]
    assert driver["rules"][0]["name"] == "unknown-section"
    assert driver["rules"][0]["defaultConfiguration"] == {"level": "error", "enabled": True}
    assert driver["rules"][0]["fullDescription"]["text"].startswith("Headings are matched")
    assert driver["rules"][0]["properties"] == {"tags": ["EP"]}
    for result in results:
        assert driver["rules"][result["ruleIndex"]]["id"] == result["ruleId"]
    assert [(r["ruleId"], r["level"]) for r in results] == [
        ("EP403", "warning"),
        ("EP104", "error"),
        ("EP108", "warning"),
    ]
    # Selecting fewer rules must not renumber the ids.
    only = json.loads(lint_output(["repo", "--format", "sarif", "--select", "EP108"], capsys, 0))
    assert [r["ruleId"] for r in only["runs"][0]["results"]] == ["EP108"]


def test_sarif_of_a_clean_run_validates(in_tmp: Path, capsys: pytest.CaptureFixture[str]) -> None:
    copy(CORPUS / "flask--add-import-statement.md", in_tmp / "flask--add-import-statement.md")
    log = json.loads(
        lint_output(["flask--add-import-statement.md", "--format", "sarif"], capsys, 0)
    )
    sarif_validator().validate(log)
    assert log["runs"][0]["results"] == []
    assert log["runs"][0]["tool"]["driver"]["rules"] == []


def test_sarif_levels_cover_every_severity(tmp_path: Path) -> None:
    found = [
        Diagnostic("a.md", 1, 1, "EP305", "x", Severity.INFO, "info"),
        Diagnostic("a.md", 2, 3, "EP108", "y", Severity.WARNING, "warning"),
        Diagnostic("a.md", 3, 1, "XX001", "z", Severity.ERROR, "unregistered"),
    ]
    log: Any = sarif.build(found, tmp_path.resolve())
    sarif_validator().validate(log)
    assert [r["level"] for r in log["runs"][0]["results"]] == ["note", "warning", "error"]


# --- github -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "data", "prop"),
    [
        ("plain text", "plain text", "plain text"),
        ("100%", "100%25", "100%25"),
        ("%0A", "%250A", "%250A"),
        ("a\r\nb\nc", "a%0D%0Ab%0Ac", "a%0D%0Ab%0Ac"),
        ("C:\\x, y", "C:\\x, y", "C%3A\\x%2C y"),
        ("::error a=b::", "::error a=b::", "%3A%3Aerror a=b%3A%3A"),
    ],
)
def test_github_escaping(value: str, data: str, prop: str) -> None:
    assert github.escape_data(value) == data
    assert github.escape_property(value) == prop


def test_github_line_for_one_finding() -> None:
    found = Diagnostic("ev,al:s/x.md", 3, 7, "EP104", "unknown-section", Severity.ERROR, "50%\nfix")
    assert github.format_line(found) == (
        "::error file=ev%2Cal%3As/x.md,line=3,col=7,title=EP104 unknown-section::50%25%0Afix"
    )
    info = Diagnostic("x.md", 1, 1, "EP305", "n", Severity.INFO, "m")
    assert github.format_line(info).startswith("::notice ")


def test_github_end_to_end_with_a_comma_and_a_colon_in_the_file_name(
    in_tmp: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    copy(PROSE, in_tmp / "a,b:c%.md")
    out = lint_output(["a,b:c%.md", "--format", "github"], capsys, 0).splitlines()
    assert out[0] == (
        "::warning file=a%2Cb%3Ac%25.md,line=1,col=1,title=EP403 bad-file-name::"
        "file name 'a,b:c%25.md' is not `<repo>--<behaviour>.md` (lower case, words joined by "
        "`-`, two hyphens between repository and behaviour)"
    )
    assert out[1].startswith("::warning file=a%2Cb%3Ac%25.md,line=6,col=1,title=EP108 ")
    assert len(out) == 2  # no summary line: every line is a workflow command


# --- columns ----------------------------------------------------------------------------------


def test_every_format_reports_the_same_column_in_characters(
    in_tmp: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # A misspelt marker after `ü`: character column 6, byte column 7.
    text = (CORPUS / "flask--add-import-statement.md").read_text(encoding="utf-8")
    text = text.replace("# ^[CURSOR_POSITION]", "# ü ^[CURSOR POSITION]")
    git_repo(in_tmp / "repo")
    (in_tmp / "repo" / "flask--add-import-statement.md").write_text(text, encoding="utf-8")
    argv = ["repo/flask--add-import-statement.md", "--format"]
    out = lint_output([*argv, "text"], capsys, 1)
    assert out.startswith("repo/flask--add-import-statement.md:32:6: EP201 [error] ")
    [found] = json.loads(lint_output([*argv, "json"], capsys, 1))
    assert (found["line"], found["column"]) == (32, 6)
    assert ",line=32,col=6,title=EP201 " in lint_output([*argv, "github"], capsys, 1)
    log = json.loads(lint_output([*argv, "sarif"], capsys, 1))
    sarif_validator().validate(log)
    run = log["runs"][0]
    assert run["columnKind"] == "unicodeCodePoints"
    region = run["results"][0]["locations"][0]["physicalLocation"]["region"]
    assert region == {"startLine": 32, "startColumn": 6}


def test_sarif_outside_git_is_relative_to_the_configuration_folder(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # No git repository: %SRCROOT% is the folder of pyproject.toml, not the working
    # directory (a subfolder here), and results stay relative to it.
    project = tmp_path / "project"
    (project / "tools").mkdir(parents=True)
    (project / "pyproject.toml").write_text("[tool.evaltools]\n", encoding="utf-8")
    copy(PROSE, project / "evals" / PROSE.name)
    monkeypatch.chdir(project / "tools")
    log = json.loads(lint_output(["../evals", "--format", "sarif"], capsys, 0))
    run = log["runs"][0]
    assert run["originalUriBaseIds"] == {"%SRCROOT%": {"uri": project.resolve().as_uri() + "/"}}
    assert [r["locations"][0]["physicalLocation"]["artifactLocation"] for r in run["results"]] == [
        {"uri": f"evals/{PROSE.name}", "uriBaseId": "%SRCROOT%"}
    ]
