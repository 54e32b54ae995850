"""Conversion and the Markdown form: the corpus, layout hints, and what Markdown cannot hold."""

from __future__ import annotations

import json
import shutil
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from evaltools.example.convert import record as convert_record
from evaltools.example.markdown.reader import ACCEPTED_PREDICTION_MARKER, LayoutHints, read_markdown
from evaltools.example.markdown.render import default_hints, to_markdown
from evaltools.example.markdown.roundtrip import differing_fields
from evaltools.example.spec import Example, dumps_example
from tests.conftest import ALT_CORPUS, CORPUS, corpus_files, corpus_stem
from tests.example import gen_records
from tests.example.gen_records import kinds, run

EXACT = sorted(
    p.name
    for p in corpus_files()
    if p.stem
    not in {
        "flask--add-test-function",
        "tree-sitter--if-let-to-match",
        "tree-sitter--tuple-to-struct-definition",
        "vscode--log-object-property",
        "zed--change-match-arm",
    }
)
LOSSY = ("vscode--log-object-property.md", "zed--change-match-arm.md")


def test_corpus_md_to_jsonl_to_md(tmp_path: Path) -> None:
    stats, found = run([CORPUS], "jsonl", tmp_path / "all.jsonl")
    assert sorted(Path(f.path).name for f in found) == sorted(LOSSY)
    assert all(f.code == "CV007" and f.line == 6 for f in found)
    assert all("line 6" in f.message and "## Reasoning" in f.message for f in found)
    assert stats.refused == 2
    stats, found = run(
        [CORPUS, ALT_CORPUS], "jsonl", tmp_path / "all.jsonl", allow_lossy=True, force=True
    )
    assert kinds(found) == ["CV008"] * 2 and stats.written == 18
    stats, found = run([tmp_path / "all.jsonl"], "md", tmp_path / "md")
    assert found == [] and stats.written == 18
    for path in corpus_files():
        out = (tmp_path / "md" / path.name).read_text()
        if path.name in EXACT:
            assert out == path.read_text(), path.name
        original = read_markdown(path.read_text(), path.stem).spec
        assert differing_fields(original, read_markdown(out, path.stem).spec) == []
    for path in sorted(ALT_CORPUS.glob("*.md")):
        # `@` in the stem becomes `-` in the file name, so the name moves into a title.
        out = (tmp_path / "md" / (path.name.replace("@", "-"))).read_text()
        original = read_markdown(path.read_text(), path.stem).spec
        assert differing_fields(original, read_markdown(out).spec) == []
        assert corpus_stem(path) in out


def test_md_to_md_keeps_the_layout(tmp_path: Path) -> None:
    stats, _ = run([CORPUS], "md", tmp_path / "md")
    assert stats.written == 13 and stats.refused == 2
    for name in EXACT:
        assert (tmp_path / "md" / name).read_bytes() == (CORPUS / name).read_bytes()


def test_what_the_markdown_form_cannot_carry_is_refused(tmp_path: Path) -> None:
    base = gen_records.spec(1)
    bad: list[dict[str, Any]] = []
    changes: tuple[dict[str, Any], ...] = (
        {"reasoning": "\n\nthought\n"},
        {"cursor_path": ""},
        {"telemetry": None},
    )
    for i, change in enumerate(changes):
        data = json.loads(dumps_example(Example(replace(base, name=f"n{i}", **change))))
        bad.append(data)
    bad[2]["human_feedback"] = [{"message": "good"}]
    source = tmp_path / "bad.jsonl"
    source.write_text("".join(json.dumps(d) + "\n" for d in bad))
    stats, found = run([source], "md", tmp_path / "md", allow_lossy=True)
    assert kinds(found) == ["CV008", "CV009", "CV008"]
    assert "`reasoning` would not survive the Markdown form" in found[0].message
    assert "would not read back" in found[1].message
    assert "`human_feedback` cannot be kept" in found[2].message
    assert (stats.written, stats.refused) == (2, 1)


def test_default_hints_give_accepted_predictions_their_own_block() -> None:
    diff_a = "--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n"
    diff_b = "--- a/y\n+++ b/y\n@@ -1 +1 @@\n-c\n+d\n"
    marker = ACCEPTED_PREDICTION_MARKER + "\n"
    assert default_hints(diff_a + diff_b) is None
    hints = default_hints(diff_a + marker + diff_b + diff_a + marker)
    assert hints is not None
    assert hints.history_blocks == [(False, diff_a), (True, diff_b), (False, diff_a), (True, "")]
    hints = default_hints(marker + diff_a)
    assert hints is not None and hints.history_blocks == [(True, diff_a)]
    spec = replace(gen_records.spec(0), edit_history=diff_a + marker + diff_b + diff_a)
    hints = default_hints(spec.edit_history)
    assert hints is not None and len(hints.history_blocks) == 3
    text = to_markdown(spec, stem=spec.name, hints=hints)
    assert text.count("```diff") == 3 + len(spec.expected_patches)
    assert read_markdown(text, spec.name).spec == spec


def test_source_below_the_output_is_not_read_back(tmp_path: Path) -> None:
    evals = tmp_path / "evals"
    shutil.copytree(CORPUS, evals)
    stats, _ = run([evals], "jsonl", evals / "all.jsonl", allow_lossy=True)
    stats, _ = run([evals], "jsonl", evals / "all.jsonl", allow_lossy=True, force=True)
    assert stats.read == 15


def test_hints_that_would_change_the_history_fall_back_to_the_plain_layout(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    spec = gen_records.spec(3)
    history = spec.edit_history
    split = LayoutHints(history_blocks=[(False, history[:5]), (False, history[5:])])
    monkeypatch.setattr(convert_record, "default_hints", lambda _: split)
    source = tmp_path / "one.jsonl"
    source.write_text(dumps_example(Example(spec)) + "\n")
    stats, found = run([source], "md", tmp_path / "md")
    assert found == [] and stats.written == 1
    text = (tmp_path / "md" / f"{spec.name}.md").read_text()
    assert text == to_markdown(spec, stem=spec.name)


def test_a_directory_converts_into_itself(tmp_path: Path) -> None:
    evals = tmp_path / "evals"
    shutil.copytree(CORPUS, evals)
    stats, found = run([evals], "md", evals)
    assert sorted(kinds(found)) == ["CV007"] * 2 + ["CV010"] * 13
    stats, found = run([evals], "md", evals, force=True)
    assert kinds(found) == ["CV007"] * 2 and stats.written == 13
    assert sorted(p.name for p in evals.iterdir()) == sorted(p.name for p in corpus_files())
    for path in corpus_files():
        if path.name in EXACT or path.name in LOSSY:
            assert (evals / path.name).read_bytes() == path.read_bytes()
        else:  # rewritten in the canonical form
            assert (evals / path.name).read_text() == to_markdown(
                read_markdown(path.read_text(), path.stem).spec, stem=path.stem
            )


def test_a_nul_character_is_never_written_to_a_markdown_file(tmp_path: Path) -> None:
    # JSON holds "\u0000" in a string; a Markdown file with a NUL byte reads as binary
    # (IO005), so the written file would be one evaltools itself refuses to read back.
    data = json.loads(dumps_example(Example(replace(gen_records.spec(1), name="n"))))
    source = tmp_path / "nul.jsonl"
    source.write_text(json.dumps(data | {"reasoning": "why\u0000not"}) + "\n")
    stats, found = run([source], "md", tmp_path / "md", allow_lossy=True)
    assert kinds(found) == ["CV009"]
    assert "IO005 file contains a NUL byte" in found[0].message
    assert (stats.written, stats.refused) == (0, 1)
    assert not (tmp_path / "md").exists() or not list((tmp_path / "md").iterdir())
