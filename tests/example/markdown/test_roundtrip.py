from __future__ import annotations

from pathlib import Path

import pytest

from evaltools.__main__ import main
from evaltools.example.markdown.reader import DropKind, from_markdown, read_markdown
from evaltools.example.markdown.render import to_markdown
from evaltools.example.markdown.roundtrip import (
    Verdict,
    check_roundtrip,
    differing_fields,
    first_differing_line,
    indented_fence_problem,
)
from evaltools.example.spec import ExampleSpec, example_from_json_dict, spec_to_json_dict
from tests.conftest import CORPUS, DATA, all_corpus_files, corpus_stem

CANONICAL_FLASK = CORPUS / "flask--add-import-statement.md"

EXPECTED_NON_EXACT = {
    "flask--add-test-function": Verdict.REFORMAT,
    "tree-sitter--if-let-to-match": Verdict.REFORMAT,
    "tree-sitter--tuple-to-struct-definition": Verdict.REFORMAT,
    "vscode--log-object-property": Verdict.LOSSY,
    "zed--change-match-arm": Verdict.LOSSY,
}


def test_corpus_verdicts() -> None:
    seen = {}
    for path in all_corpus_files():
        result = check_roundtrip(path.read_text(encoding="utf-8"), corpus_stem(path))
        seen[path.name.removesuffix(".md")] = result.verdict
        if result.verdict is Verdict.REFORMAT:
            assert result.unsafe is None, path.name
    non_exact = {name: v for name, v in seen.items() if v is not Verdict.EXACT}
    assert non_exact == EXPECTED_NON_EXACT


def test_lossy_verdict_names_the_description_line() -> None:
    text = (CORPUS / "zed--change-match-arm.md").read_text(encoding="utf-8")
    result = check_roundtrip(text, "zed--change-match-arm")
    assert [(d.kind, d.line) for d in result.dropped] == [("text outside a code block", 6)]
    assert result.first_difference == 6


def test_reformat_first_difference_is_the_doubled_blank_line() -> None:
    text = (CORPUS / "tree-sitter--if-let-to-match.md").read_text(encoding="utf-8")
    result = check_roundtrip(text, "tree-sitter--if-let-to-match")
    assert result.verdict is Verdict.REFORMAT
    assert result.first_difference == 114
    assert text.split("\n")[113] == ""
    assert result.rendered is not None
    assert check_roundtrip(result.rendered, "tree-sitter--if-let-to-match").verdict is Verdict.EXACT


def test_strict_reference_adds_title_and_blank_line() -> None:
    text = (CORPUS / "codex-acp--add-derive.md").read_text(encoding="utf-8")
    result = check_roundtrip(text, "codex-acp--add-derive", strict_reference=True)
    assert result.verdict is Verdict.REFORMAT
    assert result.rendered is not None
    assert "\n# codex-acp--add-derive\n\n## Edit History" in result.rendered
    assert result.rendered.endswith("```\n\n")


def test_front_matter_comments_and_unknown_keys_are_lossy() -> None:
    text = (CORPUS / "codex-acp--add-derive.md").read_text(encoding="utf-8")
    commented = text.replace("+++\n", '+++\n# owner: me\nextra = "x"\n', 1)
    result = check_roundtrip(commented, "codex-acp--add-derive")
    assert result.verdict is Verdict.LOSSY
    kinds = [d.describe() for d in result.dropped]
    assert "front matter comment" in kinds
    assert "unknown front matter keys (extra)" in kinds


def test_invalid_file_has_errors() -> None:
    result = check_roundtrip("no sections at all\n")
    assert result.verdict is Verdict.INVALID
    assert [str(e) for e in result.errors] == ["Missing cursor position codeblock"]


def test_helpers() -> None:
    assert first_differing_line("a\nb\n", "a\nb\n") is None
    assert first_differing_line("a\nb\n", "a\nc\n") == 2
    assert first_differing_line("a\n", "a\n\n") == 3
    assert differing_fields(ExampleSpec(name="a"), ExampleSpec(name="b")) == ["name"]


def test_spec_alone_reproduces_every_exact_file() -> None:
    """md -> json -> md: without layout hints the default layout is the files' layout."""
    reproduced = []
    for path in all_corpus_files():
        text = path.read_text(encoding="utf-8")
        # Through JSON, which does not carry the layout the spec was read with.
        data = spec_to_json_dict(from_markdown(text, corpus_stem(path)))
        spec = example_from_json_dict(data).spec
        assert spec.layout is None
        if to_markdown(spec, stem=corpus_stem(path)) == text:
            reproduced.append(path.name.removesuffix(".md"))
    every = {p.name.removesuffix(".md") for p in all_corpus_files()}
    assert set(reproduced) == every - set(EXPECTED_NON_EXACT)
    assert len(reproduced) == 13


@pytest.mark.parametrize(
    ("source", "kind", "line"),
    [
        ("# my *cool* example\n\n", DropKind.HEADING_MARKUP, 6),
        ("# first\n\n# second\n\n", DropKind.TITLE_OVERRIDDEN, 6),
        ("[design]: https://example.com/doc\n\n", DropKind.LINK_DEFINITION, 6),
        ("## *Edit History*\n\n", DropKind.HEADING_MARKUP, 6),
        ("## Edit `History`\n\n", DropKind.UNKNOWN_HEADING, 6),
    ],
)
def test_text_the_reader_never_keeps_makes_a_file_lossy(
    source: str, kind: DropKind, line: int
) -> None:
    text = (CORPUS / "codex-acp--add-derive.md").read_text(encoding="utf-8")
    mutated = text.replace("+++\n\n", "+++\n\n" + source, 1).replace(
        "## Edit History\n\n", "", 1 if "Edit" in source else 0
    )
    result = check_roundtrip(mutated, "codex-acp--add-derive")
    assert result.verdict is Verdict.LOSSY
    assert (result.dropped[0].kind, result.dropped[0].line) == (kind, line)


def test_reference_definitions_inside_reasoning_are_kept() -> None:
    text = (CORPUS / "codex-acp--add-derive.md").read_text(encoding="utf-8")
    with_reasoning = text.replace(
        "+++\n\n", "+++\n\n## Reasoning\n\nSee [the doc].\n\n[the doc]: https://x.y\n\n", 1
    )
    result = check_roundtrip(with_reasoning, "codex-acp--add-derive")
    assert result.verdict is not Verdict.LOSSY


def test_a_front_matter_comment_is_placed_on_its_line() -> None:
    text = (CORPUS / "codex-acp--add-derive.md").read_text(encoding="utf-8")
    commented = text.replace("\n+++\n\n", "\n# reviewed by me\n+++\n\n", 1)
    result = check_roundtrip(commented, "codex-acp--add-derive")
    assert [(d.describe(), d.line, d.column) for d in result.dropped] == [
        ("front matter comment", 4, 1)
    ]
    assert result.layout_changes == []


FLASK_URL = 'repository_url = "https://github.com/pallets/flask"'


@pytest.mark.parametrize(
    ("front", "comments"),
    [
        # After a value: the line stays, its end goes.
        (f"{FLASK_URL} # origin remote\n", [(2, len(FLASK_URL) + 2)]),
        (f'{FLASK_URL}\ntags = [\n    "a", # first\n    "b",\n]\n', [(4, 10)]),
        (f'{FLASK_URL}\ntags = [\n    "a",\n    "b",\n] # after the bracket\n', [(6, 3)]),
        (f'{FLASK_URL}\ntags = ["a"]  #  one\n#two\n', [(3, 15), (4, 1)]),
    ],
)
def test_every_front_matter_comment_makes_the_file_lossy_at_its_hash(
    front: str, comments: list[tuple[int, int]]
) -> None:
    text = CANONICAL_FLASK.read_text(encoding="utf-8").replace(FLASK_URL + "\n", front, 1)
    result = check_roundtrip(text, CANONICAL_FLASK.stem)
    assert result.verdict is Verdict.LOSSY
    assert [(d.describe(), d.line, d.column) for d in result.dropped] == [
        ("front matter comment", line, column) for line, column in comments
    ]
    # A line that differs from the canonical one by its comment alone is no layout change.
    assert result.layout_changes == []


def test_a_line_that_loses_its_comment_is_still_checked_for_layout() -> None:
    text = CANONICAL_FLASK.read_text(encoding="utf-8")
    text = text.replace(FLASK_URL, FLASK_URL.replace(" = ", "=") + "  # origin", 1)
    result = check_roundtrip(text, CANONICAL_FLASK.stem)
    assert [(d.line, d.column) for d in result.dropped] == [(2, len(FLASK_URL) + 1)]
    assert [tuple(c) for c in result.layout_changes] == [
        (2, f"the canonical form writes this line as '{FLASK_URL}'")
    ]


@pytest.mark.parametrize(
    "front",
    [
        f'{FLASK_URL}\ntags = ["""\n# not a comment"""]\n',
        f"{FLASK_URL}\ntags = ['''\n# not a comment''']\n",
        f"{FLASK_URL}\ntags = [\"a # b\", 'c # d']\n",
        'repository_url = "https://github.com/pallets/flask#readme"\n',
    ],
)
def test_a_hash_inside_a_string_is_no_loss(front: str) -> None:
    text = CANONICAL_FLASK.read_text(encoding="utf-8").replace(FLASK_URL + "\n", front, 1)
    result = check_roundtrip(text, CANONICAL_FLASK.stem)
    assert result.verdict in (Verdict.REFORMAT, Verdict.EXACT)
    assert result.dropped == []


def test_each_layout_mistake_is_its_own_place_and_a_doubled_line_is_the_second() -> None:
    text = CANONICAL_FLASK.read_text(encoding="utf-8")
    lines = text.split("\n")
    cursor = lines.index("## Cursor Position")
    patch = lines.index("## Expected Patch")
    lines[patch:patch] = [""]  # a doubled blank line before the patch heading
    lines[cursor] += "  "  # trailing blanks on a heading
    result = check_roundtrip("\n".join(lines), CANONICAL_FLASK.stem)
    assert result.verdict is Verdict.REFORMAT
    assert [c.line for c in result.layout_changes] == [cursor + 1, patch + 1]


def test_a_lossy_file_still_shows_a_layout_mistake_apart_from_the_loss() -> None:
    lines = CANONICAL_FLASK.read_text(encoding="utf-8").split("\n")
    front_end = lines.index("+++", 1)
    cursor = lines.index("## Cursor Position")
    lines[cursor] += "  "
    lines[front_end + 1 : front_end + 1] = ["", "Some prose the reference drops."]
    result = check_roundtrip("\n".join(lines), CANONICAL_FLASK.stem)
    assert result.verdict is Verdict.LOSSY
    assert [d.line for d in result.dropped] == [front_end + 3]
    assert [c.line for c in result.layout_changes] == [cursor + 3]


def test_a_layout_change_says_what_it_is() -> None:
    lines = CANONICAL_FLASK.read_text(encoding="utf-8").split("\n")
    cursor = lines.index("## Cursor Position")
    patch = lines.index("## Expected Patch")
    del lines[patch - 1]  # the blank line before the patch heading
    del lines[cursor + 1]  # the blank line after the cursor heading
    lines[2] += " "
    result = check_roundtrip("\n".join(lines), CANONICAL_FLASK.stem)
    assert [tuple(c) for c in result.layout_changes] == [
        (3, "trailing whitespace here"),
        (cursor + 1, "a blank line is missing after this heading"),
        (patch - 1, "a blank line is missing before this heading"),
    ]


def test_a_second_reasoning_section_is_a_loss_not_a_reformat() -> None:
    text = CANONICAL_FLASK.read_text(encoding="utf-8")
    lines = text.split("\n")
    cursor = lines.index("## Cursor Position")
    lines[cursor:cursor] = ["## Reasoning", "", "First thoughts.", ""]
    lines[cursor + 4 : cursor + 4] = ["## Reasoning", "", "Second thoughts.", ""]
    result = check_roundtrip("\n".join(lines), CANONICAL_FLASK.stem)
    assert result.verdict is Verdict.LOSSY
    assert [(d.describe(), d.line, d.end_line) for d in result.dropped] == [
        ("`Reasoning` section overridden by a later one", cursor + 1, cursor + 4)
    ]


def _titled(ending: str) -> str:
    """The canonical file with the title the reference writes, ending in `ending`."""
    text = CANONICAL_FLASK.read_text(encoding="utf-8")
    title = f"+++\n\n# {CANONICAL_FLASK.stem}\n\n## Edit History"
    return text.replace("+++\n\n## Edit History", title, 1).removesuffix("```\n") + ending


@pytest.mark.parametrize(
    ("ending", "strict", "change"),
    [
        # The reference writer's layout ends with a blank line: a file that ends with one
        # newline does end with a newline.
        ("```\n", True, (78, "the reference writer ends the file with a blank line")),
        (
            "```",
            True,
            (
                78,
                "the file does not end with a newline, and the reference writer ends it "
                "with a blank line",
            ),
        ),
        ("```", False, (78, "the file does not end with a newline")),
        # The blank line the reference writer keeps is not the extra one.
        ("```\n\n\n", True, (80, "an extra blank line at the end of the file")),
        ("```\n\n\n\n", True, (80, "2 extra blank lines at the end of the file")),
        ("```\n\n", False, (79, "an extra blank line at the end of the file")),
        ("```\n\n\n", False, (79, "2 extra blank lines at the end of the file")),
    ],
)
def test_the_end_of_the_file_is_described_for_the_writer_checked_against(
    ending: str, strict: bool, change: tuple[int, str]
) -> None:
    result = check_roundtrip(_titled(ending), CANONICAL_FLASK.stem, strict_reference=strict)
    assert [tuple(c) for c in result.layout_changes] == [change]


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ("  ```a.py\n   x = 1\n```\n", True),  # the first line: no `\n` before it
        ("## Cursor Position\n\n   ~~~a.py\n    x = 1\n   ~~~\n", True),
        ("## Cursor Position\n\n```a.py\n    x = 1\n```\n", False),
        ("## Cursor Position\n\n    ```a.py\n    x = 1\n", False),  # 4 spaces: no fence
    ],
)
def test_an_indented_fence_is_found_wherever_it_stands(text: str, found: bool) -> None:
    problem = indented_fence_problem(read_markdown(text, "x"), text)
    assert (problem is not None) is found, problem


@pytest.mark.parametrize(
    ("ending", "strict", "change"),
    [
        ("```\n  \n", True, (79, "trailing whitespace on this blank line")),
        (
            "```\n  ",
            True,
            (
                79,
                "trailing whitespace on this blank line, and the file does not end with a newline",
            ),
        ),
        ("```\n  \n", False, (79, "an extra blank line at the end of the file")),
        ("```\n  ", False, (79, "an extra blank line at the end of the file")),
    ],
)
def test_trailing_whitespace_on_the_last_blank_line_is_named_once(
    ending: str, strict: bool, change: tuple[int, str]
) -> None:
    result = check_roundtrip(_titled(ending), CANONICAL_FLASK.stem, strict_reference=strict)
    assert [tuple(c) for c in result.layout_changes] == [change]


def _tilde_fenced(path: Path, *, blocks: slice = slice(None)) -> tuple[str, list[int]]:
    """The file with the fences of `blocks` (both ends) written with tildes, and the
    1-based lines of their opening fences."""
    lines = path.read_text(encoding="utf-8").split("\n")
    fences = [n for n, line in enumerate(lines) if line.startswith("```")]
    pairs = list(zip(fences[::2], fences[1::2], strict=True))[blocks]
    for opening, closing in pairs:
        lines[opening] = "~~~" + lines[opening][3:]
        lines[closing] = "~~~" + lines[closing][3:]
    return "\n".join(lines), [opening + 1 for opening, _ in pairs]


TILDES = "the canonical form fences this block with ``` (backticks)"


def test_a_tilde_fence_is_named_once_per_block_at_its_opening_fence() -> None:
    text, openings = _tilde_fenced(CANONICAL_FLASK)
    assert openings == [8, 24, 42, 60]
    for strict in (False, True):
        result = check_roundtrip(text, CANONICAL_FLASK.stem, strict_reference=strict)
        assert result.verdict is Verdict.REFORMAT
        fences = [tuple(c) for c in result.layout_changes if "fence" in c.what]
        assert fences == [(line, TILDES) for line in openings]
        assert all(c.line in openings for c in result.layout_changes if "```" in c.what)


def test_a_tilde_fence_beside_another_change_is_told_apart_from_it() -> None:
    # The file's doubled blank line (114) is right before a fence.
    path = CORPUS / "tree-sitter--if-let-to-match.md"
    text, openings = _tilde_fenced(path, blocks=slice(3, 5))
    assert openings == [93, 115]
    result = check_roundtrip(text, path.stem)
    assert [tuple(c) for c in result.layout_changes] == [
        (93, TILDES),
        (114, "extra blank line here"),
        (115, TILDES),
    ]


def test_a_tilde_fence_closed_with_backticks_names_no_place_twice() -> None:
    # The block then runs to the end of the file: the writer closes it there, after the
    # lines it holds, and adds the section it swallowed.
    path = CORPUS / "codex-acp--add-derive.md"
    lines = path.read_text(encoding="utf-8").split("\n")
    lines[23] = "~~~" + lines[23][3:]
    result = check_roundtrip("\n".join(lines), path.stem)
    assert [tuple(c) for c in result.layout_changes] == [
        (24, "the canonical form fences this block with ```` (backticks)"),
        (69, "layout differs from the canonical form here"),
    ]


def test_a_longer_fence_than_needed_is_named_at_its_opening_fence() -> None:
    lines = CANONICAL_FLASK.read_text(encoding="utf-8").split("\n")
    lines[23], lines[37] = "`" + lines[23], "`" + lines[37]
    result = check_roundtrip("\n".join(lines), CANONICAL_FLASK.stem)
    assert [tuple(c) for c in result.layout_changes] == [
        (24, "the canonical form fences this block with ```")
    ]


def test_a_closing_fence_longer_than_its_opening_one_is_named_where_it_is() -> None:
    lines = CANONICAL_FLASK.read_text(encoding="utf-8").split("\n")
    lines[37] = "`````"
    result = check_roundtrip("\n".join(lines), CANONICAL_FLASK.stem)
    assert [tuple(c) for c in result.layout_changes] == [
        (38, "the canonical form closes this block with ```")
    ]


def _api_pair_reproduces(path: Path) -> bool:
    """`to_markdown(from_markdown(x, stem)) == x`, with the stem the CLI reads the file under."""
    try:
        text = path.read_bytes().decode("utf-8")
        spec = from_markdown(text, path.name.removesuffix(".md"))
    except (UnicodeDecodeError, ValueError):
        return False
    return to_markdown(spec) == text


def test_the_public_pair_reproduces_exactly_the_files_the_cli_calls_exact(
    capsys: pytest.CaptureFixture[str],
) -> None:
    paths = sorted({*all_corpus_files(), *DATA.rglob("*.md")})
    main(["roundtrip", "--format", "json", "--jobs", "1", *map(str, paths)])
    status = {Path(item["path"]).resolve(): item["status"] for item in _items(capsys)}
    assert set(status) == {p.resolve() for p in paths}
    exact = {p for p in paths if status[p.resolve()] == "exact"}
    assert len(exact) > 100
    assert {p for p in paths if _api_pair_reproduces(p)} == exact


def _items(capsys: pytest.CaptureFixture[str]) -> list[dict[str, str]]:
    import json

    items: list[dict[str, str]] = json.loads(capsys.readouterr().out)
    return items


HISTORY = "--- a/f\n+++ b/f\n@@ -1 +1 @@\n-a\n+b\n"


@pytest.mark.parametrize(
    "layout",
    [
        f"# stem\n\n## Edit History\n\n```diff\n{HISTORY}```\n\n",
        f"## Edit History\n\n```diff\n{HISTORY}```\n\n```diff\n{HISTORY}```\n\n",
        f"# stem\n\n## Edit History\n\n```diff\n// User accepted prediction:\n{HISTORY}```\n\n",
        f"## Edit History\n\n// User accepted prediction:\n```diff\n{HISTORY}```\n\n```diff\n"
        f"{HISTORY}{HISTORY}```\n\n",
    ],
    ids=[
        "title-equal-to-the-stem",
        "second-history-fence",
        "marker-inside-the-fence",
        "marker-paragraph-then-two-diffs",
    ],
)
def test_the_public_pair_keeps_the_layout_it_read(layout: str) -> None:
    text = (
        '+++\nrepository_url = "https://github.com/o/r"\nrevision = "abc"\n+++\n\n'
        + layout
        + "## Cursor Position\n\n```f\nb\n```\n\n## Expected Patch\n"
    )
    assert check_roundtrip(text, "stem").verdict is Verdict.EXACT
    spec = from_markdown(text, "stem")
    assert to_markdown(spec) == text
    assert to_markdown(spec, stem="stem") == text
    # The layout is presentation: neither equality nor the JSON form sees it.
    plain = example_from_json_dict(spec_to_json_dict(spec)).spec
    assert plain.layout is None and plain == spec
    assert spec_to_json_dict(plain) == spec_to_json_dict(spec)
    assert "layout" not in spec_to_json_dict(spec)
