"""The line-by-line runaway-fence scan that `lint.causes._swallowed` replaced: the oracle
of `test_causes_differential.py`."""

from __future__ import annotations

import re

from evaltools.example.lint.causes import _opens_block, section_heading
from evaltools.example.lint.context import LintContext
from evaltools.example.markdown.reader import CodeBlock


def old_swallowed(ctx: LintContext, block: CodeBlock) -> list[tuple[int, str]]:
    out = []
    last = block.end_line if not block.closed else block.end_line - 1
    for number in range(block.line + 1, last + 1):
        text = ctx.source_line(number).rstrip("\r")
        title = section_heading(text)
        if title is not None or _opens_block(text, block.fence):
            out.append((number, text.strip()))
    return out


# The `^`/`$` multiline scans `causes.line_starts` replaced, by the name of their new form.
OLD_LINE_SCANS = {
    "_DEEP_FENCE": re.compile(r"^ {4,}(`{3,}|~{3,})", re.MULTILINE),
    "_SHORT_FENCE": re.compile(r"^ {0,3}(``|~~)(?![`~])([^`\s]*)[ \t]*$", re.MULTILINE),
    "_UNSPACED_HEADING": re.compile(r"^ {0,3}(#{1,6})(?=[^#\s])(.*?)[ \t#]*$", re.MULTILINE),
    "candidate`": re.compile(r"^ {0,3}[#`]", re.MULTILINE),
    "candidate~": re.compile(r"^ {0,3}[#~]", re.MULTILINE),
}
