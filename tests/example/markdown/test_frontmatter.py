from __future__ import annotations

import pytest

from evaltools.example.markdown.frontmatter import split_front_matter

HEAD = 'repository_url = "https://github.com/o/r"\nrevision = "r"\n'


@pytest.mark.parametrize(
    ("extra", "lines"),
    [
        # Not the first line that merely starts with the key's name (`revision_note`).
        ("revision_note = 1\n", {"revision_note": 4}),
        ('"quoted" = 1\nx.y = 2\n', {"quoted": 4, "x": 5}),
        ("[table]\na = 1\n[[runs]]\nn = 1\n", {"table": 4, "runs": 6}),
    ],
)
def test_unknown_keys_are_placed_on_their_own_line(extra: str, lines: dict[str, int]) -> None:
    front = split_front_matter(f"+++\n{HEAD}{extra}+++\n")
    assert front.error is None
    assert front.key_lines == {"repository_url": 2, "revision": 3, **lines}


def test_the_common_front_matter_knows_its_key_lines_without_the_toml_parser() -> None:
    front = split_front_matter(f"+++\n{HEAD}+++\n")
    assert front.key_lines == {"repository_url": 2, "revision": 3}


def test_a_toml_error_at_the_end_points_into_the_front_matter() -> None:
    # tomllib says "at end of document"; the line is the front matter's last, not line 1.
    front = split_front_matter(f"+++\n{HEAD}tags = [\n+++\n")
    assert front.error is not None and front.error.startswith("front matter is not valid TOML")
    assert front.error_line == 4


URL = 'repository_url = "https://github.com/o/r"\n'


@pytest.mark.parametrize(
    ("body", "line", "column", "reason"),
    [
        # The value ends at `2`, so tomllib wants a new line where `fec` starts.
        (f'{URL}revision = 2fec"\n', 3, 13, "Expected newline or end of document after"),
        (f'{URL}revision = "2fec\n', 3, 17, "Illegal character '\\n'"),  # never closed
        ('repository_url = "é" x\nrevision = "r"\n', 2, 22, "Expected newline"),  # characters
        (f'{HEAD}tags = [\n  "a"\n  "b"\n]\n', 5, 6, "a `,` is missing at the end of this line"),
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
