"""The layering docs/architecture.md describes, read from the source (every import, lazy ones
included): each module imports only its own layer or lower ones, commands do not import each
other, the two domains stay apart and know nothing of the command line, and no chain of
imports comes back to where it started."""

from __future__ import annotations

import ast
import itertools
from collections.abc import Iterator, Sequence
from pathlib import Path

import pytest

import evaltools

PACKAGE = Path(evaltools.__file__).parent


def module_name(path: Path, package: Path = PACKAGE) -> str:
    parts = path.relative_to(package.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imported(path: Path, modules: set[str], package: Path = PACKAGE) -> Iterator[str]:
    """The package's modules `path` imports, at the top or inside a function (a name
    imported from a package counts as its submodule when there is one)."""
    tree = ast.parse(path.read_text("utf-8"))
    here = module_name(path, package)
    # A package's own name is where its relative imports start; a module's is its parent's.
    anchor = here.split(".") if path.name == "__init__.py" else here.split(".")[:-1]
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                start = anchor[: len(anchor) - node.level + 1]
                base = ".".join([*start, *([base] if base else [])])
            subs = [f"{base}.{alias.name}" for alias in node.names]
            names = [base] + [s for s in subs if s in modules]
        else:
            continue
        yield from (n for n in names if n in modules and n != here)


def import_graph(package: Path = PACKAGE) -> dict[str, set[str]]:
    files = {module_name(p, package): p for p in package.rglob("*.py")}
    modules = set(files)
    return {name: set(imported(path, modules, package)) for name, path in files.items()}


GRAPH = import_graph()


def test_the_graph_is_read() -> None:
    assert "evaltools.example.markdown.reader" in GRAPH["evaltools.example.lint.linter"]
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


# The layers, top first; a module imports only from its own layer or one below it. Each entry
# is a module or a package (with everything in it); the most specific entry names a module's
# place, and `evaltools` itself (the package's __init__) is only the package's own module.
# docs/architecture.md gives the reason for each layer: keep the two in step.
LAYERS: list[set[str]] = [
    {"evaltools.__main__", "evaltools.cli"},
    {"evaltools.commands"},
    {"evaltools.server"},
    {"evaltools.report"},
    {"evaltools.check", "evaltools.score"},
    {"evaltools.example", "evaltools.retrieval"},
    {"evaltools.dupes"},
    {"evaltools.config"},
    {"evaltools.gate", "evaltools.selection"},
    {
        "evaltools.atomic",
        "evaltools.fileio",
        "evaltools.discover",
        "evaltools.jsonio",
        "evaltools.parallel",
        "evaltools.tomllocate",
    },
    {
        "evaltools.catalogue",
        "evaltools.check.rules",
        "evaltools.dupes.rules",
        "evaltools.example.convert.rules",
        "evaltools.example.lint.diffs.rules",
        "evaltools.example.lint.document.rules",
        "evaltools.example.markdown.rules",
        "evaltools.retrieval.gold.discipline.rules",
        "evaltools.retrieval.gold.rules",
        "evaltools.retrieval.records.rules",
        "evaltools.retrieval.records.validation.rules",
        "evaltools.retrieval.scoring.rules",
        "evaltools.score.rules",
    },
    {
        "evaltools",
        "evaltools.blake2",
        "evaltools.diagnostics",
        "evaltools.gcpause",
        "evaltools.jsonlocate",
        "evaltools.positions",
        "evaltools.rerun",
        "evaltools.tomlio",
    },
]

# Inside retrieval/, the same rule between its sub-packages, top first.
RETRIEVAL_LAYERS: list[set[str]] = [
    {"evaltools.retrieval.scoring"},
    {"evaltools.retrieval.gold"},
    {"evaltools.retrieval.sources"},
    {"evaltools.retrieval.records"},
    {"evaltools.retrieval.code"},
    {
        "evaltools.retrieval.gold.discipline.rules",
        "evaltools.retrieval.gold.rules",
        "evaltools.retrieval.records.rules",
        "evaltools.retrieval.records.validation.rules",
        "evaltools.retrieval.scoring.rules",
    },
]


def place(module: str, layers: Sequence[set[str]]) -> int | None:
    """The index of the layer whose most specific entry holds `module` (0 is the top), None
    when no entry does. A package's name as an entry holds its submodules, except the root
    package's: there, only the root's own module."""
    best: tuple[int, int] | None = None  # (length of the entry, layer)
    for index, layer in enumerate(layers):
        for entry in layer:
            holds = module == entry or ("." in entry and module.startswith(entry + "."))
            if holds and (best is None or len(entry) > best[0]):
                best = (len(entry), index)
    return None if best is None else best[1]


def upward(graph: dict[str, set[str]], layers: Sequence[set[str]]) -> set[tuple[str, str]]:
    """Every import from a module to a module of a higher layer; modules the layers do not
    place are not judged here."""
    found = set()
    for name, deps in graph.items():
        here = place(name, layers)
        if here is None:
            continue
        for dep in deps:
            there = place(dep, layers)
            if there is not None and there < here:
                found.add((name, dep))
    return found


def test_every_module_has_a_layer() -> None:
    assert sorted(name for name in GRAPH if place(name, LAYERS) is None) == []
    inside = [name for name in GRAPH if name.startswith("evaltools.retrieval.")]
    assert sorted(name for name in inside if place(name, RETRIEVAL_LAYERS) is None) == []


def test_imports_point_down_the_layers() -> None:
    assert sorted(upward(GRAPH, LAYERS)) == []


def test_imports_inside_retrieval_point_down_its_layers() -> None:
    assert sorted(upward(GRAPH, RETRIEVAL_LAYERS)) == []


def test_report_only_formats() -> None:
    """A reporter writes no file, runs no git or other process and reads no eval set or file
    system (the project's root, a path's real place): those are the services' and the
    commands', which hand it their results."""
    banned = (
        "evaltools.atomic",
        "evaltools.config",
        "evaltools.fileio",
        "evaltools.parallel",
        "evaltools.retrieval.records",
        "evaltools.retrieval.sources",
    )
    found = {
        (name, dep)
        for name, deps in GRAPH.items()
        if name.startswith("evaltools.report")
        for dep in deps
        if dep.startswith(banned)
    }
    for path in (PACKAGE / "report").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else []
            if isinstance(node, ast.ImportFrom) and not node.level:
                names = [node.module or ""]
            found |= {(module_name(path), n) for n in names if n.split(".")[0] == "subprocess"}
    assert sorted(found) == []


def documented_layers(heading: str) -> list[set[str]]:
    """The numbered list that follows `heading` in docs/architecture.md, each item's names
    (the backquoted ones before its dash) as modules: `cli/` is `evaltools.cli`."""
    document = (PACKAGE.parent / "docs" / "architecture.md").read_text("utf-8")
    lines = document[document.index(heading) :].splitlines()[1:]
    items = itertools.takewhile(lambda line: not line or line[:1].isdigit(), lines)
    return [
        {as_module(name) for name in line.split(" — ", 1)[0].split("`")[1::2]}
        for line in items
        if line
    ]


def as_module(name: str) -> str:
    stem = name.removesuffix("/").removesuffix(".py").replace("/", ".")
    return stem if stem == "evaltools" else f"evaltools.{stem}"


def test_the_layers_are_the_documented_ones() -> None:
    assert documented_layers("## Layers") == LAYERS
    assert documented_layers("Inside `retrieval/`, the same rule") == RETRIEVAL_LAYERS


FAKE = {
    "pkg/__init__.py": "",
    "pkg/top.py": "from pkg import low\n",
    "pkg/mid/__init__.py": "",
    "pkg/mid/a.py": "from . import b\nfrom pkg.low import helper\n",
    "pkg/mid/b.py": "import pkg.low\n",
    "pkg/low.py": "def helper() -> None:\n    {}\n",
}
FAKE_LAYERS = [{"pkg.top"}, {"pkg.mid"}, {"pkg", "pkg.low"}]


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        ("", set()),
        ("    import pkg.top\n", {("pkg.low", "pkg.top")}),  # lazy, inside a function
        (
            "    from pkg.mid import a\n",
            {("pkg.low", "pkg.mid"), ("pkg.low", "pkg.mid.a")},
        ),  # a module of a package
        ("    from pkg.mid.b import x\n", {("pkg.low", "pkg.mid.b")}),  # a name in a module
        (
            "    from .mid import b\n",
            {("pkg.low", "pkg.mid"), ("pkg.low", "pkg.mid.b")},
        ),  # relative
        ("    from . import top\n", {("pkg.low", "pkg.top")}),
        ("    import pkg\n", set()),  # the root's own module sits at the bottom
    ],
)
def test_an_upward_import_in_a_tree_is_found(
    tmp_path: Path, body: str, expected: set[tuple[str, str]]
) -> None:
    for name, text in FAKE.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text.format(body or "    pass\n"), "utf-8")
    graph = import_graph(tmp_path / "pkg")
    assert graph["pkg.mid.a"] == {"pkg.mid", "pkg.mid.b", "pkg.low"}
    assert upward(graph, FAKE_LAYERS) == expected


def test_the_most_specific_entry_places_a_module() -> None:
    layers = [{"pkg.a.top"}, {"pkg.a"}, {"pkg"}]
    assert [place(m, layers) for m in ("pkg.a.top", "pkg.a.top.x", "pkg.a.b", "pkg", "pkg.b")] == [
        0,
        0,
        1,
        2,
        None,
    ]
