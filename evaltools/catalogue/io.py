"""IO: problems with a file itself, found before any command reads its content."""

from __future__ import annotations

from evaltools.diagnostics import Rule, Severity

E, W = Severity.ERROR, Severity.WARNING

NOT_UTF8 = Rule(
    "IO001",
    "not-utf8",
    E,
    "The file is not valid UTF-8.",
    "Reports the first byte sequence that does not decode as UTF-8, at its line and column.",
    "Examples, eval sets and the reference all read text as UTF-8; a Latin-1 or UTF-16 "
    "file cannot be parsed, and a lossy decode would change what the model is scored on.",
    "caf\\xe9 = 1   (byte 0xE9 alone: Latin-1 `é`)",
    "café = 1   (saved as UTF-8: bytes 0xC3 0xA9)",
    always_reported=True,
    check="evaltools.fileio",
)

BYTE_ORDER_MARK = Rule(
    "IO002",
    "byte-order-mark",
    E,
    "The file starts with a UTF-8 byte order mark.",
    "Reports bytes EF BB BF at the very start of the file.",
    "The reference recognises front matter only at byte 0, so a BOM silently drops "
    "`repository_url` and `revision`; JSON readers reject it outright.",
    "\\ufeff+++\nrepository_url = ...",
    "+++\nrepository_url = ...   (save without BOM)",
    check="evaltools.fileio",
)

CRLF_LINE_ENDINGS = Rule(
    "IO003",
    "crlf-line-endings",
    E,
    "The file uses CRLF line endings.",
    "Reports the first line that ends in `\\r\\n`.",
    "The reference looks for `+++\\n`; with CRLF the front matter is ignored and code "
    "blocks are normalised to LF, so the file cannot round-trip.",
    "+++\\r\\nrepository_url = ...\\r\\n",
    "+++\\nrepository_url = ...\\n   (`git config core.autocrlf false`, re-save as LF)",
    check="evaltools.fileio",
)

EMPTY_FILE = Rule(
    "IO004",
    "empty-file",
    E,
    "The file is empty.",
    "Reports a file of zero bytes among the inputs.",
    "An empty example or eval set is almost always a failed export or a placeholder; "
    "counting it as clean would hide that the data is missing.",
    "(a 0-byte `zed--rename.md`)",
    "(the example's content, or delete the file)",
    check="evaltools.fileio",
)

BINARY_FILE = Rule(
    "IO005",
    "binary-file",
    E,
    "The file contains NUL bytes.",
    "Reports the first NUL byte of a file given as text.",
    "A NUL byte means a binary file (an image, an archive, a database) was committed "
    "where text belongs; parsing it would only produce noise.",
    "PK\\x03\\x04\\x00... (a zip archive named `set.jsonl`)",
    "(the text file it should have been)",
    always_reported=True,
    check="evaltools.fileio",
)

FILE_TOO_LARGE = Rule(
    "IO006",
    "file-too-large",
    E,
    "The file is larger than an example (or a file of records) can be.",
    "Reports an example (`.md`, `.json`) above 8 MiB, or a file of records (a `.jsonl` "
    "set or examples, a run, predictions, metas) above 1 GiB, without reading it.",
    "Hand-written eval examples are a few KiB; anything this large is a log or a build "
    "artefact committed under the eval folder, and reading it would stall a hook.",
    "evals/debug-dump.md   (120 MB)",
    "(delete it, or move it out of the eval folder)",
    always_reported=True,
    check="evaltools.fileio",
)

NOT_A_FILE = Rule(
    "IO007",
    "not-a-file",
    E,
    "The path is not a regular file.",
    "Reports a path that is a FIFO, a device or a socket, a directory where a file is "
    "named, a broken symbolic link, or a file or folder that cannot be read.",
    "Reading a FIFO or a device blocks forever or never ends, and a broken link is a "
    "file that is missing: either way the path cannot be checked.",
    "evals/latest.md -> /tmp/gone.md   (a dangling symlink)",
    "evals/latest.md   (a regular file, or a link to one)",
    always_reported=True,
    check="evaltools.fileio",
)

PATCH_TOO_LARGE_TO_SCORE = Rule(
    "IO009",
    "patch-too-large-to-score",
    E,
    "A patch is longer than `score` scores (100,000 characters).",
    "Reports an expected or predicted patch over 100,000 characters, before anything of "
    "the example is scored; the example is left out of the scores.",
    "delta chrF holds the character n-grams of what an edit changes, about 1 KB for each "
    "character: a 10 MB patch would take gigabytes and minutes, then fail. An edit "
    "prediction changes a region of the cursor excerpt, a few KB.",
    '{"predictions": [{"actual_patch": "--- a/x\\n+++ b/x\\n@@ ... (12 MB on one line)"}]}',
    "(a patch of the region the model edits)",
    always_reported=True,
    check="evaltools.score.inputs",
)

TOO_MANY_GOLD_ENTRIES = Rule(
    "IO010",
    "too-many-gold-entries",
    E,
    "A retrieval record's `gold` holds more entries than a record may (1,000).",
    "Reports a record whose `gold` object has more than 1,000 chunk IDs, at the first key "
    "past the limit, before any of them is checked; `validate`, `check`, `gold check` and "
    "`gold eval` all refuse the record, and check nothing else of it.",
    "A query's gold is the few chunks that answer it. Each gold ID is followed through the "
    "repository's history, at a cost per ID: a record of 100,000 (a whole file's index "
    "pasted as gold) would hold `gold check` for minutes, and no retriever is judged by "
    "it.",
    '{"qid": "q1", "query": "...", "type": "intent", "gold": {(100,000 chunk IDs)}}',
    "(the chunks that answer the query; a broader query split into several records)",
    always_reported=True,
    check="evaltools.retrieval.records.validation.explain",
)

FILE_NOT_WRITTEN = Rule(
    "IO020",
    "file-not-written",
    E,
    "A file could not be written (a full disk, a read-only file system, no permission).",
    "Reports an output or a rewritten input that could not be written, with the reason the "
    "system gave; the run goes on with the other files, except those written together "
    "with it (a merge and its conflicts, the files of a set split), which are left as "
    "they were too.",
    "The file keeps its old bytes (writes are atomic: a temporary file, then a rename), so "
    "nothing is half-written; the finding says which files were not, so none is assumed "
    "done.",
    "evals/a.md:1:1: IO020 No space left on device; the file was left unchanged",
    "(free space or fix the permission, then run the command again)",
    check="evaltools.atomic.rules",
)

FILE_CHANGED = Rule(
    "IO021",
    "file-changed",
    E,
    "The file changed while evaltools was working on it, so it was not rewritten.",
    "Re-reads a file right before replacing it and compares it with what the command "
    "read, and again, after the rename, the file the rename replaced: an edit found then "
    "is put back in place.",
    "Writing would replace an edit saved meanwhile (an editor, another tool, a second run) "
    "with a rewrite of the older content: a lost update.",
    "evals/a.md:1:1: IO021 file changed while evaltools was working on it",
    "(run the command again: it starts from the file as it is now)",
    check="evaltools.atomic.rules",
)

INVALID_JSON = Rule(
    "IO008",
    "invalid-json",
    E,
    "The text is not valid JSON, or JSON other readers refuse.",
    "Reports where a `.json` file or a `.jsonl` line stops being strict JSON, at its line "
    "and column: the same code in lint, convert, validate and the gold commands.",
    "A record that does not parse silently drops out of every run. Common causes: a record "
    "pretty-printed over several lines, two records on one line, a trailing comma, single "
    "quotes, NaN/Infinity or a number too large for a float (Python's json reads and "
    "writes them, JSON has no such numbers), an integer of more than 4,300 digits, a lone "
    "UTF-16 surrogate escape.",
    '{"qid": "q1", "query": "x", "gold": {"a.py:1-2:f": 3},}',
    '{"qid": "q1", "query": "x", "gold": {"a.py:1-2:f": 3}}',
    always_reported=True,
    check="evaltools.example.records",
)

UNLISTED_EVAL_FILE = Rule(
    "IO030",
    "unlisted-eval-file",
    W,
    "An example file or retrieval set in the repository that `evaltools check` does not check.",
    "Lists the files git tracks below the configuration's folder (`git ls-files`) that no "
    "configured `paths` or `sets` entry covers and no `exclude` glob names, and sniffs their "
    "first bytes: a Markdown example (front matter and `## Cursor Position`), a `.json` or "
    "`.jsonl` example, a retrieval set (records with `qid` and `gold`). Reported by "
    "`check` without paths, at line 1, with the line that adds it; outside a git work tree "
    "there is nothing to list, and nothing is reported.",
    "A new eval folder next to the configured one is committed and passes every gate "
    "unchecked, whatever its mistakes: the configuration, not the data, decides what is "
    "checked.",
    'new-evals/requests--plural.md   (paths = ["evals"])',
    'paths = ["evals", "new-evals"]   (or exclude = ["new-evals/requests--plural.md"])',
    check="evaltools.config.evalfiles",
)
