"""RT: the round trip (`evaltools roundtrip`); CV: conversion (`evaltools convert`)."""

from __future__ import annotations

from evaltools.diagnostics import Rule, Severity

E, W = Severity.ERROR, Severity.WARNING

RULES = (
    Rule(
        "RT001",
        "not-canonical",
        W,
        "The file does not round-trip: only its layout differs from the canonical form.",
        "Reads the example and writes it back; reports each place where the canonical text "
        "differs when nothing but layout changed, and says what differs there.",
        "Non-canonical files turn every later rewrite into a noisy diff. `evaltools roundtrip "
        "--fix` rewrites it (after checking that the new text parses to the same example and "
        "is stable). A warning in `check`, since the reference reads the file the same (real "
        "evals have such layout); `evaltools roundtrip` still exits 1 on it, as a formatter's "
        "check does.",
        "## Cursor Position\n```src/app.py\n...   (no blank line after the heading)",
        "## Cursor Position\n\n```src/app.py\n...",
    ),
    Rule(
        "RT002",
        "lossy-content",
        E,
        "Content in the file never reaches the example and would vanish on any rewrite.",
        "Reports text that the reader drops (prose outside `## Reasoning`, blocks under "
        "unknown headings, front matter comments wherever on their line, text after the tab "
        "of a recent file that is not a position) when the file is written back.",
        "A rewrite would delete it without a word. Move descriptions under `## Reasoning`, "
        "fix misspelt headings, or delete the content.",
        "Some notes about the example.\n\n## Cursor Position\n...",
        "## Reasoning\n\nSome notes about the example.\n\n## Cursor Position\n...",
    ),
    Rule(
        "RT003",
        "unreadable-example",
        E,
        "The reference cannot read the file at all, so it cannot round-trip.",
        "Reports files the reader rejects (an H5 heading, an indented code block, no cursor).",
        "There is no example to write back; `evaltools lint` says what is wrong.",
        "##### Deep heading\n...",
        "### Deep heading\n...",
    ),
    Rule(
        "CV002",
        "invalid-example",
        E,
        "A JSON record is not an example: a required field is missing or has the wrong type.",
        "Checks the record against the example's fields (`repository_url`, `revision`, "
        "`cursor_path`, `cursor_position`, `edit_history`, `expected_patches`, ...).",
        "A record the reference refuses would silently drop out of every run.",
        '{"repository_url": "https://github.com/o/r"}',
        '{"repository_url": "https://github.com/o/r", "revision": "…", "cursor_path": "a.py", '
        '"cursor_position": "x<|user_cursor|>", "edit_history": "", "expected_patches": ["…"]}',
    ),
    Rule(
        "CV003",
        "unreadable-markdown",
        E,
        "The reference cannot read the Markdown example.",
        "Reports a Markdown source the reader rejects; `evaltools lint` says why.",
        "There is no example to convert.",
        "##### Deep heading   (in a source .md)",
        "### Deep heading",
    ),
    Rule(
        "CV004",
        "blank-jsonl-line",
        E,
        "A JSONL file has a blank line.",
        "Reports an empty or whitespace-only line in a `.jsonl` source.",
        "The reference reads every line as one example and stops at a blank one.",
        '{"name": "a", ...}\n\n{"name": "b", ...}',
        '{"name": "a", ...}\n{"name": "b", ...}',
    ),
    Rule(
        "CV005",
        "unknown-extension",
        E,
        "A source is not named .md, .json or .jsonl, so its form is unknown.",
        "The form of each source is chosen by its extension.",
        "Guessing the form would convert a text file as if it were an example.",
        "evaltools convert notes.txt --to json -o out.json",
        "evaltools convert notes.md --to json -o out.json",
    ),
    Rule(
        "CV006",
        "unreadable-source",
        E,
        "A source file cannot be read.",
        "Reports a source that vanished, cannot be opened, or is not UTF-8.",
        "Its examples are missing from the output, so the run fails.",
        "evaltools convert missing.jsonl --to md -o md/",
        "evaltools convert present.jsonl --to md -o md/",
    ),
    Rule(
        "CV007",
        "lossy-conversion",
        E,
        "The target form cannot hold all of the example, so it was not converted.",
        "Compares what the target form can hold with what the example has.",
        "Runtime fields (`prompt`, `predictions`, `score`, ...), `telemetry`, "
        "`human_feedback` and `rating` have no place in Markdown, and content of a Markdown "
        "file outside the model reaches no form. `--allow-lossy` converts anyway.",
        "evaltools convert scored.jsonl --to md -o md/   (records carry `score`)",
        "evaltools convert scored.jsonl --to md -o md/ --allow-lossy",
    ),
    Rule(
        "CV008",
        "lossy-conversion-allowed",
        W,
        "Part of the example was dropped, as --allow-lossy allows.",
        "Reports, for each example converted with `--allow-lossy`, what was left out.",
        "The loss was asked for, but it should still be visible in the run's output.",
        "evaltools convert scored.jsonl --to md -o md/ --allow-lossy",
        "evaltools convert scored.jsonl --to jsonl -o clean.jsonl",
    ),
    Rule(
        "CV009",
        "unwritable-example",
        E,
        "The Markdown written for the example would not read back, so it was not written.",
        "Reads each written Markdown text back and compares it with the example.",
        "Some field values (a line of three backticks in the excerpt, a name with a "
        "newline) cannot be written as Markdown that reads back the same.",
        '{"cursor_position": "```\\nx<|user_cursor|>", ...}',
        '{"cursor_position": "x<|user_cursor|>", ...}',
    ),
    Rule(
        "CV010",
        "output-exists",
        E,
        "The output file exists; --force overwrites it.",
        "Checks every output path before writing.",
        "A conversion never overwrites a file unless asked: nothing is ever lost.",
        "evaltools convert set.jsonl --to md -o md/   (md/a.md exists)",
        "evaltools convert set.jsonl --to md -o md/ --force",
    ),
    Rule(
        "CV011",
        "name-collision",
        W,
        "Two examples map to the same file name; the later one gets a -2, -3, ... suffix.",
        "File names come from each example's `name`.",
        "The suffixed file's name no longer matches the example's name; rename one of them.",
        '{"name": "rename", ...}\n{"name": "rename", ...}',
        '{"name": "rename", ...}\n{"name": "rename-2", ...}',
    ),
    Rule(
        "CV012",
        "write-failed",
        E,
        "An output file cannot be written.",
        "Reports an output the operating system refuses (permissions, disk full, a folder "
        "in the way).",
        "That example is missing from the output, so the run fails.",
        "evaltools convert set.jsonl --to md -o /read-only/",
        "evaltools convert set.jsonl --to md -o md/",
    ),
)
