"""A tiny fence extractor for the corpus tests (the real reader: evaltools.example.markdown.reader).

Good enough for the reference files: ``` fences only, `## ` headings, no nesting.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from tests.conftest import DATA

CORPUS = DATA / "corpus"
_PIECES = re.compile(r"^## ([^\n]*)$|^```([^\n]*)\n(.*?)^```$", re.M | re.S)


@dataclass(frozen=True)
class Block:
    section: str
    info: str
    text: str  # as the Markdown parser gives it: every line ends with "\n"
    line: int  # 0-based line of the first content line in the file


def corpus_files() -> list[Path]:
    return sorted(CORPUS.rglob("*.md"))


def blocks(path: Path) -> list[Block]:
    source = path.read_text(encoding="utf-8")
    section = ""
    found: list[Block] = []
    for match in _PIECES.finditer(source):
        if match.group(1) is not None:
            section = match.group(1).strip()
        else:
            first = source.count("\n", 0, match.start(3))
            found.append(Block(section, match.group(2), match.group(3), first))
    return found


def section_blocks(path: Path, section: str) -> list[Block]:
    return [b for b in blocks(path) if b.section == section]
