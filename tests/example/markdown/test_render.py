from __future__ import annotations

import re

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from evaltools.example.markdown.reader import WHITESPACE, from_markdown, read_markdown
from evaltools.example.markdown.render import escape_info, fence_for, to_markdown
from evaltools.example.markdown.roundtrip import Verdict, check_roundtrip
from evaltools.example.spec import ExampleSpec, RecentFile

TOKENS = ["`", "```", "````", "~~~", "\n", "\t", "\r", " ", "#", "+", "-", "@@", "   ```"]


def _code_text(raw: str, *, allow_empty: bool = True) -> str:
    """What a Markdown code block can carry: no CR before LF, a final LF when not empty."""
    text = re.sub(r"\r+(?=\n)", "", raw)
    if text and not text.endswith("\n"):
        text = text.rstrip("\r") + "\n"
    if not text and not allow_empty:
        text = "x\n"
    return text


chars = st.characters(codec="utf-8")
rich_text = st.lists(st.one_of(st.sampled_from(TOKENS), chars), max_size=40).map("".join)
code = rich_text.map(_code_text)
one_line = st.text(chars, max_size=20).filter(
    lambda s: "\n" not in s and "\r" not in s and s == s.strip(WHITESPACE)
)
path_text = one_line.filter(lambda s: bool(s) and "\t" not in s)
prose_line = st.from_regex(r"[A-Za-z][A-Za-z0-9 ,.;()]{0,20}", fullmatch=True)
reasoning = st.none() | st.lists(prose_line, max_size=4).map("\n".join)
recent = st.lists(
    st.builds(RecentFile, path_text, st.none() | st.integers(min_value=0, max_value=10**9)),
    max_size=3,
)

specs = st.builds(
    ExampleSpec,
    name=one_line,
    repository_url=st.text(chars, max_size=20),
    revision=st.text(chars, max_size=20),
    tags=st.lists(st.text(chars, max_size=8), max_size=3),
    reasoning=reasoning,
    uncommitted_diff=code,
    recently_opened_files=recent,
    recently_viewed_files=recent,
    uncommitted_diff_contains_edit_history=st.booleans(),
    cursor_path=path_text,
    cursor_position=rich_text.map(lambda s: _code_text(s, allow_empty=False)),
    edit_history=code,
    expected_patches=st.lists(code, max_size=12),
    rejected_patch=st.none() | code,
)


@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
@given(specs, st.one_of(st.none(), st.just("same"), one_line))
def test_markdown_round_trips_every_representable_spec(spec: ExampleSpec, stem: str | None) -> None:
    if stem == "same":
        stem = spec.name
    text = to_markdown(spec, stem=stem)
    parsed = read_markdown(text, stem)
    expected = spec
    if not spec.name and stem:
        # An empty name cannot be told apart from "use the file stem".
        expected = ExampleSpec(**{**spec.__dict__, "name": stem})
    assert parsed.errors == []
    assert parsed.spec == expected
    assert parsed.dropped == []
    assert to_markdown(parsed.spec, stem=stem, hints=parsed.hints) == text


def _reference_safe(spec: ExampleSpec) -> bool:
    """The reference writer escapes nothing: only specs without fence-like or markup text."""
    fields = [spec.uncommitted_diff, spec.edit_history, spec.cursor_position, spec.cursor_path]
    fields += [*spec.expected_patches, spec.rejected_patch or ""]
    fields += [f.path for f in spec.recently_opened_files + spec.recently_viewed_files]
    fenced = any("`" in f or "~~~" in f or "\r" in f or "\\" in f or "&" in f for f in fields)
    return not fenced and re.fullmatch(r"[A-Za-z0-9 ._-]*", spec.name) is not None


@settings(max_examples=150)
@given(specs)
def test_strict_reference_output_is_stable(spec: ExampleSpec) -> None:
    text = to_markdown(spec, strict_reference=True)
    assert text.startswith("+++\n") and text.endswith("\n\n")
    if _reference_safe(spec):
        again = from_markdown(text)
        assert to_markdown(again, strict_reference=True) == text


def test_strict_reference_layout_is_the_reference_writers() -> None:
    spec = ExampleSpec(
        name="n",
        repository_url="u",
        revision="r",
        tags=["a", "b"],
        edit_history="// User accepted prediction:\nH\n",
        cursor_path="p.py",
        cursor_position="x\n",
        expected_patches=["P\n"],
    )
    assert to_markdown(spec, strict_reference=True) == (
        '+++\nrepository_url = "u"\nrevision = "r"\ntags = [\n    "a",\n    "b",\n]\n+++\n\n'
        "# n\n\n## Edit History\n\n```diff\n// User accepted prediction:\nH\n```\n\n"
        "## Cursor Position\n\n```p.py\nx\n```\n\n## Expected Patch\n\n```diff\nP\n```\n\n"
    )


def test_an_empty_reasoning_is_the_heading_and_two_blank_lines_in_both_modes() -> None:
    spec = ExampleSpec(
        name="n",
        repository_url="u",
        revision="r",
        reasoning="",
        cursor_path="p",
        cursor_position="x\n",
    )
    strict = to_markdown(spec, strict_reference=True)
    assert "# n\n\n## Reasoning\n\n\n## Edit History\n\n" in strict  # reference section 4, item 3
    text = to_markdown(spec, stem="n")
    assert "+++\n\n## Reasoning\n\n\n## Edit History\n\n" in text
    assert check_roundtrip(text, "n").verdict is Verdict.EXACT
    assert check_roundtrip(strict, "n", strict_reference=True).verdict is Verdict.EXACT
    assert from_markdown(text, "n").reasoning == ""


def test_default_layout_elides_title_and_ends_with_one_newline() -> None:
    spec = ExampleSpec(
        name="repo--thing", repository_url="u", revision="r", cursor_path="p", cursor_position="x\n"
    )
    text = to_markdown(spec, stem="repo--thing")
    assert "# repo--thing" not in text
    assert "(No edit history)\n\n## Cursor Position" in text
    assert text.endswith("## Expected Patch\n")
    assert to_markdown(spec, stem="other").count("# repo--thing\n") == 1


def test_fences_grow_past_backtick_runs_and_switch_for_backtick_paths() -> None:
    assert fence_for("a\n```\n", "diff", strict=False) == "````"
    assert fence_for("a\n  `````  \n", "diff", strict=False) == "``````"
    assert fence_for("```python\n", "diff", strict=False) == "```"
    assert fence_for("x\n", "we`ird.py", strict=False) == "~~~"
    assert fence_for("a\n```\n", "diff", strict=True) == "```"
    assert escape_info("a\\*b &amp; c\\d") == "a\\\\*b \\&amp; c\\d"


def test_titles_with_markup_are_escaped_only_when_needed() -> None:
    for name in ["plain name", "snake_case_name", "*bold*", "`code`", "a #", "x &amp; y", "[l](u)"]:
        spec = ExampleSpec(name=name, cursor_path="p", cursor_position="x\n")
        assert from_markdown(to_markdown(spec)).name == name
    spec = ExampleSpec(name="snake_case_name", cursor_path="p", cursor_position="x\n")
    assert "# snake_case_name\n" in to_markdown(spec)


def test_a_cursor_path_starting_with_the_fence_character_keeps_it() -> None:
    # Found by the property above: `~~~` + `~`` read as a four-tilde fence, whose `~~~`
    # closer never came.
    spec = ExampleSpec(
        name="n", repository_url="u", revision="r", cursor_path="~`a.py", cursor_position="x\n"
    )
    text = to_markdown(spec)
    assert "\n~~~ ~`a.py\nx\n~~~\n" in text
    back = read_markdown(text)
    assert (back.spec.cursor_path, back.spec.cursor_position) == ("~`a.py", "x\n")
    assert to_markdown(back.spec) == text
