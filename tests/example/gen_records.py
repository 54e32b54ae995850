"""Generated JSONL examples (from the corpus's clean files) and helpers for the conversion tests."""

from __future__ import annotations

import copy
import functools
from pathlib import Path
from typing import Any

from evaltools.diagnostics import Diagnostic
from evaltools.example.convert.pipeline import Options, Stats, convert
from evaltools.example.markdown.reader import read_markdown
from evaltools.example.spec import Example, ExampleSpec, dumps_example
from tests.conftest import corpus_files


@functools.lru_cache(maxsize=1)
def templates() -> tuple[ExampleSpec, ...]:
    """The corpus specs whose files hold nothing outside the model."""
    out = []
    for path in corpus_files():
        parsed = read_markdown(path.read_text(encoding="utf-8"), path.stem)
        if not parsed.dropped and not parsed.errors:
            out.append(parsed.spec)
    return tuple(out)


def spec(i: int) -> ExampleSpec:
    """The i-th generated example: a corpus spec under a name that sorts by `i`."""
    base = templates()[i % len(templates())]
    made = copy.deepcopy(base)
    made.name = f"ex-{i:05d}-{base.name}"
    return made


def jsonl_lines(count: int) -> list[str]:
    return [dumps_example(Example(spec(i))) + "\n" for i in range(count)]


def write_jsonl(path: Path, count: int) -> list[str]:
    lines = jsonl_lines(count)
    path.write_text("".join(lines), encoding="utf-8")
    return lines


def run(
    sources: list[Path], to: str, output: Path, **options: Any
) -> tuple[Stats, list[Diagnostic]]:
    found: list[Diagnostic] = []
    stats = convert(sources, Options(to, output, **options), found.append)
    return stats, found


def kinds(found: list[Diagnostic]) -> list[str]:
    return [f.code for f in found]
