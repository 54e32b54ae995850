"""What `evaltools dupes` finds: pairs of items that count twice, and their rules.

A pair is plain data for the JSON report (`{kind, a, b, similarity}`) and one diagnostic,
placed on its second item, for the other formats.
"""

from __future__ import annotations

from dataclasses import dataclass

from evaltools.diagnostics import RULES, Diagnostic, Rule, Severity, make

# --- rules (one block: the DU family) -------------------------------------------------------

DUPLICATE_EXAMPLE = RULES.add(
    Rule(
        "DU001",
        "duplicate-example",
        Severity.ERROR,
        "Two examples hold the same edit under different names.",
        "Compared as parsed, not as bytes: the repository, revision, uncommitted diff, "
        "cursor file and position, edit history, rejected patch and the expected patches "
        "(in any order) are equal; the name, tags, reasoning and feedback may differ. The "
        "pair counts twice in every score: delete one.",
    )
)
NEAR_DUPLICATE_EXAMPLE = RULES.add(
    Rule(
        "DU002",
        "near-duplicate-example",
        Severity.WARNING,
        "Two examples are nearly the same edit (MinHash over cursor excerpt and patches).",
        "The estimated Jaccard similarity of the 5-token shingles of the cursor excerpt and "
        "the expected patches together reaches the threshold (default 0.5, as Zed's "
        "`ep --max-duplicates`; `--threshold` or `threshold` in [tool.evaltools.dupes]). "
        "The message says which parts are alike. Keep both only when they test different "
        "behaviour.",
    )
)
DUPLICATE_QUERY = RULES.add(
    Rule(
        "DU101",
        "duplicate-query",
        Severity.ERROR,
        "Two queries are the same after normalising case, whitespace and punctuation.",
        "The query counts twice in every metric: delete one, or merge their gold.",
    )
)
NEAR_DUPLICATE_QUERY = RULES.add(
    Rule(
        "DU102",
        "near-duplicate-query",
        Severity.WARNING,
        "Two queries are nearly the same text (MinHash over character 3-grams).",
        "A reworded query with the same intent adds little: keep it only when the wording "
        "is what is being tested.",
    )
)
DUPLICATE_GOLD = RULES.add(
    Rule(
        "DU103",
        "duplicate-gold-set",
        Severity.WARNING,
        "Two qids have exactly the same gold chunk IDs.",
        "Often one query asked twice in other words; check that both are needed.",
    )
)
HOLDOUT_LEAK = RULES.add(
    Rule(
        "DU104",
        "holdout-leak",
        Severity.ERROR,
        "A holdout query duplicates a tuning query, or shares its gold set.",
        "The holdout must never take part in tuning: a holdout query that repeats or "
        "paraphrases a tune query, or has its gold set, is tuned on. Move both to the same "
        "split (`gold split` keeps a query's split unless its type's quota changes), or "
        "delete one.",
    )
)

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

    def to_json(self) -> dict[str, object]:
        return {
            "kind": self.kind,
            "a": self.a.to_json(),
            "b": self.b.to_json(),
            "similarity": round(self.similarity, 4),
            "parts": {name: round(value, 4) for name, value in self.parts},
            "code": self.rule.code,
            "severity": self.rule.severity.value,
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
        return make(self.rule, self.b.path, self.b.line, 1, message)
