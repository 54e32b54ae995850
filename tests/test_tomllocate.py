"""Where the TOML scanner finds comments and keys: at each `#` that starts a comment, and no
`#` inside any of the four string forms; checked against tomllib over generated TOML."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from evaltools.example.markdown.frontmatter import split_front_matter
from evaltools.tomlio import TomlError, loads
from evaltools.tomllocate import KeyLines, _skip_string


@pytest.mark.parametrize(
    ("text", "start", "end", "value"),
    [
        ('"a\\"b" x', 0, 6, 'a"b'),
        ('"\\u0061\\tb"', 0, 11, "a\tb"),
        ("'a\\tb' x", 0, 6, "a\\tb"),
        ('x = """a\n"b""""', 4, 15, ""),  # content may end with quotes of its own
        ('"""a\\"""b"""', 0, 12, ""),  # an escaped quote does not close it
        ("'''a''b'''''", 0, 12, ""),
        ("'''''''", 0, 7, ""),  # one quote of content
        ('"" = 1', 0, 2, ""),
    ],
)
def test_each_string_form_is_skipped_whole(text: str, start: int, end: int, value: str) -> None:
    assert _skip_string(text, start) == (end, value)


@pytest.mark.parametrize("text", ['"""never closed""', "'''never closed", '"never closed'])
def test_a_string_that_never_ends_takes_the_rest_of_a_text_that_is_not_toml(text: str) -> None:
    assert _skip_string(text, 0) == (len(text), "")


def test_comments_are_placed_at_their_hash_and_strings_hold_none() -> None:
    text = (
        "# top\n"
        '[t] # header\na = "#" # after\nb = [ # open\n  \'#\', # item\n  """\n#"""\n] # close\n'
        "c = {d = 1} # inline\ne = '''#'''#tight\n"
    )
    loads(text)  # the text is TOML
    assert KeyLines(text).comments == [
        (1, 1),
        (2, 5),
        (3, 9),
        (4, 7),
        (5, 8),
        (8, 3),
        (9, 13),
        (10, 12),
    ]
    assert KeyLines(text).written(("t", "e")) == (10, 1)
    assert KeyLines(text).written(("e",)) is None


# ---- generated TOML: the scanner against tomllib ------------------------------------------

# Pieces of each string form's content, with the `#`, quotes, escapes and line breaks that
# make comments hard to tell from content. A piece sequence that is no valid string (three
# quotes in a row, say) is rejected by tomllib and the example dropped.
_BASIC = ["a", "#", " ", "'", '\\"', "\\\\", "\\t", "\\u0023"]
_LITERAL = ["a", "#", " ", '"', "\\"]
_ML_BASIC = [*_BASIC, '"', "\n", "\\\n", "#\n"]
_ML_LITERAL = [*_LITERAL, "'", "\n", "#\n"]
_COMMENT = st.text(st.sampled_from("a #\"'\\"), max_size=6)


@st.composite
def _string(draw: st.DrawFn) -> str:
    form = draw(st.sampled_from(['"', "'", '"""', "'''"]))
    pieces = {'"': _BASIC, "'": _LITERAL, '"""': _ML_BASIC, "'''": _ML_LITERAL}[form]
    return form + "".join(draw(st.lists(st.sampled_from(pieces), max_size=6))) + form


def _trailer(draw: st.DrawFn) -> tuple[str, int]:
    """An optional comment after a value: (text, comments in it)."""
    if draw(st.booleans()):
        return draw(st.sampled_from(["", " ", "  "])) + "#" + draw(_COMMENT), 1
    return "", 0


@st.composite
def _document(draw: st.DrawFn) -> tuple[str, int, dict[str, tuple[int, int]]]:
    """Front matter body lines after the two known keys: (text, comments written, where each
    top-level key is written, 1-based in the body)."""
    lines: list[str] = []
    comments = 0
    keys: dict[str, tuple[int, int]] = {}
    for index in range(draw(st.integers(0, 6))):
        kind = draw(st.sampled_from(["value", "own", "blank", "array", "inline"]))
        if kind == "own":
            lines.append(draw(st.sampled_from(["", "  "])) + "#" + draw(_COMMENT))
            comments += 1
            continue
        if kind == "blank":
            lines.append("")
            continue
        name = f"k{index}"
        indent = draw(st.sampled_from(["", "  "]))
        written = draw(st.sampled_from([name, f'"{name}"', f"'{name}'", f'"\\u006B{index}"']))
        keys[name] = (len(lines) + 1, len(indent) + 1)
        head = f"{indent}{written} = "
        trailer, count = _trailer(draw)
        comments += count
        if kind == "value":
            lines.extend((head + draw(_string()) + trailer).split("\n"))
        elif kind == "inline":
            items = ", ".join(f"i{n} = {draw(_string())}" for n in range(draw(st.integers(0, 2))))
            lines.extend((head + "{" + items + "}" + trailer).split("\n"))
        else:
            opening, count = _trailer(draw)
            comments += count
            lines.append(head + "[" + opening)
            for _ in range(draw(st.integers(0, 3))):
                item, count = _trailer(draw)
                comments += count
                lines.extend(("    " + draw(_string()) + "," + item).split("\n"))
            lines.append("]" + trailer)
    return "".join(line + "\n" for line in lines), comments, keys


HEAD = 'repository_url = "https://github.com/o/r"\nrevision = "r"\n'


def _loads(text: str) -> dict[str, Any] | None:
    try:
        return loads(text)
    except TomlError:
        return None


@settings(max_examples=400, deadline=None)
@given(_document())
def test_the_comments_found_are_exactly_those_tomllib_ignores(
    document: tuple[str, int, dict[str, tuple[int, int]]],
) -> None:
    body, written, keys = document
    raw = HEAD + body
    table = _loads(raw)
    assume(table is not None)
    front = split_front_matter(f"+++\n{raw}+++\n")
    assert front.error is None
    found = [(line - 1, column) for line, column in front.comments]  # in `raw`
    assert len(found) == written
    lines = raw.split("\n")
    # A comment found is one: the text without it (from its `#` on) reads the same.
    for line, column in found:
        assert lines[line - 1][column - 1] == "#"
        cut = [*lines[: line - 1], lines[line - 1][: column - 1], *lines[line:]]
        assert _loads("\n".join(cut)) == table
    # Every other `#` outside a comment is content: the text with another character there
    # reads otherwise (a missed comment would make it invalid TOML instead).
    starts = dict(found)
    hashes = [
        (number, column)
        for number, text in enumerate(lines, 1)
        for column, char in enumerate(text, 1)
        if char == "#" and column < starts.get(number, column + 1)
    ]
    for line, column in hashes:
        text = lines[line - 1]
        changed = [*lines[: line - 1], text[: column - 1] + "@" + text[column:], *lines[line:]]
        other = _loads("\n".join(changed))
        assert other is not None and other != table
    # Each key is placed where it was written, escapes and all.
    for name, (line, column) in keys.items():
        assert front.key_position(name) == (1 + 2 + line, column)
