"""What `evaltools dupes` finds: pairs of items that count twice, and their rules.

A pair is plain data for the JSON report (`{kind, a, b, similarity}`) and one diagnostic,
placed on its second item, for the other formats.
"""

from __future__ import annotations

from dataclasses import dataclass

from evaltools.diagnostics import Diagnostic, Rule, make

# --- pairs ----------------------------------------------------------------------------------

KINDS = ("exact", "near", "leak")


@dataclass(frozen=True)
class Item:
    """Where one example or query is: the file as shown, its line, its name or qid."""

    path: str
    line: int
    id: str

    def to_json(self) -> dict[str, object]:
        return {"path": self.path, "line": self.line, "id": self.id}

    def where(self) -> str:
        return f"{self.path}:{self.line} ({self.id!r})"


@dataclass(frozen=True)
class Pair:
    kind: str  # one of KINDS
    a: Item
    b: Item
    similarity: float
    rule: Rule
    # (part, similarity) for what is alike: ("cursor excerpt", 0.93), ("gold", 1.0), ...
    parts: tuple[tuple[str, float], ...] = ()
    # Near pairs of the same later item not listed (`evaltools.dupes.near.LISTED`):
    # counted on its last listed pair, never dropped.
    more: int = 0
    # False when counting stopped (`evaltools.dupes.near.BUDGET`): `more` is a lower bound.
    more_exact: bool = True

    def to_json(self) -> dict[str, object]:
        return {
            "kind": self.kind,
            "a": self.a.to_json(),
            "b": self.b.to_json(),
            "similarity": round(self.similarity, 4),
            "parts": {name: round(value, 4) for name, value in self.parts},
            "code": self.rule.code,
            "severity": self.rule.severity.value,
            "more": self.more,
            "more_exact": self.more_exact,
        }

    def to_diagnostic(self) -> Diagnostic:
        alike = ", ".join(f"{name} {value:.2f}" for name, value in self.parts)
        what = {
            "exact": "duplicate of",
            "near": "near-duplicate of",
            "leak": "holdout leak with",
        }[self.kind]
        message = f"{self.b.id!r} is a {what} {self.a.where()}: similarity {self.similarity:.2f}"
        if alike:
            message += f"; alike: {alike}"
        if not self.more_exact:
            message += f"; +{self.more} or more earlier items alike (not listed, not all counted)"
        elif self.more:
            message += f"; +{self.more} more earlier items alike (not listed)"
        return make(self.rule, self.b.path, self.b.line, 1, message)
