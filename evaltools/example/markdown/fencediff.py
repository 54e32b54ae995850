"""Fences in the round trip's line diff: a block whose fence the writer changes (`~~~` to
backticks, a longer or shorter run) is one change, at its opening fence.

Compared as raw lines, each fence of such a block is a change of its own, and next to
another change (a doubled blank line) both merge into one vague "layout differs" place. So
the diff compares each fence line by what it says (indentation, info string, trailing
blanks) and not by its characters, and a fence that then matches but reads differently is
named once per block.

Fences are found as CommonMark finds top-level ones, on both texts alike; where that
differs from the reader (a fence in a list item), a line is only described otherwise,
never missed: every line that differs is in a change of the diff or of this module.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from evaltools.example.markdown.linematch import Opcode

_FENCE = re.compile(r"( {0,3})(`{3,}|~{3,})(.*)")
# The lines `_FENCE` can match, found in one `\n`-anchored search over the joined text (a
# pattern starting with a literal is scanned for far faster than a match tried per line).
_FENCE_START = re.compile(r"\n {0,3}(?:```|~~~)")


def fenced_blocks(lines: Sequence[str]) -> list[tuple[int, int | None]]:
    """(opening, closing) line indexes of each fenced block; closing is None for a block
    left open to the end of the text."""
    blocks: list[tuple[int, int | None]] = []
    opening: re.Match[str] | None = None
    start = 0
    for number in _fence_candidates(lines):
        line = lines[number]
        match = _FENCE.fullmatch(line)
        if match is None:
            continue
        run, rest = match[2], match[3]
        if opening is None:
            if not (run[0] == "`" and "`" in rest):  # a backtick info string has none
                opening, start = match, number
        elif run[0] == opening[2][0] and len(run) >= len(opening[2]) and not rest.strip():
            blocks.append((start, number))
            opening = None
    if opening is not None:
        blocks.append((start, None))
    return blocks


def _fence_candidates(lines: Sequence[str]) -> list[int]:
    text = "\n" + "\n".join(lines)
    found, number, previous = [], 0, 0
    for match in _FENCE_START.finditer(text):
        number += text.count("\n", previous, match.start())
        previous = match.start()
        found.append(number)  # the `\n`s before a line's own one: its index
    return found


Blocks = list[tuple[int, int | None]]


def fence_keys(lines: list[str], blocks: Blocks | None = None) -> list[str]:
    """`lines` with each fence line replaced by what the diff compares of it (`blocks`:
    `fenced_blocks(lines)`, when already found). A key holds a line break, which no line
    does, so it never equals a line that is not a fence."""
    keys = list(lines)
    for opening, closing in fenced_blocks(lines) if blocks is None else blocks:
        keys[opening] = _key("\nopen", lines[opening])
        if closing is not None:
            keys[closing] = _key("\nclose", lines[closing])
    return keys


def _key(kind: str, line: str) -> str:
    match = _FENCE.fullmatch(line)
    assert match is not None
    return f"{kind}{match[1]}\n{match[3]}"


def fence_changes(
    old: list[str], new: list[str], opcodes: list[Opcode], blocks: Blocks | None = None
) -> list[tuple[int, str]]:
    """(1-based line, what) for each block of `old` whose fences the diff matched (keyed by
    `fence_keys`) to fences written with other characters in `new`: at its opening fence,
    or at its closing one when only that differs.

    A block whose opening fence is in a change of its own is told there."""
    matched: dict[int, int] = {}
    for tag, i1, i2, j1, _ in opcodes:
        if tag == "equal":
            matched.update((i1 + k, j1 + k) for k in range(i2 - i1))
    out = []
    for opening, closing in fenced_blocks(old) if blocks is None else blocks:
        if opening not in matched:
            continue
        was, canonical = _run(old[opening]), _run(new[matched[opening]])
        if was != canonical:
            how = f"{canonical} (backticks)" if was[0] != canonical[0] else canonical
            out.append((opening + 1, f"the canonical form fences this block with {how}"))
        elif closing in matched and old[closing] != new[matched[closing]]:
            # Only the closing run is off (longer than the opening one): the mistake is there.
            closed = _run(new[matched[closing]])
            out.append((closing + 1, f"the canonical form closes this block with {closed}"))
    return out


def _run(line: str) -> str:
    match = _FENCE.fullmatch(line)
    assert match is not None
    return match[2]
