"""Mistakes we did not write: a reviewer hand-wrote six examples in shapes the corpus lacks
(Rust, TypeScript, Go with tabs, inline `<|user_cursor|>`, `<` markers, Uncommitted Diff,
Rejected Patch, Reasoning, Markdown hard breaks) and made single-mistake variants of each.

`tests/data/mistakes/manifest.json` gives each variant's line. Where the line we report is
not the reviewer's, the manifest says so (`reviewer_line`, `note`); `line: null` marks a
change the format gives no meaning to (the reference reads the file the same).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from evaltools.__main__ import main
from tests.conftest import DATA

MISTAKES = DATA / "mistakes"
MANIFEST = json.loads((MISTAKES / "manifest.json").read_text(encoding="utf-8"))


def _findings(path: Path, capsys: pytest.CaptureFixture[str]) -> list[tuple[int, str]]:
    main(["check", "--format", "json", "--no-cache", str(path)])
    found = json.loads(capsys.readouterr().out)
    return [(d["line"], d["code"]) for d in found if d["severity"] in ("error", "warning")]


@pytest.mark.parametrize("base", sorted(p.name for p in (MISTAKES / "base").glob("*.md")))
def test_the_reviewers_files_are_clean(
    base: str, capsys: pytest.CaptureFixture[str], in_tmp: Path
) -> None:
    assert _findings(MISTAKES / "base" / base, capsys) == []


@pytest.mark.parametrize("case", MANIFEST, ids=[Path(c["file"]).stem[-40:] for c in MANIFEST])
def test_each_variant_gives_one_finding_at_its_line(
    case: dict[str, object], capsys: pytest.CaptureFixture[str], in_tmp: Path
) -> None:
    found = _findings(MISTAKES / str(case["file"]), capsys)
    if case["line"] is None:
        assert found == [], case["note"]
    else:
        assert len(found) == 1 and found[0][0] == case["line"], (case["desc"], found)


def test_the_disagreements_with_the_reviewer_are_few_and_explained() -> None:
    disputed = [c for c in MANIFEST if "reviewer_line" in c]
    assert len(disputed) <= 2
    assert all(c.get("note") for c in disputed)
