"""Every rule of evaltools as plain data: one table, from which `evaltools rule`,
docs/rules.md, selector validation and SARIF rule metadata are all generated.

A module per family (`io`, `ep/`, `rt`, `cv`, `rv`, `rg/`, `du`, `sc`) defines each rule as a
constant named after it, which the module that finds it (its `check`) imports.

Importing it builds one small tuple per rule and nothing else, so the lint hook's
start-up stays light.
"""

from __future__ import annotations

from types import ModuleType

from evaltools.catalogue import cv, du, io, rt, rv, sc
from evaltools.catalogue.ep import diffs, document
from evaltools.catalogue.rg import check, discipline
from evaltools.diagnostics import Rule

FAMILIES = {
    "IO": "file problems (every command)",
    "DU": "duplicates and holdout leakage (`evaltools dupes`)",
    "SC": "scoring predictions (`evaltools score`)",
    "EP": "edit-prediction examples (`evaltools lint`)",
    "RT": "round trip (`evaltools roundtrip`)",
    "CV": "conversion (`evaltools convert`)",
    "RV": "retrieval records (`evaltools validate`)",
    "RG": "gold checks and discipline (`evaltools gold ...`)",
}


class Catalogue:
    def __init__(self, rules: tuple[Rule, ...]) -> None:
        self.rules = {r.code: r for r in rules}
        # A name selects one rule: a shared one would make `ignore` cover a rule the user
        # never named and `evaltools rule NAME` explain only one of them.
        self.by_name = {r.name: r for r in rules}
        if len(self.rules) != len(rules):
            raise ValueError("duplicate rule code in the catalogue")
        if len(self.by_name) != len(rules):
            raise ValueError("duplicate rule name in the catalogue")

    def get(self, code_or_name: str) -> Rule | None:
        return self.rules.get(code_or_name) or self.by_name.get(code_or_name)

    def all(self) -> list[Rule]:
        return sorted(self.rules.values(), key=lambda r: r.code)

    def with_prefix(self, prefix: str) -> list[Rule]:
        return [r for r in self.all() if r.code.startswith(prefix)]

    def is_selector(self, selector: str) -> bool:
        """ALL, a code, a name, or a prefix of at least one code."""
        if selector == "ALL" or self.get(selector) is not None:
            return True
        return bool(selector) and any(code.startswith(selector) for code in self.rules)

    def nearest(self, selector: str) -> str | None:
        import difflib  # only for an error message

        # Codes are upper case: `rg001` means RG001, though SC001 is as close by spelling.
        upper = selector.upper()
        if upper != selector and self.is_selector(upper):
            return upper
        words = [*self.rules, *self.by_name]
        prefixes = {code[:n] for code in self.rules for n in (2, 3)}
        found = difflib.get_close_matches(selector, [*words, *prefixes], n=1, cutoff=0.5)
        return found[0] if found else None

    def unknown(self, word: str, what: str = "rule", where: str = "") -> str:
        """The message for a word that names no rule: `unknown rule selector 'X' in ignore:
        did you mean 'Y'? (...)`, without the question when nothing is near."""
        near = self.nearest(word)
        hint = f": did you mean {near!r}?" if near else ""
        return f"unknown {what} {word!r}{where}{hint} (`evaltools rule` lists the rules)"


def _rules_of(*modules: ModuleType) -> tuple[Rule, ...]:
    # Every rule a family module defines, so a rule written there cannot be left out.
    return tuple(v for m in modules for v in vars(m).values() if isinstance(v, Rule))


RULES = Catalogue(_rules_of(io, document, diffs, rt, cv, rv, check, discipline, du, sc))


def rule(code: str) -> Rule:
    """The catalogue's rule `code` (a KeyError at import names a code that is not there)."""
    return RULES.rules[code]
