"""Definitions through tree-sitter: one query per grammar, names qualified by nesting.

Imported only when a source file is parsed. Each Parser and Query is built once per process.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

from tree_sitter import Language, Node, Parser, Query, QueryCursor

from evaltools.retrieval.code.grammars import GRAMMARS
from evaltools.retrieval.code.spans import Definition

# `@def` is the definition node, `@name` its name. `@scope` (with `@impl_type`) qualifies
# what is nested in it without being a definition itself: Rust `impl` blocks.
_FUNCTION_VALUES = "[(arrow_function) (function_expression) (generator_function) (class)]"
_JS = f"""
(function_declaration name: (_) @name) @def
(generator_function_declaration name: (_) @name) @def
(class_declaration name: (_) @name) @def
(class_body (method_definition name: (_) @name) @def)
(variable_declarator name: (identifier) @name value: {_FUNCTION_VALUES}) @def
"""
_QUERIES: dict[str, str] = {
    "python": """
(function_definition name: (identifier) @name) @def
(class_definition name: (identifier) @name) @def
""",
    "javascript": _JS
    + f"(field_definition property: (property_identifier) @name value: {_FUNCTION_VALUES}) @def",
    "typescript": _JS
    + f"""
(public_field_definition name: (property_identifier) @name value: {_FUNCTION_VALUES}) @def
(abstract_class_declaration name: (_) @name) @def
(interface_declaration name: (_) @name) @def
(type_alias_declaration name: (_) @name) @def
(enum_declaration name: (_) @name) @def
(internal_module name: (_) @name) @def
""",
    "go": """
(function_declaration name: (identifier) @name) @def
(method_declaration receiver: (parameter_list) @receiver name: (field_identifier) @name) @def
(type_spec name: (type_identifier) @name) @def
(type_alias name: (type_identifier) @name) @def
""",
    "rust": """
(function_item name: (identifier) @name) @def
(function_signature_item name: (identifier) @name) @def
(struct_item name: (type_identifier) @name) @def
(enum_item name: (type_identifier) @name) @def
(union_item name: (type_identifier) @name) @def
(trait_item name: (type_identifier) @name) @def
(type_item name: (type_identifier) @name) @def
(mod_item name: (identifier) @name) @def
(macro_definition name: (identifier) @name) @def
(impl_item type: (_) @impl_type) @scope
""",
    "java": """
(class_declaration name: (identifier) @name) @def
(interface_declaration name: (identifier) @name) @def
(enum_declaration name: (identifier) @name) @def
(record_declaration name: (identifier) @name) @def
(annotation_type_declaration name: (identifier) @name) @def
(method_declaration name: (identifier) @name) @def
(constructor_declaration name: (identifier) @name) @def
(compact_constructor_declaration name: (identifier) @name) @def
""",
}
_QUERIES["tsx"] = _QUERIES["typescript"]

_LOADED: dict[str, tuple[Parser, QueryCursor]] = {}
# (start_byte, end_byte, start line, end line, name, is a definition rather than a scope)
_Item = tuple[int, int, int, int, str, bool]


def _load(grammar: str) -> tuple[Parser, QueryCursor]:
    loaded = _LOADED.get(grammar)
    if loaded is None:
        module_name, func_name = GRAMMARS[grammar]
        pointer: Callable[[], Any] = getattr(importlib.import_module(module_name), func_name)
        language = Language(pointer())
        loaded = (Parser(language), QueryCursor(Query(language, _QUERIES[grammar])))
        _LOADED[grammar] = loaded
    return loaded


def definitions(grammar: str, source: bytes) -> list[Definition]:
    parser, cursor = _load(grammar)
    tree = parser.parse(source)
    rows = _python_rows if grammar == "python" else _rows
    items: list[_Item] = []
    for _, captures in cursor.matches(tree.root_node):
        if "scope" in captures:
            scope = captures["scope"][0]
            name = _base_type_name(captures["impl_type"][0])
            items.append((scope.start_byte, scope.end_byte, *_rows(scope), name, False))
            continue
        node = _span_node(captures["def"][0])
        name = _text(captures["name"][0])
        if "receiver" in captures:
            receiver = _receiver_type(captures["receiver"][0])
            name = f"{receiver}.{name}" if receiver else name
        items.append((node.start_byte, node.end_byte, *rows(node), name, True))
    return _qualify(items)


def _qualify(items: list[_Item]) -> list[Definition]:
    items.sort(key=lambda item: (item[0], -item[1]))
    found: list[Definition] = []
    stack: list[tuple[int, str]] = []  # (end_byte, qualified name) of the enclosing nodes
    for start_byte, end_byte, start_row, end_row, name, is_definition in items:
        while stack and stack[-1][0] <= start_byte:
            stack.pop()
        qualified = f"{stack[-1][1]}.{name}" if stack else name
        if is_definition:
            found.append(Definition(qualified, start_row, end_row))
        stack.append((end_byte, qualified))
    return found


def _rows(node: Node) -> tuple[int, int]:
    start = node.start_point.row + 1
    end_row, end_column = node.end_point.row, node.end_point.column
    # A node that swallows its final newline ends at column 0 of the next row.
    end = end_row if end_column == 0 and end_row + 1 > start else end_row + 1
    return start, end


# Python blocks end by indentation, and tree-sitter counts comments indented like the body
# as part of it; the span ends with the last line of code instead (as `ast` has it), so
# a comment after a method does not move its ID.
_NOT_CODE = frozenset({"comment"})


def _python_rows(node: Node) -> tuple[int, int]:
    """The first line (of the first decorator), and the last line of its last token that is
    code."""
    start = _lost_decorators_row(node, node.start_point.row) + 1
    last: Node = node
    while last.child_count:
        child: Node | None = last.child(last.child_count - 1)
        while child is not None and (child.type in _NOT_CODE or child.start_byte == child.end_byte):
            child = child.prev_sibling  # zero width: a token error recovery made up
        if child is None:
            break
        last = child
    end_row, end_column = last.end_point.row, last.end_point.column
    end = end_row if end_column == 0 and end_row + 1 > start else end_row + 1
    return start, max(start, end)


def _lost_decorators_row(node: Node, row: int) -> int:
    """The row of the first decorator of `node`, which starts at `row`, counting decorators
    tree-sitter-python left out of it.

    A comment at column 0 between an indented decorator and its `def` (Python ignores it)
    makes the grammar lose the decorator into an ERROR node before the definition, or, at
    the start of a class body, before the body's block.
    """
    current = node
    while True:
        sibling = current.prev_sibling
        if sibling is None:
            parent = current.parent
            if parent is None or parent.type != "block" or parent.start_byte != current.start_byte:
                return row
            current = parent
        elif sibling.type == "comment":
            current = sibling
        elif sibling.type == "decorator" or (
            sibling.type == "ERROR"
            and sibling.named_child_count
            and all(c.type in ("decorator", "comment") for c in sibling.named_children)
        ):
            row = sibling.start_point.row
            current = sibling
        else:
            return row


def _text(node: Node) -> str:
    return (node.text or b"").decode("utf-8", "replace")


_WRAPPERS = {
    "decorated_definition",
    "lexical_declaration",
    "variable_declaration",
    "type_declaration",
}
_DECLARATIONS = {"variable_declarator", "type_spec", "type_alias"}


def _span_node(node: Node) -> Node:
    """The node whose lines are the definition's span.

    Python decorators belong to the definition; `const f = () => {}` and Go's `type T ...`
    span their whole statement when it declares nothing else.
    """
    parent = node.parent
    if parent is None or parent.type not in _WRAPPERS:
        return node
    if parent.type == "decorated_definition":
        return parent
    declared = [c for c in parent.named_children if c.type in _DECLARATIONS]
    return parent if len(declared) == 1 else node


def _receiver_type(receiver: Node) -> str:
    """`func (s *Store[T]) Get()` -> `Store`: the pointer and type arguments are stripped."""
    for param in receiver.named_children:
        if param.type == "parameter_declaration":
            kind = param.child_by_field_name("type")
            return _base_type_name(kind) if kind is not None else ""
    return ""


def _base_type_name(node: Node) -> str:
    """`*Store[T]` -> `Store`; Rust `Vec<T>` -> `Vec`, `crate::a::B` -> `B`, `&T` -> `T`."""
    current: Node | None = node
    while current is not None:
        kind = current.type
        if kind in ("pointer_type", "reference_type", "parenthesized_type"):
            inner = current.child_by_field_name("type")
            current = inner if inner is not None else _last_named(current)
        elif kind == "generic_type":
            current = current.child_by_field_name("type")
        elif kind in ("qualified_type", "scoped_type_identifier"):
            current = current.child_by_field_name("name")
        else:
            return _text(current)
    return ""  # pragma: no cover - every type node above has the fields it is read by


def _last_named(node: Node) -> Node | None:
    children = node.named_children
    return children[-1] if children else None
