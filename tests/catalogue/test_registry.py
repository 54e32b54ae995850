"""One registry, one name per rule: each rule is a constant of its family's module, named
after the rule, beside the module that finds it; no module renames it."""

from __future__ import annotations

import ast
import functools
import importlib.util
import re
import sys
from pathlib import Path

import pytest

import evaltools
from evaltools.catalogue import FAMILIES, RULES, Catalogue, family_modules
from evaltools.diagnostics import Rule

PACKAGE = Path(evaltools.__file__).parent
# Found by every reader (IO) or in both domains (DU): one module each, below all of them.
CROSS_CUTTING = {"IO": "evaltools.catalogue.io", "DU": "evaltools.dupes.rules"}


def _defined() -> dict[str, tuple[str, str, str]]:
    """code -> (family, module, constant) for every rule a family's module defines."""
    found: dict[str, tuple[str, str, str]] = {}
    for family in FAMILIES:
        for module in family_modules(family):
            for name, value in vars(module).items():
                if isinstance(value, Rule) and value.code not in found:
                    found[value.code] = (family, module.__name__, name)
    return found


def test_each_rule_is_a_constant_named_after_it_in_its_familys_module() -> None:
    defined = _defined()
    assert sorted(defined) == [rule.code for rule in RULES.all()]
    for rule in RULES.all():
        family, _, name = defined[rule.code]
        assert name == rule.name.upper().replace("-", "_"), rule.code
        assert family == rule.family, rule.code


def test_each_rule_is_documented_beside_its_check() -> None:
    """In the package of the module that finds it, or the package above (the lint's own
    rules beside `lint/diffs/` and `lint/document/`)."""
    for code, (family, module, _) in _defined().items():
        check = RULES.rules[code].check
        if family in CROSS_CUTTING:
            assert module == CROSS_CUTTING[family], code
            continue
        assert module.endswith(".rules"), code
        package = module.removesuffix(".rules")
        beside = (package, package.rpartition(".")[0])
        assert any(check.startswith(f"{p}.") for p in beside), (code, module, check)


def test_the_packages_above_a_rules_module_import_nothing() -> None:
    """The architecture places the rules modules below every layer: importing one runs its
    packages' `__init__`, which must not bring their layers along."""
    for family in FAMILIES:
        for module in family_modules(family):
            if module.__name__.startswith("evaltools.catalogue."):
                continue  # the registry's own package
            parts = module.__name__.split(".")
            for depth in range(2, len(parts)):
                init = PACKAGE.joinpath(*parts[1:depth], "__init__.py")
                tree = ast.parse(init.read_text("utf-8"))
                imports = [n for n in ast.walk(tree) if isinstance(n, ast.Import | ast.ImportFrom)]
                assert imports == [], init


def test_a_lint_run_reads_only_the_families_it_asks_for() -> None:
    asked: list[str] = []

    def read(family: str) -> tuple[Rule, ...]:
        asked.append(family)
        return tuple(r for r in RULES.all() if r.family == family)

    catalogue = Catalogue(families={f: functools.partial(read, f) for f in FAMILIES})
    assert catalogue.get("EP201") is not None and catalogue.is_selector("EP2")
    assert asked == ["EP"]
    assert catalogue.is_selector("missing-cursor-marker")  # a name: any family may hold it
    assert sorted(asked) == sorted(FAMILIES)


def test_a_family_module_holds_its_familys_rules_only(monkeypatch: pytest.MonkeyPatch) -> None:
    from evaltools import catalogue

    stray = next(r for r in RULES.all() if r.family == "RG")
    module = sys.modules["evaltools.dupes.rules"]
    monkeypatch.setattr(module, "STRAY", stray, raising=False)
    with pytest.raises(ValueError, match="another family"):
        catalogue._rules_of("DU")()


def test_each_rule_names_the_module_that_reports_it() -> None:
    for rule in RULES.all():
        spec = importlib.util.find_spec(rule.check) if rule.check else None
        assert spec is not None and spec.origin is not None, (rule.code, rule.check)
        assert not rule.check.startswith("evaltools.catalogue"), rule.code
        source = Path(spec.origin).read_text("utf-8")
        constant = rule.name.upper().replace("-", "_")
        assert re.search(rf"\b{constant}\b|\"{rule.code}\"", source), (rule.code, rule.check)


def test_no_module_gives_a_rule_a_second_name() -> None:
    """`X = rule("CODE")` outside the catalogue: a check imports the constant instead."""
    aliases = []
    for path in PACKAGE.rglob("*.py"):
        if path.is_relative_to(PACKAGE / "catalogue"):
            continue
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if (
                isinstance(node, ast.Assign)
                and isinstance(node.value, ast.Call)
                and isinstance(node.value.func, ast.Name)
                and node.value.func.id == "rule"
                and all(isinstance(a, ast.Constant) for a in node.value.args)
            ):
                aliases.append(f"{path.relative_to(PACKAGE)}:{node.lineno}")
    assert aliases == []
