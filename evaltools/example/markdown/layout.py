"""Layout hints in the JSON forms, so that `md -> json(l) -> md` is byte-exact.

The reference ignores JSON keys it does not know, so the hints travel as one optional
key, written only when the Markdown file departs from the layout that JSON alone would
give (`render.default_hints`, no title when the name equals the file stem). The hints
are presentation only: a value that is malformed, or no longer spells the example's
edit history, is ignored and the default layout is used.
"""

from __future__ import annotations

from typing import Any

from evaltools.example.markdown.hints import LayoutHints
from evaltools.example.markdown.render import default_hints
from evaltools.example.spec import ExampleSpec

LAYOUT_FIELD = "markdown_layout"


def _default_blocks(history: str) -> list[tuple[bool, str]]:
    default = default_hints(history)
    return default.history_blocks if default is not None else [(False, history)]


def layout_to_json(hints: LayoutHints, spec: ExampleSpec, stem: str) -> dict[str, Any] | None:
    """The JSON value of the hints of a file named `stem`, or None for the default layout."""
    out: dict[str, Any] = {}
    # A title that differs from the stem is the example's name, not a layout choice.
    if hints.has_title and spec.name == stem:
        out["title"] = True
    blocks = hints.history_blocks
    if blocks and blocks != _default_blocks(spec.edit_history):
        out["history_blocks"] = [{"accepted": a, "chars": len(text)} for a, text in blocks]
    return out or None


def layout_from_json(value: Any, spec: ExampleSpec) -> LayoutHints | None:
    """The hints a JSON value records for `spec`, or None (use the default layout)."""
    if not isinstance(value, dict):
        return None
    hints = default_hints(spec.edit_history) or LayoutHints()
    title = value.get("title", False)
    if isinstance(title, bool):
        hints.has_title = title
    blocks = _blocks(value.get("history_blocks"), spec.edit_history)
    if blocks is not None:
        hints.history_blocks = blocks
    return hints


def _blocks(value: Any, history: str) -> list[tuple[bool, str]] | None:
    """The history cut into the recorded blocks, if the record still fits it exactly."""
    from evaltools.example.markdown.document import ACCEPTED_PREDICTION_MARKER

    if not isinstance(value, list) or not value:
        return None
    out: list[tuple[bool, str]] = []
    at = 0
    for item in value:
        if not isinstance(item, dict):
            return None
        accepted, chars = item.get("accepted"), item.get("chars")
        if not isinstance(accepted, bool) or type(chars) is not int or chars < 0:
            return None
        if accepted:
            marker = ACCEPTED_PREDICTION_MARKER + "\n"
            if not history.startswith(marker, at):
                return None
            at += len(marker)
        out.append((accepted, history[at : at + chars]))
        at += chars
    return out if at == len(history) else None
