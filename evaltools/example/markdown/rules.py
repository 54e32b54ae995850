"""RT: the round trip (`evaltools roundtrip`)."""

from __future__ import annotations

from evaltools.diagnostics import Rule, Severity

E, W = Severity.ERROR, Severity.WARNING

NOT_CANONICAL = Rule(
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
    check="evaltools.example.markdown.roundtrip_files",
)

LOSSY_CONTENT = Rule(
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
    check="evaltools.example.markdown.roundtrip_files",
)

UNREADABLE_EXAMPLE = Rule(
    "RT003",
    "unreadable-example",
    E,
    "The reference cannot read the file at all, so it cannot round-trip.",
    "Reports files the reader rejects (an H5 heading, an indented code block, no cursor).",
    "There is no example to write back; `evaltools lint` says what is wrong.",
    "##### Deep heading\n...",
    "### Deep heading\n...",
    check="evaltools.example.markdown.roundtrip_files",
)
