"""Applying hunks the reference's way (reference 8.3), and every diff block of the corpus."""

from __future__ import annotations

import difflib
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from evaltools.example.cursor import cursor_excerpt
from evaltools.example.diffs.patch_cursor import extract_cursor_from_patch, parse_patch
from evaltools.example.diffs.udiff import (
    ApplyError,
    Edit,
    Hunk,
    HunkLine,
    LineKind,
    apply_diff_to_string,
    apply_diff_to_string_with_hunk_offset,
    apply_hunks,
    find_context_candidates,
    iter_hunks,
    parse_diff,
)
from tests.example.markdown._fences import corpus_files, section_blocks

HEAD = "--- a/file.txt\n+++ b/file.txt\n"


def hunk(context: str, edits: tuple[Edit, ...] = (), start_line: int | None = None) -> Hunk:
    return Hunk("f", context, edits, start_line, None, None, (HunkLine(LineKind.CONTEXT, "", 0),))


# --- reference cases -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "body", "result"),
    [
        ("line1\nline2\nline3", " line1\n-line2\n+replaced\n line3\n", "line1\nreplaced\nline3"),
        (
            "line1\nline2\nline3\n",
            " line1\n-line2\n+replaced\n line3\n",
            "line1\nreplaced\nline3\n",
        ),
        ("line1\nline2\nline3", " line1\n line2\n-line3\n", "line1\nline2\n"),
        ("aaa\nbbb\nccc", " aaa\n bbb\n-ccc\n+ddd\n", "aaa\nbbb\nddd"),
        ("hello\n세계", " hello\n-세계\n+world\n", "hello\nworld"),
    ],
)
def test_apply_with_and_without_final_newline(text: str, body: str, result: str) -> None:
    assert apply_diff_to_string(HEAD + "@@ -1,3 +1,3 @@\n" + body, text) == result


def test_candidates_prefer_an_exact_match_in_the_middle() -> None:
    match = find_context_candidates(b"aaa\nbbb\nccc\n", hunk("bbb\n"))
    assert (match.candidates, match.trimmed) == ((4,), False)


def test_candidates_retry_without_final_newline_only_at_the_end() -> None:
    match = find_context_candidates(b"aaa\nbbb", hunk("bbb\n"))
    assert (match.candidates, match.context, match.trimmed) == ((4,), b"bbb", True)
    match = find_context_candidates(b"aaa\nbbb\nccc", hunk("bbb\nccc\n"))
    assert (match.candidates, match.context) == ((4,), b"bbb\nccc")
    assert find_context_candidates(b"bbb\nccc", hunk("bbb\n")).candidates == (0,)
    assert find_context_candidates(b"bbbx", hunk("bbb\n")).candidates == ()
    assert find_context_candidates(b"", hunk("\n")).candidates == ()


def test_retry_clamps_edits_and_drops_their_phantom_newline() -> None:
    match = find_context_candidates(b"aaa\nbbb", hunk("aaa\nbbb\n", (Edit(4, 8, "ccc\n"),)))
    assert (match.candidates, match.edits) == ((0,), (Edit(4, 7, "ccc"),))


# --- choosing among candidates -------------------------------------------------------------


def test_several_matches_are_told_apart_by_the_header_line() -> None:
    diff = HEAD + "@@ -3,2 +3,2 @@\n x\n-y\n+z\n"
    assert apply_diff_to_string_with_hunk_offset(diff, "x\ny\nx\ny\n") == ("x\ny\nx\nz\n", 4)


@pytest.mark.parametrize(
    ("diff", "fragment"),
    [
        (HEAD + " x\n-y\n+z\n", "occurs 2 times, and it has no header line number"),
        (HEAD + "@@ ... @@\n x\n-y\n+z\n", "occurs 2 times, and it has no header line number"),
        (HEAD + "@@ -2,2 +2,2 @@\n x\n-y\n+z\n", "occurs 2 times, none of them at line 2"),
    ],
)
def test_ambiguous_hunk(diff: str, fragment: str) -> None:
    with pytest.raises(ApplyError) as caught:
        apply_diff_to_string(diff, "x\ny\nx\ny\n")
    assert caught.value.reason == "ambiguous"
    assert caught.value.message.startswith("couldn't resolve hunk")
    assert fragment in caught.value.message


def test_missing_hunk_reports_where_it_is() -> None:
    diff = HEAD + "@@ -1 +1 @@\n-a\n+b\n@@ -2 +2 @@\n-nope\n+c\n"
    with pytest.raises(ApplyError) as caught:
        apply_diff_to_string(diff, "a\nx\n")
    error = caught.value
    assert (error.reason, error.hunk_index, error.hunk_line) == ("not-found", 1, 5)


def test_occurrences_do_not_overlap() -> None:
    # "aa" is found at 0 only, so the retry cannot see the occurrence at 1 that ends the text.
    with pytest.raises(ApplyError):
        apply_diff_to_string(HEAD + " aa\n+b\n", "aaa")


def test_empty_context_resolves_to_the_start_of_the_header_line() -> None:
    assert apply_diff_to_string(HEAD + "@@ -2,0 +2,1 @@\n+x\n", "a\nb\nc") == "a\nx\nb\nc"
    assert apply_diff_to_string(HEAD + "+x\n", "") == "x\n"
    assert apply_diff_to_string(HEAD + "@@ -1,0 +1 @@\n+x\n", "é") == "x\né"
    with pytest.raises(ApplyError):
        apply_diff_to_string(HEAD + "+x\n", "é")  # two character boundaries, no line number


def test_hunks_apply_in_order_to_the_edited_text_ignoring_paths() -> None:
    diff = "--- a/one\n+++ b/one\n-a\n+b\n--- a/two\n+++ b/two\n-b\n+c\n"
    assert apply_diff_to_string_with_hunk_offset(diff, "x\na\n") == ("x\nc\n", 2)
    assert apply_diff_to_string_with_hunk_offset("no diff here\n", "x") == ("x", None)


def test_crlf_text_does_not_match_lf_hunks() -> None:
    with pytest.raises(ApplyError):
        apply_diff_to_string("--- a/f\r\n+++ b/f\r\n a\r\n-b\r\n+c\r\n", "a\r\nb\r\n")


def test_apply_hunks_takes_parsed_hunks() -> None:
    parsed = parse_diff(HEAD + " a\n-b\n+c\n")
    assert apply_hunks(parsed.hunks, "a\nb\n") == ("a\nc\n", 0)


def test_zero_count_insertion_header_is_read_one_line_early() -> None:
    # In `@@ -1,0 +2 @@` the 1 means "after line 1"; the reference subtracts one as for any
    # header, so a pure insertion with several candidate places goes in one line too early.
    diff = HEAD + "@@ -0,0 +1 @@\n+A\n@@ -1,0 +3 @@\n+B\n"
    assert apply_diff_to_string(diff, "\n") == "B\nA\n\n"


@given(
    st.lists(st.text(alphabet="abx é\t", max_size=5), max_size=12),
    st.lists(st.booleans(), max_size=12),
    st.integers(0, 5),
    st.integers(1, 3),
)
def test_unified_diffs_apply(old: list[str], keep: list[bool], extra: int, context: int) -> None:
    # A `<n>` prefix makes every line unique and no line a suffix of another, so each hunk's
    # old text occurs once (the reference cannot tell repeated contexts apart after earlier
    # hunks shifted the lines).
    old = [f"<{i}>{text}" for i, text in enumerate(old)]
    new = [line for line, k in zip(old, keep + [True] * len(old), strict=False) if k]
    for i in range(extra):
        new.insert(min(i * 3, len(new)), f"[{i}]")
    old_text = "".join(line + "\n" for line in old)
    new_text = "".join(line + "\n" for line in new)
    diff = "".join(
        difflib.unified_diff(old_text.splitlines(True), new_text.splitlines(True), n=context)
    )
    assert apply_diff_to_string(diff, old_text) == new_text


# --- the corpus ----------------------------------------------------------------------------

# Expected patches whose hunks reach past the cursor excerpt (the window shows only part of
# the file), so the reference cannot apply them to the excerpt. file stem -> patch indices.
DO_NOT_APPLY = {
    "codex-acp--add-derive": {0, 1},
    "tree-sitter--tuple-to-struct-field-access": {0},
    "tree-sitter--tuple-to-struct-for-loop": {0, 1},
    "vscode--add-async-and-await": {0},
}


def _agrees_where_it_overlaps(old: list[str], window: list[str]) -> bool:
    """Some alignment puts the hunk partly outside the window and agrees on the overlap."""
    for shift in range(-len(old) + 1, len(window)):
        pairs = [
            (old[i], window[i + shift]) for i in range(len(old)) if 0 <= i + shift < len(window)
        ]
        if len(pairs) < len(old) and all(a == b for a, b in pairs):
            return True
    return False


def _stem(path: Path) -> str:
    return path.stem.split("@")[0]


@pytest.mark.parametrize("path", corpus_files(), ids=lambda p: p.name)
def test_corpus_diff_blocks_parse(path: Path) -> None:
    history = section_blocks(path, "Edit History")
    patches = section_blocks(path, "Expected Patch")
    assert history and patches
    for block in history:
        parsed = parse_diff(block.text)
        assert parsed.hunks and not parsed.ignored_lines
        assert all(h.has_header and h.start_line is not None for h in parsed.hunks)
    # The reference stores history blocks joined, with the accepted-prediction marker as a
    # garbage line between files: the hunks are the same.
    joined = "// User accepted prediction:\n".join(b.text for b in history)
    assert len(parse_diff(joined).hunks) == sum(len(parse_diff(b.text).hunks) for b in history)
    for block in patches:
        parsed, extracted = parse_patch(block.text)
        assert parsed.hunks and not parsed.ignored_lines
        assert parse_diff(extracted.clean).hunks == tuple(iter_hunks(extracted.clean))


@pytest.mark.parametrize("path", corpus_files(), ids=lambda p: p.name)
def test_corpus_patches_apply_to_the_excerpt(path: Path) -> None:
    (cursor,) = section_blocks(path, "Cursor Position")
    excerpt, _ = cursor_excerpt(cursor.text)
    failed: set[int] = set()
    for index, block in enumerate(section_blocks(path, "Expected Patch")):
        clean, offset = extract_cursor_from_patch(block.text)
        try:
            new_text, first = apply_diff_to_string_with_hunk_offset(clean, excerpt)
        except ApplyError as error:
            assert error.reason == "not-found"
            failed.add(index)
            (only,) = iter_hunks(clean)
            old = [ln.text for ln in only.old_lines]
            assert _agrees_where_it_overlaps(old, excerpt.split("\n"))
            continue
        assert new_text != excerpt and first is not None
        if offset is not None:
            assert first + offset <= len(new_text.encode())
    assert failed == DO_NOT_APPLY.get(_stem(path), set())


def test_corpus_patch_cursor_one_past_the_end_lands_on_the_next_line() -> None:
    path = next(p for p in corpus_files() if p.name == "flask--add-import-statement.md")
    excerpt, _ = cursor_excerpt(section_blocks(path, "Cursor Position")[0].text)
    clean, offset = extract_cursor_from_patch(section_blocks(path, "Expected Patch")[0].text)
    new_text, first = apply_diff_to_string_with_hunk_offset(clean, excerpt)
    assert (first, offset) == (0, 89)
    assert new_text.encode()[89:].startswith(b"from werkzeug.local import LocalProxy")
