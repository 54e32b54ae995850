"""`evaltools dupes`: planted duplicates of each kind are found, and nothing else."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from evaltools.__main__ import main
from evaltools.example.markdown.reader import from_markdown
from evaltools.example.spec import Example, ExampleSpec, dumps_example
from tests.conftest import CORPUS

SOURCE = CORPUS / "flask--add-test-function.md"
OTHER = CORPUS / "tree-sitter--if-let-to-match.md"


def _dupes(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, list[dict[str, Any]]]:
    rc = main(["dupes", *args, "--format", "json"])
    return rc, json.loads(capsys.readouterr().out)


def _ids(pairs: list[dict[str, Any]]) -> list[tuple[str, str, str]]:
    return [(p["kind"], p["a"]["id"], p["b"]["id"]) for p in pairs]


def _spec_copy(name: str) -> ExampleSpec:
    spec = from_markdown(SOURCE.read_text(), name)
    spec.name = name
    return spec


def _synthetic(seed: int) -> ExampleSpec:
    words = [f"name_{seed}_{k}" for k in range(30)]
    excerpt = "\n".join(f"{word} = call({word}_arg, other_{word})" for word in words)
    spec = ExampleSpec(repository_url="https://example.com/r", revision="0" * 40)
    spec.cursor_path = "x.py"
    spec.cursor_position = excerpt + "\n# ^[CURSOR_POSITION]\n"
    spec.expected_patches = [f"--- a/x.py\n+++ b/x.py\n@@ -1 +1 @@\n-{words[0]}\n+{words[1]}\n"]
    return spec


def test_real_corpus_has_no_pairs(capsys: pytest.CaptureFixture[str]) -> None:
    rc, pairs = _dupes(capsys, str(CORPUS))
    assert (rc, pairs) == (0, [])


def test_same_spec_under_another_name_and_form_is_exact(
    in_tmp: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    shutil.copy(SOURCE, in_tmp / "original.md")
    shutil.copy(OTHER, in_tmp / "unrelated.md")
    # Another name, another form (JSON), expected patches in reverse order.
    spec = _spec_copy("renamed")
    spec.expected_patches.reverse()
    (in_tmp / "renamed.json").write_text(dumps_example(Example(spec)))
    rc, pairs = _dupes(capsys, "original.md", "unrelated.md", "renamed.json")
    assert rc == 1
    assert _ids(pairs) == [("exact", "original", "renamed")]
    assert pairs[0]["similarity"] == 1.0
    assert pairs[0]["a"] == {"path": "original.md", "line": 1, "id": "original"}


def test_renamed_variable_and_added_line_are_near(
    in_tmp: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = SOURCE.read_text()
    (in_tmp / "a.md").write_text(text)
    renamed = text.replace("rv", "resp")
    assert renamed != text
    (in_tmp / "b.md").write_text(renamed)
    head, excerpt = text.split("## Cursor Position", 1)
    added = (
        head
        + "## Cursor Position"
        + excerpt.replace(
            "    assert rv.status_code == 200\n",
            '    assert rv.status_code == 200\n    assert rv.mimetype == "text/html"\n',
            1,
        )
    )
    assert added != text
    (in_tmp / "c.md").write_text(added)
    shutil.copy(OTHER, in_tmp / "d.md")
    rc, pairs = _dupes(capsys, ".")
    assert rc == 0  # near pairs are warnings
    assert _ids(pairs) == [("near", "a", "b"), ("near", "a", "c"), ("near", "b", "c")]
    added_pair = pairs[1]
    assert 0.5 <= added_pair["similarity"] < 1.0
    assert "cursor excerpt" in added_pair["parts"]


def test_text_output_names_both_and_the_parts(
    in_tmp: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = SOURCE.read_text()
    (in_tmp / "a.md").write_text(text)
    (in_tmp / "b.md").write_text(text.replace("rv", "resp"))
    assert main(["dupes", "."]) == 0
    out = capsys.readouterr().out
    assert "b.md:1:1: DU002 [warning] 'b' is a near-duplicate of a.md:1 ('a')" in out
    assert "alike: expected patches 1.00" in out  # `rv` is only in the excerpt


def test_threshold_option_and_config(in_tmp: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = SOURCE.read_text()
    (in_tmp / "a.md").write_text(text)
    (in_tmp / "b.md").write_text(text.replace("rv", "resp"))
    assert _dupes(capsys, ".", "--threshold", "0.99")[1] == []
    (in_tmp / "pyproject.toml").write_text("[tool.evaltools.dupes]\nthreshold = 0.99\n")
    assert _dupes(capsys, ".")[1] == []
    (in_tmp / "pyproject.toml").write_text("[tool.evaltools.dupes]\nthreshhold = 0.9\n")
    assert main(["dupes", "."]) == 2
    assert (
        "pyproject.toml:2:1: unknown key 'threshhold' in [tool.evaltools.dupes] "
        "(did you mean 'threshold'?)" in capsys.readouterr().err
    )
    assert main(["dupes", ".", "--threshold", "1.5"]) == 2


def test_against_reports_only_pairs_across(
    in_tmp: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (in_tmp / "old").mkdir()
    (in_tmp / "new").mkdir()
    text = SOURCE.read_text()
    (in_tmp / "old" / "a.md").write_text(text)
    (in_tmp / "old" / "a2.md").write_text(text)  # a pair inside the reference: not reported
    (in_tmp / "new" / "b.md").write_text(text)
    (in_tmp / "new" / "c.md").write_text(OTHER.read_text())
    (in_tmp / "new" / "c2.md").write_text(OTHER.read_text())  # a pair inside the batch: neither
    rc, pairs = _dupes(capsys, "new", "--against", "old")
    assert rc == 1
    assert _ids(pairs) == [("exact", "a", "b")]


def test_jsonl_examples_same_pairs_with_any_jobs(
    in_tmp: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    lines = []
    for i in range(240):
        # Every example distinct, every 40th a renamed copy of the one before it, and
        # every 40th from the 21st that copy with one line added (a near pair).
        spec = _synthetic(i - 1 if i % 20 == 1 else i)
        if i % 40 == 21:
            spec.cursor_position = "added = 1\n" + spec.cursor_position
        spec.name = f"ex{i}"
        lines.append(dumps_example(Example(spec)).replace("\n", ""))
    (in_tmp / "set.jsonl").write_text("\n".join(lines) + "\n")
    runs = [_dupes(capsys, "set.jsonl", "--jobs", jobs) for jobs in ("1", "2", "1")]
    assert runs[0] == runs[1] == runs[2]
    exact = [p for p in _ids(runs[0][1]) if p[0] == "exact"]
    assert exact == [("exact", f"ex{i - 1}", f"ex{i}") for i in range(1, 240, 40)]
    near = [p for p in _ids(runs[0][1]) if p[0] == "near"]
    assert near == [("near", f"ex{i - 1}", f"ex{i}") for i in range(21, 240, 40)]
    assert runs[0][1][0]["b"]["line"] == 2


def test_check_runs_dupes_when_configured(in_tmp: Path, capsys: pytest.CaptureFixture[str]) -> None:
    shutil.copy(SOURCE, in_tmp / "a.md")
    shutil.copy(SOURCE, in_tmp / "b.md")
    (in_tmp / "pyproject.toml").write_text('[tool.evaltools]\npaths = ["."]\n')
    main(["check", "--format", "json"])
    assert not [d for d in json.loads(capsys.readouterr().out) if d["code"].startswith("DU")]
    (in_tmp / "pyproject.toml").write_text('[tool.evaltools]\npaths = ["."]\ndupes = true\n')
    assert main(["check", "--format", "json"]) == 1
    found = json.loads(capsys.readouterr().out)
    assert [(d["code"], d["path"]) for d in found if d["code"].startswith("DU")] == [
        ("DU001", "b.md")
    ]
    (in_tmp / "pyproject.toml").write_text('[tool.evaltools]\npaths = ["."]\ndupes = "yes"\n')
    assert main(["check"]) == 2
    assert "[tool.evaltools] dupes must be true, false or a table" in capsys.readouterr().err


@pytest.mark.parametrize("fmt", ["github", "sarif"])
def test_other_formats_carry_the_pairs(
    fmt: str, in_tmp: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    shutil.copy(SOURCE, in_tmp / "a.md")
    shutil.copy(SOURCE, in_tmp / "b.md")
    assert main(["dupes", ".", "--format", fmt]) == 1
    out = capsys.readouterr().out
    if fmt == "github":
        assert out.startswith("::error file=b.md,line=1,col=1,title=DU001")
    else:
        results = json.loads(out)["runs"][0]["results"]
        assert [r["ruleId"] for r in results] == ["DU001"]
