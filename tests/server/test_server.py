"""`evaltools server` end to end: a real LSP client over the server's stdio, in a real git
repository, compared with what `evaltools check` and `roundtrip --fix` say and write."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from evaltools.__main__ import main
from tests.conftest import corpus_files
from tests.server.lspclient import Client, apply_edits

HEADING = "## Cursor Position"


def cli_findings(path: Path, capsys: pytest.CaptureFixture[str]) -> list[tuple[object, ...]]:
    capsys.readouterr()
    main(["check", str(path), "--format", "json"])
    out = json.loads(capsys.readouterr().out)
    found = out if isinstance(out, list) else out["diagnostics"]
    return sorted((d["code"], d["line"], d["column"], d["message"]) for d in found)


def lsp_findings(published: list[dict[str, object]]) -> list[tuple[object, ...]]:
    out = []
    for d in published:
        start = d["range"]["start"]  # type: ignore[index]
        out.append((d["code"], start["line"] + 1, start["character"] + 1, d["message"]))
    return sorted(out)


@pytest.fixture
def repo(in_tmp: Path) -> Path:
    subprocess.run(["git", "init", "-q", str(in_tmp)], check=True)
    (in_tmp / "pyproject.toml").write_text('[tool.evaltools]\npaths = ["."]\n')
    return in_tmp


def test_open_change_fix_hover_format_and_exit(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = corpus_files()[0].read_text("utf-8")
    assert HEADING in source
    broken = source.replace(HEADING, "## Curson Position").replace("+++\n\n##", "+++\n\n\n\n##")
    path = repo / "codex-acp--add-derive.md"
    path.write_text(broken)  # what the CLI sees; the server gets the same text from the editor
    expected = cli_findings(path, capsys)
    assert ("EP104", 24) in {(code, line) for code, line, *_ in expected}

    client = Client(repo)
    client.start(repo)
    uri = client.open(path, broken)
    published = client.diagnostics(uri, 1)
    assert lsp_findings(published) == expected
    assert {d["severity"] for d in published if d["code"] == "EP104"} == {1}

    # Hover on the finding: the rule's documentation, as `evaltools rule EP104` prints it.
    capsys.readouterr()
    main(["rule", "EP104"])
    documented = capsys.readouterr().out
    ep104 = next(d for d in published if d["code"] == "EP104")
    hover = client.request(
        "textDocument/hover",
        {"textDocument": {"uri": uri}, "position": ep104["range"]["start"]},
    )
    assert documented in hover["contents"]["value"]

    # The misspelt heading corrected in the editor (not on disk): its finding goes.
    fixed_heading = broken.replace("## Curson Position", HEADING)
    client.change(uri, 2, fixed_heading)
    assert "EP104" not in {d["code"] for d in client.diagnostics(uri, 2)}

    # The canonical rewrite, as a code action and as formatting: `roundtrip --fix`'s bytes.
    path.write_text(fixed_heading)
    assert main(["roundtrip", "--fix", str(path)]) == 0
    canonical = path.read_text("utf-8")
    assert canonical != fixed_heading
    whole = {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 0}}
    actions = client.request(
        "textDocument/codeAction",
        {"textDocument": {"uri": uri}, "range": whole, "context": {"diagnostics": []}},
    )
    rewrite = next(a for a in actions if "canonical" in a["title"])
    assert apply_edits(fixed_heading, rewrite["edit"]["changes"][uri]) == canonical
    edits = client.request(
        "textDocument/formatting",
        {"textDocument": {"uri": uri}, "options": {"tabSize": 4, "insertSpaces": True}},
    )
    assert apply_edits(fixed_heading, edits) == canonical

    # Formatting a canonical text changes nothing.
    client.change(uri, 3, canonical)
    client.diagnostics(uri, 3)
    edits = client.request(
        "textDocument/formatting",
        {"textDocument": {"uri": uri}, "options": {"tabSize": 4, "insertSpaces": True}},
    )
    assert edits == []
    assert client.stop() == 0


def test_a_lossy_document_gets_no_formatting_edit(repo: Path) -> None:
    source = corpus_files()[0].read_text("utf-8")
    lossy = source.replace(HEADING, "## Curson Position")  # its code block would be dropped
    path = repo / "codex-acp--add-derive.md"
    client = Client(repo)
    client.start(repo)
    uri = client.open(path, lossy)
    client.diagnostics(uri, 1)
    edits = client.request(
        "textDocument/formatting",
        {"textDocument": {"uri": uri}, "options": {"tabSize": 4, "insertSpaces": True}},
    )
    assert edits == []
    assert client.stop() == 0


def test_per_file_ignores_of_the_project_apply(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (repo / "pyproject.toml").write_text(
        '[tool.evaltools]\npaths = ["."]\nper-file-ignores = { "x.md" = ["EP403"] }\n'
    )
    text = corpus_files()[0].read_text("utf-8")
    path = repo / "x.md"
    path.write_text(text)
    expected = cli_findings(path, capsys)
    client = Client(repo)
    client.start(repo)
    uri = client.open(path, text)
    published = client.diagnostics(uri, 1)
    assert lsp_findings(published) == expected
    assert "EP403" not in {d["code"] for d in published}
    assert client.stop() == 0


RECORD = '{"qid": "q1", "query": "where is foo", "type": "intent", "gold": {"a.py:1-2:foo": 2}}\n'


@pytest.mark.parametrize(
    ("name", "right", "wrong"),
    [
        ("codex-acp--add-derive.md", HEADING, "## Curson Position"),
        ("codex-acp--add-derive.md", "revision = ", "revison = "),
        ("codex-acp--add-derive.md", "^[CURSOR_POSITION]", "^[CURSOR_POSITON]"),
        ("set.jsonl", '"type"', '"tpye"'),
    ],
)
def test_a_did_you_mean_hint_is_a_quick_fix_that_restores_the_text(
    repo: Path, capsys: pytest.CaptureFixture[str], name: str, right: str, wrong: str
) -> None:
    original = RECORD if name.endswith(".jsonl") else corpus_files()[0].read_text("utf-8")
    assert original.count(right) == 1
    text = original.replace(right, wrong)
    path = repo / name
    path.write_text(text)
    expected = cli_findings(path, capsys)
    client = Client(repo)
    client.start(repo)
    uri = client.open(path, text)
    published = client.diagnostics(uri, 1)
    if name.endswith(".jsonl"):  # a set's second publication adds the gold check's
        published = client.diagnostics(uri, 1)
    assert lsp_findings(published) == expected
    hinted = [d for d in published if d["data"]["fix"] is not None]
    assert len(hinted) == 1, published
    actions = client.request(
        "textDocument/codeAction",
        {
            "textDocument": {"uri": uri},
            "range": hinted[0]["range"],
            "context": {"diagnostics": hinted},
        },
    )
    quick = [a for a in actions if a["kind"] == "quickfix"]
    assert len(quick) == 1
    assert apply_edits(text, quick[0]["edit"]["changes"][uri]) == original
    assert client.stop() == 0


@pytest.mark.parametrize("form", ["json", "jsonl"])
def test_json_forms_get_the_findings_of_check_from_the_editors_text(
    repo: Path, capsys: pytest.CaptureFixture[str], form: str
) -> None:
    path = repo / f"codex-acp--add-derive.{form}"
    assert main(["convert", str(corpus_files()[0]), "--to", form, "-o", str(path)]) == 0
    text = path.read_text("utf-8")
    broken = text.replace("CURSOR_POSITION", "CURSOR_POSITON")
    assert broken != text
    path.write_text(broken)
    expected = cli_findings(path, capsys)
    assert expected
    path.write_text(text)  # the file on disk is clean: the server reads the editor's text
    client = Client(repo)
    client.start(repo)
    uri = client.open(path, broken)
    assert lsp_findings(client.diagnostics(uri, 1)) == expected
    client.change(uri, 2, text)
    assert lsp_findings(client.diagnostics(uri, 2)) == cli_findings(path, capsys)
    assert client.stop() == 0


def test_prose_outside_the_configured_paths_is_not_linted_as_an_example(repo: Path) -> None:
    (repo / "pyproject.toml").write_text('[tool.evaltools]\npaths = ["evals"]\n')
    (repo / "evals").mkdir()
    client = Client(repo)
    client.start(repo)
    readme = client.open(repo / "README.md", "# Notes\n\nHow we write evals.\n")
    assert client.diagnostics(readme, 1) == []
    inside = client.open(repo / "evals" / "notes.md", "# Notes\n\nHow we write evals.\n")
    assert client.diagnostics(inside, 1) != []  # below `paths`, as `check` takes it
    assert client.stop() == 0


def test_a_broken_configuration_is_shown_as_check_says_it(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (repo / "pyproject.toml").write_text('[tool.evaltools]\nselct = ["EP"]\n')
    path = repo / "x.md"
    path.write_text(corpus_files()[0].read_text("utf-8"))
    capsys.readouterr()
    assert main(["check", str(path)]) == 2
    said = capsys.readouterr().err.strip().removeprefix("evaltools check: error: ")
    client = Client(repo)
    client.start(repo)
    client.open(path, path.read_text("utf-8"))
    shown = client.wait(lambda m: m.get("method") == "window/showMessage")
    assert said in shown["params"]["message"]
    assert "did you mean 'select'" in said
    assert client.stop() == 0


def test_the_configured_severities_apply(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (repo / "pyproject.toml").write_text(
        '[tool.evaltools]\npaths = ["."]\n\n[tool.evaltools.severity]\nEP403 = "error"\n'
    )
    path = repo / "x.md"
    text = corpus_files()[0].read_text("utf-8")
    path.write_text(text)
    capsys.readouterr()
    main(["check", str(path), "--format", "json"])
    out = json.loads(capsys.readouterr().out)
    found = out if isinstance(out, list) else out["diagnostics"]
    assert {d["code"]: d["severity"] for d in found} == {"EP403": "error"}
    client = Client(repo)
    client.start(repo)
    uri = client.open(path, text)
    published = client.diagnostics(uri, 1)
    assert [(d["code"], d["severity"]) for d in published] == [("EP403", 1)]  # 1: Error
    assert client.stop() == 0
