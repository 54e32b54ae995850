"""EP0xx/EP1xx: the front matter and the Markdown structure of an edit-prediction example.

Errors are what makes the reference fail or silently lose data; warnings are what it
tolerates but is probably wrong; info is off unless selected. The failing and fixed
examples are whole files (or their start) that tests/catalogue lint.
"""

from __future__ import annotations

from evaltools.diagnostics import Rule, Severity

E, W = Severity.ERROR, Severity.WARNING

URL = 'repository_url = "https://github.com/o/r"\n'
REV = 'revision = "0123456789abcdef0123456789abcdef01234567"\n'
FM = f"+++\n{URL}{REV}+++\n\n"
CURSOR = "## Cursor Position\n\n```src/app.py\nx = 1\n# ^[CURSOR_POSITION]\n```\n"
PATCH = (
    "## Expected Patch\n\n```diff\n--- a/src/app.py\n+++ b/src/app.py\n"
    "@@ -1,1 +1,1 @@\n-x = 1\n+x = 2\n```\n"
)
EXAMPLE = FM + CURSOR + "\n" + PATCH

MISSING_FRONT_MATTER = Rule(
    "EP001",
    "missing-front-matter",
    E,
    "The file does not start with a `+++` front matter line.",
    "The first line of the file must be exactly `+++`; it also reports front matter that "
    "starts after blank lines or with trailing spaces on the `+++`.",
    "The reference recognises front matter only when the file starts with exactly "
    "`+++\\n`; without it `repository_url` and `revision` are silently empty and the "
    "example cannot be checked out.",
    f"{URL}{REV}\n{CURSOR}",
    f"{FM}{CURSOR}",
    check="evaltools.example.lint.document.structure",
)

UNCLOSED_FRONT_MATTER = Rule(
    "EP002",
    "unclosed-front-matter",
    E,
    "The front matter has no closing `+++` line.",
    "After the opening `+++`, a line that is exactly `+++` must end the front matter.",
    "Without a closing `+++\\n` the reference parses the whole file as Markdown and the "
    "front matter becomes stray text.",
    f"+++\n{URL}{REV}\n{CURSOR}",
    f"{FM}{CURSOR}",
    check="evaltools.example.lint.document.structure",
)

INVALID_FRONT_MATTER = Rule(
    "EP003",
    "invalid-front-matter",
    E,
    "The front matter is not valid TOML, or a key has the wrong type.",
    "Parses the front matter as TOML and checks the types of the known keys "
    "(`repository_url`, `revision` strings, `tags` a list of strings, ...).",
    "The reference silently ignores the whole front matter when it does not parse: every "
    "field is blanked, and the example runs against no repository.",
    f"+++\n{URL}revision = 0123abc\n+++\n",
    FM,
    check="evaltools.example.lint.document.structure",
)

MISSING_FRONT_MATTER_KEY = Rule(
    "EP004",
    "missing-front-matter-key",
    E,
    "The front matter lacks `repository_url` or `revision`.",
    "Both keys must be present, even when the rest of the front matter is valid TOML.",
    "Both keys are required; the reference blanks the whole front matter without them, "
    "so the example has no repository to run in.",
    f"+++\n{URL}+++\n",
    FM,
    check="evaltools.example.lint.document.structure",
)

UNKNOWN_FRONT_MATTER_KEY = Rule(
    "EP005",
    "unknown-front-matter-key",
    W,
    "The front matter has a key the format does not define; it is lost on any rewrite.",
    "Known keys are `repository_url`, `revision`, `tags` and the rollback flag of the "
    "format reference; any other key is reported where it is written, read as TOML reads "
    'it (`"\\u0061bc"` is `abc`), and shown as TOML writes it (`"a\\tb"`).',
    "The reference drops keys it does not know, so `roundtrip --fix` or a conversion "
    "silently deletes the information. Put such notes in `tags` or under `## Reasoning`.",
    f'+++\n{URL}{REV}owner = "me"\n+++\n',
    f'+++\n{URL}{REV}tags = ["owner:me"]\n+++\n',
    check="evaltools.example.lint.document.structure",
)

FRONT_MATTER_COMMENT = Rule(
    "EP006",
    "front-matter-comment",
    W,
    "The front matter has a TOML comment; it is lost on any rewrite.",
    "Reports each TOML comment in the front matter at its `#`: on a line of its own, after "
    "a value, or inside a multi-line array. A `#` inside a string is no comment.",
    "The writer regenerates the front matter from the parsed keys, so comments vanish on "
    "the first rewrite. `## Reasoning` is read back and survives.",
    f"+++\n{URL}{REV}# reviewed by Ana\n+++\n",
    f"{FM}## Reasoning\n\nReviewed by Ana.\n",
    check="evaltools.example.lint.document.structure",
)

HEADING_TOO_DEEP = Rule(
    "EP101",
    "heading-too-deep",
    E,
    "An H5 or H6 heading makes the reference fail (`Unexpected heading level`).",
    "Reports any `#####` or `######` heading outside code blocks.",
    "The reference rejects the whole file on such a heading, so the example is never "
    "evaluated at all.",
    f"{FM}##### Notes\n\n{CURSOR}",
    f"{FM}### Notes\n\n{CURSOR}",
    check="evaltools.example.lint.document.structure",
)

INDENTED_CODE_BLOCK = Rule(
    "EP102",
    "indented-code-block",
    E,
    "An indented (4-space) code block makes the reference fail.",
    "Reports a line indented by four or more spaces after a blank line, outside fences.",
    "A line indented by four spaces after a blank line is an indented code block in "
    "CommonMark; the reference rejects the whole file. Use a fenced block or less "
    "indentation.",
    f"{FM}## Reasoning\n\nThe call:\n\n    run(x)\n\n{CURSOR}",
    f"{FM}## Reasoning\n\nThe call:\n\n  run(x)\n\n{CURSOR}",
    check="evaltools.example.lint.document.structure",
)

MISSING_CURSOR_POSITION = Rule(
    "EP103",
    "missing-cursor-position",
    E,
    "There is no usable `## Cursor Position` block (missing, empty, or without a path).",
    "The cursor block must exist, name its file in the fence's info string, and hold the excerpt.",
    "The reference fails on an example without a cursor path or excerpt: there is no "
    "file and position to predict an edit at.",
    f"{FM}## Cursor Position\n\n```\nx = 1\n# ^[CURSOR_POSITION]\n```\n",
    f"{FM}{CURSOR}",
    check="evaltools.example.lint.document.structure",
)

UNKNOWN_SECTION = Rule(
    "EP104",
    "unknown-section",
    E,
    "A `##` heading the format does not know, or a code block under one; the reference drops both.",
    "Headings are matched case-insensitively against: Uncommitted Diff, Recently Opened "
    "Files, Recently Viewed Files, Edit History, Cursor Position, Expected Patch, Rejected "
    "Patch (and Reasoning, read by evaltools). A code block before any heading is "
    "reported too, and so is an unknown heading with nothing under it (one with text "
    "under it is reported with its text, as EP108).",
    "A typo such as `## Expected Patches` loses every block under it: the example then "
    "has no expected patch, or less of one than its author wrote. Even an empty unknown "
    "heading is lost on any rewrite, so the file does not round-trip.",
    f"{FM}{CURSOR}\n" + PATCH.replace("## Expected Patch", "## Expected Patches"),
    EXAMPLE,
    check="evaltools.example.lint.document.structure",
)

REPEATED_BLOCK = Rule(
    "EP105",
    "repeated-block",
    E,
    "A section that holds one block has several; the reference keeps only the last.",
    "Cursor Position, Uncommitted Diff, Edit History, Rejected Patch and the Recently "
    "... Files sections each hold one block; every earlier one is reported.",
    "The reference overwrites the field with each block, so all but the last are lost "
    "without a word.",
    f"{FM}{CURSOR}\n```src/app.py\ny = 2\n# ^[CURSOR_POSITION]\n```\n",
    f"{FM}{CURSOR}",
    check="evaltools.example.lint.document.dropped",
)

FENCE_CLOSED_EARLY = Rule(
    "EP106",
    "fence-closed-early",
    E,
    "Text follows a closing fence directly: the content probably closed its own fence.",
    "Reports a closing fence followed, on the next line, by text that is not a blank "
    "line, a heading or another fence.",
    "A content line of three or more backticks closes a fenced block; what follows "
    "becomes Markdown and the block is cut short. Use a longer fence (four backticks) "
    "around content that holds backtick runs.",
    f"{FM}## Uncommitted Diff\n\n```diff\n--- a/README.md\n+++ b/README.md\n"
    "@@ -1,3 +1,3 @@\n ```\n-make\n+make test\n ```\n```\n",
    f"{FM}## Uncommitted Diff\n\n````diff\n--- a/README.md\n+++ b/README.md\n"
    "@@ -1,3 +1,3 @@\n ```\n-make\n+make test\n ```\n````\n",
    check="evaltools.example.lint.document.structure",
)

NO_EXPECTED_PATCH = Rule(
    "EP107",
    "no-expected-patch",
    E,
    "The example has no expected patch, so it cannot be scored.",
    "Reports an example (Markdown or JSON) whose `expected_patches` is empty.",
    "The score compares the prediction with the expected patch: without one the example "
    "is dead weight in the set.",
    f"{FM}{CURSOR}",
    EXAMPLE,
    check="evaltools.example.lint.document.structure",
)

PROSE_OUTSIDE_SECTIONS = Rule(
    "EP108",
    "prose-outside-sections",
    W,
    "Text outside a code block never reaches the example and is lost on any rewrite.",
    "Reports paragraphs, lists and other prose that sits outside `## Reasoning`.",
    "The reference keeps only code blocks of known sections; descriptions belong under "
    "`## Reasoning`, which evaltools reads back and writes again.",
    f"{FM}This example renames a variable.\n\n{CURSOR}",
    f"{FM}## Reasoning\n\nThis example renames a variable.\n\n{CURSOR}",
    check="evaltools.example.lint.document.dropped",
)

ACCEPTED_MARKER_MISPLACED = Rule(
    "EP109",
    "accepted-marker-misplaced",
    W,
    "`// User accepted prediction:` is not a paragraph directly before an Edit History block.",
    "The marker must be a paragraph of its own, under `## Edit History`, immediately "
    "followed by the history's ```diff block.",
    "Anywhere else the reference ignores the marker, so the history no longer says which "
    "edit came from an accepted prediction.",
    f"{FM}// User accepted prediction:\n\n{CURSOR}",
    f"{FM}## Edit History\n\n// User accepted prediction:\n```diff\n--- a/src/app.py\n"
    "+++ b/src/app.py\n@@ -1,1 +1,1 @@\n-x = 0\n+x = 1\n```\n\n" + CURSOR,
    check="evaltools.example.lint.document.dropped",
)

UNCLOSED_FENCE = Rule(
    "EP110",
    "unclosed-fence",
    E,
    "A fenced code block is never closed and swallows the rest of the file.",
    "Reports an opening fence with no matching closing fence before the end of the file.",
    "Everything after the opening fence, every later section included, becomes the "
    "content of that one block.",
    FM + CURSOR + "\n" + PATCH.removesuffix("```\n"),
    EXAMPLE,
    check="evaltools.example.lint.document.causes",
)

DROPPED_HEADING = Rule(
    "EP111",
    "dropped-heading",
    W,
    "An H3/H4 heading, or a heading with inline markup, does not survive a rewrite.",
    "Reports H3/H4 headings, a second `# title`, and headings with emphasis, links or "
    "code spans. A section name at the wrong level (`### Cursor Position`, `# Expected "
    "Patch`, `##Expected Patch`) puts what follows it, up to the next H2, in the section "
    "before it: it is reported once, as the cause of what that misreading changes, and "
    "as an error when what it hides would be one.",
    "The format keeps only H1 titles and H2 section names, as plain text; the rest is "
    "dropped or flattened the first time the file is rewritten.",
    f"{FM}{CURSOR}\n### Why\n\nThe cursor sits on the renamed variable.\n",
    f"{FM}## Reasoning\n\nWhy: the cursor sits on the renamed variable.\n\n{CURSOR}",
    check="evaltools.example.lint.document.dropped",
)

INDENTED_FENCE = Rule(
    "EP113",
    "indented-fence",
    W,
    "A fence indented by 1-3 spaces strips as many spaces from every line of its block.",
    "Reports an indented opening fence when some line of its block starts with a space, "
    "and names the first line that reads differently from how it looks; as an error "
    "when the misread block breaks the example (a patch no longer applies, say).",
    "CommonMark removes the fence's indentation from each content line, so the code the "
    "model sees is not the code in the file; a rewrite would un-indent the fence and make "
    "the change visible.",
    FM
    + CURSOR.replace("```src/app.py\nx = 1\n", "  ```src/app.py\nif x:\n    x = 1\n")
    + "\n"
    + PATCH,
    FM
    + CURSOR.replace("```src/app.py\nx = 1\n", "```src/app.py\nif x:\n    x = 1\n")
    + "\n"
    + PATCH.replace("-x = 1\n+x = 2\n", " if x:\n-    x = 1\n+    x = 2\n").replace(
        "-1,1 +1,1", "-1,2 +1,2"
    ),
    check="evaltools.example.lint.document.causes",
)

DUPLICATE_BLOCK = Rule(
    "EP115",
    "duplicate-block",
    W,
    "A block is pasted twice in its section, or the rejected patch is an expected one.",
    "Compares the blocks of `## Edit History` and `## Expected Patch` with each other, and "
    "the rejected patch with the expected ones, word for word.",
    "A repeated edit-history block replays an edit twice, which cannot apply; a repeated "
    "expected patch only adds noise; a rejected patch equal to an expected one makes the "
    "same prediction both right and wrong.",
    FM + CURSOR + "\n" + PATCH + "\n" + PATCH.replace("## Expected Patch\n\n", ""),
    FM + CURSOR + "\n" + PATCH,
    check="evaltools.example.lint.document.structure",
)

BAD_FILE_POSITION = Rule(
    "EP112",
    "bad-file-position",
    W,
    "Text after the last tab of a recent-file line is not a position the reference can read.",
    "In `## Recently Opened Files` and `## Recently Viewed Files`, a line `path<TAB>N` "
    "gives the file's cursor position; N must be an unsigned integer below 2^64.",
    "The reference splits at the last tab and drops the text after it when it is not a "
    "number, so the position (or the end of a path holding a tab) silently disappears; "
    "`roundtrip` calls the file `lossy` (RT002) and `convert` refuses it.",
    f"{FM}## Recently Opened Files\n\n```\nsrc/a.py\tten\n```\n",
    f"{FM}## Recently Opened Files\n\n```\nsrc/a.py\t10\n```\n",
    check="evaltools.example.lint.document.recent_files",
)
