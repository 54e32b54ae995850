"""One registry, one name per rule: each rule is a constant of its family's module in the
catalogue, named after the rule, and names the module that finds it; no module renames it."""

from __future__ import annotations

import ast
import importlib
import importlib.util
import pkgutil
import re
from pathlib import Path

import evaltools
import evaltools.catalogue
from evaltools.catalogue import RULES
from evaltools.diagnostics import Rule

PACKAGE = Path(evaltools.__file__).parent


def _defined() -> dict[str, tuple[str, str]]:
    """code -> (module, constant) for every rule a catalogue module defines."""
    found: dict[str, tuple[str, str]] = {}
    prefix = "evaltools.catalogue."
    for info in pkgutil.walk_packages(evaltools.catalogue.__path__, prefix):
        module = importlib.import_module(info.name)
        for name, value in vars(module).items():
            if isinstance(value, Rule) and value.code not in found:
                found[value.code] = (info.name, name)
    return found


def test_each_rule_is_a_constant_named_after_it_in_its_familys_module() -> None:
    defined = _defined()
    for rule in RULES.all():
        module, name = defined[rule.code]
        assert name == rule.name.upper().replace("-", "_"), rule.code
        family = module.removeprefix("evaltools.catalogue.").split(".")[0]
        assert family == rule.family.lower(), (rule.code, module)


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
