from __future__ import annotations

import pytest

from evaltools.example.markdown.reader import (
    DropKind,
    MarkdownError,
    from_markdown,
    parse_path_list,
    read_markdown,
    trim_blank_lines,
)
from evaltools.example.spec import RecentFile
from tests.conftest import all_corpus_files, corpus_stem

FRONT = '+++\nrepository_url = "https://github.com/o/r"\nrevision = "abc"\n+++\n\n'
CURSOR = "## Cursor Position\n\n```src/a.py\nx = 1\n# ^[CURSOR_POSITION]\n```\n"


def test_every_corpus_file_parses() -> None:
    files = all_corpus_files()
    assert len(files) == 18
    for path in files:
        parsed = read_markdown(path.read_text(encoding="utf-8"), corpus_stem(path))
        assert parsed.errors == [], path.name
        assert parsed.spec.name == corpus_stem(path)
        assert parsed.spec.repository_url.startswith(("https://", "git@"))
        assert len(parsed.spec.revision) == 40
        assert parsed.spec.expected_patches


def test_front_matter_and_sections() -> None:
    text = (
        '+++\nrepository_url = "u"\nrevision = "r"\ntags = ["a", "b"]\n'
        "uncommitted_diff_requires_edit_history_rollback = true\n+++\n\n"
        "# my name\n\n## Uncommitted Diff\n\n```diff\nU\n```\n\n"
        "## Recently Opened Files\n\n```\na.py\t12\nb.py\n```\n\n"
        "## Edit History\n\n```diff\nH\n```\n\n" + CURSOR + "\n## Expected Patch\n\n"
        "```diff\nP1\n```\n\n```diff\nP2\n```\n\n## Rejected Patch\n\n```diff\nR\n```\n"
    )
    spec = from_markdown(text)
    assert spec.name == "my name"
    assert (spec.repository_url, spec.revision, spec.tags) == ("u", "r", ["a", "b"])
    assert spec.uncommitted_diff_contains_edit_history is True
    assert spec.uncommitted_diff == "U\n"
    assert spec.recently_opened_files == [RecentFile("a.py", 12), RecentFile("b.py")]
    assert spec.edit_history == "H\n"
    assert spec.cursor_path == "src/a.py"
    assert spec.cursor_position == "x = 1\n# ^[CURSOR_POSITION]\n"
    assert spec.expected_patches == ["P1\n", "P2\n"]
    assert spec.rejected_patch == "R\n"


def test_headings_are_ascii_case_insensitive_and_setext_counts() -> None:
    text = (
        FRONT
        + "edit history\n---\n\n```diff\nH\n```\n\n"
        + CURSOR.replace("## Cursor Position", "## CURSOR position")
    )
    spec = from_markdown(text)
    assert spec.edit_history == "H\n"
    assert spec.cursor_path == "src/a.py"


def test_accepted_prediction_marker_goes_before_its_block() -> None:
    text = (
        FRONT + "## Edit History\n\n```diff\nA\n```\n\n// User accepted prediction:\n"
        "```diff\nB\n```\n\n" + CURSOR
    )
    parsed = read_markdown(text)
    assert parsed.spec.edit_history == "A\n// User accepted prediction:\nB\n"
    assert parsed.hints.history_blocks == [(False, "A\n"), (True, "B\n")]
    assert parsed.dropped == []


def test_marker_split_from_its_block_is_prose() -> None:
    text = (
        FRONT + "## Edit History\n\n// User accepted prediction:\n\nnote\n\n"
        "```diff\nB\n```\n\n" + CURSOR
    )
    parsed = read_markdown(text)
    assert parsed.spec.edit_history == "B\n"
    assert [d.line for d in parsed.dropped] == [8, 10]


def test_hard_errors_are_collected_with_lines() -> None:
    text = FRONT + "## Edit History\n\n##### deep\n\n    indented\n"
    parsed = read_markdown(text)
    messages = [(str(e), e.line) for e in parsed.errors]
    assert messages == [
        ("Unexpected heading level: h5", 8),
        ("Unexpected indented codeblock", 10),
        ("Missing cursor position codeblock", 10),  # the last line, not one past it
    ]
    with pytest.raises(MarkdownError, match="h5"):
        from_markdown(text)


@pytest.mark.parametrize(
    ("text", "line"),
    [("# hi\n", 1), ("# hi", 1), ("# hi\n\n\n", 3), ('+++\nrepository_url = "u"\n+++\n', 3)],
)
def test_a_missing_cursor_without_a_section_is_placed_on_the_last_line(
    text: str, line: int
) -> None:
    assert [(str(e), e.line) for e in read_markdown(text).errors] == [
        ("Missing cursor position codeblock", line)
    ]


def test_front_matter_problems_blank_the_fields() -> None:
    parsed = read_markdown('+++\nrepository_url = "u"\n+++\n\n' + CURSOR)
    assert parsed.spec.repository_url == ""
    assert parsed.front_matter.error is not None
    assert "revision" in parsed.front_matter.error
    unclosed = read_markdown('+++\nrepository_url = "u"\n\n' + CURSOR)
    assert unclosed.front_matter.present and not unclosed.front_matter.closed
    assert unclosed.dropped  # the `+++` lines became prose


def test_reasoning_is_read_back() -> None:
    text = FRONT + "## Reasoning\n\n\nWhy this.\n\n```py\nx\n```\n\n\n## Edit History\n\n" + CURSOR
    parsed = read_markdown(text)
    assert parsed.spec.reasoning == "Why this.\n\n```py\nx\n```"
    assert parsed.dropped == []


def test_unknown_sections_and_prose_are_dropped() -> None:
    text = FRONT + "Intro text.\n\n## Expected Patches\n\n```diff\nP\n```\n\n" + CURSOR
    parsed = read_markdown(text)
    assert parsed.spec.expected_patches == []
    kinds = [(d.kind, d.line) for d in parsed.dropped]
    assert kinds == [
        ("text outside a code block", 6),
        ("unknown section heading", 8),
        ("code block outside a known section", 10),
    ]


def test_repeated_cursor_block_last_wins() -> None:
    text = FRONT + CURSOR + "\n```other.py\ny\n# ^[CURSOR_POSITION]\n```\n"
    parsed = read_markdown(text)
    assert parsed.spec.cursor_path == "other.py"
    assert [d.line for d in parsed.dropped] == [8]


def test_stem_fills_an_empty_name_only() -> None:
    assert from_markdown(FRONT + CURSOR, "stem").name == "stem"
    assert from_markdown(FRONT + "# Title\n\n" + CURSOR, "stem").name == "Title"


def test_parse_path_list_follows_the_reference() -> None:
    assert parse_path_list("  a.py\t3  \n\nb c.py\tx\nd.py") == [
        RecentFile("a.py", 3),
        RecentFile("b c.py", None),
        RecentFile("d.py"),
    ]


def test_a_position_may_carry_a_plus_sign_as_rust_reads_it() -> None:
    assert parse_path_list("a.py\t+12\nb.py\t+\nc.py\t-1\n") == [
        RecentFile("a.py", 12),
        RecentFile("b.py", None),
        RecentFile("c.py", None),
    ]


def test_text_after_a_tab_that_is_no_position_is_dropped_at_its_column() -> None:
    text = FRONT + "## Recently Viewed Files\n\n```\n  a.py\tline 12\nb.py\t3\n```\n\n" + CURSOR
    parsed = read_markdown(text)
    assert parsed.spec.recently_viewed_files == [RecentFile("a.py"), RecentFile("b.py", 3)]
    assert [(d.kind, d.line, d.column, d.excerpt) for d in parsed.dropped] == [
        (DropKind.FILE_POSITION, 9, 8, "line 12")
    ]


def test_trim_blank_lines() -> None:
    assert trim_blank_lines("\n \nA\n\nB\n\n") == "A\n\nB"
    assert trim_blank_lines("\n\n") == ""


HISTORY = "## Edit History\n\n(No edit history)\n\n"
PATCH = (
    "\n## Expected Patch\n\n```diff\n--- a/src/a.py\n+++ b/src/a.py\n@@ -1 +1 @@\n"
    "-x = 1\n+x = 2\n```\n"
)


@pytest.mark.parametrize("space", ["\u00a0", "\u3000"])
def test_a_reasoning_line_of_unicode_space_is_text_not_a_blank_line(space: str) -> None:
    # pulldown-cmark reads such a line as a paragraph (a blank line holds only spaces, tabs
    # and form feeds), so it is reasoning text a rewrite must keep, not layout to trim.
    from evaltools.example.markdown.roundtrip import Verdict, check_roundtrip

    for reasoning in (space, f"Why.\n\n{space}", f"{space}\n\nWhy."):
        text = f"{FRONT}## Reasoning\n\n{reasoning}\n\n{HISTORY}{CURSOR}{PATCH}"
        assert read_markdown(text, "x").spec.reasoning == reasoning
        assert check_roundtrip(text, "x").verdict is Verdict.EXACT
    assert trim_blank_lines(f"\n \t\x0c\r\n{space}\n\x0b\n") == space
