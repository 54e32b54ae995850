"""The layering docs/architecture.md describes, read from the source (every import, lazy ones
included): commands do not import each other, the two domains stay apart and know nothing of
the command line, and no chain of imports comes back to where it started."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import evaltools

PACKAGE = Path(evaltools.__file__).parent


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imported(path: Path, modules: set[str]) -> Iterator[str]:
    """The evaltools modules `path` imports (a name imported from a package counts as its
    submodule when there is one)."""
    tree = ast.parse(path.read_text("utf-8"))
    here = module_name(path)
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module is not None:
            base = node.module
            if node.level:
                base = ".".join([*here.split(".")[: -node.level], node.module])
            subs = [f"{base}.{alias.name}" for alias in node.names]
            names = [base] + [s for s in subs if s in modules]
        else:
            continue
        yield from (n for n in names if n in modules and n != here)


def import_graph() -> dict[str, set[str]]:
    files = {module_name(p): p for p in PACKAGE.rglob("*.py")}
    modules = set(files)
    return {name: set(imported(path, modules)) for name, path in files.items()}


GRAPH = import_graph()


def test_the_graph_is_read() -> None:
    assert "evaltools.example.markdown.reader" in GRAPH["evaltools.example.lint"]
    assert "evaltools.check.compose" in GRAPH["evaltools.commands.check"]


def test_no_command_imports_another_command() -> None:
    found = {
        (name, dep)
        for name, deps in GRAPH.items()
        if name.startswith("evaltools.commands.")
        for dep in deps
        if dep.startswith("evaltools.commands.")
    }
    assert found == set()


# Progress lines and output formats are the commands' to choose: services take callbacks.
COMMAND_LINE = ("evaltools.commands", "evaltools.cli", "evaltools.report")


def test_domains_know_neither_each_other_nor_the_command_line() -> None:
    outside = {
        "evaltools.example": ("evaltools.retrieval", *COMMAND_LINE),
        "evaltools.retrieval": ("evaltools.example", *COMMAND_LINE),
        "evaltools.check": COMMAND_LINE,
        "evaltools.dupes": COMMAND_LINE,
    }
    found = {
        (name, dep)
        for name, deps in GRAPH.items()
        for domain, banned in outside.items()
        if name.startswith(domain + ".") or name == domain
        for dep in deps
        if dep.startswith(banned)
    }
    assert found == set()


def test_nothing_below_the_commands_imports_them() -> None:
    found = {
        (name, dep)
        for name, deps in GRAPH.items()
        if not name.startswith(("evaltools.commands", "evaltools.cli", "evaltools.__main__"))
        for dep in deps
        if dep.startswith(("evaltools.commands", "evaltools.cli"))
    }
    assert found == set()


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """One cycle per strongly connected component of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for dep in sorted(graph.get(node, ())):
            if dep not in index:
                visit(dep)
                low[node] = min(low[node], low[dep])
            elif dep in on_stack:
                low[node] = min(low[node], index[dep])
        if low[node] == index[node]:
            component = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                component.append(top)
                if top == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def test_cycles_are_found_when_there_are_some() -> None:
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


def test_no_import_cycle() -> None:
    # Package __init__ modules re-exporting their own submodules are not a cycle of concerns.
    graph = {
        name: {d for d in deps if not name.startswith(d + ".") and not d.startswith(name + ".")}
        for name, deps in GRAPH.items()
    }
    assert cycles(graph) == []


def test_one_location_type() -> None:
    """Only `Diagnostic` says where in which file something is: a class with a path and a
    line beside it would be a second location type for reporters to join by hand."""
    located = []
    for path in PACKAGE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if not isinstance(node, ast.ClassDef):
                continue
            fields = {
                item.target.id
                for item in node.body
                if isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name)
            }
            if {"path", "line", "column"} <= fields or {"path", "line", "message"} <= fields:
                located.append(f"{module_name(path)}.{node.name}")
    assert located == ["evaltools.diagnostics.Diagnostic"]
