"""The lint rules for edit-prediction examples: codes, names, severities, documentation.

Errors are what makes the reference fail or silently lose data; warnings are what it
tolerates but is probably wrong; info is off unless selected.
"""

from __future__ import annotations

from evaltools.diagnostics import RULES, Rule, Severity

E, W, INFO = Severity.ERROR, Severity.WARNING, Severity.INFO


def _rule(code: str, name: str, severity: Severity, summary: str, doc: str = "") -> Rule:
    return RULES.add(Rule(code, name, severity, summary, doc, default_enabled=severity is not INFO))


# Front matter
MISSING_FRONT_MATTER = _rule(
    "EP001",
    "missing-front-matter",
    E,
    "The file does not start with a `+++` front matter line.",
    "The reference recognises front matter only when the file starts with exactly `+++\\n`; "
    "without it `repository_url` and `revision` are silently empty.",
)
UNCLOSED_FRONT_MATTER = _rule(
    "EP002",
    "unclosed-front-matter",
    E,
    "The front matter has no closing `+++` line.",
    "Without a closing `+++\\n` the reference parses the whole file as Markdown and the "
    "front matter becomes stray text.",
)
INVALID_FRONT_MATTER = _rule(
    "EP003",
    "invalid-front-matter",
    E,
    "The front matter is not valid TOML, or a key has the wrong type.",
    "The reference silently ignores the whole front matter when it does not parse: every "
    "field is blanked.",
)
MISSING_FRONT_MATTER_KEY = _rule(
    "EP004",
    "missing-front-matter-key",
    E,
    "The front matter lacks `repository_url` or `revision`.",
    "Both keys are required; the reference blanks the whole front matter without them.",
)
UNKNOWN_FRONT_MATTER_KEY = _rule(
    "EP005",
    "unknown-front-matter-key",
    W,
    "The front matter has a key the format does not define; it is lost on any rewrite.",
)
FRONT_MATTER_COMMENT = _rule(
    "EP006",
    "front-matter-comment",
    W,
    "The front matter has a TOML comment; it is lost on any rewrite.",
)

# Document structure
HEADING_TOO_DEEP = _rule(
    "EP101",
    "heading-too-deep",
    E,
    "An H5 or H6 heading makes the reference fail (`Unexpected heading level`).",
)
INDENTED_CODE_BLOCK = _rule(
    "EP102",
    "indented-code-block",
    E,
    "An indented (4-space) code block makes the reference fail.",
    "A line indented by four spaces after a blank line is an indented code block in "
    "CommonMark; the reference rejects the whole file. Use a fenced block or less indentation.",
)
MISSING_CURSOR_POSITION = _rule(
    "EP103",
    "missing-cursor-position",
    E,
    "There is no usable `## Cursor Position` block (missing, empty, or without a path).",
)
UNKNOWN_SECTION = _rule(
    "EP104",
    "unknown-section",
    E,
    "A code block sits under a heading the format does not know; the reference drops it.",
    "Headings are matched case-insensitively against: Uncommitted Diff, Recently Opened "
    "Files, Recently Viewed Files, Edit History, Cursor Position, Expected Patch, Rejected "
    "Patch (and Reasoning, read by evaltools). A typo such as `## Expected Patches` loses "
    "every block under it.",
)
REPEATED_BLOCK = _rule(
    "EP105",
    "repeated-block",
    E,
    "A section that holds one block has several; the reference keeps only the last.",
)
FENCE_CLOSED_EARLY = _rule(
    "EP106",
    "fence-closed-early",
    E,
    "Text follows a closing fence directly: the content probably closed its own fence.",
    "A content line of three or more backticks closes a fenced block; what follows becomes "
    "Markdown. Use a longer fence (four backticks) around content that holds backtick runs.",
)
NO_EXPECTED_PATCH = _rule(
    "EP107",
    "no-expected-patch",
    E,
    "The example has no expected patch, so it cannot be scored.",
)
PROSE_OUTSIDE_SECTIONS = _rule(
    "EP108",
    "prose-outside-sections",
    W,
    "Text outside a code block never reaches the example and is lost on any rewrite.",
    "Descriptions belong under `## Reasoning`, which evaltools reads back.",
)
ACCEPTED_MARKER_MISPLACED = _rule(
    "EP109",
    "accepted-marker-misplaced",
    W,
    "`// User accepted prediction:` is not a paragraph directly before an Edit History block.",
)
UNCLOSED_FENCE = _rule(
    "EP110",
    "unclosed-fence",
    E,
    "A fenced code block is never closed and swallows the rest of the file.",
)
DROPPED_HEADING = _rule(
    "EP111",
    "dropped-heading",
    W,
    "An H3/H4 heading, or a heading with inline markup, does not survive a rewrite.",
)

# Cursor
MISSING_CURSOR_MARKER = _rule(
    "EP201",
    "missing-cursor-marker",
    E,
    "The cursor excerpt has no `[CURSOR_POSITION]` marker line and no `<|user_cursor|>`.",
)
MARKER_WITHOUT_CARET = _rule(
    "EP202",
    "marker-without-caret",
    E,
    "The `[CURSOR_POSITION]` line has neither `^` nor `<` to say where the cursor is.",
)
CURSOR_INSIDE_CHARACTER = _rule(
    "EP203",
    "cursor-inside-character",
    E,
    "The cursor offset falls inside a multi-byte UTF-8 character.",
    "Columns are byte offsets: align the `^` under the first byte of a character.",
)
CURSOR_PAST_END_OF_LINE = _rule(
    "EP204",
    "cursor-past-end-of-line",
    W,
    "The marker's column is past the end of the cursor line; the cursor lands on a later line.",
)
NON_CANONICAL_ANGLE_MARKER = _rule(
    "EP205",
    "non-canonical-angle-marker",
    W,
    "A `<` marker is not where the reference's own writer would put it.",
)
NON_ASCII_BEFORE_CURSOR = _rule(
    "EP206",
    "non-ascii-before-cursor",
    W,
    "Non-ASCII text before the cursor on its line makes byte and visual columns differ.",
)
SEVERAL_CURSOR_MARKERS = _rule(
    "EP207",
    "several-cursor-markers",
    W,
    "The excerpt holds more than one cursor marker; only the first counts.",
)

# Diffs and patches
PATCH_DOES_NOT_APPLY = _rule(
    "EP301",
    "patch-does-not-apply",
    E,
    "A hunk of a patch disagrees with the cursor excerpt where the two overlap.",
    "The old side of each hunk (context and deleted lines) must match the excerpt "
    "wherever they overlap. Hunks may reach past the excerpt's first or last line.",
)
PATCH_OUTSIDE_EXCERPT = _rule(
    "EP302",
    "patch-outside-excerpt",
    W,
    "No hunk of the patch matches the cursor excerpt anywhere.",
)
UNPARSABLE_HUNK_HEADER = _rule(
    "EP303",
    "unparsable-hunk-header",
    W,
    "An `@@` line does not parse; the reference treats it as garbage and ignores the "
    "rest of that file's diff.",
)
HUNK_WITHOUT_HEADER = _rule(
    "EP304",
    "hunk-without-header",
    W,
    "Diff lines follow a file header without an `@@` hunk header.",
)
HUNK_COUNT_MISMATCH = _rule(
    "EP305",
    "hunk-count-mismatch",
    INFO,
    "A hunk header's line counts disagree with its body (the reference ignores counts).",
)
DIFF_LINE_LOOKS_LIKE_HEADER = _rule(
    "EP306",
    "diff-line-looks-like-header",
    W,
    "A deleted line starting `-- ` or an added line starting `++ ` reads as a file header.",
)
PATCH_CURSOR_AFTER_DELETION = _rule(
    "EP307",
    "patch-cursor-after-deletion",
    E,
    "A `#…[CURSOR_POSITION]` line in a patch must follow an added or context line.",
)
PATCH_CURSOR_WITHOUT_CARET = _rule(
    "EP308",
    "patch-cursor-without-caret",
    W,
    "A patch cursor line has neither `^` nor `<`; the reference drops it silently.",
)
EMPTY_PATCH = _rule(
    "EP309",
    "empty-patch",
    W,
    "An expected patch is empty (a placeholder never filled in?).",
)
GARBAGE_IN_HUNK = _rule(
    "EP310",
    "garbage-in-hunk",
    W,
    "A line inside a hunk is not a diff line; the reference ignores the rest of that file's diff.",
)

# Metadata
BAD_REPOSITORY_URL = _rule(
    "EP401",
    "bad-repository-url",
    W,
    "`repository_url` is not `https://host/owner/repo` or `git@host:owner/repo`.",
)
BAD_REVISION = _rule(
    "EP402",
    "bad-revision",
    W,
    "`revision` is not a 40-digit hexadecimal commit id.",
)
BAD_FILE_NAME = _rule(
    "EP403",
    "bad-file-name",
    W,
    "The file name is not `<repo>--<behaviour>.md` in lower case with `-` between words.",
)
BAD_RECORD = _rule(
    "EP501",
    "invalid-record",
    E,
    "A JSON record is not a valid example (a missing field, a wrong type).",
)
