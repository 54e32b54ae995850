"""`ep eval`'s cap on related context (upstream `limit_retrieved_context_to_bytes`, called with
`related_context_limit * 3` = 12,000 bytes by default): excerpts are taken in their `order`
(then file, then excerpt index) while the bytes of their rows not yet covered by an excerpt
of the same file fit; the others are left out. `ep score` passes no cap."""

from __future__ import annotations

from typing import NamedTuple

# Upstream's EVAL_RELATED_CONTEXT_TOKENS_LIMIT (4,000), times 3 bytes.
EVAL_RELATED_CONTEXT_BYTES = 4000 * 3


class Excerpt(NamedTuple):
    start: int  # row_range.start
    end: int  # row_range.end, exclusive
    text: str
    order: int


def _lines(text: str) -> list[str]:
    """Rust's `split_inclusive('\\n')`: each line with its newline, no empty last line."""
    parts = text.split("\n")
    return [part + "\n" for part in parts[:-1]] + ([parts[-1]] if parts[-1] else [])


def _uncovered_bytes(excerpt: Excerpt, covered: list[tuple[int, int]]) -> int:
    total = 0
    for row, line in zip(range(excerpt.start, excerpt.end), _lines(excerpt.text), strict=False):
        if not any(start <= row < end for start, end in covered):
            total += len(line.encode("utf-8", "surrogatepass"))
    return total


def _cover(covered: list[tuple[int, int]], start: int, end: int) -> list[tuple[int, int]]:
    merged: list[tuple[int, int]] = []
    for low, high in sorted([*covered, (start, end)]):
        if merged and low <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(merged[-1][1], high))
        else:
            merged.append((low, high))
    return merged


def selected(files: list[list[Excerpt]], max_bytes: int) -> list[list[bool]]:
    """For each file, which of its excerpts the cap keeps."""
    keep = [[False] * len(excerpts) for excerpts in files]
    covered: list[list[tuple[int, int]]] = [[] for _ in files]
    candidates = sorted(
        (excerpt.order, f, e)
        for f, excerpts in enumerate(files)
        for e, excerpt in enumerate(excerpts)
    )
    used = 0
    for _, f, e in candidates:
        excerpt = files[f][e]
        added = _uncovered_bytes(excerpt, covered[f])
        if added == 0 or used + added > max_bytes:
            continue
        used += added
        keep[f][e] = True
        covered[f] = _cover(covered[f], excerpt.start, excerpt.end)
    return keep
