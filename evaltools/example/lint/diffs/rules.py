"""EP2xx-EP5xx: cursor markers, diffs and patches, metadata, and JSON records of examples."""

from __future__ import annotations

from evaltools.diagnostics import Rule, Severity
from evaltools.example.lint.document.rules import CURSOR as ONE_LINE_CURSOR
from evaltools.example.lint.document.rules import FM, REV, URL
from evaltools.example.lint.document.rules import PATCH as ONE_LINE_PATCH

E, W, INFO = Severity.ERROR, Severity.WARNING, Severity.INFO


def _cursor(*lines: str) -> str:
    body = "".join(line + "\n" for line in lines)
    return f"{FM}## Cursor Position\n\n```src/app.py\n{body}```\n"


EXCERPT = ("def main():", '    print("hello")', "#         ^[CURSOR_POSITION]", "    return 0")
CURSOR = _cursor(*EXCERPT)
HEAD = "## Expected Patch\n\n```diff\n--- a/src/app.py\n+++ b/src/app.py\n"


def _patch(*lines: str) -> str:
    return CURSOR + "\n" + HEAD + "".join(line + "\n" for line in lines) + "```\n"


HUNK = ("@@ -1,3 +1,3 @@", " def main():", '     print("hello")', "-    return 0", "+    return 1")
EXAMPLE = _patch(*HUNK)

MISSING_CURSOR_MARKER = Rule(
    "EP201",
    "missing-cursor-marker",
    E,
    "The cursor excerpt has no `[CURSOR_POSITION]` marker line and no `<|user_cursor|>`.",
    "The excerpt must say where the cursor is: a marker line `#   ^[CURSOR_POSITION]` "
    "under the cursor line, or `<|user_cursor|>` inline. A marker typed a few characters "
    "wrong (`^[CURSOR_POSITON]`, `^[CURSOR_POSITION`, `[CURSOR POSITION]`) is reported "
    "where it is written, else the finding is at the block's opening fence.",
    "Without a cursor the reference has no position to predict from; the example runs "
    "with the cursor at offset 0, which is not what its author meant.",
    _cursor(*EXCERPT[:2], EXCERPT[3]),
    CURSOR,
    check="evaltools.example.lint.diffs.cursor_checks",
)

MARKER_WITHOUT_CARET = Rule(
    "EP202",
    "marker-without-caret",
    E,
    "The `[CURSOR_POSITION]` line has neither `^` nor `<` to say where the cursor is.",
    "A marker line needs a `^` under the cursor column (or `<` for the end of the line).",
    "Without a caret the reference cannot compute the cursor offset and drops it.",
    _cursor(*EXCERPT[:2], "#  [CURSOR_POSITION]", EXCERPT[3]),
    CURSOR,
    check="evaltools.example.lint.diffs.cursor_checks",
)

CURSOR_INSIDE_CHARACTER = Rule(
    "EP203",
    "cursor-inside-character",
    E,
    "The cursor offset falls inside a multi-byte UTF-8 character.",
    "The caret's column is a byte offset into the line above; it must not land on the "
    "second or later byte of a character.",
    "An offset inside a character is not a valid string position: the reference panics "
    "or moves the cursor. Columns are byte offsets: align the `^` under the first byte "
    "of a character.",
    _cursor("def main():", '    print("héllo")', "#" + " " * 12 + "^[CURSOR_POSITION]"),
    _cursor("def main():", '    print("héllo")', "#" + " " * 11 + "^[CURSOR_POSITION]"),
    check="evaltools.example.lint.diffs.cursor_checks",
)

CURSOR_PAST_END_OF_LINE = Rule(
    "EP204",
    "cursor-past-end-of-line",
    W,
    "The marker's column is past the end of the cursor line; the cursor lands on a later line.",
    "Compares the caret's byte column with the length of the line above the marker.",
    "The offset is counted from the line's start, so a caret past its end points into the "
    "next line: the example asks for a prediction somewhere else.",
    _cursor(*EXCERPT[:2], "#" + " " * 30 + "^[CURSOR_POSITION]", EXCERPT[3]),
    CURSOR,
    check="evaltools.example.lint.diffs.cursor_checks",
)

NON_CANONICAL_ANGLE_MARKER = Rule(
    "EP205",
    "non-canonical-angle-marker",
    W,
    "A `<` marker is not where the reference's own writer would put it.",
    "A `<[CURSOR_POSITION]` marker must be written as the reference writes it: `#`, "
    "then `<` right after, on the line below the cursor.",
    "The file reads as intended, but `roundtrip` rewrites the marker and the diff noise "
    "hides real changes; write the canonical form once.",
    _cursor(*EXCERPT[:2], "   # <[CURSOR_POSITION]", EXCERPT[3]),
    CURSOR,
    check="evaltools.example.lint.diffs.cursor_checks",
)

NON_ASCII_BEFORE_CURSOR = Rule(
    "EP206",
    "non-ascii-before-cursor",
    W,
    "Non-ASCII text before the cursor on its line makes byte and visual columns differ.",
    "Reports a cursor line with a non-ASCII character left of the caret.",
    "The caret's column counts bytes, so it no longer sits visually under the cursor: "
    "the next person to edit the example will likely move it to the wrong place.",
    _cursor("def main():", '    print("é")', "#" + " " * 13 + "^[CURSOR_POSITION]"),
    _cursor("def main():", '    print("e")', "#" + " " * 12 + "^[CURSOR_POSITION]"),
    check="evaltools.example.lint.diffs.cursor_checks",
)

MARKER_TABS_MISALIGNED = Rule(
    "EP315",
    "marker-tabs-misaligned",
    W,
    "The marker line has a tab where the cursor line has none, or a space under its tab.",
    "Compares the marker line left of the `^` with the cursor line above it, byte by byte: "
    "a tab must stand under a tab, and a tab of the cursor line may hold a tab or the "
    "comment token (as the reference writes it), not a space.",
    "The caret's column counts a tab as one byte, so a marker whose tabs differ from the "
    "cursor line's (an editor converting spaces to tabs, or a marker typed with spaces "
    "under tab-indented code) puts the cursor elsewhere than it shows.",
    _cursor("def main():", '    print("hello")', "#\t\t^[CURSOR_POSITION]"),
    CURSOR,
    check="evaltools.example.lint.diffs.cursor_checks",
)

SEVERAL_CURSOR_MARKERS = Rule(
    "EP207",
    "several-cursor-markers",
    W,
    "The excerpt or a patch holds more than one cursor marker; only one counts.",
    "Counts marker lines and inline `<|user_cursor|>` markers in the excerpt, and marker "
    "lines in each expected or rejected patch. In the excerpt it points at the marker "
    "farther from the expected edit, or else at the first one that does not count.",
    "In the excerpt only one marker sets the cursor (the first `<|user_cursor|>`, or "
    "without one the first marker line); the others stay in it as text the model sees, "
    "which is not the file's content. In a patch the last one sets the predicted cursor "
    "and the others are dropped silently.",
    _cursor(*EXCERPT[:3], "    return 0 # [CURSOR_POSITION]"),
    CURSOR,
    check="evaltools.example.lint.diffs.cursor_checks",
)

PATCH_DOES_NOT_APPLY = Rule(
    "EP301",
    "patch-does-not-apply",
    E,
    "A hunk of a patch disagrees with the cursor excerpt where the two overlap.",
    "The old side of each hunk (context and deleted lines) must match the excerpt "
    "wherever they overlap. Hunks may reach past the excerpt's first or last line.",
    "A hunk whose context is not the excerpt's text describes another file: the expected "
    "patch cannot be applied, and every prediction scores against an impossible edit.",
    _patch(*HUNK[:2], '     print("hallo")', *HUNK[3:]),
    EXAMPLE,
    check="evaltools.example.lint.diffs.patch_fit",
)

PATCH_OUTSIDE_EXCERPT = Rule(
    "EP302",
    "patch-outside-excerpt",
    W,
    "No hunk of the patch matches the cursor excerpt anywhere.",
    "Reports a patch for the cursor's file none of whose hunks meets the excerpt.",
    "A patch that edits only lines outside the excerpt asks the model to predict an edit "
    "it cannot see; usually the wrong file or a stale excerpt.",
    _patch("@@ -90,2 +90,2 @@", "-    x = unrelated()", "+    y = other()"),
    EXAMPLE,
    check="evaltools.example.lint.diffs.patch_fit",
)

UNPARSABLE_HUNK_HEADER = Rule(
    "EP303",
    "unparsable-hunk-header",
    E,
    "An `@@` line does not parse; the reference treats it as garbage and ignores the "
    "rest of that file's diff.",
    "An `@@` line must read `@@ -A[,B] +C[,D] @@`, with numbers below 2^32. (Counts that "
    "disagree with the body are EP305, which the reference tolerates.)",
    "The reference stops reading that file's diff at the bad header: the expected patch "
    "silently shrinks, and the score is computed against less than the author wrote.",
    _patch("@@ garbage", *HUNK[1:]),
    EXAMPLE,
    check="evaltools.example.lint.diffs.patch_checks",
)

HUNK_WITHOUT_HEADER = Rule(
    "EP304",
    "hunk-without-header",
    W,
    "Diff lines follow a file header without an `@@` hunk header.",
    "Reports a hunk whose body lines come straight after `---`/`+++`.",
    "Without a header the reference matches the hunk anywhere in the file, which may be "
    "a different place from the one the author meant.",
    _patch(*HUNK[1:]),
    EXAMPLE,
    check="evaltools.example.lint.diffs.patch_checks",
)

HUNK_COUNT_MISMATCH = Rule(
    "EP305",
    "hunk-count-mismatch",
    INFO,
    "A hunk header's line counts disagree with its body (the reference ignores counts).",
    "Compares `-A,B +C,D` with the numbers of old and new lines in the hunk's body.",
    "Real evals carry such headers and the reference tolerates them, so this is off by "
    "default; select it to keep hand-written headers exact.",
    _patch("@@ -1,9 +1,3 @@", *HUNK[1:]),
    EXAMPLE,
    default_enabled=False,
    check="evaltools.example.lint.diffs.patch_checks",
)

DIFF_LINE_LOOKS_LIKE_HEADER = Rule(
    "EP306",
    "diff-line-looks-like-header",
    W,
    "A deleted line starting `-- ` or an added line starting `++ ` reads as a file header.",
    "Reports a `--- x` line not followed by `+++`, or a `+++ x` line not preceded by `---`.",
    "The reference reads such a line as a new file header, so the hunk is cut in two and "
    "the rest of it is applied to a file named after the line's text.",
    _patch(*HUNK[:3], "--- return 0", "+    return 1"),
    _patch(*HUNK[:3], "-    return 0", "+    return 1"),
    check="evaltools.example.lint.diffs.patch_checks",
)

PATCH_CURSOR_AFTER_DELETION = Rule(
    "EP307",
    "patch-cursor-after-deletion",
    E,
    "A `#…[CURSOR_POSITION]` line in a patch must follow an added or context line.",
    "Checks the diff line above each patch cursor line, past `\\ No newline` lines.",
    "The patch cursor's offset counts only added and context lines, so after a deletion "
    "it points at a different place from the one the marker shows.",
    _patch(*HUNK[:4], "#     ^[CURSOR_POSITION]", HUNK[4]),
    _patch(*HUNK, "#     ^[CURSOR_POSITION]"),
    check="evaltools.example.lint.diffs.cursor_checks",
)

PATCH_CURSOR_WITHOUT_CARET = Rule(
    "EP308",
    "patch-cursor-without-caret",
    W,
    "A patch cursor line has neither `^` nor `<`; the reference drops it silently.",
    "A patch cursor line must carry a `^` under the cursor column (or `<`).",
    "The author meant to say where the cursor ends up after the edit; without a caret "
    "that information is lost without a word.",
    _patch(*HUNK, "# [CURSOR_POSITION]"),
    _patch(*HUNK, "#     ^[CURSOR_POSITION]"),
    check="evaltools.example.lint.diffs.cursor_checks",
)

PATCH_CURSOR_PAST_END_OF_LINE = Rule(
    "EP314",
    "patch-cursor-past-end-of-line",
    W,
    "A patch cursor's column is past the end of its line; the cursor lands on a later line.",
    "Compares the caret's byte column with the length of the added or context line the "
    "cursor offset counts from; one byte past its end is the next line's start, and passes.",
    "The offset is counted from that line's start, so a caret past its end points into the "
    "next line: the expected cursor is somewhere else. An editor that strips trailing "
    "whitespace does this to a caret under an added line of spaces only.",
    _patch(*HUNK, "#                 ^[CURSOR_POSITION]"),
    _patch(*HUNK, "#           ^[CURSOR_POSITION]"),
    check="evaltools.example.lint.diffs.cursor_checks",
)

EMPTY_PATCH = Rule(
    "EP309",
    "empty-patch",
    W,
    "An expected patch is empty (a placeholder never filled in?).",
    "Reports an `## Expected Patch` block with no text.",
    "An empty expected patch says the right prediction is no edit at all; that is rarely "
    "what an author means, and usually a block left to fill in.",
    CURSOR + "\n" + HEAD.split("```diff", maxsplit=1)[0] + "```diff\n```\n",
    EXAMPLE,
    check="evaltools.example.lint.diffs.patch_checks",
)

GARBAGE_IN_HUNK = Rule(
    "EP310",
    "garbage-in-hunk",
    E,
    "A line inside a hunk is not a diff line; the reference drops it and the rest of that "
    "file's diff from the patch.",
    "Every line in a hunk must start with a space, `-`, `+` or `\\` (a hunk header with "
    "`@@`); the finding says how many lines the reference drops. Also reports diff lines "
    "before any `---`/`+++` header, and a `\\ No newline at end of file` line followed in "
    "its hunk by a line of the side it cut (context, or a deleted line after a deleted one, "
    "an added line after an added one), which the reference joins to the line above the "
    "marker; git's own placement after a file's last line is never reported.",
    "The reference stops at the first such line (often a context line that lost its "
    "leading space in an editor, or `@ -1,3 +1,3 @@`), so the patch it builds silently "
    "shrinks: `score` then measures every prediction against less than the author wrote, "
    "and even the expected patch itself scores low. (Header counts that disagree with the "
    "body are EP305, which the reference tolerates.)",
    _patch(*HUNK[:2], 'print("hello")', *HUNK[3:]),
    EXAMPLE,
    check="evaltools.example.lint.diffs.patch_checks",
)

PATCH_TOO_COSTLY_TO_CHECK = Rule(
    "EP311",
    "patch-too-costly-to-check",
    W,
    "A patch matches the cursor excerpt at too many places to check it within lint's budget.",
    "Lint compares each hunk with the excerpt through an index of the excerpt's lines; "
    "when the lines repeat so much that the comparison would take more than about 20 "
    "steps per line of input, the remaining hunks are not compared.",
    "A pre-commit hook that takes a minute on one file is a broken hook, so lint gives up "
    "on that check (EP301/EP302 are not reported for those hunks) and says so.",
    "(thousands of `}` hunks against an excerpt of tens of thousands of `}` lines)",
    "(a short excerpt around the cursor, and a patch of the lines that change)",
    check="evaltools.example.lint.diffs.patch_fit",
)

TOO_MANY_EXPECTED_PATCHES = Rule(
    "EP313",
    "too-many-expected-patches",
    E,
    "An example has more expected patches than lint checks (1,000).",
    "Reports an example (`.md`, `.json` or a `.jsonl` record) with more than 1,000 "
    "expected patches, at the first patch past the limit, before any of them is checked; "
    "the example is not linted further.",
    "An expected patch is one acceptable answer: a handful per example is common, a "
    "thousand is a generator gone wrong. Checking each patch against the excerpt takes "
    "time per patch, so a million of them would hold a pre-commit hook for minutes.",
    '(a record whose `expected_patches` holds a million `""` placeholders)',
    "(the few patches that are distinct acceptable edits; the rest in examples of their own)",
    check="evaltools.example.lint.linter",
)

RENAMED_FILE = Rule(
    "EP312",
    "renamed-file",
    W,
    "A patch's `+++` header names another file than its `---` header.",
    "Compares the two paths of each file header (after the `a/` and `b/` prefixes), "
    "except a file created or deleted (`/dev/null`).",
    "Two names make the patch a rename: scored as such, and applied to a file the "
    "example never shows. In an edit-prediction example it is nearly always one path "
    "typed twice, differently.",
    "+++ b/src/main.py".join(EXAMPLE.rsplit("+++ b/src/app.py", 1)),
    EXAMPLE,
    check="evaltools.example.lint.diffs.patch_checks",
)

BAD_REPOSITORY_URL = Rule(
    "EP401",
    "bad-repository-url",
    W,
    "`repository_url` is not `https://host/owner/repo` or `git@host:owner/repo`.",
    "Checks the URL's shape, including a trailing slash or a `.git` suffix.",
    "The harness clones the repository from this URL; a malformed one fails only when "
    "the eval runs.",
    f'+++\nrepository_url = "github.com/o/r/"\n{REV}+++\n',
    FM,
    check="evaltools.example.lint.diffs.metadata",
)

BAD_REVISION = Rule(
    "EP402",
    "bad-revision",
    W,
    "`revision` is not a 40-digit hexadecimal commit id.",
    "Branch names, tags, `HEAD` and abbreviated hashes are reported.",
    "Anything but a full commit id moves over time, so the example stops being "
    "reproducible: the excerpt no longer matches the checked-out file.",
    f'+++\n{URL}revision = "main"\n+++\n',
    FM,
    check="evaltools.example.lint.diffs.metadata",
)

BAD_FILE_NAME = Rule(
    "EP403",
    "bad-file-name",
    W,
    "The file name is not `<repo>--<behaviour>.md` in lower case with `-` between words.",
    "Checks the file name of a Markdown example (the examples here are file names).",
    "The name is the example's id in reports; a predictable one says which repository "
    "and behaviour it covers and keeps ids unique.",
    "Fix Rename Bug.md",
    "zed--fix-rename-bug.md",
    check="evaltools.example.lint.diffs.metadata",
)

INVALID_RECORD = Rule(
    "EP501",
    "invalid-record",
    E,
    "A JSON record is not a valid example (bad JSON, a missing field, a wrong type).",
    "Each `.json` file or `.jsonl` line must be one example object with the format's "
    "required fields and types.",
    "The reference refuses the record, so the example silently drops out of the run.",
    '{"repository_url": "https://github.com/o/r"}',
    '{"repository_url": "https://github.com/o/r", "revision": "0123456789abcdef0123456789'
    'abcdef01234567", "cursor_path": "src/app.py", "cursor_position": "x = 1<|user_cursor|>", '
    '"edit_history": "", "expected_patches": ["--- a/src/app.py\\n+++ b/src/app.py\\n'
    '@@ -1 +1 @@\\n-x = 1\\n+x = 2\\n"]}',
    check="evaltools.example.lint.files",
)


CURSOR_PATH_NOT_PATCHED = Rule(
    "EP114",
    "cursor-path-not-patched",
    W,
    "The cursor block's path is not a file any expected patch edits.",
    "Compares the whole cursor block's info string (a path may hold spaces) with the files "
    "named in the expected patches' headers; says which part to remove when the path "
    "follows a language name, and to quote a header path with spaces, which the "
    "reference otherwise ends at its first space.",
    "The info string is the file's path, not a language: with another name, every "
    "expected patch edits some other file, so none is checked against the excerpt and "
    "scoring applies them to nothing.",
    FM + ONE_LINE_CURSOR.replace("```src/app.py\n", "```python\n") + "\n" + ONE_LINE_PATCH,
    FM + ONE_LINE_CURSOR + "\n" + ONE_LINE_PATCH,
    check="evaltools.example.lint.diffs.patch_fit",
)
