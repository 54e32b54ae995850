"""Definitions in a source file: dotted qualified names and 1-based inclusive spans.

Python is parsed with `ast` (decorators belong to the span); every other language with
tree-sitter grammar wheels, imported only when a file of that language is first parsed.
"""

from __future__ import annotations

import ast
import sys
from typing import Any, NamedTuple

PYTHON_SUFFIXES = (".py", ".pyi")
# Extension -> tree-sitter grammar key (see evaltools.retrieval.ts_symbols.GRAMMARS).
TREE_SITTER_SUFFIXES = {
    ".js": "javascript",
    ".jsx": "javascript",
    ".mjs": "javascript",
    ".cjs": "javascript",
    ".ts": "typescript",
    ".mts": "typescript",
    ".cts": "typescript",
    ".tsx": "tsx",
    ".go": "go",
    ".rs": "rust",
    ".java": "java",
}
SUPPORTED_SUFFIXES = (*PYTHON_SUFFIXES, *TREE_SITTER_SUFFIXES)


class Definition(NamedTuple):
    """One definition: `Outer.Inner.fn`, lines `start`..`end` (1-based, inclusive)."""

    name: str
    start: int
    end: int

    @property
    def leaf(self) -> str:
        return self.name.rpartition(".")[2]


class UnsupportedLanguage(ValueError):
    pass


def suffix_of(path: str) -> str:
    name = path.rpartition("/")[2]
    dot = name.rfind(".")
    return name[dot:].lower() if dot > 0 else ""


def is_supported(path: str) -> bool:
    return suffix_of(path) in SUPPORTED_SUFFIXES


def find_definitions(path: str, source: bytes) -> list[Definition]:
    """Every definition in `source`, in document order; the language comes from `path`.

    Raises UnsupportedLanguage for an extension no grammar covers.
    """
    suffix = suffix_of(path)
    if suffix in PYTHON_SUFFIXES:
        return python_definitions(source)
    grammar = TREE_SITTER_SUFFIXES.get(suffix)
    if grammar is None:
        supported = " ".join(SUPPORTED_SUFFIXES)
        raise UnsupportedLanguage(
            f"no parser for {suffix or 'extension-less'} files (supported: {supported})"
        )
    from evaltools.retrieval import ts_symbols

    return ts_symbols.definitions(grammar, source)


_DEFINITIONS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
# Statements whose bodies can hold definitions of the enclosing scope, and those bodies'
# fields. Looked up by exact type: every statement of every function passes here.
_BODIES: dict[type, tuple[str, ...]] = {
    ast.If: ("body", "orelse"),
    ast.For: ("body", "orelse"),
    ast.AsyncFor: ("body", "orelse"),
    ast.While: ("body", "orelse"),
    ast.With: ("body",),
    ast.AsyncWith: ("body",),
    ast.Try: ("body", "handlers", "orelse", "finalbody"),
    ast.ExceptHandler: ("body",),
    ast.Match: ("cases",),
    ast.match_case: ("body",),
}
if sys.version_info >= (3, 11):
    _BODIES[ast.TryStar] = ("body", "handlers", "orelse", "finalbody")


def python_definitions(source: bytes) -> list[Definition]:
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError, RecursionError):
        # Code the running interpreter cannot compile (newer or older syntax, a stray
        # NUL, nesting too deep for its parser) still has definitions: tree-sitter
        # recovers from errors, ast does not.
        from evaltools.retrieval import ts_symbols

        return ts_symbols.definitions("python", source)
    found: list[Definition] = []
    _walk_python(tree.body, "", found)
    found.sort(key=lambda d: (d.start, -d.end))
    return found


def _walk_python(body: list[Any], prefix: str, found: list[Definition]) -> None:
    for node in body:
        if isinstance(node, _DEFINITIONS):
            name = prefix + node.name
            start = node.lineno
            for decorator in node.decorator_list:
                start = min(start, decorator.lineno)
            found.append(Definition(name, start, node.end_lineno or node.lineno))
            _walk_python(node.body, name + ".", found)
            continue
        # Definitions under `if`/`try`/`with`/loops/`match` keep the enclosing scope.
        for field in _BODIES.get(type(node), ()):
            _walk_python(getattr(node, field), prefix, found)
