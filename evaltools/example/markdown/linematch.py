"""`difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes()` over lines, faster.

difflib finds each longest matching block by walking every pair of equal lines, which for
the blank and fence lines of an example file is most of the round trip's time on a file
that does not come back byte for byte. Here each line becomes one character, and the
search for a block is `str.find` over those strings, in C. The blocks are the same
(longest, then earliest in `a`, then earliest in `b`: difflib's definition when nothing is
junk), so the opcodes are too; a test compares the two on generated inputs.
"""

from __future__ import annotations

import itertools
from typing import Literal

Opcode = tuple[Literal["replace", "delete", "insert", "equal"], int, int, int, int]

# One character per distinct line: every code point but the surrogates, which `str` refuses
# to join.
_CHARS = (range(0xD800), range(0xE000, 0x110000))
_MOST = len(_CHARS[0]) + len(_CHARS[1])


def line_opcodes(a: list[str], b: list[str]) -> list[Opcode]:
    lines = dict.fromkeys(a + b)
    if len(lines) > _MOST:  # pragma: no cover - over a million distinct lines
        import difflib

        return difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes()
    codes = dict(zip(lines, map(chr, itertools.chain(*_CHARS)), strict=False))
    sa = "".join(map(codes.__getitem__, a))
    sb = "".join(map(codes.__getitem__, b))
    return _opcodes(_Matcher(sa, sb).matching_blocks(), len(a), len(b))


def common_run(sa: str, a: int, sb: str, b: int, limit: int, *, forward: bool = True) -> int:
    """How many characters, up to `limit`, agree from `a` in `sa` and `b` in `sb` on (or,
    not `forward`, before them): a binary search over slices, compared in C."""
    low, high = 0, limit  # `low` agree; no more than `high` can
    while low < high:
        mid = (low + high + 1) // 2
        i, j = (a, b) if forward else (a - mid, b - mid)
        low, high = (mid, high) if sa[i : i + mid] == sb[j : j + mid] else (low, mid - 1)
    return low


Block = tuple[int, int, int]  # a[i:i+k] == b[j:j+k]: (i, j, k)
Box = tuple[int, int, int, int]  # alo, ahi, blo, bhi


class _Matcher:
    def __init__(self, sa: str, sb: str) -> None:
        self.sa, self.sb = sa, sb

    def matching_blocks(self) -> list[Block]:
        """As `SequenceMatcher.get_matching_blocks`, without the final sentinel."""
        queue: list[Box] = [(0, len(self.sa), 0, len(self.sb))]
        found = []
        while queue:
            alo, ahi, blo, bhi = box = queue.pop()
            i, j, k = block = self.longest(box)
            if k:
                found.append(block)
                if alo < i and blo < j:
                    queue.append((alo, i, blo, j))
                if i + k < ahi and j + k < bhi:
                    queue.append((i + k, ahi, j + k, bhi))
        found.sort()
        merged: list[Block] = []
        for i, j, k in found:
            if merged and merged[-1][0] + merged[-1][2] == i and merged[-1][1] + merged[-1][2] == j:
                merged[-1] = (merged[-1][0], merged[-1][1], merged[-1][2] + k)
            else:
                merged.append((i, j, k))
        return merged

    def longest(self, box: Box) -> Block:
        """The longest block equal in sa[alo:ahi] and sb[blo:bhi], earliest in `sa`, then in
        `sb`; (alo, blo, 0) if there is none."""
        alo, ahi, blo, bhi = box
        limit = min(ahi - alo, bhi - blo)
        # The common head and tail are matching blocks: the longest is at least that long.
        head = common_run(self.sa, alo, self.sb, blo, limit)
        tail = common_run(self.sa, ahi, self.sb, bhi, limit, forward=False)
        best = (alo, blo, head) if head >= tail else None
        # Gallop up from there: a block of `low` characters exists, none of `high`.
        low, high, step = max(head, tail), limit + 1, 1
        while low + 1 < high:
            probe = min(low + step, high - 1)
            hit = self.first(box, probe)
            if hit is not None:
                best, low, step = hit, probe, step * 2
            else:
                high, step = probe, 1
        if best is None or best[2] != low:
            best = self.first(box, low)
        assert best is not None
        return best

    def first(self, box: Box, size: int) -> Block | None:
        """The earliest block of `size` characters (earliest in `sa`, then in `sb`), if any."""
        alo, ahi, blo, bhi = box
        core_start, core_end = bhi - size, blo + size
        if core_end <= core_start:
            return self.scan(box, size)
        # Every `size` characters of sb[blo:bhi] hold sb[core_start:core_end]: each block
        # holds it too, so each lies on a diagonal through a place where `sa` has it.
        sa, sb = self.sa, self.sb
        core = sb[core_start:core_end]
        best: Block | None = None
        at = sa.find(core, alo, ahi)
        while at >= 0:
            room = min(at - alo, core_start - blo)
            left = common_run(sa, at, sb, core_start, room, forward=False)
            end = at + len(core)
            right = common_run(sa, end, sb, core_end, min(ahi - end, bhi - core_end))
            if left + len(core) + right >= size:
                block = (at - left, core_start - left, size)
                best = block if best is None else min(best, block)
            at = sa.find(core, at + 1, ahi)
        return best

    def scan(self, box: Box, size: int) -> Block | None:
        alo, ahi, blo, bhi = box
        sa, find = self.sa, self.sb.find
        for i in range(alo, ahi - size + 1):
            j = find(sa[i : i + size], blo, bhi)
            if j >= 0:
                return i, j, size
        return None


def _opcodes(blocks: list[Block], la: int, lb: int) -> list[Opcode]:
    """As `SequenceMatcher.get_opcodes`."""
    i = j = 0
    out: list[Opcode] = []
    for ai, bj, size in [*blocks, (la, lb, 0)]:
        if i < ai and j < bj:
            out.append(("replace", i, ai, j, bj))
        elif i < ai:
            out.append(("delete", i, ai, j, bj))
        elif j < bj:
            out.append(("insert", i, ai, j, bj))
        i, j = ai + size, bj + size
        if size:
            out.append(("equal", ai, i, bj, j))
    return out
