"""Single mistakes an eval author makes by hand, as generic mutations of a well-formed file.

Each mutation takes a file's text and returns the mutated text and the 1-based line where
the mistake is, or None when the file has nothing it applies to. None of them knows which
file it is given: they find their target by the shape of the format alone.
"""

from __future__ import annotations

from collections.abc import Callable

Mutation = Callable[[str], "tuple[str, int] | None"]


def _lines(text: str) -> list[str]:
    return text.split("\n")


def _join(lines: list[str]) -> str:
    return "\n".join(lines)


def _heading(lines: list[str], title: str) -> int | None:
    return next((i for i, line in enumerate(lines) if line == f"## {title}"), None)


def _fences(lines: list[str]) -> list[tuple[int, int, str]]:
    """(opening index, closing index, section) of every ``` block."""
    out, section, start = [], "", None
    for i, line in enumerate(lines):
        if start is None and line.startswith("## "):
            section = line[3:]
        elif start is None and line.startswith("```"):
            start = i
        elif start is not None and line == "```":
            out.append((start, i, section))
            start = None
    return out


def _block(lines: list[str], section: str, nth: int = 0) -> tuple[int, int] | None:
    found = [(a, b) for a, b, s in _fences(lines) if s == section]
    return found[nth] if len(found) > nth else None


def _hunk_lines(lines: list[str], section: str, prefix: str) -> list[int]:
    """Indices of hunk lines starting with `prefix` inside the blocks of `section`."""
    out = []
    for a, b, s in _fences(lines):
        if s != section:
            continue
        in_hunk = False
        for i in range(a + 1, b):
            if lines[i].startswith("@@"):
                in_hunk = True
            elif in_hunk and lines[i].startswith(prefix) and lines[i][1:].strip():
                out.append(i)
    return out


def _marker(lines: list[str]) -> int | None:
    block = _block(lines, "Cursor Position")
    if block is None:
        return None
    a, b = block
    return next((i for i in range(a + 1, b) if "[CURSOR_POSITION]" in lines[i]), None)


def drop_closing_fence(section: str, nth: int = 0) -> Mutation:
    def mutate(text: str) -> tuple[str, int] | None:
        lines = _lines(text)
        block = _block(lines, section, nth)
        if block is None:
            return None
        del lines[block[1]]
        return _join(lines), block[0] + 1

    return mutate


def drop_last_closing_fence(text: str) -> tuple[str, int] | None:
    lines = _lines(text)
    fences = _fences(lines)
    if not fences:
        return None
    a, b, _ = fences[-1]
    del lines[b]
    return _join(lines), a + 1


def duplicate_closing_fence(section: str) -> Mutation:
    def mutate(text: str) -> tuple[str, int] | None:
        lines = _lines(text)
        block = _block(lines, section)
        if block is None:
            return None
        lines.insert(block[1] + 1, "```")
        return _join(lines), block[1] + 2

    return mutate


def indent_opening_fence(section: str, spaces: int) -> Mutation:
    def mutate(text: str) -> tuple[str, int] | None:
        lines = _lines(text)
        block = _block(lines, section)
        if block is None:
            return None
        a, b = block
        if spaces < 4 and not any(lines[i].startswith(" ") for i in range(a + 1, b)):
            return None  # nothing the indentation would change
        lines[a] = " " * spaces + lines[a]
        return _join(lines), a + 1

    return mutate


def drop_cursor_marker(text: str) -> tuple[str, int] | None:
    lines = _lines(text)
    marker, block = _marker(lines), _block(lines, "Cursor Position")
    if marker is None or block is None:
        return None
    del lines[marker]
    return _join(lines), block[0] + 2  # a block without a marker: shown at its first line


def second_cursor_marker(text: str) -> tuple[str, int] | None:
    lines = _lines(text)
    marker, block = _marker(lines), _block(lines, "Cursor Position")
    if marker is None or block is None:
        return None
    target = next((i for i in range(marker + 1, block[1]) if lines[i].strip()), None)
    if target is None:
        return None
    comment = lines[marker].split("^")[0].split("<")[0].strip() or "#"
    indent = len(lines[target]) - len(lines[target].lstrip())
    lines.insert(target + 1, " " * indent + comment + " ^[CURSOR_POSITION]")
    return _join(lines), target + 2


def marker_without_caret(text: str) -> tuple[str, int] | None:
    lines = _lines(text)
    marker = _marker(lines)
    if marker is None or "^[" not in lines[marker]:
        return None
    lines[marker] = lines[marker].replace("^[", "[", 1)
    return _join(lines), marker + 1


def misspell_heading(title: str, wrong: str) -> Mutation:
    def mutate(text: str) -> tuple[str, int] | None:
        lines = _lines(text)
        at = _heading(lines, title)
        if at is None:
            return None
        lines[at] = f"## {wrong}"
        return _join(lines), at + 1

    return mutate


def heading_level(title: str, level: int) -> Mutation:
    def mutate(text: str) -> tuple[str, int] | None:
        lines = _lines(text)
        at = _heading(lines, title)
        if at is None:
            return None
        lines[at] = "#" * level + f" {title}"
        return _join(lines), at + 1

    return mutate


def stray_prose(text: str) -> tuple[str, int] | None:
    lines = _lines(text)
    at = _heading(lines, "Expected Patch")
    if at is None:
        return None
    lines[at:at] = ["A note about the expected patch.", ""]
    return _join(lines), at + 1


def break_hunk_header(text: str) -> tuple[str, int] | None:
    lines = _lines(text)
    block = _block(lines, "Expected Patch")
    if block is None:
        return None
    at = next((i for i in range(*block) if lines[i].startswith("@@ ")), None)
    if at is None:
        return None
    lines[at] = lines[at].replace("@@ -", "@@ ", 1)
    return _join(lines), at + 1


def change_context_line(edit: Callable[[str], str]) -> Mutation:
    def mutate(text: str) -> tuple[str, int] | None:
        lines = _lines(text)
        block = _block(lines, "Cursor Position")
        excerpt = set(lines[block[0] + 1 : block[1]]) if block else set()
        # A context line the lint can compare: one that is in the excerpt, and not blank.
        found = [i for i in _hunk_lines(lines, "Expected Patch", " ") if lines[i][1:] in excerpt]
        if not found:
            return None
        at = found[0]
        changed = edit(lines[at])
        if changed == lines[at]:
            return None
        lines[at] = changed
        return _join(lines), at + 1

    return mutate


def change_excerpt_line(edit: Callable[[str], str], witnesses: int = 1) -> Mutation:
    """Edit an excerpt line that at least `witnesses` expected patches use as context."""

    def mutate(text: str) -> tuple[str, int] | None:
        lines = _lines(text)
        block = _block(lines, "Cursor Position")
        if block is None:
            return None
        patches = [
            {lines[i][1:] for i in range(a + 1, b) if lines[i].startswith(" ")}
            for a, b, s in _fences(lines)
            if s == "Expected Patch"
        ]
        for at in range(block[0] + 1, block[1]):
            line = lines[at]
            covered = sum(line in context for context in patches)
            if line.strip() and "[CURSOR_POSITION]" not in line and covered >= witnesses:
                if edit(line) == line or lines.count(line) > 1 + covered:
                    continue
                lines[at] = edit(line)
                return _join(lines), at + 1
        return None

    return mutate


def _excerpt_tab(line: str) -> str:
    stripped = line.lstrip(" ")
    return line if len(line) - len(stripped) < 4 else "\t" + stripped


def _leading_tab(line: str) -> str:
    body = line[1:]
    stripped = body.lstrip(" ")
    if len(body) - len(stripped) < 4:
        return line
    return " \t" + stripped


def drop_file_header(text: str) -> tuple[str, int] | None:
    lines = _lines(text)
    block = _block(lines, "Expected Patch")
    if block is None or not lines[block[0] + 1].startswith("--- "):
        return None
    del lines[block[0] + 1]
    return _join(lines), block[0] + 2


def _unknown_key(front: list[str]) -> int:
    front.insert(len(front) - 1, 'author = "me"')
    return len(front) - 1


def _drop_revision(front: list[str]) -> int | None:
    at = next((i for i, line in enumerate(front) if line.startswith("revision")), None)
    if at is None:
        return None
    del front[at]
    return 1


def _bad_revision(front: list[str]) -> int | None:
    at = next((i for i, line in enumerate(front) if line.startswith("revision")), None)
    if at is None:
        return None
    front[at] = 'revision = "main branch"'
    return at + 1


def _bad_url(front: list[str]) -> int | None:
    at = next((i for i, line in enumerate(front) if line.startswith("repository_url")), None)
    if at is None:
        return None
    front[at] = 'repository_url = "github.com pallets"'
    return at + 1


def _comment(front: list[str]) -> int:
    front.insert(1, "# written by hand")
    return 2


def _invalid_toml(front: list[str]) -> int | None:
    at = next((i for i, line in enumerate(front) if line.startswith("revision")), None)
    if at is None:
        return None
    front[at] = front[at].rstrip('"')
    return at + 1


def drop_closing_plus(text: str) -> tuple[str, int] | None:
    lines = _lines(text)
    if lines[0] != "+++":
        return None
    del lines[lines.index("+++", 1)]
    return _join(lines), 1


def crlf_everywhere(text: str) -> tuple[str, int] | None:
    return text.replace("\n", "\r\n"), 1


def trailing_space_on_heading(text: str) -> tuple[str, int] | None:
    lines = _lines(text)
    at = _heading(lines, "Cursor Position")
    if at is None:
        return None
    lines[at] += "  "
    return _join(lines), at + 1


def h5_heading(text: str) -> tuple[str, int] | None:
    lines = _lines(text)
    at = _heading(lines, "Expected Patch")
    if at is None:
        return None
    lines[at:at] = ["##### Notes", ""]
    return _join(lines), at + 1


def duplicate_cursor_block(text: str) -> tuple[str, int] | None:
    lines = _lines(text)
    block = _block(lines, "Cursor Position")
    if block is None:
        return None
    a, b = block
    lines[b + 1 : b + 1] = ["", *lines[a : b + 1]]
    return _join(lines), a + 1


def second_title(text: str) -> tuple[str, int] | None:
    lines = _lines(text)
    at = _heading(lines, "Cursor Position")
    if at is None:
        return None
    lines[at:at] = ["# First title", "", "# Second title", ""]
    return _join(lines), at + 1


def blank_line_before_fence_removed(text: str) -> tuple[str, int] | None:
    lines = _lines(text)
    at = _heading(lines, "Cursor Position")
    if at is None or lines[at + 1] != "":
        return None
    del lines[at + 1]
    return _join(lines), at + 2


def lower_case_heading(text: str) -> tuple[str, int] | None:
    lines = _lines(text)
    at = _heading(lines, "Expected Patch")
    if at is None:
        return None
    lines[at] = "## expected patch"
    return _join(lines), at + 1


def _with_front(edit: Callable[[list[str]], int | None]) -> Mutation:
    def mutate(text: str) -> tuple[str, int] | None:
        lines = _lines(text)
        if lines[0] != "+++" or "+++" not in lines[1:]:
            return None
        end = lines.index("+++", 1)
        front = lines[: end + 1]
        at = edit(front)
        if at is None:
            return None
        return _join(front + lines[end + 1 :]), at

    return mutate


MUTATIONS: dict[str, Mutation] = {
    "unclosed cursor fence": drop_closing_fence("Cursor Position"),
    "unclosed history fence": drop_closing_fence("Edit History"),
    "unclosed patch fence": drop_closing_fence("Expected Patch"),
    "unclosed last fence": drop_last_closing_fence,
    "duplicated cursor closing fence": duplicate_closing_fence("Cursor Position"),
    "duplicated history closing fence": duplicate_closing_fence("Edit History"),
    "cursor fence indented by 2": indent_opening_fence("Cursor Position", 2),
    "cursor fence indented by 4": indent_opening_fence("Cursor Position", 4),
    "patch fence indented by 4": indent_opening_fence("Expected Patch", 4),
    "cursor marker deleted": drop_cursor_marker,
    "second cursor marker": second_cursor_marker,
    "cursor marker without caret": marker_without_caret,
    "misspelt cursor heading": misspell_heading("Cursor Position", "Cursor Positon"),
    "misspelt patch heading": misspell_heading("Expected Patch", "Expected Pach"),
    "cursor heading at H3": heading_level("Cursor Position", 3),
    "broken hunk header": break_hunk_header,
    "stray prose": stray_prose,
    "trailing whitespace in a context line": change_context_line(lambda s: s + "  "),
    "tab for spaces in a context line": change_context_line(_leading_tab),
    "CR in a context line": change_context_line(lambda s: s + "\r"),
    "trailing whitespace in an excerpt line": change_excerpt_line(lambda s: s + "  "),
    "CR in an excerpt line": change_excerpt_line(lambda s: s + "\r"),
    "tab for spaces in an excerpt line": change_excerpt_line(_excerpt_tab),
    "excerpt line edited under two patches": change_excerpt_line(lambda s: s + "  # x", 2),
    "context line that is not in the excerpt": change_context_line(lambda s: s + " // edited"),
    "patch without its --- header": drop_file_header,
    "unknown front matter key": _with_front(_unknown_key),
    "front matter without revision": _with_front(_drop_revision),
    "revision that is no commit": _with_front(_bad_revision),
    "repository_url that is no URL": _with_front(_bad_url),
    "comment in the front matter": _with_front(_comment),
    "unterminated TOML string": _with_front(_invalid_toml),
    "front matter never closed": drop_closing_plus,
    "CRLF line endings": crlf_everywhere,
    "trailing spaces after a heading": trailing_space_on_heading,
    "H5 heading": h5_heading,
    "cursor block twice": duplicate_cursor_block,
    "two titles": second_title,
    "no blank line after a heading": blank_line_before_fence_removed,
    "lower-case section heading": lower_case_heading,
}
