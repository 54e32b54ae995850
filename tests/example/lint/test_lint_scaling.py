"""Lint stays near-linear on pathological examples (counted work, not timed)."""

from __future__ import annotations

from pathlib import Path

import pytest

from evaltools.__main__ import main
from evaltools.example.diffs import align
from evaltools.example.diffs.udiff import Hunk, HunkLine, parse_diff


class CountingStr(str):
    """A hunk line that counts how often it is compared with an excerpt line."""

    comparisons = 0

    def __eq__(self, other: object) -> bool:
        CountingStr.comparisons += 1
        return str.__eq__(self, other)

    __hash__ = str.__hash__


def counting(hunk: Hunk) -> Hunk:
    lines = tuple(HunkLine(ln.kind, CountingStr(ln.text), ln.line) for ln in hunk.lines)
    return hunk._replace(lines=lines)


def many_hunks(count: int, excerpt_lines: int) -> tuple[list[Hunk], str]:
    diff = "--- a/f\n+++ b/f\n" + "".join(
        f"@@ -{i + 1},1 +{i + 1},1 @@\n-line {i * 7}\n+new {i}\n" for i in range(count)
    )
    hunks = [counting(h) for h in parse_diff(diff).hunks]
    return hunks, "\n".join(f"line {i}" for i in range(excerpt_lines))


def test_alignment_compares_each_hunk_line_with_its_few_occurrences_only() -> None:
    hunks, excerpt = many_hunks(300, 3000)
    CountingStr.comparisons = 0
    fits = align.fit_hunks(hunks, excerpt)
    assert [f.fit for f in fits] == [align.Fit.AGREES] * 300
    assert [f.placement.start for f in fits if f.placement] == [i * 7 for i in range(300)]
    # Trying every hunk at every excerpt line made 300 × 3000 comparisons.
    assert CountingStr.comparisons <= 4 * (300 + 3000)


def test_a_long_pure_addition_keeps_its_text(tmp_path: Path) -> None:
    added = [f"added {i}" for i in range(5000)]
    diff = "--- a/f\n+++ b/f\n@@ -1,0 +1,5000 @@\n" + "".join(f"+{a}\n" for a in added)
    (hunk,) = parse_diff(diff).hunks
    assert [e.text for e in hunk.edits] == ["".join(a + "\n" for a in added)]


def test_absurd_alignment_gives_up_with_a_finding(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(align, "MIN_WORK", 0)
    monkeypatch.setattr(align, "WORK_PER_LINE", 2)
    cursor = "\n".join(["}", "#^[CURSOR_POSITION]"] + ["}"] * 199)
    hunks = "".join(f"@@ -{i + 1},1 +{i + 1},1 @@\n-}}\n+}} // {i}\n" for i in range(20))
    text = (
        '+++\nrepository_url = "https://github.com/o/r"\n'
        'revision = "0123456789abcdef0123456789abcdef01234567"\n+++\n\n'
        f"## Cursor Position\n\n```src/a.rs\n{cursor}\n```\n\n"
        "## Expected Patch\n\n```diff\n--- a/src/a.rs\n+++ b/src/a.rs\n"
        f"{hunks}```\n"
    )
    path = tmp_path / "repo--braces.md"
    path.write_text(text, encoding="utf-8")
    assert main(["lint", str(path)]) == 0
    out = capsys.readouterr().out
    # 2 × (200 excerpt lines + 20 hunk lines) = 440 units; each hunk costs 201: the third
    # (its `@@` on line 223) is over the budget.
    assert f"{path}:223:1: EP311 [warning] this hunk and the ones after it match" in out
