"""CV: conversion (`evaltools convert`)."""

from __future__ import annotations

from evaltools.diagnostics import Rule, Severity

E, W = Severity.ERROR, Severity.WARNING

INVALID_EXAMPLE = Rule(
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
    check="evaltools.example.records",
)

UNREADABLE_MARKDOWN = Rule(
    "CV003",
    "unreadable-markdown",
    E,
    "The reference cannot read the Markdown example.",
    "Reports a Markdown source the reader rejects; `evaltools lint` says why.",
    "There is no example to convert.",
    "##### Deep heading   (in a source .md)",
    "### Deep heading",
    check="evaltools.example.records",
)

BLANK_JSONL_LINE = Rule(
    "CV004",
    "blank-jsonl-line",
    E,
    "A JSONL file has a blank line.",
    "Reports an empty or whitespace-only line in a `.jsonl` source.",
    "The reference reads every line as one example and stops at a blank one.",
    '{"name": "a", ...}\n\n{"name": "b", ...}',
    '{"name": "a", ...}\n{"name": "b", ...}',
    check="evaltools.example.records",
)

UNKNOWN_EXTENSION = Rule(
    "CV005",
    "unknown-extension",
    E,
    "A source is not named .md, .json or .jsonl, so its form is unknown.",
    "The form of each source is chosen by its extension.",
    "Guessing the form would convert a text file as if it were an example.",
    "evaltools convert notes.txt --to json -o out.json",
    "evaltools convert notes.md --to json -o out.json",
    check="evaltools.example.records",
)

UNREADABLE_SOURCE = Rule(
    "CV006",
    "unreadable-source",
    E,
    "A source file cannot be read.",
    "Reports a source that vanished, cannot be opened, or is not UTF-8.",
    "Its examples are missing from the output, so the run fails.",
    "evaltools convert missing.jsonl --to md -o md/",
    "evaltools convert present.jsonl --to md -o md/",
    check="evaltools.example.records",
)

LOSSY_CONVERSION = Rule(
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
    check="evaltools.example.convert.kinds",
)

LOSSY_CONVERSION_ALLOWED = Rule(
    "CV008",
    "lossy-conversion-allowed",
    W,
    "Part of the example was dropped, as --allow-lossy allows.",
    "Reports, for each example converted with `--allow-lossy`, what was left out.",
    "The loss was asked for, but it should still be visible in the run's output.",
    "evaltools convert scored.jsonl --to md -o md/ --allow-lossy",
    "evaltools convert scored.jsonl --to jsonl -o clean.jsonl",
    check="evaltools.example.convert.kinds",
)

UNWRITABLE_EXAMPLE = Rule(
    "CV009",
    "unwritable-example",
    E,
    "The Markdown written for the example would not read back, so it was not written.",
    "Reads each written Markdown text back and compares it with the example.",
    "Some field values (a line of three backticks in the excerpt, a name with a "
    "newline) cannot be written as Markdown that reads back the same.",
    '{"cursor_position": "```\\nx<|user_cursor|>", ...}',
    '{"cursor_position": "x<|user_cursor|>", ...}',
    check="evaltools.example.convert.kinds",
)

OUTPUT_EXISTS = Rule(
    "CV010",
    "output-exists",
    E,
    "The output file exists; --force overwrites it.",
    "Checks every output path before writing.",
    "A conversion never overwrites a file unless asked: nothing is ever lost.",
    "evaltools convert set.jsonl --to md -o md/   (md/a.md exists)",
    "evaltools convert set.jsonl --to md -o md/ --force",
    check="evaltools.example.convert.kinds",
)

NAME_COLLISION = Rule(
    "CV011",
    "name-collision",
    W,
    "Two examples map to the same file name; the later one gets a -2, -3, ... suffix.",
    "File names come from each example's `name`.",
    "The suffixed file's name no longer matches the example's name; rename one of them.",
    '{"name": "rename", ...}\n{"name": "rename", ...}',
    '{"name": "rename", ...}\n{"name": "rename-2", ...}',
    check="evaltools.example.convert.kinds",
)

WRITE_FAILED = Rule(
    "CV012",
    "write-failed",
    E,
    "An output file cannot be written.",
    "Reports an output the operating system refuses (permissions, disk full, a folder in the way).",
    "That example is missing from the output, so the run fails.",
    "evaltools convert set.jsonl --to md -o /read-only/",
    "evaltools convert set.jsonl --to md -o md/",
    check="evaltools.example.convert.kinds",
)
