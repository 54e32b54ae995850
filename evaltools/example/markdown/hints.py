"""Layout hints: how a Markdown file was laid out where the model does not say.

Its own module, with no imports, because the spec carries the hints it was read with
(`ExampleSpec.layout`) while the reader that makes them depends on the spec.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class LayoutHints:
    has_title: bool = False
    # (accepted marker before it, block text) for each fenced block under Edit History.
    history_blocks: list[tuple[bool, str]] = field(default_factory=list)
    # The file stem the example was read under: a name equal to it needs no title. Where the
    # file was read, not how it is laid out, so two layouts are equal whatever their stems.
    stem: str | None = field(default=None, compare=False)
