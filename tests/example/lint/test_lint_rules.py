"""Each rule: a failing input (code and line asserted) and a passing input (code absent)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import pytest

from evaltools.catalogue import RULES
from evaltools.example.lint.linter import lint_markdown, lint_spec
from evaltools.example.markdown.reader import from_markdown
from evaltools.example.spec import ExampleSpec

GOOD = """+++
repository_url = "https://github.com/o/r"
revision = "0123456789abcdef0123456789abcdef01234567"
+++

## Edit History

```diff
--- a/src/app.py
+++ b/src/app.py
@@ -1,3 +1,3 @@
 def main():
-    print("hi")
+    print("hello")
     return 0
```

## Cursor Position

```src/app.py
def main():
    print("hello")
#         ^[CURSOR_POSITION]
    return 0
```

## Expected Patch

```diff
--- a/src/app.py
+++ b/src/app.py
@@ -1,3 +1,3 @@
 def main():
     print("hello")
-    return 0
+    return 1
```
"""
NAME = "repo--change-return.md"


@dataclass(frozen=True)
class Case:
    code: str
    mutate: Callable[[str], str]
    line: int
    passing: Callable[[str], str] = lambda s: s
    name: str = NAME


def sub(old: str, new: str, count: int = 1) -> Callable[[str], str]:
    def apply(text: str) -> str:
        assert old in text, old
        return text.replace(old, new, count)

    return apply


def lint(text: str, name: str = NAME) -> list[tuple[str, int]]:
    return [(d.code, d.line) for d in lint_markdown(text, name, name.removesuffix(".md"))]


PATCH_HUNK = '@@ -1,3 +1,3 @@\n def main():\n     print("hello")\n'
CASES = [
    Case("EP001", lambda s: s.replace("+++\n", "", 1).replace("+++\n", "", 1), 1),
    Case("EP001", lambda s: "\n" + s, 2),
    Case("EP002", lambda s: s.replace("+++\n\n## Edit", "\n## Edit", 1), 1),
    Case("EP003", sub('revision = "0', 'revision = 0"'), 3),
    Case("EP004", sub('revision = "0123456789abcdef0123456789abcdef01234567"\n', ""), 1),
    Case("EP005", sub("+++\n\n", 'owner = "me"\n+++\n\n'), 4),
    Case("EP006", sub("+++\n\n", "# reviewed\n+++\n\n"), 4),
    Case("EP101", sub("## Cursor Position", "##### Note\n\n## Cursor Position"), 18),
    Case("EP102", sub("## Cursor Position", "text\n\n    indented\n\n## Cursor Position"), 20),
    Case("EP103", sub("```src/app.py", "```"), 20),
    Case("EP104", sub("## Expected Patch", "## Expected Patches"), 27),
    Case(
        "EP105",
        sub("## Expected Patch", "```other.py\nx\n# ^[CURSOR_POSITION]\n```\n\n## Expected Patch"),
        20,
    ),
    Case(
        "EP106",
        sub("     return 0\n```\n\n## Cursor", "     return 0\n```\nstray\n\n## Cursor"),
        16,
    ),
    Case("EP107", lambda s: s[: s.index("```diff", s.index("## Expected Patch"))], 27),
    Case("EP108", sub("## Edit History", "A description.\n\n## Edit History"), 6),
    Case(
        "EP109",
        sub(
            "     return 0\n```\n\n## Cursor",
            "     return 0\n```\n\n// User accepted prediction:\n\n## Cursor",
        ),
        18,
    ),
    Case("EP110", lambda s: s[: s.rindex("```")], 29),
    Case("EP111", sub("## Cursor Position\n", "## Cursor Position\n\n### the file\n"), 20),
    Case(
        "EP112",
        sub(
            "## Cursor Position",
            "## Recently Opened Files\n\n```\nsrc/a.py\tten\n```\n\n## Cursor Position",
        ),
        21,
        passing=sub(
            "## Cursor Position",
            "## Recently Opened Files\n\n```\nsrc/a.py\t10\n```\n\n## Cursor Position",
        ),
    ),
    Case("EP201", sub("#         ^[CURSOR_POSITION]\n", ""), 20),
    Case("EP202", sub("#         ^[CURSOR_POSITION]", "#  [CURSOR_POSITION]"), 23),
    Case(
        "EP203",
        lambda s: s.replace('print("hello")\n#', 'print("héllo")\n#').replace(
            "#         ^", "#" + " " * 12 + "^"
        ),
        23,
    ),
    Case("EP204", sub("#         ^[CURSOR_POSITION]", "#" + " " * 30 + "^[CURSOR_POSITION]"), 23),
    Case("EP205", sub("#         ^[CURSOR_POSITION]", "   # <[CURSOR_POSITION]"), 23),
    Case(
        "EP206",
        lambda s: s.replace('    print("hello")\n#', '    print("é")\n#').replace(
            "#         ^", "#" + " " * 13 + "^"
        ),
        23,
    ),
    Case(
        "EP207",
        sub(
            "    return 0\n```\n\n## Expected",
            "    return 0 # [CURSOR_POSITION]\n```\n\n## Expected",
        ),
        24,
    ),
    Case("EP301", sub(PATCH_HUNK, PATCH_HUNK.replace('"hello"', '"hallo"')), 34),
    Case(
        "EP302",
        lambda s: (
            s[: s.rindex("@@")] + "@@ -90,2 +90,2 @@\n-    x = unrelated()\n+    y = other()\n```\n"
        ),
        0,
    ),
    Case(
        "EP303",
        sub(
            '@@ -1,3 +1,3 @@\n def main():\n     print("hello")',
            '@@ -x +y @@\n def main():\n     print("hello")',
        ),
        32,
    ),
    Case(
        "EP304",
        sub(
            '@@ -1,3 +1,3 @@\n def main():\n     print("hello")',
            ' def main():\n     print("hello")',
        ),
        32,
    ),
    Case("EP306", sub("-    return 0\n+    return 1", "--- return 0\n+    return 1"), 35),
    Case("EP307", sub("-    return 0\n", "-    return 0\n#     ^[CURSOR_POSITION]\n"), 36),
    Case("EP308", sub("+    return 1\n", "+    return 1\n# [CURSOR_POSITION]\n"), 37),
    # An editor stripped the trailing spaces of `+    `: the caret under them is past the end.
    Case(
        "EP314",
        sub("+    return 1\n", "+    return 1\n+\n#    ^[CURSOR_POSITION]\n"),
        38,
        passing=sub("+    return 1\n", "+    return 1\n+    \n#    ^[CURSOR_POSITION]\n"),
    ),
    # An editor turned the marker's spaces into tabs: the caret counts each as one byte.
    Case("EP315", sub("#         ^[CURSOR", "#\t\t^[CURSOR"), 23),
    # Tab-indented code, a marker typed with spaces: a space stands under the second tab.
    Case(
        "EP315",
        lambda s: s.replace('    print("hello")', '\t\tprint("hello")'),
        23,
        passing=lambda s: s.replace('    print("hello")', '\t\tprint("hello")').replace(
            "#         ^[CURSOR", "\t\t#        ^[CURSOR"
        ),
    ),
    Case("EP309", lambda s: s + "\n```diff\n```\n", 39),
    Case("EP310", sub('     print("hello")\n-    return 0', 'print("hello")\n-    return 0'), 34),
    Case("EP113", sub("```src/app.py", "  ```src/app.py"), 20),
    Case("EP114", sub("```src/app.py", "```python"), 20),
    Case("EP114", sub("```src/app.py", "```py src/app.py"), 20),
    Case("EP115", lambda s: s + "\n" + s[s.rindex("```diff") :], 39),
    Case(
        "EP312",
        lambda s: (
            s[: s.rindex("+++ b/src/app.py")]
            + "+++ b/src/main.py"
            + s[s.rindex("+++ b/src/app.py") + 16 :]
        ),
        31,
    ),
    Case("EP401", sub("https://github.com/o/r", "https://github.com/o/r/"), 2),
    Case("EP402", sub("0123456789abcdef0123456789abcdef01234567", "HEAD"), 3),
    Case("EP403", lambda s: s, 1, name="Change_Return.md"),
]


@pytest.mark.parametrize("case", CASES, ids=[f"{c.code}-{i}" for i, c in enumerate(CASES)])
def test_rule_fails_and_passes(case: Case) -> None:
    failing = case.mutate(GOOD)
    found = lint(failing, case.name)
    lines = [line for code, line in found if code == case.code]
    assert lines, f"{case.code} not reported; got {found}"
    if case.code == "EP302":
        assert len(lines) == 1
    else:
        assert lines[0] == case.line, found
    assert case.code not in {code for code, _ in lint(case.passing(GOOD))}


def test_good_example_is_clean() -> None:
    assert lint(GOOD) == []


def test_count_mismatch_is_info_and_reported() -> None:
    text = GOOD.replace(
        "@@ -1,3 +1,3 @@\n def main():\n     print", "@@ -1,9 +1,3 @@\n def main():\n     print"
    )
    assert ("EP305", 32) in lint(text)
    assert RULES.get("EP305") is not None
    assert not RULES.rules["EP305"].default_enabled


def test_every_ep_rule_has_a_case() -> None:
    # EP311: tests/example/lint/test_lint_scaling.py (it needs a tiny work budget); EP313:
    # tests/example/lint/test_patch_bound.py (it needs a thousand patches).
    covered = {c.code for c in CASES} | {"EP305", "EP311", "EP313", "EP501"}
    assert {r.code for r in RULES.all() if r.code.startswith("EP")} <= covered


def test_unparsable_file_still_gets_every_finding() -> None:
    text = (
        GOOD.replace("https://github.com/o/r", "github.com/o/r")
        .replace("## Cursor Position", "###### deep\n\n## Cursor Position")
        .replace("-    return 0", "-    return 2")
    )
    codes = lint(text)
    deleted_line = text.split("\n").index("-    return 2") + 1
    assert ("EP101", 18) in codes
    assert ("EP401", 2) in codes
    assert ("EP301", deleted_line) in codes


def test_json_spec_findings_carry_the_record_line_and_pointer() -> None:
    spec = from_markdown(GOOD, "x")
    bad = ExampleSpec(**{**spec.__dict__, "revision": "main", "expected_patches": []})
    found = lint_spec(bad, "set.jsonl", 7)
    assert [(d.code, d.line, d.pointer) for d in found] == [
        ("EP107", 7, "/expected_patches"),
        ("EP402", 7, "/revision"),
    ]


def test_patch_cursor_after_an_empty_context_line_is_fine() -> None:
    text = GOOD.replace(
        '     print("hello")\n-    return 0',
        '     print("hello")\n\n#  ^[CURSOR_POSITION]\n-    return 0',
    )
    found = lint(text)
    assert "EP307" not in {code for code, _ in found}
    after_deleted = GOOD.replace(
        "-    return 0\n", "-    return 0\n\n-    x\n#  ^[CURSOR_POSITION]\n"
    )
    assert "EP307" in {code for code, _ in lint(after_deleted)}


def test_front_matter_findings_point_at_their_own_key() -> None:
    text = GOOD.replace(
        'revision = "0123456789abcdef0123456789abcdef01234567"',
        'revision_note = "x"\nrevision = "HEAD"',
    )
    found = lint(text)
    assert ("EP005", 3) in found
    assert ("EP402", 4) in found


def test_a_list_inside_a_section_is_not_said_to_be_outside_every_section() -> None:
    text = GOOD.replace("## Cursor Position\n", "## Cursor Position\n\n- the cursor file\n")
    found = [d for d in lint_markdown(text, NAME) if d.code == "EP108"]
    assert [(d.line, d.message.split(" never")[0]) for d in found] == [
        (20, "list outside a code block (to line 21)")
    ]


@pytest.mark.parametrize(
    ("marker", "column"),
    [
        ("#         ^[CURSOR POSITION]", 12),
        ("#  ü      <|user cursor|>", 11),  # columns count characters: ü is one (two bytes)
        # A few characters off: found on a line of its own, by similarity.
        ("#         ^[CURSOR_POSITON]", 12),
        ("#         ^[CURSOR_POSITION", 12),
        ("#         ^[CUSROR_POSITION]", 12),
        ("//        ^{CURSOR_POSITION}", 12),
        ("# <CURSOR_POSITION]", 4),
        ("#         ^CURSOR_POSITION", 12),
    ],
)
def test_a_misspelt_marker_is_reported_at_its_column(marker: str, column: int) -> None:
    text = GOOD.replace("#         ^[CURSOR_POSITION]", marker)
    found = [(d.line, d.column, d.message) for d in lint_markdown(text, NAME) if d.code == "EP201"]
    assert [(line, col) for line, col, _ in found] == [(23, column)]
    assert found[0][2].startswith(f"`{marker[column - 1 :]}` is not the cursor marker")


@pytest.mark.parametrize(
    "code",
    [
        "    cursor_position = editor.cursor()",
        "    marks[CURSOR_POSITIONS] = 1",
        "    CURSOR_POSITION = 1",
        "[TOOL_SETTINGS_TABLE]",
    ],
)
def test_code_like_a_marker_is_no_misspelt_marker(code: str) -> None:
    """Without a marker, EP201 stays at the fence when the excerpt only holds code."""
    text = GOOD.replace("#         ^[CURSOR_POSITION]", code)
    assert [line for code, line in lint(text) if code == "EP201"] == [20]


def test_cursor_rules_report_columns_in_characters() -> None:
    # The inline marker's `<` is at byte column 20 but character column 19 (é is two bytes).
    text = GOOD.replace(
        '    print("hello")\n#         ^[CURSOR_POSITION]\n', '    print("héllo")<|user_cursor|>\n'
    )
    found = [(d.line, d.column) for d in lint_markdown(text, NAME) if d.code == "EP206"]
    assert found == [(22, 19)]


def ep207(text: str) -> list[tuple[int, int, str]]:
    found = lint_markdown(text, NAME)
    return [(d.line, d.column, d.message.split(": keep")[0]) for d in found if d.code == "EP207"]


def test_two_inline_markers_on_one_line_report_the_second_at_its_column() -> None:
    text = GOOD.replace(
        '    print("hello")\n#         ^[CURSOR_POSITION]\n',
        '    print(<|user_cursor|>"héllo")<|user_cursor|>\n',
    )
    assert ep207(text) == [
        (
            22,
            34,
            "2 cursor markers in the excerpt (at 22:11, 22:34); the reference takes the one "
            "at 22:11",
        )
    ]


def test_an_inline_marker_is_taken_before_an_earlier_marker_line() -> None:
    # The reference looks for `<|user_cursor|>` first: the `^` line above it is the extra one.
    text = GOOD.replace(
        "    return 0\n```\n\n## Expected", "    return 0<|user_cursor|>\n```\n\n## Expected"
    )
    assert ep207(text) == [
        (
            23,
            11,
            "2 cursor markers in the excerpt (at 23:11, 24:13); the reference takes the one "
            "at 24:13",
        )
    ]


def test_invalid_toml_is_reported_at_the_parser_s_column() -> None:
    # `revision = 0"…`: tomllib reads the number 0, then wants a new line at column 13.
    text = GOOD.replace('revision = "0', 'revision = 0"')
    assert [(d.line, d.column) for d in lint_markdown(text, NAME) if d.code == "EP003"] == [(3, 13)]


@pytest.mark.parametrize("again", ['revision = "abc"', '  "revision" = "abc"'])
def test_a_key_set_twice_is_reported_at_the_second_with_the_first_line(again: str) -> None:
    # tomllib says "Cannot overwrite a value" past the value; a person needs the key's name,
    # both lines, and what to do.
    text = GOOD.replace("+++\n\n## Edit", f"{again}\n+++\n\n## Edit", 1)
    found = [(d.line, d.column, d.message) for d in lint_markdown(text, NAME) if d.code == "EP003"]
    column = len(again) - len(again.lstrip()) + 1  # the key's first character
    assert found == [
        (
            4,
            column,
            "front matter is not valid TOML (key `revision` is set twice, first on line 3), so "
            "the reference ignores all of it (every field blank): delete one of the two lines",
        )
    ]
