from __future__ import annotations

import pytest

from evaltools.example.markdown.frontmatter import shown_key, split_front_matter
from evaltools.tomlio import loads

HEAD = 'repository_url = "https://github.com/o/r"\nrevision = "r"\n'
URL = 'repository_url = "https://github.com/o/r"\n'


@pytest.mark.parametrize(
    ("extra", "positions"),
    [
        # Not the first line that merely starts with the key's name (`revision_note`).
        ("revision_note = 1\n", {"revision_note": (4, 1)}),
        ('"quoted" = 1\nx.y = 2\n', {"quoted": (4, 1), "x": (5, 1)}),
        ("[table]\na = 1\n[[runs]]\nn = 1\n", {"table": (4, 1), "runs": (6, 1)}),
        # A quoted key is the key TOML reads, escapes and all; at its own column.
        ('"a\\tb" = 1\n', {"a\tb": (4, 1)}),
        ('"\\u0061bc" = 1\n', {"abc": (4, 1)}),
        ("\"a b\" = 1\n  'c\\td' = 2\n", {"a b": (4, 1), "c\\td": (5, 3)}),
        # A string that looks like a key is none.
        ('note = """\nabc = 1\n[abc]"""\nabc = 2\n', {"note": (4, 1), "abc": (7, 1)}),
    ],
)
def test_unknown_keys_are_placed_where_they_are_written(
    extra: str, positions: dict[str, tuple[int, int]]
) -> None:
    front = split_front_matter(f"+++\n{HEAD}{extra}+++\n")
    assert front.error is None
    assert front.unknown_keys == list(positions)
    known = {"repository_url": (2, 1), "revision": (3, 1)}
    assert {k: front.key_position(k) for k in [*known, *positions]} == {**known, **positions}
    assert front.key_position("tags") is None  # not written


def test_the_common_front_matter_knows_its_key_lines_without_the_toml_parser() -> None:
    front = split_front_matter(f"+++\n{HEAD}+++\n")
    assert front.key_position("repository_url") == (2, 1)
    assert front.key_position("revision") == (3, 1)


def test_front_matter_that_is_not_toml_places_no_key() -> None:
    front = split_front_matter(f"+++\n{HEAD}tags = [\n+++\n")
    assert front.key_position("revision") is None


def test_a_key_with_a_wrong_type_is_placed_through_its_escapes() -> None:
    front = split_front_matter(f'+++\n{URL}x = 1\n"rev\\u0069sion" = 2\n+++\n')
    assert front.error == "front matter `revision` is not a string"
    assert front.error_line == 4


def test_a_misspelt_key_is_shown_as_toml_writes_it() -> None:
    front = split_front_matter(f'+++\n{URL}x = 1\n"revis\\tion" = "r"\n+++\n')
    assert front.error == 'front matter has no `revision` but has `"revis\\tion"`'
    assert front.error_fix == 'rename `"revis\\tion"` to `revision`'
    assert front.error_line == 4


@pytest.mark.parametrize(
    ("key", "shown"),
    [
        ("owner", "owner"),
        ("a-b_9", "a-b_9"),
        ("a b", '"a b"'),
        ("a\tb", '"a\\tb"'),
        ("a\nb", '"a\\nb"'),
        ("a\x07\x7fb", '"a\\u0007\\u007Fb"'),
        ('a"b', '"a\\"b"'),
        ("", '""'),
    ],
)
def test_a_key_is_shown_as_toml_writes_it(key: str, shown: str) -> None:
    assert shown_key(key) == shown
    assert loads(f"{shown} = 1") == {key: 1}


def test_a_toml_error_at_the_end_points_into_the_front_matter() -> None:
    # tomllib says "at end of document"; the line is the front matter's last, not line 1.
    front = split_front_matter(f"+++\n{HEAD}tags = [\n+++\n")
    assert front.error is not None and front.error.startswith("front matter is not valid TOML")
    assert front.error_line == 4


@pytest.mark.parametrize(
    ("body", "line", "column", "reason"),
    [
        # The value ends at `2`, so tomllib wants a new line where `fec` starts.
        (f'{URL}revision = 2fec"\n', 3, 13, "Expected newline or end of document after"),
        (f'{URL}revision = "2fec\n', 3, 17, "Illegal character '\\n'"),  # never closed
        ('repository_url = "é" x\nrevision = "r"\n', 2, 22, "Expected newline"),  # characters
        (f'{HEAD}tags = [\n  "a"\n  "b"\n]\n', 5, 6, "a `,` is missing at the end of this line"),
        (f'{HEAD}tags = ["a", 1 2]\n', 4, 16, "a `,` is missing before this array item"),
        (f'{HEAD}tags = ["a", "b"\n', 4, 17, "the array is not closed: add `]`"),
        (f'{HEAD}tags = [\n  "a" "b",\n]\n', 5, 7, "a `,` is missing before this array item"),
        (f"{HEAD}tags = [\n", 4, 9, "Invalid value"),  # the end: of the last line
    ],
)
def test_a_toml_error_is_placed_at_its_line_and_column(
    body: str, line: int, column: int, reason: str
) -> None:
    front = split_front_matter(f"+++\n{body}+++\n")
    assert front.error is not None
    assert front.error.startswith(f"front matter is not valid TOML ({reason}")
    assert (front.error_line, front.error_column) == (line, column)


@pytest.mark.parametrize(
    ("extra", "comments"),
    [
        ("# on its own line\n", [(4, 1)]),
        ('tags = ["a"]  # after a value\n', [(4, 15)]),
        ('tags = [\n    "a", # first\n    "b",\n]\n', [(5, 10)]),
        ('tags = [\n    "a",\n    "b",\n] # after the bracket\n', [(7, 3)]),
        ('tags = [ # after the opening\n    "a",\n]\n', [(4, 10)]),
        ("x = {a = 1, b = 'c'} # after an inline table\n", [(4, 22)]),
        ("[t] # after a header\nk = 1\n", [(4, 5)]),
        ('tags = ["a # b"]  # the second `#` only\n', [(4, 19)]),
        ("tags = ['''\n# text\n''']  #\n#\n", [(6, 7), (7, 1)]),
        ('tags = ["a\\" # b"] # c\n', [(4, 20)]),
        ('tags = ["""a""""] # after four quotes\n', [(4, 19)]),
    ],
)
def test_every_comment_is_found_at_its_hash(extra: str, comments: list[tuple[int, int]]) -> None:
    text = f"+++\n{HEAD}{extra}+++\n"
    front = split_front_matter(text)
    assert front.error is None
    assert front.comments == comments
    lines = text.split("\n")
    assert all(lines[line - 1][column - 1] == "#" for line, column in comments)


@pytest.mark.parametrize(
    "extra",
    [
        'tags = ["""\n# not a comment"""]\n',
        "tags = ['''\n# not a comment''']\n",
        'tags = ["""\n  # not a comment\n"""]\n',
        'tags = ["""a\\\n# not a comment either"""]\n',  # a line-ending backslash
        "tags = [\"a # b\", 'c # d', \"#\", '#']\n",
        "\"a#b\" = 1\n'#' = 2\n",
        'tags = ["""a\\"""# b"""]\n',  # an escaped quote does not close it
        "tags = ['''a''# b''']\n",  # nor do two quotes
    ],
)
def test_a_hash_inside_a_string_is_no_comment(extra: str) -> None:
    front = split_front_matter(f"+++\n{HEAD}{extra}+++\n")
    assert front.error is None
    assert front.comments == []


def test_a_multi_line_revision_holding_a_hash_is_no_comment() -> None:
    body = 'repository_url = "https://github.com/o/r"\nrevision = """\n# not a comment\n"""\n'
    front = split_front_matter(f"+++\n{body}+++\n")
    assert (front.error, front.comments, front.revision) == (None, [], "# not a comment\n")


def test_front_matter_without_a_hash_is_not_scanned(monkeypatch: pytest.MonkeyPatch) -> None:
    import evaltools.tomllocate

    def fail(text: str) -> None:
        raise AssertionError("scanned")

    monkeypatch.setattr(evaltools.tomllocate, "KeyLines", fail)
    front = split_front_matter(f'+++\n{HEAD}tags = [\n    "a",\n]\nowner = "me"\n+++\n')
    assert (front.comments, front.unknown_keys) == ([], ["owner"])
    with pytest.raises(AssertionError, match="scanned"):  # until a finding asks for a place
        front.key_position("owner")
