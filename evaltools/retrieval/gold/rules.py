"""RG0xx: gold chunk IDs checked against the code (`gold check`)."""

from __future__ import annotations

from evaltools.diagnostics import Rule, Severity

E, W, INFO = Severity.ERROR, Severity.WARNING, Severity.INFO

GOLD_MOVED = Rule(
    "RG001",
    "gold-moved",
    E,
    "A gold chunk ID's symbol is still in its file, at other lines.",
    "Looks the symbol up in the file at the revision checked; reports when it is found "
    "once, at lines other than the ID's span.",
    "The ID's span is stale, so a retriever returning the right chunk scores as wrong. "
    "`evaltools gold check --fix` rewrites the span in place.",
    '"gold": {"net/retry.py:10-42:retry": 3}   (retry now at lines 14-46)',
    '"gold": {"net/retry.py:14-46:retry": 3}',
    check="evaltools.retrieval.gold.reanchor.resolve",
)

GOLD_FILE_RENAMED = Rule(
    "RG002",
    "gold-file-renamed",
    E,
    "A gold chunk ID's file was renamed, and its symbol is in the renamed file.",
    "git's rename detection (in the history, or uncommitted in the work tree) says the "
    "file became another, and the definition was found there once.",
    "The ID names a file that no longer exists. `--fix` rewrites the path and the span.",
    '"gold": {"net/retry.py:10-42:retry": 3}   (git mv net/retry.py net/backoff.py)',
    '"gold": {"net/backoff.py:10-42:retry": 3}',
    check="evaltools.retrieval.gold.reanchor.resolve",
)

GOLD_MISSING_SYMBOL = Rule(
    "RG003",
    "gold-missing-symbol",
    E,
    "A gold chunk ID's file holds no definition of its symbol.",
    "The symbol was renamed, moved to another file, or deleted; candidates (similar "
    "names in the file, the same name elsewhere) are listed.",
    "Nothing is rewritten: a person chooses or drops the gold ID. An unresolved gold ID "
    "fails the check, because an evaluation that skipped it would quietly change every "
    "metric.",
    '"gold": {"net/retry.py:10-42:retry": 3}   (def retry renamed to def retry_call)',
    '"gold": {"net/retry.py:10-42:retry_call": 3}',
    check="evaltools.retrieval.gold.reanchor.resolve",
)

GOLD_MISSING_FILE = Rule(
    "RG004",
    "gold-missing-file",
    E,
    "A gold chunk ID's file does not exist, and no rename of it is known.",
    "Candidates are files with the same name and definitions of the same symbol elsewhere.",
    "The ID can never match a retrieved chunk; a person chooses a candidate, or drops the gold ID.",
    '"gold": {"net/old_retry.py:10-42:retry": 3}   (file deleted)',
    '"gold": {"net/retry.py:10-42:retry": 3}',
    check="evaltools.retrieval.gold.reanchor.resolve",
)

GOLD_AMBIGUOUS = Rule(
    "RG005",
    "gold-ambiguous",
    E,
    "Several definitions fit a gold chunk ID whose span matches none of them.",
    "Two definitions share the qualified name (overloads, conditional definitions, a "
    "file renamed into two); the candidates list them all.",
    "Choosing one automatically could point the gold at the wrong code; a person picks.",
    '"gold": {"io.py:5-9:read": 3}   (two `def read` at lines 12 and 30)',
    '"gold": {"io.py:12-16:read": 3}',
    check="evaltools.retrieval.gold.reanchor.resolve",
)

GOLD_INVALID_CHUNK_ID = Rule(
    "RG006",
    "gold-invalid-chunk-id",
    E,
    "A gold key is not a chunk ID (`path:start-end:symbol`) relative to the root.",
    "The span is the last `:<digits>-<digits>` followed by `:` or the end; lines are "
    "1-based and inclusive; the path is a POSIX path relative to the root (parts joined "
    "by `/`, none empty, `.` or `..`; no `\\` or control character). The same IDs are "
    "RV008 in `evaltools validate`.",
    "Such a key cannot be looked up; the other gold IDs of the set are still checked.",
    '"gold": {"../net/retry.py:10-42:retry": 3}',
    '"gold": {"net/retry.py:10-42:retry": 3}',
    check="evaltools.retrieval.gold.gold_check",
)

INVALID_METAS_LINE = Rule(
    "RG007",
    "invalid-metas-line",
    E,
    "A line of the index's chunk list (metas.jsonl) is not a chunk.",
    "Every line of the file given with `--metas` must be a JSON object with a string "
    "`chunk_id`, and ideally `path`, `start_line`, `end_line` and `symbol`.",
    "A line that is not one is a chunk the gold check cannot see, so it is reported, not skipped.",
    '{"id": "net/retry.py:10-42:retry"}',
    '{"chunk_id": "net/retry.py:10-42:retry", "path": "net/retry.py", "start_line": 10, '
    '"end_line": 42, "symbol": "retry"}',
    check="evaltools.retrieval.sources.metas",
)

GOLD_RECORD_UNREADABLE = Rule(
    "RG008",
    "gold-record-unreadable",
    E,
    "A line of an eval set holds no gold IDs the check can read.",
    "The line is not UTF-8 or not a JSON object, or its `gold` is not a non-empty object.",
    "Its gold IDs, if any, cannot be checked, so the check fails rather than skip them; "
    "`evaltools validate` explains the record format.",
    '{"qid": "q1", "gold": []}',
    '{"qid": "q1", "gold": {"net/retry.py:10-42:retry": 3}}',
    check="evaltools.retrieval.gold.gold_check",
)

GOLD_RELOCATED = Rule(
    "RG009",
    "gold-relocated",
    E,
    "A gold chunk ID's definition is elsewhere: found by its body, or by a name defined "
    "once in the tree.",
    "With the record's `revision`, the ID's old lines are read from git and searched "
    "in the files git says its file was moved or copied to, then in the whole tree: "
    "the same body, then a near one (80% similar, 10 points ahead of any other); "
    "without them, a method's qualified name (or a name in a file of the same name) "
    "defined once in the tree, with a span of a similar length. docs/spans.md gives "
    "the thresholds.",
    "The ID names code that moved to another file, class or name; `--fix` rewrites it "
    "to the one place the evidence names.",
    '"gold": {"app.py:10-42:Framework.route": 3}   (now `BaseApp.route` in core/app.py)',
    '"gold": {"core/app.py:12-44:BaseApp.route": 3}',
    check="evaltools.retrieval.gold.reanchor.resolve",
)

GOLD_COPIED = Rule(
    "RG010",
    "gold-copied",
    E,
    "A gold chunk ID's body is now in several places.",
    "The ID's old body (from git at the record's `revision`) was found, the same or "
    "nearly, in several definitions: a mixin method inlined into two classes.",
    "Every place is right, so none is chosen: the candidates list them all, and a "
    "person keeps one or grades each.",
    '"gold": {"mixins.py:5-20:Mixin.render": 3}   (inlined into A and B)',
    '"gold": {"a.py:8-23:A.render": 3, "b.py:8-23:B.render": 3}',
    check="evaltools.retrieval.gold.reanchor.resolve",
)

GOLD_HOLLOWED = Rule(
    "RG011",
    "gold-hollowed",
    E,
    "A gold chunk ID's name is still there, but its body went elsewhere.",
    "The name was found, but its body kept under half of the old one (from git at the "
    "record's `revision`), while another definition holds at least 60% of it and 25 "
    "points more, or, for a type, a new type took half of its members; or the name, moved, "
    "now calls the definition its body went to; or code is found only as a bare "
    "declaration (an interface's or an abstract method, a trait's required function).",
    "Whether the gold meant the name (now a thin subclass or wrapper) or the code is "
    "the set's call, so `--fix` never rewrites it: both places are listed.",
    '"gold": {"app.py:10-90:Flask": 3}   (now `class Flask(App): ...`, body in core.py)',
    '"gold": {"core.py:10-90:App": 3}',
    check="evaltools.retrieval.gold.reanchor.resolve",
)

GOLD_ID_REWRITTEN = Rule(
    "RG012",
    "gold-id-rewritten",
    INFO,
    "`gold check --fix` rewrote a gold chunk ID.",
    "One line per rewritten ID, `old -> new (why)`, in every output format: a moved "
    "span, a renamed file, a relocated definition (RG001, RG002, RG009).",
    "A rewrite nobody sees cannot be reviewed: the line says what changed and on what "
    "evidence, so the diff of the set can be checked against it.",
    '"gold": {"net/retry.py:10-42:retry": 3}   (retry now at lines 14-46)',
    '"gold": {"net/retry.py:14-46:retry": 3}',
    check="evaltools.retrieval.gold.gold_check",
)

GOLD_REVISION_UPDATED = Rule(
    "RG013",
    "gold-revision-updated",
    INFO,
    "`gold check --fix` moved a record's `revision` to the commit its gold was fixed at.",
    "When --fix rewrites a record that has a `revision`, and then every gold ID of the "
    "record resolves at the commit checked (`--rev`, or HEAD when the record's files have "
    "no uncommitted changes), `revision` becomes that commit's 40-hex id. In the work "
    "tree (not at `--rev`), a record --fix does not rewrite gets HEAD's id too when all "
    "its gold resolves `ok` there and its files are HEAD's (see RG017).",
    "`revision` says where the gold IDs were last verified: left at the old commit, the "
    "next refactor would be followed from a commit where the new IDs do not exist.",
    '{"gold": {"net/retry.py:14-46:retry": 3}, "revision": "<the old commit>"}',
    '{"gold": {"net/retry.py:14-46:retry": 3}, "revision": "<the commit checked>"}',
    check="evaltools.retrieval.gold.fix_records",
)

GOLD_REVISION_KEPT = Rule(
    "RG014",
    "gold-revision-kept",
    W,
    "`gold check --fix` rewrote a record's gold but could not move its `revision`.",
    "The work tree was checked and a file of the record's gold differs from HEAD (or is "
    "not committed), or its gold lies in several repositories: no commit holds the "
    "IDs as fixed.",
    "Commit the code, then set `revision` to that commit by hand, or undo the rewrite "
    "and run `gold check --fix` again, which then moves `revision` too (a rerun on the "
    "rewritten record finds nothing to rewrite, and --fix never touches such a record).",
    "(fixed against uncommitted edits of net/retry.py)",
    "(the edits committed, `gold check --fix` run again)",
    check="evaltools.retrieval.gold.fix_records",
)

GOLD_WINDOW_MISSING_LINES = Rule(
    "RG016",
    "gold-window-missing-lines",
    E,
    "A gold window ID (no symbol) names lines its file no longer has.",
    "A window `path:start-end` resolves when the file has its lines (or, with `--metas`, "
    "when the index has a chunk at them); the file is there but ends before `end`. "
    "`--format json` reports it as `missing_symbol` (the file exists, what the ID names "
    "does not), with `kind` `missing_lines`.",
    "Nothing is rewritten: lines have no name to follow, so a person chooses the new "
    "window or drops it.",
    '"gold": {"net/retry.py:40-60": 1}   (the file now has 30 lines)',
    '"gold": {"net/retry.py:10-30": 1}',
    check="evaltools.retrieval.gold.reanchor.resolve",
)

GOLD_REVISION_BEHIND = Rule(
    "RG017",
    "gold-revision-behind",
    INFO,
    "A record's `revision` is behind HEAD although all its gold resolves there.",
    "Reported by a check of the work tree without `--fix`, once per set file, at the "
    "first such record's `revision` (its message counts the others): every gold ID of "
    "the record is `ok` at HEAD, the record's files are HEAD's, and `revision` names "
    "another commit, or none this repository has (rebased away, or of another clone: the "
    "message says so). `--fix` moves it to HEAD (RG013); a check never fails on it.",
    "Re-anchoring follows each ID from `revision` to HEAD. A `revision` left behind makes "
    "that walk longer with every commit, and after an ID was rewritten it names a commit "
    "where the ID did not exist, so the next move of its definition to another file is "
    "RG003 (nothing repairs it) instead of RG009 (`--fix` repairs it). A CI step on the "
    "main branch that runs `evaltools gold check --fix` and commits keeps it current.",
    '{"gold": {"net/retry.py:14-46:retry": 3}, "revision": "<a commit before HEAD>"}',
    '{"gold": {"net/retry.py:14-46:retry": 3}, "revision": "<HEAD>"}',
    check="evaltools.retrieval.gold.fix_records",
)
