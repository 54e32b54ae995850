"""`check` and `init` take examples in all three forms (`.md`, `.json`, `.jsonl`), each read
as its suffix says, and never an eval set as examples (issue 28, point 1)."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from evaltools.__main__ import main
from tests.conftest import REPO

GOOD = sorted((REPO / "evals").glob("*.md"))
FIXED = """+++
repository_url = "https://github.com/psf/requests"
revision = "0123456789abcdef0123456789abcdef01234567"
+++

## Cursor Position

```src/app.py
def main():
    print("hello")
#         ^[CURSOR_POSITION]
    return 0
```

## Expected Patch

```diff
--- a/src/app.py
+++ b/src/app.py
@@ -1,3 +1,3 @@
 def main():
     print("hello")
-    return 0
+    return 1
```
"""
# One character off in the expected patch's context: EP301, however the example is written.
BROKEN = FIXED.replace('     print("hello")\n-', '     print("hallo")\n-')
SET = '{"qid": "q1", "query": "main", "type": "identifier", "gold": {"src/app.py:1-3:main": 3}}\n'
EP301 = (
    "EP301 [error] hunk line 'print(\"hallo\")' does not match excerpt line 2 "
    "('print(\"hello\")'): copy the context exactly (whitespace counts) (at /expected_patches/0)"
)


@pytest.fixture
def repo(in_tmp: Path) -> Path:
    """A git repository with good Markdown examples in `evals/`."""
    subprocess.run(["git", "init", "-q"], cwd=in_tmp, check=True)
    (in_tmp / "evals").mkdir()
    for path in GOOD:
        shutil.copyfile(path, in_tmp / "evals" / path.name)
    return in_tmp


def _convert(folder: Path, text: str, name: str, to: str, out: Path) -> None:
    """`text` written as `name` in `folder`, converted by the real CLI into `out`."""
    folder.mkdir(exist_ok=True)
    (folder / name).write_text(text)
    assert main(["convert", str(folder), "--to", to, "-o", str(out), "--force"]) == 0


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    code = main(list(argv))
    return code, capsys.readouterr().out


def test_a_broken_json_example_beside_good_markdown_fails_check(
    repo: Path, tmp_path_factory: pytest.TempPathFactory, capsys: pytest.CaptureFixture[str]
) -> None:
    (repo / "pyproject.toml").write_text('[tool.evaltools]\npaths = ["evals"]\n')
    source = tmp_path_factory.mktemp("source")
    _convert(source, BROKEN, "requests--mismatch.md", "json", repo / "evals")
    capsys.readouterr()
    written = (repo / "evals" / "requests--mismatch.json").read_bytes()
    code, out = _run(capsys, "lint", "evals/requests--mismatch.json")
    assert (code, out.splitlines()[0]) == (1, f"evals/requests--mismatch.json:10:5: {EP301}")
    # `check` (what the hook and CI run) finds the same, at the same place; `--fix` touches
    # no JSON example (the round trip is Markdown's).
    for argv in (["check"], ["check", "--fix"]):
        code, out = _run(capsys, *argv)
        assert code == 1, out
        assert f"evals/requests--mismatch.json:10:5: {EP301}" in out
        assert out.endswith(f"Found 1 error in 1 of {len(GOOD) + 1} files.\n")
    assert (repo / "evals" / "requests--mismatch.json").read_bytes() == written
    # Fixed, it passes.
    _convert(source, FIXED, "requests--mismatch.md", "json", repo / "evals")
    capsys.readouterr()
    assert _run(capsys, "check") == (0, f"All checks passed: {len(GOOD) + 1} files.\n")


def test_init_finds_jsonl_examples_and_check_reads_them_as_jsonl(
    in_tmp: Path, tmp_path_factory: pytest.TempPathFactory, capsys: pytest.CaptureFixture[str]
) -> None:
    subprocess.run(["git", "init", "-q"], cwd=in_tmp, check=True)
    (in_tmp / "evals").mkdir()
    (in_tmp / "src").mkdir()
    (in_tmp / "src" / "app.py").write_text('def main():\n    print("hello")\n    return 0\n')
    (in_tmp / "evals" / "retrieval.jsonl").write_text(SET)
    source = tmp_path_factory.mktemp("source")
    (source / "a--good.md").write_text(FIXED)
    _convert(source, BROKEN, "b--mismatch.md", "jsonl", in_tmp / "evals" / "examples.jsonl")
    examples = (in_tmp / "evals" / "examples.jsonl").read_bytes()
    assert main(["init"]) == 0
    assert "found no example files" not in capsys.readouterr().out
    assert (in_tmp / "pyproject.toml").read_text() == (
        '[tool.evaltools]\npaths = [\n    "evals",\n]\n'
        "# Uncomment to make warnings fail `evaltools check` (and so the commit) as errors do:\n"
        "# max-warnings = 0\n\n"
        '[tool.evaltools.retrieval]\nsets = [\n    "evals/retrieval.jsonl",\n]\nroot = "."\n'
    )
    code, out = _run(capsys, "check")
    # The JSONL read as JSONL: the real mistake at its record's line, no Markdown findings,
    # and the eval set below the same folder checked as a set, not linted as examples.
    column = examples.splitlines()[1].decode().index('"--- a/src') + 1
    assert code == 1, out
    assert out.splitlines() == [
        f"evals/examples.jsonl:2:{column}: {EP301}",
        "Found 1 error in 1 of 2 files.",
    ]
    assert (in_tmp / "evals" / "examples.jsonl").read_bytes() == examples

    # Listed by itself in `paths`, it is read as JSONL all the same.
    (in_tmp / "pyproject.toml").write_text('[tool.evaltools]\npaths = ["evals/examples.jsonl"]\n')
    assert _run(capsys, "check") == (1, out.replace(" of 2 files", " file"))


def test_other_json_in_an_examples_folder_is_no_example_but_a_broken_one_is(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (repo / "pyproject.toml").write_text('[tool.evaltools]\npaths = ["evals"]\n')
    (repo / "evals" / "package.json").write_text('{"name": "evals", "private": true}\n')
    (repo / "evals" / "history.jsonl").write_text('{"run": "bm25", "ndcg": 0.41}\n')
    assert _run(capsys, "check") == (0, f"All checks passed: {len(GOOD)} files.\n")
    # A file that is no JSON at all may be a broken example (here Markdown saved as .json):
    # it is checked, and said.
    (repo / "evals" / "requests--saved.json").write_text(FIXED)
    code, out = _run(capsys, "check")
    assert code == 1, out
    assert out.splitlines()[0].startswith("evals/requests--saved.json:1:1: IO008 [error] ")


def test_a_retrieval_set_below_paths_is_checked_as_a_set_not_linted(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (repo / "pyproject.toml").write_text('[tool.evaltools]\npaths = ["evals"]\n')
    record = SET.replace('"identifier"', '"identfier"')
    (repo / "evals" / "retrieval.jsonl").write_text(record)
    code, out = _run(capsys, "check")
    assert code == 1, out
    assert out.splitlines() == [
        "evals/retrieval.jsonl:1:1: RG015 [warning] gold IDs not checked: set `root` (or "
        "`metas`) in [tool.evaltools.retrieval] of pyproject.toml to say where the code is",
        'evals/retrieval.jsonl:1:40: RV010 [error] `type` "identfier" is not one of '
        "identifier, intent, mixed: use one of them (at /type)",
        f"Found 1 error, 1 warning in 1 of {len(GOOD) + 1} files.",
    ]
    assert (repo / "evals" / "retrieval.jsonl").read_text() == record


@pytest.mark.parametrize(
    ("old", "new"), [('"gold"', '"gld"'), ('"qid"', '"id"'), ('"qid": "q1", ', "")]
)
def test_a_set_below_paths_whose_first_record_lost_a_field_is_still_checked(
    repo: Path, capsys: pytest.CaptureFixture[str], old: str, new: str
) -> None:
    # One misspelt field of the first record must not turn the whole set into "other JSON"
    # that `check` passes over: it is a set, and the record's mistake is said.
    (repo / "pyproject.toml").write_text('[tool.evaltools]\npaths = ["evals"]\n')
    text = SET.replace(old, new) + SET.replace("q1", "q2")
    (repo / "evals" / "retrieval.jsonl").write_text(text)
    code, out = _run(capsys, "check")
    assert code == 1, out
    assert "evals/retrieval.jsonl:1:1: RV005 [error] record has no `" in out, out
    assert (repo / "evals" / "retrieval.jsonl").read_text() == text


@pytest.mark.parametrize("notes_first", [False, True])
def test_a_set_whose_first_record_is_over_a_mebibyte_is_still_checked(
    repo: Path, capsys: pytest.CaptureFixture[str], notes_first: bool
) -> None:
    # The sniff reads a line to a bound: past it, the record's member names decide.
    (repo / "pyproject.toml").write_text('[tool.evaltools]\npaths = ["evals"]\n')
    record = json.loads(SET)
    notes = {"notes": "x" * (1 << 20) + ' "type": "gold": '}  # the names in a string count not
    first = (notes | record) if notes_first else (record | notes)
    text = json.dumps(first) + "\n" + SET.replace("q1", "q2").replace('"identifier"', '"idn"')
    (repo / "evals" / "retrieval.jsonl").write_text(text)
    code, out = _run(capsys, "check")
    assert code == 1, out
    assert 'evals/retrieval.jsonl:2:40: RV010 [error] `type` "idn" is not one of' in out, out


def test_a_long_record_with_the_names_only_nested_is_no_set(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # A chat-format training record: `type` and `query` are names of its tools' schema,
    # not its own members; past the sniff's bound it is parsed whole, as a short one is.
    (repo / "pyproject.toml").write_text('[tool.evaltools]\npaths = ["evals"]\n')
    tool = {"type": "function", "parameters": {"properties": {"query": {"type": "string"}}}}
    record = {"tools": [tool], "messages": [{"content": "x" * (2 << 20)}]}
    (repo / "evals" / "train.jsonl").write_text(json.dumps(record) + "\n")
    assert _run(capsys, "check") == (0, f"All checks passed: {len(GOOD)} files.\n")


def test_a_run_below_paths_is_no_set(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (repo / "pyproject.toml").write_text('[tool.evaltools]\npaths = ["evals"]\n')
    run = '{"qid": "q1", "results": [{"id": "src/app.py:1-3:main", "score": 1.0}]}\n'
    (repo / "evals" / "run.jsonl").write_text(run)
    assert _run(capsys, "check") == (0, f"All checks passed: {len(GOOD)} files.\n")
