"""One mistake, one finding, at its line: single-mistake variants of every corpus file."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from evaltools.__main__ import main
from evaltools.example.markdown.reader import read_markdown
from evaltools.example.markdown.render import to_markdown
from tests.example.lint.mistakes import MUTATIONS
from tests.example.markdown._fences import corpus_files


def _findings(path: Path, capsys: pytest.CaptureFixture[str]) -> list[tuple[int, str]]:
    main(["check", "--format", "json", str(path)])
    found = json.loads(capsys.readouterr().out)
    return [(d["line"], d["code"]) for d in found if d["severity"] in ("error", "warning")]


def _clean_bases(tmp: Path, capsys: pytest.CaptureFixture[str]) -> list[tuple[str, str]]:
    """Each corpus file in its canonical layout, when that is clean (the mistakes' baseline)."""
    out = []
    for source in corpus_files():
        parsed = read_markdown(source.read_text(encoding="utf-8"), source.stem)
        base = to_markdown(parsed.spec, stem=source.stem, hints=parsed.hints)
        target = tmp / source.name
        target.write_text(base, encoding="utf-8", newline="")
        if not _findings(target, capsys):
            out.append((source.name, base))
    return out


@pytest.mark.parametrize("name", list(MUTATIONS))
def test_each_mistake_gives_one_finding_at_its_line(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bases = _clean_bases(tmp_path, capsys)
    assert len(bases) >= 12
    applied = 0
    for file_name, base in bases:
        mutated = MUTATIONS[name](base)
        if mutated is None:
            continue
        text, line = mutated
        target = tmp_path / file_name
        target.write_text(text, encoding="utf-8", newline="")
        found = _findings(target, capsys)
        assert len(found) == 1 and found[0][0] == line, (file_name, line, found)
        applied += 1
    assert applied >= 3, f"{name} applied to only {applied} corpus files"


def test_the_corpus_holds_enough_kinds_of_mistake() -> None:
    assert len(MUTATIONS) >= 25


def test_each_mistake_in_the_files_as_they_are_adds_one_finding_at_its_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The real files, not their canonical form: some carry prose or layout of their own."""
    checked = 0
    for source in corpus_files():
        text = source.read_text(encoding="utf-8")
        target = tmp_path / source.name
        target.write_text(text, encoding="utf-8", newline="")
        before = Counter(code for _, code in _findings(target, capsys))
        for name, mutation in MUTATIONS.items():
            mutated = mutation(text)
            if mutated is None:
                continue
            target.write_text(mutated[0], encoding="utf-8", newline="")
            found = _findings(target, capsys)
            added = Counter(code for _, code in found) - before
            at_line = [code for line, code in found if line == mutated[1]]
            assert sum(added.values()) == 1 and set(added) <= set(at_line), (
                source.name,
                name,
                mutated[1],
                found,
            )
            checked += 1
    assert checked >= 300
