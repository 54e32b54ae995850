"""Layout hints travel through `.json`/`.jsonl`, so `md -> jsonl -> md` is byte-exact."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from evaltools.__main__ import main
from evaltools.example.markdown.document import ACCEPTED_PREDICTION_MARKER
from evaltools.example.markdown.hints import LayoutHints
from evaltools.example.markdown.layout import LAYOUT_FIELD, layout_from_json, layout_to_json
from evaltools.example.markdown.reader import read_markdown
from evaltools.example.markdown.render import to_markdown
from evaltools.example.spec import ExampleSpec
from tests.conftest import CORPUS

TWO_FENCES = """\
+++
repository_url = "https://github.com/example/repo"
revision = "0123456789abcdef0123456789abcdef01234567"
+++

# two-fences

## Edit History

```diff
--- a/a.py
+++ b/a.py
@@ -1,1 +1,1 @@
-x = 1
+x = 2
```

```diff
--- a/b.py
+++ b/b.py
@@ -1,1 +1,1 @@
-y = 1
+y = 2
```

## Cursor Position

```b.py
y = 2
<|user_cursor|>
```

## Expected Patch

```diff
--- a/b.py
+++ b/b.py
@@ -1,1 +1,2 @@
 y = 2
+z = 3
```
"""


def _convert(*argv: str) -> None:
    assert main(["convert", *argv]) == 0


def test_two_history_fences_and_a_title_survive_jsonl(tmp_path: Path) -> None:
    source = tmp_path / "src" / "two-fences.md"
    source.parent.mkdir()
    source.write_text(TWO_FENCES)
    _convert(str(source), "--to", "jsonl", "-o", str(tmp_path / "all.jsonl"))
    record = json.loads((tmp_path / "all.jsonl").read_text())
    assert record[LAYOUT_FIELD] == {
        "title": True,
        "history_blocks": [{"accepted": False, "chars": 52}, {"accepted": False, "chars": 52}],
    }
    _convert(str(tmp_path / "all.jsonl"), "--to", "md", "-o", str(tmp_path / "md"))
    assert (tmp_path / "md" / "two-fences.md").read_text() == TWO_FENCES
    _convert(str(tmp_path / "all.jsonl"), "--to", "json", "-o", str(tmp_path / "js"))
    _convert(str(tmp_path / "js" / "two-fences.json"), "--to", "md", "-o", str(tmp_path / "md2"))
    assert (tmp_path / "md2" / "two-fences.md").read_text() == TWO_FENCES


def test_without_the_hints_the_layout_is_lost(tmp_path: Path) -> None:
    """The allowance is real: drop the field and the file no longer comes back."""
    source = tmp_path / "two-fences.md"
    source.write_text(TWO_FENCES)
    _convert(str(source), "--to", "jsonl", "-o", str(tmp_path / "all.jsonl"))
    record = json.loads((tmp_path / "all.jsonl").read_text())
    del record[LAYOUT_FIELD]
    (tmp_path / "plain.jsonl").write_text(json.dumps(record) + "\n")
    _convert(str(tmp_path / "plain.jsonl"), "--to", "md", "-o", str(tmp_path / "md"))
    out = (tmp_path / "md" / "two-fences.md").read_text()
    assert out != TWO_FENCES
    assert "# two-fences" not in out and out.count("```diff") == 2


def test_default_layout_writes_no_field(tmp_path: Path) -> None:
    _convert(str(CORPUS), "--to", "jsonl", "-o", str(tmp_path / "all.jsonl"), "--allow-lossy")
    records = [json.loads(line) for line in (tmp_path / "all.jsonl").read_text().splitlines()]
    assert len(records) == 15
    with_layout = sorted(r["name"] for r in records if LAYOUT_FIELD in r)
    # The corpus files that keep a layout of their own (several history fences).
    for record in records:
        if LAYOUT_FIELD in record:
            assert set(record[LAYOUT_FIELD]) == {"history_blocks"}
    assert len(with_layout) < len(records)


@pytest.mark.parametrize(
    "value",
    [
        None,
        [],
        {"title": "yes"},
        {"history_blocks": [{"accepted": False, "chars": 3}]},
        {"history_blocks": [{"accepted": "no", "chars": 5}]},
        {"history_blocks": [{"accepted": True, "chars": 5}]},
        {"history_blocks": [{"accepted": False, "chars": -1}, {"accepted": False, "chars": 6}]},
        {"history_blocks": "x"},
    ],
)
def test_hints_that_do_not_fit_are_ignored(value: object) -> None:
    spec = ExampleSpec(name="n", edit_history="hello\n", cursor_path="p", cursor_position="x\n")
    hints = layout_from_json(value, spec)
    assert hints is None or hints.history_blocks in ([], [(False, "hello\n")])
    assert hints is None or hints.has_title is False


def test_markdown_form_of_a_record_with_hints_is_not_lossy(tmp_path: Path) -> None:
    spec = ExampleSpec(name="x", edit_history="A\nB\n", cursor_path="p", cursor_position="c\n")
    hints = LayoutHints(history_blocks=[(False, "A\n"), (False, "B\n")])
    layout = layout_to_json(hints, spec, "x")
    assert layout == {"history_blocks": [{"accepted": False, "chars": 2}] * 2}
    back = layout_from_json(layout, spec)
    assert back is not None and back.history_blocks == hints.history_blocks


history_piece = st.sampled_from(["--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n", "line\n", " ctx\n"])
blocks = st.lists(
    st.tuples(st.booleans(), st.lists(history_piece, min_size=1, max_size=3).map("".join)),
    min_size=1,
    max_size=4,
)


@settings(max_examples=150, suppress_health_check=[HealthCheck.too_slow])
@given(blocks, st.booleans())
def test_generated_layouts_survive_json(
    history_blocks: list[tuple[bool, str]], has_title: bool
) -> None:
    history = "".join(
        (ACCEPTED_PREDICTION_MARKER + "\n" if accepted else "") + text
        for accepted, text in history_blocks
    )
    spec = ExampleSpec(name="gen", edit_history=history, cursor_path="p.py", cursor_position="x\n")
    hints = LayoutHints(has_title=has_title, history_blocks=history_blocks)
    text = to_markdown(spec, stem="gen", hints=hints)
    parsed = read_markdown(text, "gen")
    assert parsed.errors == [] and parsed.spec == spec
    assert parsed.hints.history_blocks == history_blocks
    assert parsed.hints.has_title is has_title
    carried = layout_from_json(layout_to_json(parsed.hints, spec, "gen"), spec)
    assert to_markdown(spec, stem="gen", hints=carried) == text
