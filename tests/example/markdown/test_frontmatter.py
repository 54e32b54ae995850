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
