"""The lenient diff grammar: line classification and the streaming parser (reference 8.1-8.2).

Application (8.3) and the corpus are in test_udiff_apply.py.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from evaltools.example.diffs.udiff import (
    DiffLine,
    Edit,
    HunkLocation,
    LineKind,
    classify_line,
    header_count_checks,
    iter_hunks,
    parse_diff,
    parse_header_path,
    rust_lines,
)

K = LineKind


def loc(old: int, old_n: int, new: int, new_n: int) -> HunkLocation:
    return HunkLocation(old, old_n, new, new_n)


# --- rust_lines ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "lines"),
    [
        ("", []),
        ("\n", [""]),
        ("a", ["a"]),
        ("a\n", ["a"]),
        ("a\n\n", ["a", ""]),
        ("a\r\nb\r\n", ["a", "b"]),
        ("a\r\r\nb", ["a\r", "b"]),  # only one \r goes with the \n
        ("a\rb\r", ["a\rb\r"]),  # a bare \r is no line break, not even at the end
        ("a\x0bb\x0cc\x1cd\x85e\u2028f", ["a\x0bb\x0cc\x1cd\x85e\u2028f"]),  # unlike splitlines
    ],
)
def test_rust_lines_splits_on_newline_only(text: str, lines: list[str]) -> None:
    assert rust_lines(text) == lines


@given(st.lists(st.text(alphabet=st.characters(blacklist_characters="\n\r")), min_size=1))
def test_rust_lines_inverts_join(lines: list[str]) -> None:
    assert rust_lines("\n".join(lines) + "\n") == lines


# --- classification (8.1) ------------------------------------------------------------------


def test_classifies_a_git_diff_with_garbage_around_it() -> None:
    text = (
        "diff --git a/text.txt b/text.txt\nindex 86c770d..a1fd855 100644\n--- a/file.txt\n"
        "+++ b/file.txt\n@@ -1,2 +1,3 @@\n context\n-deleted\n+inserted\ngarbage\n\n"
        "--- b/file.txt\n+++ a/file.txt\n"
    )
    assert [classify_line(line) for line in rust_lines(text)] == [
        DiffLine(K.GARBAGE, "diff --git a/text.txt b/text.txt"),
        DiffLine(K.GARBAGE, "index 86c770d..a1fd855 100644"),
        DiffLine(K.OLD_PATH, "file.txt"),
        DiffLine(K.NEW_PATH, "file.txt"),
        DiffLine(K.HUNK_HEADER, "", loc(0, 2, 0, 3)),
        DiffLine(K.CONTEXT, "context"),
        DiffLine(K.DELETION, "deleted"),
        DiffLine(K.ADDITION, "inserted"),
        DiffLine(K.GARBAGE, "garbage"),
        DiffLine(K.CONTEXT, ""),
        DiffLine(K.OLD_PATH, "b/file.txt"),  # only the `a/` prefix goes from an old path
        DiffLine(K.NEW_PATH, "a/file.txt"),
    ]


@pytest.mark.parametrize("line", ["--- file", "---   file", "---\tfile", "--- a/file\t2025-01-01"])
def test_file_header_takes_any_ascii_whitespace(line: str) -> None:
    assert classify_line(line) == DiffLine(K.OLD_PATH, "file")


@pytest.mark.parametrize(
    "line",
    [
        "@@ -1,2 +1,3 @@",
        "@@  -1,2  +1,3 @@",
        "@@\t-1,2\t+1,3\t@@",
        "@@ -1,2   +1,3 @@",
        "@@ -1,2 +1,3   @@",
        "@@ -1,2 +1,3 @@ garbage",
        "@@ -1,2 +1,3",
        "@@ -1,2\u2003+1,3 @@",  # tokens split on Unicode whitespace
        "@@ -+1,2 +1,+3 @@",  # Rust's u32 parser takes a `+` sign
    ],
)
def test_hunk_header_spacing(line: str) -> None:
    assert classify_line(line) == DiffLine(K.HUNK_HEADER, "", loc(0, 2, 0, 3))


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("@@ -5 +7 @@", loc(4, 1, 6, 1)),  # missing count = 1
        ("@@ -0,0 +1 @@", loc(0, 0, 0, 1)),  # start 0 saturates
        ("@@ -4294967295,0 +1 @@", loc(4294967294, 0, 0, 1)),
    ],
)
def test_hunk_header_values(line: str, expected: HunkLocation) -> None:
    assert classify_line(line).location == expected


@pytest.mark.parametrize("line", ["@@ ... @@", "@@ ...", "@@   ...anything"])
def test_hunk_header_without_location(line: str) -> None:
    assert classify_line(line) == DiffLine(K.HUNK_HEADER)


@pytest.mark.parametrize(
    "line",
    [
        "@@ -a,1 +1 @@",
        "@@ -1,2,3 +1 @@",
        "@@ -1",
        "@@ 1 +1 @@",
        "@@ -1 1 @@",
        "@@ -1, +1 @@",
        "@@ -4294967296 +1 @@",  # past u32
        "@@ -١ +1 @@",  # not an ASCII digit
        "@@ - +1 @@",
        "@@-1 +1 @@",  # no whitespace after @@
        "@@\u00a0-1 +1 @@",  # the whitespace after @@ must be ASCII
        "@@",
    ],
)
def test_unparsable_hunk_header_is_garbage(line: str) -> None:
    assert classify_line(line) == DiffLine(K.GARBAGE, line)


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("\\ No newline at end of file", DiffLine(K.NO_NEWLINE)),
        ("\\ No newline", DiffLine(K.NO_NEWLINE)),
        ("\\ no newline", DiffLine(K.GARBAGE, "\\ no newline")),
        ("---", DiffLine(K.DELETION, "--")),
        ("---x", DiffLine(K.DELETION, "--x")),
        ("---\x0bx", DiffLine(K.DELETION, "--\x0bx")),  # vertical tab is not ASCII whitespace
        ("--- ", DiffLine(K.OLD_PATH, "")),
        ("--- x", DiffLine(K.OLD_PATH, "x")),  # a deleted `-- x` (SQL comment) collides
        ("+++ x", DiffLine(K.NEW_PATH, "x")),  # so does an added `++ x`
        ("+++x", DiffLine(K.ADDITION, "++x")),
        ("-- x", DiffLine(K.DELETION, "- x")),
        ("", DiffLine(K.CONTEXT, "")),
        (" ", DiffLine(K.CONTEXT, "")),
        ("  x", DiffLine(K.CONTEXT, " x")),
        ("\tx", DiffLine(K.GARBAGE, "\tx")),
        ("+", DiffLine(K.ADDITION, "")),
        ("#       ^[CURSOR_POSITION]", DiffLine(K.GARBAGE, "#       ^[CURSOR_POSITION]")),
        ("// User accepted prediction:", DiffLine(K.GARBAGE, "// User accepted prediction:")),
    ],
)
def test_classification_first_rule_wins(line: str, expected: DiffLine) -> None:
    assert classify_line(line) == expected


@pytest.mark.parametrize(
    ("prefix", "header", "path"),
    [
        ("a/", "foo.txt", "foo.txt"),
        ("a/", "foo/bar/baz.txt", "foo/bar/baz.txt"),
        ("a/", "a/foo.txt", "foo.txt"),
        ("a/", "a/foo/bar/baz.txt  2025", "foo/bar/baz.txt"),
        ("a/", "a/foo/bar/baz.txt\t2025", "foo/bar/baz.txt"),
        ("a/", 'a/foo/bar/baz.txt "', "foo/bar/baz.txt"),
        ("a/", 'a/foo/bar/"baz quox.txt"', "foo/bar/baz quox.txt"),
        ("a/", '"a/foo/bar/baz quox.txt"', "foo/bar/baz quox.txt"),
        ("a/", '"foo/bar/baz quox.txt"', "foo/bar/baz quox.txt"),
        ("a/", '"whatever 🤷"', "whatever 🤷"),
        ("a/", '"foo/bar/baz quox.txt"  2025', "foo/bar/baz quox.txt"),
        ("a/", 'foo/"bar"', "foo/bar"),  # unescaped quotes are dropped
        ("a/", '"foo/\\"bar\\"/baz.txt"', 'foo/"bar"/baz.txt'),
        ("a/", '"C:\\\\Projects\\\\My App\\\\old file.txt"', "C:\\Projects\\My App\\old file.txt"),
        ("b/", '"b/x\\', "x"),  # a trailing lone backslash ends the path
        ("b/", "b/b/x", "b/x"),  # one prefix only
    ],
)
def test_header_paths(prefix: str, header: str, path: str) -> None:
    assert parse_header_path(prefix, header) == path


@given(st.text())
def test_classification_is_total(line: str) -> None:
    assert isinstance(classify_line(line).kind, LineKind)


# --- the streaming parser (8.2) ------------------------------------------------------------


def test_leading_and_trailing_garbage_are_ignored() -> None:
    diff = (
        "I need to make some changes.\n\n- one\n  - two\n\n```\n--- a/file.txt\n+++ b/file.txt\n"
        " one\n+AND\n two\n```\n\nSummary:\n- one\n\nThat's about it.\n"
    )
    parsed = parse_diff(diff)
    (file,) = parsed.files
    (hunk,) = file.hunks
    assert (file.old_path, file.new_path, file.status, file.renamed_to) == (
        "file.txt",
        "file.txt",
        "modified",
        None,
    )
    assert (hunk.context, hunk.edits, hunk.start_line) == (
        "one\ntwo\n",
        (Edit(4, 4, "AND\n"),),
        None,
    )
    assert (file.ended_at, file.ended_by_garbage) == (11, True)
    # Body-looking lines outside any file (the lists, the blank lines) are ignored.
    assert parsed.ignored_lines == (1, 2, 3, 4, 12, 14, 15)


def test_no_newline_after_deletion() -> None:
    diff = (
        "--- a/file.py\n+++ b/file.py\n@@ -55,7 +55,3 @@ class CustomDataset(Dataset):\n"
        "             torch.set_rng_state(state)\n             mask = self.transform(mask)\n\n"
        "-        if self.mode == 'Training':\n-            return (img, mask, name)\n"
        "-        else:\n-            return (img, mask, name)\n\\ No newline at end of file\n"
    )
    (hunk,) = iter_hunks(diff)
    assert hunk.context == (
        "            torch.set_rng_state(state)\n            mask = self.transform(mask)\n\n"
        "        if self.mode == 'Training':\n            return (img, mask, name)\n"
        "        else:\n            return (img, mask, name)"
    )
    assert hunk.edits == (Edit(80, 203, ""),)
    assert hunk.start_line == 54


def test_no_newline_after_addition() -> None:
    diff = "--- a/f\n+++ b/f\n@@ -1,2 +1,3 @@\n context\n-deleted\n+added line\n\\ No newline\n"
    (hunk,) = iter_hunks(diff)
    assert (hunk.context, hunk.edits, hunk.start_line) == (
        "context\ndeleted\n",
        (Edit(8, 16, "added line"),),
        0,
    )


def test_only_the_first_no_newline_of_a_hunk_counts() -> None:
    diff = (
        "--- a/f\n+++ b/f\n@@ -1,3 +1,3 @@\n line1\n-old\n+new\n line3\n"
        "\\ No newline at end of file\n\\ No newline at end of file\n"
    )
    (hunk,) = iter_hunks(diff)
    assert (hunk.context, hunk.edits) == ("line1\nold\nline3", (Edit(6, 10, "new\n"),))


def test_no_newline_after_context_trims_the_context_not_the_addition() -> None:
    diff = "--- a/f\n+++ b/f\n@@ -1,4 +1,4 @@\n line1\n-old\n+new\n line3\n line4\n\\ No newline\n"
    (hunk,) = iter_hunks(diff)
    assert (hunk.context, hunk.edits) == ("line1\nold\nline3\nline4", (Edit(6, 10, "new\n"),))


def test_no_newline_outside_a_file_still_uses_up_the_next_hunks_marker() -> None:
    # The reference sets its once-per-hunk flag even with no file open.
    diff = "\\ No newline\n--- a/f\n+++ b/f\n x\n\\ No newline\n"
    (hunk,) = iter_hunks(diff)
    assert hunk.context == "x\n"


def test_edits_merge_deletions_and_additions_at_the_same_place() -> None:
    (hunk,) = iter_hunks("--- a/f\n+++ b/f\n a\n-b\n-c\n+B\n+C\n d\n+e\n-f\n")
    assert hunk.context == "a\nb\nc\nd\nf\n"
    assert hunk.edits == (Edit(2, 6, "B\nC\n"), Edit(8, 10, "e\n"))


def test_multibyte_lines_count_in_bytes() -> None:
    (hunk,) = iter_hunks("--- a/f\n+++ b/f\n é\n-ü\n+u\n")
    assert hunk.edits == (Edit(3, 6, "u\n"),)


def test_hunk_records_lines_header_and_counts() -> None:
    diff = (
        "--- a/f\n+++ b/f\n@@ -3,2 +3,9 @@ fn x()\n a\n-b\n+B\n\n"
        "@@ ... @@\n c\n+d\n"
        "--- a/g\n+++ b/g\n e\n+f\n"
    )
    parsed = parse_diff(diff)
    first, second, third = parsed.hunks
    assert (first.header, first.header_line, first.line, first.start_line) == (
        loc(2, 2, 2, 9),
        2,
        2,
        2,
    )
    assert [(ln.kind, ln.text, ln.line) for ln in first.lines] == [
        (K.CONTEXT, "a", 3),
        (K.DELETION, "b", 4),
        (K.ADDITION, "B", 5),
        (K.CONTEXT, "", 6),
    ]
    assert [ln.text for ln in first.old_lines] == ["a", "b", ""]
    assert [ln.text for ln in first.new_lines] == ["a", "B", ""]
    assert (second.header, second.header_line, second.has_header, second.start_line) == (
        None,
        7,
        True,
        None,
    )
    assert (third.has_header, third.line, third.path) == (False, 12, "g")
    (check,) = header_count_checks(parsed)
    assert (check.line, check.declared_old, check.counted_old) == (2, 2, 3)
    assert (check.declared_new, check.counted_new, check.matches) == (9, 3, False)
    assert [(f.line, f.ended_at, f.ended_by_garbage) for f in parsed.files] == [
        (0, 10, False),
        (10, None, False),
    ]


def test_header_counts_that_match() -> None:
    parsed = parse_diff("--- a/f\n+++ b/f\n@@ -1,2 +1,2 @@\n a\n-b\n+c\n")
    assert [c.matches for c in header_count_checks(parsed)] == [True]


def test_a_header_that_opens_no_hunk_passes_its_line_number_on() -> None:
    diff = "--- a/f\n+++ b/f\n@@ -5 +5 @@\n@@ ... @@\n x\n"
    (hunk,) = iter_hunks(diff)
    assert (hunk.start_line, hunk.header, hunk.header_line) == (4, None, 3)


def test_a_header_before_the_file_header_is_not_the_hunks_header() -> None:
    (hunk,) = iter_hunks("@@ -3 +3 @@\n--- a/f\n+++ b/f\n x\n")
    assert (hunk.start_line, hunk.has_header) == (2, False)


def test_garbage_ends_the_file_until_the_next_old_path_header() -> None:
    diff = (
        "--- a/f\n+++ b/f\n@@ -1 +1 @@\n-a\n+b\n#  ^[CURSOR_POSITION]\n c\n+d\n"
        "--- a/g\n+++ b/g\n x\n"
    )
    parsed = parse_diff(diff)
    assert [(f.old_path, len(f.hunks), f.ended_by_garbage) for f in parsed.files] == [
        ("f", 1, True),
        ("g", 1, False),
    ]
    assert parsed.ignored_lines == (6, 7)


def test_unparsable_header_ends_the_file() -> None:
    parsed = parse_diff("--- a/f\n+++ b/f\n@@ -x +1 @@\n a\n")
    assert parsed.hunks == ()
    assert parsed.lines[2].kind is K.GARBAGE
    assert parsed.ignored_lines == (3,)


def test_an_empty_hunk_is_not_emitted() -> None:
    # `\ No newline` after the only (empty) context line leaves nothing.
    parsed = parse_diff("--- a/f\n+++ b/f\n@@ -1 +1 @@\n\n\\ No newline\n@@ -9 +9 @@\n y\n")
    (hunk,) = parsed.hunks
    assert (hunk.context, hunk.start_line, [ln.line for ln in hunk.lines]) == ("y\n", 8, [6])


@pytest.mark.parametrize(
    ("old", "new", "status", "path", "renamed"),
    [
        ("/dev/null", "b/new.txt", "created", "new.txt", None),
        # The reference reports a deleted file as "renamed" to /dev/null.
        ("a/old.txt", "/dev/null", "deleted", "old.txt", "/dev/null"),
        ("a/old.txt", "b/new.txt", "modified", "old.txt", "new.txt"),
    ],
)
def test_file_status(old: str, new: str, status: str, path: str, renamed: str | None) -> None:
    (file,) = parse_diff(f"--- {old}\n+++ {new}\n+x\n").files
    assert (file.status, file.hunks[0].path, file.renamed_to) == (status, path, renamed)


def test_crlf_diff() -> None:
    (hunk,) = iter_hunks("--- a/f\r\n+++ b/f\r\n a\r\n-b\r\n+c\r\n")
    assert (hunk.path, hunk.context, hunk.edits) == ("f", "a\nb\n", (Edit(2, 4, "c\n"),))


def test_line_map_renumbers_everything() -> None:
    parsed = parse_diff("--- a/f\n+++ b/f\n@@ -1 +1 @@\n a\ngarbage\n x\n", [0, 1, 3, 4, 9, 10])
    (file,) = parsed.files
    assert (file.line, file.ended_at, file.hunks[0].line, file.hunks[0].lines[0].line) == (
        0,
        9,
        3,
        4,
    )
    assert parsed.line_numbers == (0, 1, 3, 4, 9, 10)
    assert parsed.ignored_lines == (10,)


@given(st.text())
def test_parser_never_fails(text: str) -> None:
    parsed = parse_diff(text)
    assert len(parsed.lines) == len(rust_lines(text))
    for hunk in parsed.hunks:
        assert hunk.context or hunk.edits
        assert all(0 <= e.start <= e.end for e in hunk.edits)


def test_a_new_path_header_alone_opens_no_file() -> None:
    parsed = parse_diff("+++ b/f\n x\n+y\n")
    assert (parsed.files, parsed.ignored_lines) == ((), (1, 2))
