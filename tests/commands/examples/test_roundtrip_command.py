from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from evaltools.__main__ import main
from tests.conftest import CORPUS


def _copy_corpus(tmp_path: Path) -> Path:
    target = tmp_path / "evals"
    shutil.copytree(CORPUS, target)
    for path in target.iterdir():
        path.chmod(0o644)
    return target


def test_json_statuses_over_the_corpus(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["roundtrip", str(CORPUS), "--format", "json"]) == 1
    items = json.loads(capsys.readouterr().out)
    statuses = {Path(i["path"]).stem: i["status"] for i in items}
    assert len(statuses) == 15
    assert sorted(k for k, v in statuses.items() if v == "reformat") == [
        "flask--add-test-function",
        "tree-sitter--if-let-to-match",
        "tree-sitter--tuple-to-struct-definition",
    ]
    assert sorted(k for k, v in statuses.items() if v == "lossy") == [
        "vscode--log-object-property",
        "zed--change-match-arm",
    ]
    for item in items:
        assert ("line" in item) == (item["status"] != "exact")


def test_fix_rewrites_reformat_files_only(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    evals = _copy_corpus(tmp_path)
    before = {p.name: p.read_bytes() for p in evals.iterdir()}
    assert main(["roundtrip", str(evals), "--fix"]) == 1
    out = capsys.readouterr().out
    assert "(3 fixed)" in out
    assert "zed--change-match-arm.md: not rewritten" in out
    for name in ("vscode--log-object-property.md", "zed--change-match-arm.md"):
        assert (evals / name).read_bytes() == before[name]
    fixed = (evals / "flask--add-test-function.md").read_bytes()
    assert fixed != before["flask--add-test-function.md"]
    assert fixed.replace(b"```\n\n\n```", b"") == fixed
    assert main(["roundtrip", str(evals), "--format", "json"]) == 1
    items = json.loads(capsys.readouterr().out)
    assert sorted(i["status"] for i in items) == ["exact"] * 13 + ["lossy"] * 2
    assert not list(evals.glob(".*.tmp"))


def test_clean_file_exits_zero_and_diff_shows_changes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["roundtrip", str(CORPUS / "codex-acp--add-derive.md")]) == 0
    assert "1 file: 1 exact." in capsys.readouterr().out
    assert main(["roundtrip", str(CORPUS / "flask--add-test-function.md"), "--diff"]) == 1
    out = capsys.readouterr().out
    assert "flask--add-test-function.md:74:1: RT001 [warning]" in out
    assert "\n-\n" in out and "(canonical)" in out


BAD_INPUTS = {
    "latin1.md": (b"+++\ncaf\xe9\n", "IO001", 2, 4),
    "bom.md": (b"\xef\xbb\xbf+++\n", "IO002", 1, 1),
    "crlf.md": (b"+++\r\nrepository_url = 1\r\n", "IO003", 1, 4),
    "empty.md": (b"", "IO004", 1, 1),
    "binary.md": (b"PK\x03\x04\x00\x00", "IO005", 1, 5),
    # Columns count characters (é is two bytes), up to the byte that does not decode.
    "latin1-after-utf8.md": ("+++\ncafé ".encode() + b"caf\xe9\n", "IO001", 2, 9),
    "crlf-after-utf8.md": ("+++\nrepository_url = 'é'\r\n".encode(), "IO003", 2, 21),
    "nul-after-utf8.md": ("+++\né\x00\n".encode(), "IO005", 2, 2),
}


@pytest.mark.parametrize("name", sorted(BAD_INPUTS))
def test_bad_input_gets_one_line_diagnostic(
    name: str, in_tmp: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data, code, line, col = BAD_INPUTS[name]
    (in_tmp / name).write_bytes(data)
    assert main(["roundtrip", name]) == 1
    captured = capsys.readouterr()
    first = captured.out.splitlines()[0]
    assert first.startswith(f"{name}:{line}:{col}: {code} [error] ")
    assert "Traceback" not in captured.out + captured.err


def test_huge_file_directory_and_missing_path(
    in_tmp: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with (in_tmp / "huge.md").open("wb") as handle:
        handle.truncate(50 * 1024 * 1024)
    (in_tmp / "x.md").mkdir()
    assert main(["roundtrip", "huge.md", "x.md"]) == 1
    out = capsys.readouterr().out
    assert "huge.md:1:1: IO006 [error] file is 52,428,800 bytes" in out
    assert "x.md:1:1: IO007 [error] is a directory" in out
    assert main(["roundtrip", "missing.md"]) == 2
    err = capsys.readouterr().err
    assert err.strip() == "evaltools roundtrip: error: no such file or directory: missing.md"


def test_unparsable_markdown_is_reported_at_its_line(
    in_tmp: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (in_tmp / "a.md").write_text("+++\nrepository_url = 'u'\nrevision = 'r'\n+++\n\n###### deep\n")
    assert main(["roundtrip", "a.md", "--format", "json"]) == 1
    [item] = json.loads(capsys.readouterr().out)
    assert item["status"] == "invalid"
    assert item["line"] == 1
    assert item["messages"] == ["Unexpected heading level: h6", "Missing cursor position codeblock"]


FRONT = '+++\nrepository_url = "https://github.com/o/r"\nrevision = "%s"\n' % ("a" * 40)


@pytest.mark.parametrize(
    ("front", "line", "message"),
    [
        # Unknown keys are shown where the first one is, [[tables]] included.
        (
            FRONT + "date = 1979-05-27\n[[runs]]\nn = 1\n+++\n",
            4,
            "unknown front matter keys (date, runs) would be lost on a rewrite",
        ),
        (
            FRONT + "revision_note = 'x'\nrevision = 'b'\n+++\n",
            5,
            "front matter the reference cannot read (is not valid TOML (key `revision` is set "
            "twice, first on line 3)) would be lost on a rewrite: fix it, so that the reference "
            "reads it",
        ),
        (
            FRONT + "tags = 'one'\n+++\n",
            4,
            "front matter the reference cannot read (`tags` is not an array of strings) would "
            "be lost on a rewrite: fix it, so that the reference reads it",
        ),
    ],
)
def test_lossy_front_matter_is_located_and_worded(
    in_tmp: Path, capsys: pytest.CaptureFixture[str], front: str, line: int, message: str
) -> None:
    body = (CORPUS / "flask--add-import-statement.md").read_text().split("+++\n", 2)[2]
    (in_tmp / "a.md").write_text(front + body)
    assert main(["roundtrip", "a.md"]) == 1
    assert capsys.readouterr().out.startswith(f"a.md:{line}:1: RT002 [error] {message}")


def test_a_cursor_block_without_a_path_is_reported_at_the_block(
    in_tmp: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = (CORPUS / "flask--add-import-statement.md").read_text()
    info = text.split("## Cursor Position\n\n```", 1)[1].split("\n", 1)[0]
    (in_tmp / "a.md").write_text(text.replace(f"```{info}\n", "```\n", 1))
    fence_line = text[: text.index(f"```{info}\n")].count("\n") + 1
    assert main(["roundtrip", "a.md"]) == 1
    assert capsys.readouterr().out.startswith(
        f"a.md:{fence_line}:1: RT003 [error] Missing cursor position codeblock"
    )


def test_strict_reference_names_the_blank_line_the_reference_ends_with(
    in_tmp: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    shutil.copy(CORPUS / "flask--add-import-statement.md", in_tmp / "flask--sr.md")
    assert main(["roundtrip", "--strict-reference", "flask--sr.md"]) == 1
    fix = "run `evaltools roundtrip --strict-reference --fix flask--sr.md`"
    assert capsys.readouterr().out == (
        f"flask--sr.md:5:1: RT001 [warning] layout differs from the canonical form here: {fix}\n"
        "flask--sr.md:76:1: RT001 [warning] the reference writer ends the file with a blank "
        f"line: {fix}\n"
        "1 file: 1 reformat.\n"
    )


def test_tilde_fences_are_one_finding_per_block(
    in_tmp: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = (CORPUS / "flask--add-import-statement.md").read_text(encoding="utf-8")
    (in_tmp / "flask--tilde.md").write_text(text.replace("```", "~~~"), encoding="utf-8")
    assert main(["roundtrip", "flask--tilde.md"]) == 1
    fences = "the canonical form fences this block with ``` (backticks)"
    fix = "run `evaltools roundtrip --fix flask--tilde.md`"
    assert capsys.readouterr().out == "".join(
        f"flask--tilde.md:{line}:1: RT001 [warning] {fences}: {fix}\n" for line in (8, 24, 42, 60)
    ) + ("1 file: 1 reformat.\n")


def test_a_whitespace_only_last_line_is_named_once(
    in_tmp: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = (CORPUS / "flask--add-import-statement.md").read_text(encoding="utf-8")
    (in_tmp / "flask--ws.md").write_text(text + "  \n", encoding="utf-8")
    assert main(["roundtrip", "--strict-reference", "flask--ws.md"]) == 1
    fix = "run `evaltools roundtrip --strict-reference --fix flask--ws.md`"
    assert capsys.readouterr().out.splitlines()[1:] == [
        f"flask--ws.md:77:1: RT001 [warning] trailing whitespace on this blank line: {fix}",
        "1 file: 1 reformat.",
    ]
    assert main(["roundtrip", "flask--ws.md"]) == 1
    assert capsys.readouterr().out.splitlines() == [
        "flask--ws.md:77:1: RT001 [warning] an extra blank line at the end of the file: "
        "run `evaltools roundtrip --fix flask--ws.md`",
        "1 file: 1 reformat.",
    ]


def _with_recent_files(lines: str) -> str:
    """The canonical flask example with a `## Recently Opened Files` block (lines 6-11)."""
    text = (CORPUS / "flask--add-import-statement.md").read_text(encoding="utf-8")
    block = f"## Recently Opened Files\n\n```\n{lines}```\n\n## Edit History"
    return text.replace("## Edit History", block, 1)


NOT_POSITIONS = "src/flask/app.py\tline 12\nsrc/flask/ctx.py\tabc\n"


def test_text_after_a_recent_file_tab_that_is_no_position_is_lossy_and_never_fixed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "flask--add-import-statement.md"
    path.write_text(_with_recent_files(NOT_POSITIONS), encoding="utf-8")
    before = path.read_bytes()
    assert main(["roundtrip", "--fix", str(path)]) == 1
    out = capsys.readouterr().out
    assert f"{path}:9:18: RT002 [error] `line 12` after the tab" in out
    assert f"{path}:10:18: RT002 [error] `abc` after the tab" in out
    assert "RT001" not in out  # the lines cut short are the loss, not a layout change
    assert "not rewritten" in out
    assert path.read_bytes() == before
    assert main(["roundtrip", "--format", "json", str(path)]) == 1
    [item] = json.loads(capsys.readouterr().out)
    assert (item["status"], item["line"]) == ("lossy", 9)


def test_a_position_the_reference_reads_is_no_loss(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "flask--add-import-statement.md"
    path.write_text(_with_recent_files("src/flask/app.py\t+12\nsrc/a b.py\t007\n"))
    assert main(["roundtrip", "--fix", str(path)]) == 0  # a reformat, fixed
    assert "1 reformat (1 fixed)" in capsys.readouterr().out
    assert path.read_text() == _with_recent_files("src/flask/app.py\t12\nsrc/a b.py\t7\n")


def test_fix_exits_zero_once_every_reformat_file_is_rewritten(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # As black and `ruff format`: the files were fixed, nothing is left wrong.
    name = "tree-sitter--if-let-to-match.md"
    target = tmp_path / name
    target.write_bytes((CORPUS / name).read_bytes())
    assert main(["roundtrip", str(target), "--fix"]) == 0
    assert capsys.readouterr().out.endswith("1 file: 1 reformat (1 fixed).\n")
    assert main(["roundtrip", str(target)]) == 0
    # A write that fails leaves the file to reformat: still 1.
    target.write_bytes((CORPUS / name).read_bytes())
    target.chmod(0o444)
    assert main(["roundtrip", str(target), "--fix"]) == 1
    assert "IO020" in capsys.readouterr().out


FLASK = CORPUS / "flask--add-import-statement.md"


@pytest.mark.parametrize(
    ("old", "new", "at"),
    [
        # After a value, inside a multi-line array, after its closing bracket, on its own.
        ('flask"\n', 'flask" # origin remote\n', "2:53"),
        ('08be7"\n', '08be7"\ntags = [\n    "a", # first\n    "b",\n]\n', "5:10"),
        ('08be7"\n', '08be7"\ntags = [\n    "a",\n] # end\n', "6:3"),
        ('08be7"\n', '08be7"\nx = { a = 1 } # inline\n', "4:15"),
        ('08be7"\n', '08be7"\n# own line\n', "4:1"),
    ],
)
def test_a_front_matter_comment_anywhere_is_refused_by_fix_and_convert_and_linted(
    in_tmp: Path, capsys: pytest.CaptureFixture[str], old: str, new: str, at: str
) -> None:
    text = FLASK.read_text(encoding="utf-8").replace(old, new, 1)
    path = in_tmp / "flask--c1.md"
    path.write_text(text, encoding="utf-8")
    assert main(["roundtrip", "flask--c1.md", "--fix"]) == 1
    out = capsys.readouterr().out
    assert f"flask--c1.md:{at}: RT002 [error] front matter comment would be lost" in out
    assert "1 lossy" in out
    assert path.read_text(encoding="utf-8") == text  # not rewritten
    assert main(["convert", "flask--c1.md", "--to", "json", "-o", "out"]) == 1
    out = capsys.readouterr().out
    assert f"flask--c1.md:{at}: CV007 [error] front matter comment at line" in out
    assert not (in_tmp / "out").exists() or not list((in_tmp / "out").iterdir())
    main(["lint", "flask--c1.md"])
    assert f"flask--c1.md:{at}: EP006 [warning] front matter comment" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ('08be7"\n', '08be7"\ntags = ["""\n# not a comment"""]\n'),
        ('08be7"\n', "08be7\"\ntags = ['''\n# not a comment''']\n"),
        ('revision = "2fec0b206c6e83ea813ab26597e15c96fab08be7"\n', 'revision = """\n# x\n"""\n'),
        ('08be7"\n', '08be7"\ntags = ["a # b", \'c # d\']\n'),
    ],
)
def test_a_hash_inside_a_front_matter_string_is_no_loss(
    in_tmp: Path, capsys: pytest.CaptureFixture[str], old: str, new: str
) -> None:
    text = FLASK.read_text(encoding="utf-8").replace(old, new, 1)
    (in_tmp / "flask--s.md").write_text(text, encoding="utf-8")
    assert main(["roundtrip", "flask--s.md"]) == 1
    out = capsys.readouterr().out
    assert "RT002" not in out and "1 reformat" in out
    assert main(["convert", "flask--s.md", "--to", "json", "-o", "out"]) == 0
    assert "CV007" not in capsys.readouterr().out
    main(["lint", "flask--s.md"])
    assert "EP006" not in capsys.readouterr().out


def test_an_example_in_json_form_named_directly_is_a_usage_error_not_a_false_verdict(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = tmp_path / "flask--add-import-statement.md"
    source.write_bytes((CORPUS / source.name).read_bytes())
    for suffix in ("json", "jsonl"):
        target = tmp_path / f"ex.{suffix}"
        assert main(["convert", str(source), "--to", suffix, "-o", str(target)]) == 0
        capsys.readouterr()
        assert main(["roundtrip", str(source), str(target)]) == 2
        captured = capsys.readouterr()
        assert captured.out == ""
        assert "is an example in JSON form, which has no Markdown layout" in captured.err


def test_a_diff_counts_lines_at_newlines_only(
    in_tmp: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # A form feed in a code line ends no line (as in the file, and for `patch`):
    # `splitlines` would end one there, and number every hunk below it one line off.
    source = (CORPUS / "flask--add-import-statement.md").read_text(encoding="utf-8")
    text = source.replace(
        " from .globals import request\n", " from .globals\x0cimport request\n", 1
    )
    text = text.replace("## Cursor Position", "\n## Cursor Position", 1)
    assert text.count("\x0c") == 1 and text != source
    (in_tmp / "flask--ff.md").write_text(text, encoding="utf-8", newline="")
    assert main(["roundtrip", "--diff", "flask--ff.md"]) == 1
    out = capsys.readouterr().out
    header = next(line for line in out.split("\n") if line.startswith("@@ -"))
    first, count = (int(n) for n in header.split()[1][1:].split(","))
    body = out.split(header + "\n", 1)[1].split("\n")
    old = [line[1:] for line in body if line[:1] in {" ", "-"}][:count]
    assert old == text.split("\n")[first - 1 : first - 1 + count]
