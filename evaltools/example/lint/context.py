"""What a lint rule sees: the spec, where each field came from, and a place to report."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, NamedTuple

from evaltools.diagnostics import Diagnostic, Fix, Rule, make
from evaltools.example.diffs.patch_cursor import ExtractedPatch, parse_patch
from evaltools.example.diffs.udiff import ParsedDiff, parse_diff
from evaltools.example.markdown.reader import ParsedMarkdown
from evaltools.example.spec import ExampleSpec
from evaltools.positions import char_column

# Fields whose diffs may carry cursor lines (patches), as opposed to plain diffs.
PATCH_FIELDS = ("expected_patch", "rejected_patch")


# A named tuple, not a dataclass: each dataclass costs about a millisecond at import, on the
# path of the lint hook.
class FieldSource(NamedTuple):
    """A text field of the spec and where its first line sits in the file.

    For Markdown, `first_line` is the file line of the block's first content line; for
    JSON records every finding goes to the record's line, with `pointer` naming the field.
    """

    name: str
    text: str
    pointer: str
    first_line: int | None
    block_line: int | None = None


@dataclass
class LintContext:
    path: str
    spec: ExampleSpec
    parsed: ParsedMarkdown | None = None
    source: str = ""
    stem: str | None = None
    record_line: int = 1
    diagnostics: list[Diagnostic] = field(default_factory=list)
    # What several rules derive from the same input (the cursor, parsed patches), computed once.
    cache: dict[str, Any] = field(default_factory=dict)
    # Findings of mistakes that misplace what follows them (see lint/document/causes.py).
    causes: list[Diagnostic] = field(default_factory=list)

    def report(
        self,
        rule: Rule,
        line: int,
        column: int,
        message: str,
        pointer: str | None = None,
        *,
        fix: Fix | None = None,
    ) -> None:
        if self.parsed is None:
            line, column = self.record_line, 1
        else:
            pointer = None
        found = make(rule, self.path, line, column, message, pointer=pointer, fix=fix)
        self.diagnostics.append(found)

    def report_cause(
        self, rule: Rule, line: int, column: int, message: str, *, fix: Fix | None = None
    ) -> None:
        """Report a mistake whose consequences later findings would only repeat."""
        self.report(rule, line, column, message, fix=fix)
        self.causes.append(self.diagnostics[-1])

    def at_field(
        self,
        rule: Rule,
        source: FieldSource,
        index: int,
        byte_column: int,
        message: str,
        *,
        fix: Fix | None = None,
    ) -> None:
        """Report at line `index` (0-based) of a field. `byte_column` counts the UTF-8 bytes
        of that line, as the reference's cursor offsets do; reports count characters."""
        if source.first_line is None:
            self.report(rule, self.record_line, 1, message, source.pointer, fix=fix)
            return
        column = 1
        if byte_column > 1:
            lines = source.text.split("\n")
            line = lines[index] if 0 <= index < len(lines) else ""
            column = char_column(line.encode("utf-8", "surrogatepass"), byte_column - 1)
        self.report(rule, source.first_line + index, column, message, source.pointer, fix=fix)

    def source_line(self, line: int) -> str:
        if "lines" not in self.cache:
            self.cache["lines"] = self.source.split("\n")
        lines: list[str] = self.cache["lines"]
        return lines[line - 1] if 0 < line <= len(lines) else ""


def field_sources(ctx: LintContext) -> list[FieldSource]:
    """Every diff-bearing field, one entry per block for Markdown."""
    spec, parsed = ctx.spec, ctx.parsed
    if parsed is None:
        out = [FieldSource("edit_history", spec.edit_history, "/edit_history", None)]
        if spec.uncommitted_diff:
            out.append(
                FieldSource("uncommitted_diff", spec.uncommitted_diff, "/uncommitted_diff", None)
            )
        out += [
            FieldSource("expected_patch", text, f"/expected_patches/{i}", None)
            for i, text in enumerate(spec.expected_patches)
        ]
        if spec.rejected_patch is not None:
            out.append(FieldSource("rejected_patch", spec.rejected_patch, "/rejected_patch", None))
        return out
    names = {
        "Edit History": "edit_history",
        "Uncommitted Diff": "uncommitted_diff",
        "Expected Patch": "expected_patch",
        "Rejected Patch": "rejected_patch",
    }
    return [
        FieldSource(names[b.section], b.text, "", b.line + 1, b.line)
        for b in parsed.blocks
        if b.used and b.section in names
    ]


def cursor_source(ctx: LintContext) -> FieldSource | None:
    if ctx.parsed is None:
        if not ctx.spec.cursor_position:
            return None
        return FieldSource("cursor_position", ctx.spec.cursor_position, "/cursor_position", None)
    block = ctx.parsed.cursor_block()
    if block is None:
        return None
    return FieldSource("cursor_position", block.text, "", block.line + 1, block.line)


def parsed_diff(ctx: LintContext, source: FieldSource) -> tuple[ParsedDiff, ExtractedPatch | None]:
    """The field's diff, parsed once for every rule that reads it (a patch's cursor lines
    taken out first)."""
    key = f"diff:{source.pointer}:{source.first_line}"
    if key not in ctx.cache:
        if source.name in PATCH_FIELDS:
            ctx.cache[key] = parse_patch(source.text)
        else:
            ctx.cache[key] = (parse_diff(source.text), None)
    cached: tuple[ParsedDiff, ExtractedPatch | None] = ctx.cache[key]
    return cached
