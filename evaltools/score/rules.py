"""SC: scoring predictions (`evaltools score`)."""

from __future__ import annotations

from evaltools.diagnostics import Rule, Severity

E, W = Severity.ERROR, Severity.WARNING

UNREADABLE_PREDICTION_PATCH = Rule(
    "SC001",
    "unreadable-prediction-patch",
    W,
    "A prediction's patch holds text but no hunk with a change.",
    "A hunk is an `@@` line followed by `+`/`-` lines; text without one (a whole file, "
    "prose, a diff whose lines lost their prefixes) changes nothing.",
    "Upstream scores it as a prediction that changes nothing, so a correct edit in the "
    "wrong shape scores like no edit. Write a unified diff with `---`/`+++` headers.",
    '{"name": "x", "patch": "def f():\\n    return 2\\n"}',
    '{"name": "x", "patch": "--- a/f.py\\n+++ b/f.py\\n@@ -1 +1 @@\\n-a\\n+b\\n"}',
    check="evaltools.score.service",
)

SCORED_PATCH_DOES_NOT_APPLY = Rule(
    "SC002",
    "scored-patch-does-not-apply",
    W,
    "An expected or predicted patch does not apply to the text it is scored on.",
    "A hunk whose old text (context and deleted lines) is not found in the cursor excerpt "
    "or in any context document with its file's path, or is found several times and no "
    "line number picks one.",
    "Upstream drops such a hunk silently (or, for an expected patch, falls back to the "
    "unchanged excerpt), so the score measures less than the edit. Fix the patch's "
    "context lines or its path.",
    "an expected hunk whose context line `    let y = 1;` is not in the excerpt",
    "the hunk's context copied from the excerpt",
    check="evaltools.score.service",
)

MISSING_PROMPT_INPUTS = Rule(
    "SC003",
    "missing-prompt-inputs",
    E,
    "An `ep predict` example has no usable `prompt_inputs`, so it cannot be scored.",
    "Scoring needs `prompt_inputs.cursor_excerpt` (the base text); `excerpt_start_row`, "
    "`cursor_path` and `related_files` give the documents. A wrong type is reported at "
    "its JSON pointer.",
    "Upstream stops with an error for the example. Run `ep predict` (which records the "
    "prompt inputs), or score a spec-only example with --predictions.",
    '{"name": "x", ..., "predictions": [{"actual_patch": "...", "provider": "zeta2"}]}',
    '{"name": "x", ..., "prompt_inputs": {"cursor_excerpt": "...", ...}, "predictions": [...]}',
    check="evaltools.score.inputs",
)

UNKNOWN_PREDICTION_NAME = Rule(
    "SC004",
    "unknown-prediction-name",
    E,
    "A line of the --predictions file names no example among the inputs.",
    "Each line's `name` must be the `name` of an example given on the command line (a "
    "file's stem for a `.md` without one).",
    "The prediction is not scored and the summary leaves it out. Fix the name, or add "
    "the example's file to the inputs.",
    '{"name": "flask--add-improt", "patch": "..."}',
    '{"name": "flask--add-import", "patch": "..."}',
    check="evaltools.score.service",
)

INVALID_PREDICTION_LINE = Rule(
    "SC005",
    "invalid-prediction-line",
    E,
    "A line of the --predictions file is not a {name, patch, cursor_offset} object.",
    "Each line is one JSON object: `name` (a string), `patch` (a string or null), "
    "`cursor_offset` (a byte offset or null, optional).",
    "The line is not scored. Fix its JSON.",
    '{"name": "x", "patch": 3}',
    '{"name": "x", "patch": "--- a/f.py\\n..."}',
    check="evaltools.score.service",
)

SCORES_NOT_WRITABLE = Rule(
    "SC006",
    "scores-not-writable",
    E,
    "--write-scores cannot write an example's score[] faithfully, so its file is left unchanged.",
    "Upstream's score[] holds `reversal_ratio`, which is computed here as upstream does "
    "under the current definition (v6), except where upstream's histogram diff gives up "
    "and falls back to its Myers diff (every shared line or character occurs more than "
    "63 times), which is not reproduced. Under earlier definitions (--metric v3-v5) it is "
    "known only when no user edit of the cursor file is the last event.",
    "Writing the entry without the field would make `ep eval` read the ratio as 0 and "
    "understate `avg_reversal_ratio`. Run upstream `ep score` on the file, or use "
    "`--format json` output, which leaves the unknown ratio out.",
    '"events": [{"event": "BufferChange", "path": "src/main.rs", "diff": "...", '
    '"predicted": false}], "predictions": [{"actual_patch": "<changes src/main.rs>"}]',
    '"events": [], "predictions": [{"actual_patch": "..."}]',
    check="evaltools.score.service",
)

PREDICTION_NOT_PLACED = Rule(
    "SC007",
    "prediction-not-placed",
    E,
    "A prediction for a `.md` (or spec-only) example changes lines that are not among the "
    "file lines the example holds, so it cannot be scored.",
    "Such an example has no `prompt_inputs`; its documents are the lines it holds: the "
    "cursor block, the old side of each expected hunk and the new side of each "
    "edit-history hunk, at their stated line numbers. A hunk of the prediction whose "
    "path or old lines (context and deleted lines) are not there, or are there more than "
    "once with no line number to pick one, has nothing to apply to.",
    "Scoring it would give a number that does not measure the prediction (upstream drops "
    "such hunks in silence), so it is left out of the scores and the summary says so. "
    "Fix the prediction's path or context lines, or score the `ep predict` output of the "
    "example, whose cursor excerpt holds more of the file.",
    '{"name": "x", "patch": "<a hunk for lines the example does not show>"}',
    '{"name": "x", "patch": "<a hunk whose context lines are in the cursor block>"}',
    check="evaltools.score.service",
)

QUIRK_NO_DOCUMENTS = Rule(
    "SC101",
    "quirk-no-documents",
    W,
    "Upstream quirk: an example without `excerpt_start_row` and without related files "
    "scores 0 for every non-blank prediction, even a perfect one.",
    "Under the current definition (v6) the cursor excerpt is a document only when "
    "`excerpt_start_row` is set; with no related files there is nothing to apply a patch "
    "to, and upstream gives a zero content score.",
    "The number is reproduced as upstream computes it, and it is not a measure of the "
    "prediction. Record `excerpt_start_row` (newer `ep predict` does), or compare with "
    "--metric v5.",
    '"prompt_inputs": {"cursor_excerpt": "...", "related_files": null, ...}',
    '"prompt_inputs": {"cursor_excerpt": "...", "excerpt_start_row": 10, ...}',
    check="evaltools.score.inputs",
)

QUIRK_OLD_CURSOR_MARKER = Rule(
    "SC102",
    "quirk-old-cursor-marker",
    W,
    "Upstream quirk: an expected patch holds an old `#...^[CURSOR_POSITION]` line, which "
    "the current parser reads as garbage that ends the patch.",
    "Since 2026-06-25 the cursor in an expected patch is `<|user_cursor|>` inside a `+` "
    "line; the old marker line is neither removed nor understood.",
    "Hunks after the marker are lost and the expected cursor is missing, so the score "
    "and the cursor metrics change. Move the cursor into the added line.",
    "+    let x = 100;\\n#               ^[CURSOR_POSITION]",
    "+    let x = 100;<|user_cursor|>",
    check="evaltools.score.inputs",
)

PREDICTION_OUTPUT_NOT_PARSED = Rule(
    "SC103",
    "prediction-output-not-parsed",
    W,
    "A prediction has no `actual_patch`, and reading one out of `actual_output` is not "
    "implemented here.",
    "Upstream parses `actual_output` for the teacher, zeta2 and repair providers; this "
    "scores such a prediction as no prediction.",
    "Its score can be lower than upstream's. Store `actual_patch` (newer `ep predict` does).",
    '{"actual_output": "<|editable_region_start|>...", "provider": "zeta2"}',
    '{"actual_patch": "--- a/f.py\\n...", "actual_output": "...", "provider": "zeta2"}',
    check="evaltools.score.inputs",
)
