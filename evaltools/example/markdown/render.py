"""Writing the Markdown form: the reference writer's layout, plus the layout hints we honour.

`to_markdown` with `strict_reference=True` reproduces the reference writer byte for
byte (always a title, one history fence, three-backtick fences, a trailing blank line).
Without it, three presentational allowances apply (edit-prediction-format.md section 3)
and fences grow when the content would close them.
"""

from __future__ import annotations

import re

from evaltools.example.markdown.frontmatter import OPEN, render_front_matter
from evaltools.example.markdown.reader import (
    ACCEPTED_PREDICTION_MARKER,
    NO_EDIT_HISTORY,
    LayoutHints,
    read_markdown,
)
from evaltools.example.spec import ExampleSpec, RecentFile

# A line that would close a fence: up to 3 spaces, then a run of the fence character.
_BACKTICK_CLOSER = re.compile(r"^ {0,3}(`{3,})[ \t]*$", re.MULTILINE)
_TILDE_CLOSER = re.compile(r"^ {0,3}(~{3,})[ \t]*$", re.MULTILINE)
_ESCAPABLE = re.compile(r"\\(?=[!-/:-@\[-`{-~])|&(?=#?[0-9A-Za-z]+;)")
_INLINE_SPECIAL = re.compile(r"[\\`*_\[\]<>&!#~]")


def fence_for(text: str, info: str, *, strict: bool) -> str:
    if strict:
        return "```"
    char, closer = ("~", _TILDE_CLOSER) if "`" in info else ("`", _BACKTICK_CLOSER)
    if char * 3 not in text:
        return char * 3
    # A lone CR ends a line for the parser, so it can end a closing-fence line too.
    longest = max((len(m.group(1)) for m in closer.finditer(text.replace("\r", "\n"))), default=0)
    return char * max(3, longest + 1)


def escape_info(info: str) -> str:
    """Backslash-escape what the parser would decode in an info string."""
    if "\\" not in info and "&" not in info:
        return info  # nearly every one: nothing to decode
    return _ESCAPABLE.sub(lambda m: "\\" + m.group(0), info)


def escape_title(name: str) -> str:
    """The name as heading text that parses back to itself, escaped only where needed."""
    if not _INLINE_SPECIAL.search(name) and not name.endswith(" "):
        return name
    probe = read_markdown(f"# {name}\n")
    if probe.spec.name == name:
        return name
    return re.sub(r"([!-/:-@\[-`{-~])", r"\\\1", name)


def _block(out: list[str], info: str, text: str, *, strict: bool) -> None:
    fence = fence_for(text, info, strict=strict)
    # An info string starting with the fence's character would lengthen the fence (`~~~` and
    # `~x`): a space keeps them apart, and the parser trims it.
    gap = " " if not strict and info.startswith(fence[0]) else ""
    out.append(f"{fence}{gap}{info if strict else escape_info(info)}\n{text}")
    if text and not text.endswith("\n"):
        out.append("\n")
    out.append(f"{fence}\n\n")


def _recent_lines(files: list[RecentFile]) -> str:
    return "".join(
        f"{f.path}\t{f.cursor_position}\n" if f.cursor_position is not None else f"{f.path}\n"
        for f in files
    )


def _history_blocks(spec: ExampleSpec, hints: LayoutHints | None) -> list[tuple[bool, str]]:
    """The blocks the history was read from, when they still spell the same history."""
    if hints is not None and hints.history_blocks:
        joined = "".join(
            (ACCEPTED_PREDICTION_MARKER + "\n" if accepted else "") + text
            for accepted, text in hints.history_blocks
        )
        if joined == spec.edit_history:
            return hints.history_blocks
    default = default_hints(spec.edit_history)
    return default.history_blocks if default is not None else [(False, spec.edit_history)]


def default_hints(history: str) -> LayoutHints | None:
    """The default layout of a history read from JSON, where no layout hints exist.

    One fenced block, except around accepted predictions: the marker becomes its own
    paragraph before a block holding the accepted diff (one file diff), and the history
    after it continues in a new block. This is how the reference files that carry the
    marker are written, so `md -> json -> md` reproduces them.
    """
    if ACCEPTED_PREDICTION_MARKER not in history:
        return None  # one block: what the writer does without hints
    lines = history.split("\n")
    blocks: list[tuple[bool, list[str]]] = [(False, [])]
    for i, line in enumerate(lines):
        last = i == len(lines) - 1
        if not last and line == ACCEPTED_PREDICTION_MARKER:
            blocks.append((True, []))
            continue
        accepted, body = blocks[-1]
        if accepted and body and _starts_file_diff(lines, i):
            blocks.append((False, []))
        blocks[-1][1].append(line if last else line + "\n")
    if not blocks[0][1]:
        blocks.pop(0)
    return LayoutHints(history_blocks=[(accepted, "".join(body)) for accepted, body in blocks])


def _starts_file_diff(lines: list[str], i: int) -> bool:
    return lines[i].startswith("--- ") and i + 1 < len(lines) and lines[i + 1].startswith("+++ ")


def to_markdown(
    spec: ExampleSpec,
    *,
    stem: str | None = None,
    hints: LayoutHints | None = None,
    strict_reference: bool = False,
) -> str:
    """The spec's Markdown; `hints` default to those it was read with (`spec.layout`), and
    `stem` then to the stem it was read under, so that `to_markdown(from_markdown(x, stem))`
    writes `x` again wherever the round trip is exact."""
    strict = strict_reference
    if hints is None and spec.layout is not None:
        hints = spec.layout
        stem = hints.stem if stem is None else stem
    out: list[str] = [OPEN]
    out.append(
        render_front_matter(
            spec.repository_url,
            spec.revision,
            spec.tags,
            spec.uncommitted_diff_contains_edit_history,
        )
    )
    out.append(OPEN + "\n")
    has_title = hints.has_title if hints is not None else False
    if strict or (spec.name and (has_title or spec.name != stem)):
        out.append(f"# {spec.name if strict else escape_title(spec.name)}\n\n")
    _sections_before_history(out, spec, strict=strict)
    _edit_history(out, spec, hints, strict=strict)
    out.append("## Cursor Position\n\n")
    _block(out, spec.cursor_path, spec.cursor_position, strict=strict)
    out.append("## Expected Patch\n\n")
    for patch in spec.expected_patches:
        _block(out, "diff", patch, strict=strict)
    if spec.rejected_patch is not None:
        out.append("## Rejected Patch\n\n")
        _block(out, "diff", spec.rejected_patch, strict=strict)
    text = "".join(out)
    if not strict and text.endswith("\n\n"):
        text = text[:-1]
    return text


def _sections_before_history(out: list[str], spec: ExampleSpec, *, strict: bool) -> None:
    """The sections an example may lack, ahead of its edit history: reasoning, uncommitted
    diff, recently opened and viewed files."""
    if spec.reasoning is not None:
        # The reference ensures a newline after the output so far, not after the text: an
        # empty reasoning follows the heading's blank line.
        out.append(f"## Reasoning\n\n{spec.reasoning}")
        if not out[-1].endswith("\n"):
            out.append("\n")
        out.append("\n")
    if spec.uncommitted_diff:
        out.append("## Uncommitted Diff\n\n")
        _block(out, "diff", spec.uncommitted_diff, strict=strict)
    for heading, files in (
        ("Recently Opened Files", spec.recently_opened_files),
        ("Recently Viewed Files", spec.recently_viewed_files),
    ):
        if files:
            out.append(f"## {heading}\n\n")
            _block(out, "", _recent_lines(files), strict=strict)


def _edit_history(
    out: list[str], spec: ExampleSpec, hints: LayoutHints | None, *, strict: bool
) -> None:
    """The Edit History section, in the blocks it was read from when they still hold."""
    out.append("## Edit History\n\n")
    if not spec.edit_history:
        out.append(f"{NO_EDIT_HISTORY}\n\n")
    else:
        blocks = [(False, spec.edit_history)] if strict else _history_blocks(spec, hints)
        for accepted, text in blocks:
            if accepted:
                out.append(ACCEPTED_PREDICTION_MARKER + "\n")
            _block(out, "diff", text, strict=strict)
