"""EP315: a marker line whose tabs differ from the cursor line's moves the cursor without a
sign (found by the b3 new-user trial: an editor turning the marker's padding into tabs put
the cursor of codex-acp--add-derive 13 bytes to the left, and every check passed)."""

from __future__ import annotations

from pathlib import Path

import pytest

from evaltools.__main__ import main
from tests.conftest import CORPUS, corpus_files
from tests.retrieval.gitrepo import GitRepo

DERIVE = CORPUS / "codex-acp--add-derive.md"
MARKER = "//                      ^[CURSOR_POSITION]"


def test_a_marker_padded_with_tabs_is_a_warning_at_the_caret(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = GitRepo(tmp_path / "proj")
    text = DERIVE.read_text(encoding="utf-8")
    assert MARKER in text
    path = repo.write(
        f"evals/{DERIVE.name}", text.replace(MARKER, "//\t\t\t      ^[CURSOR_POSITION]")
    )
    repo.write("pyproject.toml", '[tool.evaltools]\npaths = ["evals"]\n')
    repo.commit()
    before = path.read_bytes()
    monkeypatch.chdir(repo.path)
    assert main(["check"]) == 0
    assert capsys.readouterr().out.splitlines() == [
        f"evals/{DERIVE.name}:27:12: EP315 [warning] the marker line has a tab at byte 3 where "
        "the cursor line has none: the caret's column counts a tab as one byte, so the cursor "
        "is at byte 12 of its line (`o`), not where it shows; copy the cursor line's tabs into "
        "the marker line and pad the rest with spaces",
        "Found 1 warning in 1 file.",
    ]
    assert main(["check", "--max-warnings", "0", "--fix"]) == 1
    assert path.read_bytes() == before


def test_the_corpus_markers_under_tabs_pass(capsys: pytest.CaptureFixture[str]) -> None:
    # vscode--*: tab-indented cursor lines whose markers copy the tabs, as Zed writes them.
    tabbed = [p for p in corpus_files() if "\t" in p.read_text(encoding="utf-8")]
    assert len(tabbed) >= 3
    assert main(["lint", "--select", "EP315", *map(str, tabbed)]) == 0
    assert capsys.readouterr().out == f"All checks passed: {len(tabbed)} files.\n"
