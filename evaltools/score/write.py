"""`--write-scores`: put each example's `score[]` into its `ep predict` file, as `ep score`
does. Only the scored records change: other JSONL lines keep their bytes, and within a
record every other key keeps its value and place (`score` goes where upstream writes it,
after `predictions`)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from evaltools import jsonio
from evaltools.atomic import WRITE_FAILED, WriteError, atomic_write, write_finding
from evaltools.diagnostics import Diagnostic, make
from evaltools.score.prediction import Score

# Upstream's Example keys after the spec's, in its order: `score` goes before the first of
# these that follow it, or after the last of those before it.
_AFTER_SCORE = ("qa", "zed_version")


def with_scores(record: dict[str, Any], scores: list[Score]) -> dict[str, Any]:
    if "score" in record:
        return {k: (scores if k == "score" else v) for k, v in record.items()}
    out: dict[str, Any] = {}
    placed = False
    for key, value in record.items():
        if not placed and key in _AFTER_SCORE:
            out["score"] = scores
            placed = True
        out[key] = value
    if not placed:
        out["score"] = scores
    return out


def _jsonl(data: bytes, by_index: dict[int, list[Score]]) -> bytes:
    lines = data.splitlines(keepends=True)
    for index, scores in by_index.items():
        raw = lines[index]
        body = raw.rstrip(b"\r\n")
        record = jsonio.loads(body.decode("utf-8"))
        text = jsonio.dumps(with_scores(record, scores), compact=True)
        lines[index] = text.encode("utf-8") + raw[len(body) :]
    return b"".join(lines)


def _json(data: bytes, scores: list[Score]) -> bytes:
    text = data.decode("utf-8")
    record = jsonio.loads(text)
    pretty = "\n" in text.strip()
    out = jsonio.dumps(with_scores(record, scores), indent=2 if pretty else None)
    if not pretty:
        out = jsonio.dumps(with_scores(record, scores), compact=True)
    return (out + text[len(text.rstrip()) :]).encode("utf-8")


def write_scores(writable: dict[tuple[str, str, int], list[Score]]) -> list[Diagnostic]:
    """`writable`: (shown path, form, record index) -> scores. Shown paths are relative to
    the working directory or absolute, so they name the file. Each file is replaced whole or
    not at all, and not at all if it changed while it was being rewritten."""
    files: dict[tuple[str, str], dict[int, list[Score]]] = {}
    for (shown, form, index), scores in writable.items():
        files.setdefault((shown, form), {})[index] = scores
    problems: list[Diagnostic] = []
    for (shown, form), by_index in files.items():
        path = Path(shown)
        try:
            data = path.read_bytes()
            new = _jsonl(data, by_index) if form == "jsonl" else _json(data, by_index[0])
            if new != data:
                atomic_write(path, new, expect=data)
        except WriteError as exc:
            problems.append(write_finding(exc, shown))
        except (OSError, ValueError, IndexError) as exc:
            message = f"could not read the file back to write its scores ({exc}); left unchanged"
            problems.append(make(WRITE_FAILED, shown, 1, 1, message))
    return problems
