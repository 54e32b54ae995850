"""Every rule of evaltools as plain data: one registry, from which `evaltools rule`,
docs/rules.md, selector validation and SARIF rule metadata are all generated.

Each rule is a constant named after it in a `rules` module beside the checks that find it
(EP201 in example/lint/diffs/rules.py, beside cursor_checks.py); the file problems every
reader finds (IO) are in `catalogue/io.py`. `family_modules` lists them. A family is read the
first time one of its codes is asked for, so a lint run reads no gold rule and the hook's
start-up stays light.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from types import ModuleType

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
    """Rules by code and by name; `families` maps a family's code to what reads its rules,
    called once, the first time a code of that family (or a name) is asked for."""

    def __init__(
        self,
        rules: Iterable[Rule] = (),
        families: Mapping[str, Callable[[], Iterable[Rule]]] | None = None,
    ) -> None:
        self._by_code: dict[str, Rule] = {}
        self._by_name: dict[str, Rule] = {}
        self._unread = dict(families or {})
        self._families = set(self._unread)
        self._add(rules)

    def _add(self, rules: Iterable[Rule]) -> None:
        for rule in rules:
            if rule.code in self._by_code:
                raise ValueError("duplicate rule code in the catalogue")
            # A name selects one rule: a shared one would make `ignore` cover a rule the user
            # never named and `evaltools rule NAME` explain only one of them.
            if rule.name in self._by_name:
                raise ValueError("duplicate rule name in the catalogue")
            self._by_code[rule.code] = rule
            self._by_name[rule.name] = rule

    def _read(self, prefix: str) -> None:
        """Reads the families whose codes may start with `prefix` ("" reads them all)."""
        for family in [f for f in self._unread if f.startswith(prefix[:2])]:
            self._add(self._unread.pop(family)())

    @property
    def rules(self) -> dict[str, Rule]:
        self._read("")
        return self._by_code

    @property
    def by_name(self) -> dict[str, Rule]:
        self._read("")
        return self._by_name

    def get(self, code_or_name: str) -> Rule | None:
        family = code_or_name[:2]
        # A code is in its family; a name may be in any.
        self._read(family if family in self._families else "")
        return self._by_code.get(code_or_name) or self._by_name.get(code_or_name)

    def all(self) -> list[Rule]:
        return sorted(self.rules.values(), key=_code)

    def with_prefix(self, prefix: str) -> list[Rule]:
        self._read(prefix)
        return sorted((r for r in self._by_code.values() if r.code.startswith(prefix)), key=_code)

    def is_selector(self, selector: str) -> bool:
        """ALL, a code, a name, or a prefix of at least one code."""
        if selector == "ALL" or self.get(selector) is not None:
            return True
        if not selector:
            return False
        self._read(selector)
        return any(code.startswith(selector) for code in self._by_code)

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


def _code(rule: Rule) -> str:
    return rule.code


def family_modules(family: str) -> tuple[ModuleType, ...]:
    """The modules that define the rules of `family`, each beside the checks that find them."""
    # Imported here, not at the top: a family is read only when asked for.
    if family == "IO":
        from evaltools.catalogue import io

        return (io,)
    if family == "EP":
        import evaltools.example.lint.diffs.rules as diffs
        import evaltools.example.lint.document.rules as document

        return (document, diffs)
    if family == "RT":
        import evaltools.example.markdown.rules as roundtrip

        return (roundtrip,)
    if family == "CV":
        import evaltools.example.convert.rules as convert

        return (convert,)
    if family == "RV":
        import evaltools.retrieval.records.validation.rules as validation

        return (validation,)
    if family == "RG":
        import evaltools.check.rules as check
        import evaltools.retrieval.gold.discipline.rules as discipline
        import evaltools.retrieval.gold.rules as gold
        import evaltools.retrieval.records.rules as records
        import evaltools.retrieval.scoring.rules as scoring

        return (gold, records, discipline, scoring, check)
    if family == "DU":
        import evaltools.dupes.rules as dupes

        return (dupes,)
    if family == "SC":
        import evaltools.score.rules as score

        return (score,)
    raise KeyError(family)


def _rules_of(family: str) -> Callable[[], tuple[Rule, ...]]:
    # Every rule a family's modules define, so a rule written there cannot be left out; a
    # module may hold the family's rules only.
    def read() -> tuple[Rule, ...]:
        modules = family_modules(family)
        found = tuple(v for m in modules for v in vars(m).values() if isinstance(v, Rule))
        strays = [r.code for r in found if r.family != family]
        if strays:
            raise ValueError(f"rules of another family among the {family} rules: {strays}")
        return found

    return read


RULES = Catalogue(families={family: _rules_of(family) for family in FAMILIES})


def rule(code: str) -> Rule:
    """The catalogue's rule `code` (a KeyError at import names a code that is not there)."""
    found = RULES.get(code)
    if found is None or found.code != code:
        raise KeyError(code)
    return found
