"""`evaltools lint` as users call it: exit codes, text output, configuration, JSON inputs, --jobs.

The rules themselves are tested in tests/example/lint/test_lint_rules.py; the machine-readable
formats in test_lint_formats.py.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from evaltools.__main__ import main
from evaltools.example.lint import files as lint
from evaltools.example.markdown.reader import from_markdown
from evaltools.example.spec import Example, dumps_example, example_from_json_dict
from tests.conftest import CORPUS

CLEAN = CORPUS / "flask--add-import-statement.md"
PROSE = CORPUS / "zed--change-match-arm.md"  # EP108 (warning) at line 6, nothing else
PROSE_LINE = "6:1: EP108 [warning] text outside a code block"


def put(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def clean(path: Path) -> Path:
    return put(path, CLEAN.read_text(encoding="utf-8"))


def prose(path: Path) -> Path:
    return put(path, PROSE.read_text(encoding="utf-8"))


def broken(path: Path) -> Path:
    """Expected patches under a misspelt heading: one EP104, at the heading (line 40)."""
    text = CLEAN.read_text(encoding="utf-8").replace("## Expected Patch\n", "## Expected Patchs\n")
    return put(path, text)


def pyproject(root: Path, body: str) -> Path:
    return put(root / "pyproject.toml", f"[tool.evaltools]\n{body}")


def codes(out: str) -> list[str]:
    return [line.split(": ")[1].split()[0] for line in out.splitlines() if ": EP" in line]


# --- exit codes and text output ---------------------------------------------------------------


def test_clean_file_passes_with_a_summary(in_tmp: Path, capsys: pytest.CaptureFixture[str]) -> None:
    clean(in_tmp / "flask--add-import-statement.md")
    assert main(["lint", "flask--add-import-statement.md"]) == 0
    assert capsys.readouterr().out == "All checks passed: 1 file.\n"


def test_warnings_alone_exit_zero(in_tmp: Path, capsys: pytest.CaptureFixture[str]) -> None:
    prose(in_tmp / "evals" / "zed--change-match-arm.md")
    assert main(["lint", "evals"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith(f"evals/zed--change-match-arm.md:{PROSE_LINE}")
    assert out[1:] == ["Found 1 warning in 1 file."]


def test_an_error_exits_one_and_is_counted(
    in_tmp: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    broken(in_tmp / "evals" / "repo--broken.md")
    prose(in_tmp / "evals" / "zed--change-match-arm.md")
    clean(in_tmp / "evals" / "sub" / "flask--add-import-statement.md")
    assert main(["lint", "evals"]) == 1
    out = capsys.readouterr().out.splitlines()
    assert [line.split(" [")[0] for line in out[:-1]] == [
        "evals/repo--broken.md:40:1: EP104",
        "evals/zed--change-match-arm.md:6:1: EP108",
    ]
    assert out[0].endswith(
        "EP104 [error] unknown heading `## Expected Patchs`: its 2 code blocks are dropped; "
        "did you mean `## Expected Patch`?"
    )
    assert out[-1] == "Found 1 error, 1 warning in 2 of 3 files."


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["lint", "missing.md"], "no such file or directory: missing.md"),
        (["lint", "ok.md", "--select", "EP9"], "unknown rule selector 'EP9'"),
        (["lint", "ok.md", "--ignore", "no-such-rule"], "unknown rule selector 'no-such-rule'"),
        (["lint"], "no paths given and no `paths` in [tool.evaltools]"),
        (["lint", "ok.md", "--config", "nowhere.toml"], "cannot read configuration"),
        (["lint", "ok.md", "--jobs", "-1"], "--jobs must be 0 (every core)"),
    ],
)
def test_usage_errors_exit_two_with_one_line(
    in_tmp: Path, capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    clean(in_tmp / "ok.md")
    assert main(argv) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.startswith("evaltools lint: error: ")
    assert message in captured.err
    assert captured.err.count("\n") == 1


@pytest.mark.parametrize(
    "body",
    [
        "select = [\n",  # not TOML
        "paths = 'evals'\n",
        "select = [1]\n",
        "per-file-ignores = ['EP108']\n",
        "per-file-ignores = { 'x.md' = 3 }\n",
        "ignore = ['NOPE']\n",
    ],
)
def test_bad_configuration_exits_two(
    in_tmp: Path, capsys: pytest.CaptureFixture[str], body: str
) -> None:
    pyproject(in_tmp, body)
    clean(in_tmp / "evals" / "ok.md")
    assert main(["lint"] if "paths" in body else ["lint", "evals"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.startswith("evaltools lint: error: ")


def test_unreadable_input_is_a_finding_not_a_crash(
    in_tmp: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (in_tmp / "evals").mkdir()
    (in_tmp / "evals" / "bom.md").write_bytes(b"\xef\xbb\xbf" + CLEAN.read_bytes())
    (in_tmp / "evals" / "latin1.md").write_bytes(b"+++\nr\xe9vision\n")
    assert main(["lint", "evals"]) == 1
    out = capsys.readouterr().out
    assert "evals/bom.md:1:1: IO002 [error]" in out
    assert "evals/latin1.md:2:2: IO001 [error]" in out
    assert "Traceback" not in out


def test_version_and_help(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--version"]) == 0
    assert capsys.readouterr().out == "evaltools 0.1.0\n"
    assert main(["lint", "--version"]) == 0
    assert capsys.readouterr().out == "evaltools 0.1.0\n"
    assert main(["lint", "--help"]) == 0
    out = capsys.readouterr().out
    assert "Usage: evaltools lint" in out
    for option in ("--format", "--select", "--ignore", "--config", "--jobs"):
        assert option in out


# --- [tool.evaltools] -------------------------------------------------------------------------


def test_configured_paths_are_used_without_arguments(
    in_tmp: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    pyproject(in_tmp, 'paths = ["evals", "more/one.md"]\n')
    prose(in_tmp / "evals" / "zed--change-match-arm.md")
    broken(in_tmp / "more" / "one.md")
    broken(in_tmp / "more" / "not-listed.md")
    (in_tmp / "tools").mkdir()
    monkeypatch.chdir(in_tmp / "tools")  # found upward; paths are relative to its directory
    assert main(["lint"]) == 1
    out = capsys.readouterr().out
    # Shown relative to the working directory, as from anywhere else.
    lines = out.splitlines()
    assert any(line.startswith(f"../evals/zed--change-match-arm.md:{PROSE_LINE}") for line in lines)
    assert any(line.startswith("../more/one.md:40:1: EP104") for line in lines)
    assert "not-listed" not in out
    assert out.endswith("Found 1 error, 2 warnings in 2 files.\n")  # one.md: EP403


def test_select_and_ignore_from_the_configuration(
    in_tmp: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # EP108 (prose) and EP403 (file name) in one file.
    prose(in_tmp / "Bad Name.md")
    assert main(["lint", "Bad Name.md"]) == 0
    assert codes(capsys.readouterr().out) == ["EP403", "EP108"]
    pyproject(in_tmp, 'select = ["EP1"]\n')
    assert main(["lint", "Bad Name.md"]) == 0
    assert codes(capsys.readouterr().out) == ["EP108"]
    pyproject(in_tmp, 'ignore = ["prose-outside-sections"]\n')
    assert main(["lint", "Bad Name.md"]) == 0
    assert codes(capsys.readouterr().out) == ["EP403"]


def test_flags_override_the_configured_select_and_ignore_and_add_to_ignore(
    in_tmp: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    prose(in_tmp / "Bad Name.md")
    pyproject(in_tmp, 'select = ["EP4"]\nignore = ["EP1"]\n')
    assert main(["lint", "Bad Name.md", "--select", "EP108"]) == 0
    # A command-line --select replaces the configured select and ignore, as in ruff.
    assert codes(capsys.readouterr().out) == ["EP108"]
    pyproject(in_tmp, 'select = ["EP4"]\n')
    assert main(["lint", "Bad Name.md", "--select", "EP108"]) == 0
    assert codes(capsys.readouterr().out) == ["EP108"]
    assert main(["lint", "Bad Name.md", "--ignore", "EP403"]) == 0
    assert codes(capsys.readouterr().out) == []


def test_per_file_ignores_globs_are_relative_to_the_configuration(
    in_tmp: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    pyproject(in_tmp, '[tool.evaltools.per-file-ignores]\n"evals/legacy/*.md" = ["EP108"]\n')
    prose(in_tmp / "evals" / "legacy" / "zed--change-match-arm.md")
    prose(in_tmp / "evals" / "current" / "zed--change-match-arm.md")
    for cwd in (in_tmp, in_tmp / "evals"):
        monkeypatch.chdir(cwd)
        assert main(["lint", str(in_tmp / "evals")]) == 0
        out = capsys.readouterr().out
        assert "current/zed--change-match-arm.md:6:1: EP108" in out
        assert "legacy" not in out
        assert out.endswith("Found 1 warning in 1 of 2 files.\n")


def test_config_file_given_explicitly(in_tmp: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pyproject(in_tmp, 'select = ["EP4"]\n')  # would hide EP108; --config replaces it
    put(in_tmp / "conf" / "lint.toml", '[tool.evaltools]\nignore = ["EP403"]\n')
    prose(in_tmp / "Bad Name.md")
    assert main(["lint", "Bad Name.md", "--config", "conf/lint.toml"]) == 0
    assert codes(capsys.readouterr().out) == ["EP108"]


# --- .json and .jsonl inputs ------------------------------------------------------------------


def _record(*, indent: int | None = None, check: bool = True, **changes: object) -> str:
    spec = from_markdown(CLEAN.read_text(encoding="utf-8"), "flask--add-import-statement")
    data = json.loads(dumps_example(Example(spec)))
    data.update(changes)
    if check:
        example_from_json_dict(data)  # still a valid spec
    return json.dumps(data, indent=indent, ensure_ascii=False)


def test_json_and_jsonl_files_hold_specs(in_tmp: Path, capsys: pytest.CaptureFixture[str]) -> None:
    put(in_tmp / "one.json", _record())
    lines = [_record(), '{"name": "x", "tags": [1 2]}', _record(expected_patches=[])]
    put(in_tmp / "set.jsonl", "\n".join(lines) + "\n")
    assert main(["lint", "one.json"]) == 0
    assert capsys.readouterr().out == "All checks passed: 1 file.\n"
    assert main(["lint", "set.jsonl", "one.json", "--format", "json"]) == 1
    found = json.loads(capsys.readouterr().out)
    assert [(d["path"], d["line"], d["column"], d["code"], d.get("pointer")) for d in found] == [
        ("set.jsonl", 2, 26, "IO008", None),
        ("set.jsonl", 3, 762, "EP107", "/expected_patches"),  # at its `[]`
    ]
    assert "expecting ',' delimiter" in found[0]["message"]


def test_a_bad_jsonl_line_is_reported_at_its_line_and_column(
    in_tmp: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    put(in_tmp / "set.jsonl", _record() + "\n" + '{"name": 1,}\n' + _record(revision="main"))
    assert main(["lint", "set.jsonl"]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[0] == (
        "set.jsonl:2:11: IO008 [error] not valid JSON (a trailing comma before the end of "
        "the object): delete it"
    )
    assert out[1].startswith("set.jsonl:3:107: EP402 [warning] revision 'main'")
    assert out[1].endswith("(at /revision)")
    assert out[2] == "Found 1 error, 1 warning in 1 file."


def test_a_field_of_a_json_file_is_reported_at_its_value(
    in_tmp: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Pretty-printed: "revision" is on line 4, its value at column 15.
    put(in_tmp / "bad.json", _record(indent=2, check=False, revision=123))
    put(in_tmp / "main.json", _record(indent=2, revision="main"))
    assert main(["lint", "bad.json", "main.json"]) == 1
    assert capsys.readouterr().out.splitlines()[:2] == [
        "bad.json:4:15: EP501 [error] /revision must be a string, not a number (at /revision)",
        "main.json:4:15: EP402 [warning] revision 'main' is not a full 40-digit lower-case "
        "commit id: use `git rev-parse <rev>` (at /revision)",
    ]


def test_a_field_of_a_jsonl_line_is_reported_at_its_column_in_characters(
    in_tmp: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    line = _record(name="日本語", revision="main")
    put(in_tmp / "set.jsonl", _record() + "\n" + line + "\n")
    assert main(["lint", "set.jsonl", "--format", "json"]) == 0
    [found] = json.loads(capsys.readouterr().out)
    # The value's column in characters (in bytes it would be 89: 日本語 is 9 bytes).
    assert (found["line"], found["column"], found["code"]) == (2, 83, "EP402")
    assert line[82:88] == '"main"'


def test_directories_are_searched_for_markdown_only(
    in_tmp: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    clean(in_tmp / "evals" / "flask--add-import-statement.md")
    put(in_tmp / "evals" / "broken.jsonl", "not json\n")
    put(in_tmp / "evals" / "broken.json", "{")
    assert main(["lint", "evals"]) == 0
    assert capsys.readouterr().out == "All checks passed: 1 file.\n"


# --- --jobs -----------------------------------------------------------------------------------


def _many(root: Path, count: int) -> list[Path]:
    sources = sorted(CORPUS.glob("*.md"))
    return [
        put(root / f"d{i % 7}" / f"{i:03}-{source.name}", source.read_text(encoding="utf-8"))
        for i, source in ((i, sources[i % len(sources)]) for i in range(count))
    ]


def test_jobs_gives_the_same_findings_in_the_same_order(
    in_tmp: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _many(in_tmp / "evals", 61)
    assert main(["lint", "evals", "--jobs", "1"]) == 0
    serial = capsys.readouterr().out
    assert serial.endswith("of 61 files.\n")
    assert serial.count(": EP") > 10
    assert main(["lint", "evals", "--jobs", "2"]) == 0
    assert capsys.readouterr().out == serial
    assert main(["lint", "evals"]) == 0  # as many as the input is worth
    assert capsys.readouterr().out == serial
    assert main(["lint", "evals", "-j", "0"]) == 0  # every core
    assert capsys.readouterr().out == serial


def test_lint_files_in_a_pool_keeps_the_order_of_the_files(in_tmp: Path) -> None:
    files = _many(in_tmp, 53)[::-1]
    expected = [lint.lint_path(path) for path in files]
    assert list(lint.lint_files(files, 2)) == expected
    assert [found[0].path for found in expected if found] == [
        f.relative_to(in_tmp).as_posix() for f, found in zip(files, expected, strict=True) if found
    ]


# --- the real process ------------------------------------------------------------------------


def test_the_installed_program_runs_as_a_process(tmp_path: Path) -> None:
    prose(tmp_path / "zed--change-match-arm.md")
    broken(tmp_path / "repo--broken.md")
    done = subprocess.run(
        [sys.executable, "-m", "evaltools", "lint", "zed--change-match-arm.md"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=False,
    )
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout.splitlines()[-1] == "Found 1 warning in 1 file."
    done = subprocess.run(
        [sys.executable, "-m", "evaltools", "lint", "repo--broken.md", "--format", "github"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 1
    assert done.stdout.startswith("::error file=repo--broken.md,line=")


def test_front_matter_findings_name_the_key_line_and_say_how_to_fix(
    in_tmp: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    body = CLEAN.read_text(encoding="utf-8").split("+++\n", 2)[2]
    front = '+++\nrepository_url = "https://github.com/o/r"\nrevision = "%s"\n' % ("a" * 40)
    put(in_tmp / "o--extra.md", front + "revision_note = 'x'\n[[runs]]\nn = 1\n+++\n" + body)
    put(in_tmp / "o--no-rev.md", '+++\nrepository_url = "https://github.com/o/r"\n+++\n' + body)
    assert main(["lint", "o--extra.md", "o--no-rev.md"]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("o--extra.md:4:1: EP005 [warning] front matter key `revision_note`")
    assert out[1].startswith("o--extra.md:5:1: EP005 [warning] front matter key `runs`")
    assert out[2] == (
        "o--no-rev.md:1:1: EP004 [error] front matter has no `revision`, so the reference "
        'ignores all of it (every field blank): add `revision = "…"` below the opening `+++`'
    )


@pytest.mark.parametrize(
    ("key", "shown"),
    [
        ("foo", "foo"),
        ('"a b"', '"a b"'),
        ('"a\\tb"', '"a\\tb"'),  # the tab shown escaped, as a line break is
        ('"a\\nb"', '"a\\nb"'),
        ('"\\u0061bc"', "abc"),
        ('"a\\u007Fb"', '"a\\u007Fb"'),
        ("  'x\\ty'", '"x\\\\ty"'),  # a literal key's backslash is one
    ],
)
def test_an_unknown_front_matter_key_is_placed_at_itself_and_shown_as_toml_writes_it(
    in_tmp: Path, capsys: pytest.CaptureFixture[str], key: str, shown: str
) -> None:
    text = CLEAN.read_text(encoding="utf-8").replace("+++\n\n", f"{key} = 1\n+++\n\n", 1)
    put(in_tmp / "o--extra.md", text)
    column = len(key) - len(key.lstrip()) + 1
    assert main(["lint", "o--extra.md"]) == 0
    first = capsys.readouterr().out.splitlines()[0]
    assert first.startswith(f"o--extra.md:4:{column}: EP005 [warning] front matter key `{shown}` ")
    assert main(["lint", "o--extra.md", "--format", "json"]) == 0
    finding = json.loads(capsys.readouterr().out)[0]
    assert (finding["line"], finding["column"]) == (4, column)
    assert f"`{shown}`" in finding["message"]
    assert main(["roundtrip", "o--extra.md"]) == 1
    assert capsys.readouterr().out.startswith(
        f"o--extra.md:4:{column}: RT002 [error] unknown front matter keys ({shown}) "
    )
